//! Classifies 64 input bytes at a time: which are digits and which are
//! separators, one bit per byte (bit `i` for byte `i`). With SSE2 (part of
//! every x86-64) that is four 16-byte compares per class; elsewhere a plain
//! loop gives the same masks.

/// The digit mask and the separator mask of `block`.
#[inline(always)]
pub(super) fn classify(block: &[u8; 64]) -> (u64, u64) {
    #[cfg(target_arch = "x86_64")]
    {
        classify_sse2(block)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        classify_portable(block)
    }
}

/// The definition: the masks byte by byte.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn classify_portable(block: &[u8; 64]) -> (u64, u64) {
    let (mut digits, mut spaces) = (0u64, 0u64);
    for (i, &b) in block.iter().enumerate() {
        digits |= u64::from(b.is_ascii_digit()) << i;
        spaces |= u64::from(super::is_space(b)) << i;
    }
    (digits, spaces)
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn classify_sse2(block: &[u8; 64]) -> (u64, u64) {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8, _mm_sub_epi8,
    };
    let (mut digits, mut spaces) = (0u64, 0u64);
    for (i, part) in block.chunks_exact(16).enumerate() {
        // SAFETY: SSE2 is part of x86-64, so these intrinsics are always
        // available; `part` is 16 readable bytes and the load has no
        // alignment requirement.
        unsafe {
            let x = _mm_loadu_si128(part.as_ptr().cast());
            // Unsigned `b - c < n` as a signed compare: subtract `c + 128`,
            // which maps `c..c + n` to `-128..-128 + n`.
            let below = |c: u8, n: u8| {
                let shifted = _mm_sub_epi8(x, _mm_set1_epi8((c as i8).wrapping_add(i8::MIN)));
                _mm_cmplt_epi8(shifted, _mm_set1_epi8(i8::MIN.wrapping_add(n as i8)))
            };
            let digit = below(b'0', 10);
            // `\t`, `\n`, vertical tab, form feed and `\r` are 9..=13.
            let space = _mm_or_si128(
                below(b'\t', 5),
                _mm_cmpeq_epi8(x, _mm_set1_epi8(b' ' as i8)),
            );
            digits |= u64::from(_mm_movemask_epi8(digit) as u16) << (16 * i);
            spaces |= u64::from(_mm_movemask_epi8(space) as u16) << (16 * i);
        }
    }
    (digits, spaces)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn simd_matches_the_definition(block in proptest::array::uniform32(any::<u8>()), rest in proptest::array::uniform32(any::<u8>())) {
            let mut bytes = [0u8; 64];
            bytes[..32].copy_from_slice(&block);
            bytes[32..].copy_from_slice(&rest);
            prop_assert_eq!(classify(&bytes), classify_portable(&bytes));
        }
    }

    #[test]
    fn every_byte_value() {
        for b in 0..=255u8 {
            let block = [b; 64];
            let (d, s) = classify(&block);
            assert_eq!(d, if b.is_ascii_digit() { u64::MAX } else { 0 }, "{b}");
            assert_eq!(
                s,
                if matches!(b, b' ' | 9..=13) {
                    u64::MAX
                } else {
                    0
                },
                "{b}"
            );
        }
    }
}
