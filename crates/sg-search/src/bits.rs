//! Bit sets of 64 or 128 bits, for games whose positions are sets of
//! cells or vertices: the operations the built-in games need, for `u64`
//! and `u128` alike, so that a game is written once and runs on the
//! smaller type when its board fits.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr};

/// `u64` or `u128`.
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
    /// As a `u128`.
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
