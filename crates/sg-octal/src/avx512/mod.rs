//! The AVX-512 kernels of the octal engine: all of its `unsafe` vector
//! code, behind safe functions that take an [`Avx512`] token, which only
//! a CPU with AVX-512 F and BW gives. Each kernel has a portable
//! counterpart with the same result, which the tests compare it with:
//!
//! - [`found`]: the values of blocks of 32 splits, as bits (the first
//!   phase of the search, the first splits kept with the rare-mark rows,
//!   the small-value path of the search);
//! - [`sought`]: the search of the splits for a set of values sought, the
//!   set (1024 bits) in two registers;
//! - [`rare_rows`]: the rare-mark rows of a batch as bits, eight rows at a
//!   time;
//! - [`settle`]: the splits into the heaps settled since a chunk's state,
//!   32 at a time against every candidate.

mod found;
mod rare_rows;
mod settle;
mod sought;

pub(crate) use found::{first_found, found_small};
pub(crate) use rare_rows::word_rows;
pub(crate) use settle::splits_reach;
pub(crate) use sought::missing;

/// Proof that the CPU has AVX-512 F and BW, the only requirement of the
/// kernels: [`Avx512::detect`] alone makes one.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Avx512(());

impl Avx512 {
    /// The token, if the CPU has AVX-512 F and BW, and they are allowed
    /// (`GRUNDY_OCTAL_SIMD`, see the `kernels` module; in tests, by
    /// `search::test_level` too).
    #[inline]
    pub(crate) fn detect() -> Option<Avx512> {
        #[cfg(test)]
        if super::simd::test_level() < super::simd::Simd::Avx512 {
            return None;
        }
        // `simd_used` is `Avx512` only if the CPU has AVX-512 F and BW.
        (super::simd::simd_used() == super::simd::Simd::Avx512).then_some(Avx512(()))
    }
}

/// Lane `j` takes lane `31 - j` (a word permute).
static REVERSE: [u16; 32] = {
    let mut rev = [0u16; 32];
    let mut j = 0;
    while j < 32 {
        rev[j] = 31 - j as u16;
        j += 1;
    }
    rev
};
