//! The portable kernels of the octal engine: what a CPU without AVX2 or
//! AVX-512 runs (ARM, Apple Silicon, x86-64 without AVX2), written so that
//! the compiler vectorises them for any target, not with intrinsics: loops
//! over fixed-width chunks (8 or 32 splits, 8 bytes read as one `u64`)
//! with no data-dependent branch inside, and scattered byte stores where a
//! vector machine would look a set up (one store per split: no dependency
//! from one split to the next, and no read-modify-write). The same results
//! as the AVX-512 and AVX2 kernels, which the tests compare them with:
//!
//! - [`rows`]: the rare-mark rows of a batch as bits, and the values of
//!   the first splits of each split size;
//! - [`sought`]: the search of the splits for a set of values sought
//!   below 1024;
//! - [`settle`]: the splits into the heaps settled since a chunk's state,
//!   against every candidate;
//! - [`hit`]: the list search's scan for a few values among a range of
//!   splits (compiled for AVX2 too).
//!
//! No `unsafe` here: every index is masked into the array it reads or
//! writes (`x & (V - 1)` into `V` bytes), which the compiler sees, so the
//! bounds checks go away without an unchecked access.

pub(crate) mod hit;
mod rows;
mod settle;
mod sought;

pub(crate) use rows::{first_found, word_rows};
pub(crate) use settle::splits_reach;
pub(crate) use sought::{Slots, missing};

/// Bit `j` set when `bytes[j]` is not zero (each byte 0 or 1): eight bytes
/// at a time, gathered into the top byte of one product (byte `i` of the
/// multiplier's terms lands on bit `56 + i`, each bit from one term only).
#[inline]
pub(crate) fn bits_of_bytes(bytes: &[u8; 64]) -> u64 {
    let mut bits = 0;
    for (k, word) in bytes.chunks_exact(8).enumerate() {
        let word = u64::from_le_bytes(word.try_into().expect("8 bytes"));
        debug_assert_eq!(word & !0x0101_0101_0101_0101, 0, "bytes other than 0 and 1");
        bits |= (word.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
    }
    bits
}
