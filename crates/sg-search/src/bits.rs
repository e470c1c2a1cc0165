//! Bit sets of 64, 128 or 256 bits, for games whose positions are sets of
//! cells or vertices: the operations the built-in games need, for `u64`,
//! `u128` and [`U256`] alike, so that a game is written once and runs on
//! the smallest type its board fits.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr};

pub use ethnum::U256;

/// `u64`, `u128` or [`U256`].
pub trait Bits:
    Copy
    + Default
    + Eq
    + Ord
    + Hash
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitAndAssign
    + BitOr<Output = Self>
    + BitOrAssign
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// Bits in the set type.
    const BITS: u32;
    /// The empty set.
    const ZERO: Self;
    /// `{0}`.
    const ONE: Self;
    /// Every bit.
    const ALL: Self;

    /// The number of members.
    fn count_ones(self) -> u32;
    /// The least member (`BITS` for the empty set).
    fn trailing_zeros(self) -> u32;
    /// `BITS - 1 -` the greatest member (`BITS` for the empty set).
    fn leading_zeros(self) -> u32;
    /// Bit `i` moved to `BITS - 1 - i`.
    fn reverse_bits(self) -> Self;
    /// Byte `i` moved to `BITS / 8 - 1 - i`.
    fn swap_bytes(self) -> Self;
    /// The set without its least member.
    fn without_lowest(self) -> Self;
    /// The least member alone.
    fn lowest(self) -> Self;
    /// The low 128 bits, as a `u128`.
    fn to_u128(self) -> u128;
    /// From the low bits of a `u128`.
    fn from_u128(bits: u128) -> Self;
    /// The low 64 bits.
    fn low_u64(self) -> u64;

    /// Whether bit `i` is set.
    fn has(self, i: u32) -> bool {
        (self >> i) & Self::ONE == Self::ONE
    }
}

macro_rules! bits {
    ($t:ty) => {
        impl Bits for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const ALL: Self = <$t>::MAX;

            #[inline]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline]
            fn leading_zeros(self) -> u32 {
                <$t>::leading_zeros(self)
            }
            #[inline]
            fn reverse_bits(self) -> Self {
                <$t>::reverse_bits(self)
            }
            #[inline]
            fn swap_bytes(self) -> Self {
                <$t>::swap_bytes(self)
            }
            #[inline]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline]
            fn lowest(self) -> Self {
                self & self.wrapping_neg()
            }
            #[inline]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline]
            fn from_u128(bits: u128) -> Self {
                bits as $t
            }
            #[inline]
            fn low_u64(self) -> u64 {
                self as u64
            }
        }
    };
}

bits!(u64);
bits!(u128);

impl Bits for U256 {
    const BITS: u32 = 256;
    const ZERO: Self = U256::ZERO;
    const ONE: Self = U256::ONE;
    const ALL: Self = U256::MAX;

    #[inline]
    fn count_ones(self) -> u32 {
        U256::count_ones(self)
    }
    #[inline]
    fn trailing_zeros(self) -> u32 {
        U256::trailing_zeros(self)
    }
    #[inline]
    fn leading_zeros(self) -> u32 {
        U256::leading_zeros(self)
    }
    #[inline]
    fn reverse_bits(self) -> Self {
        U256::reverse_bits(self)
    }
    #[inline]
    fn swap_bytes(self) -> Self {
        U256::swap_bytes(self)
    }
    #[inline]
    fn without_lowest(self) -> Self {
        self & self.wrapping_sub(U256::ONE)
    }
    #[inline]
    fn lowest(self) -> Self {
        self & self.wrapping_neg()
    }
    #[inline]
    fn to_u128(self) -> u128 {
        *self.low()
    }
    #[inline]
    fn from_u128(bits: u128) -> Self {
        U256::from(bits)
    }
    #[inline]
    fn low_u64(self) -> u64 {
        *self.low() as u64
    }
}

/// The bytes of a set, least significant first, without the zero bytes
/// at its top (the empty set has none): how certificates store positions.
pub fn to_le_bytes<B: Bits>(set: B) -> Vec<u8> {
    let len = (B::BITS - set.leading_zeros()).div_ceil(8);
    (0..len)
        .map(|k| ((set >> (8 * k)).low_u64() & 0xff) as u8)
        .collect()
}

/// The set of [`to_le_bytes`]: `None` when the bytes end in a zero byte
/// or hold more bits than `B`.
pub fn from_le_bytes<B: Bits>(bytes: &[u8]) -> Option<B> {
    if bytes.last() == Some(&0) || bytes.len() as u32 * 8 > B::BITS {
        return None;
    }
    Some(bytes.iter().enumerate().fold(B::ZERO, |set, (k, &byte)| {
        set | B::from_u128(u128::from(byte)) << (8 * k as u32)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A `U256` from four words, least significant first.
    fn wide(words: [u64; 4]) -> U256 {
        words.iter().enumerate().fold(U256::ZERO, |x, (k, &w)| {
            x | U256::from(w) << (64 * k as u32)
        })
    }

    proptest! {
        /// Every operation of the trait on `U256` agrees with the same on
        /// two `u128` halves.
        #[test]
        fn u256_agrees_with_two_halves(words in proptest::array::uniform4(any::<u64>()), i in 0u32..256) {
            let x = wide(words);
            let low = u128::from(words[0]) | u128::from(words[1]) << 64;
            let high = u128::from(words[2]) | u128::from(words[3]) << 64;
            prop_assert_eq!(Bits::count_ones(x), low.count_ones() + high.count_ones());
            let tz = if low != 0 { low.trailing_zeros() } else { 128 + high.trailing_zeros() };
            prop_assert_eq!(Bits::trailing_zeros(x), tz);
            let lz = if high != 0 { high.leading_zeros() } else { 128 + low.leading_zeros() };
            prop_assert_eq!(Bits::leading_zeros(x), lz);
            prop_assert_eq!(x.to_u128(), low);
            prop_assert_eq!(x.low_u64(), words[0]);
            prop_assert_eq!(Bits::has(x, i), if i < 128 { low >> i & 1 == 1 } else { high >> (i - 128) & 1 == 1 });
            let reversed = Bits::reverse_bits(x);
            prop_assert_eq!(reversed.to_u128(), high.reverse_bits());
            prop_assert_eq!(Bits::swap_bytes(x).to_u128(), high.swap_bytes());
            if x != U256::ZERO {
                prop_assert_eq!(Bits::trailing_zeros(x.lowest()), tz);
                prop_assert_eq!(Bits::count_ones(x.lowest()), 1);
                prop_assert_eq!(x.without_lowest() | x.lowest(), x);
            }
            prop_assert_eq!(from_le_bytes::<U256>(&to_le_bytes(x)), Some(x));
            prop_assert_eq!(from_le_bytes::<u128>(&to_le_bytes(low)), Some(low));
        }
    }

    #[test]
    fn bytes_are_minimal() {
        assert_eq!(to_le_bytes(0u64), Vec::<u8>::new());
        assert_eq!(to_le_bytes(0x1_0203u64), vec![3, 2, 1]);
        assert_eq!(from_le_bytes::<u64>(&[3, 2, 1, 0]), None);
        assert_eq!(from_le_bytes::<u64>(&[1; 9]), None);
        assert_eq!(from_le_bytes::<u64>(&[]), Some(0));
    }
}
