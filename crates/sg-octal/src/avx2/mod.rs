//! The AVX2 kernels of the octal engine, behind safe functions that take
//! an [`Avx2`] token, which only a CPU with AVX2 gives. Each has a
//! portable counterpart with the same result, which the tests compare it
//! with:
//!
//! - [`sought`]: the search of the splits for a set of values sought
//!   below 1024, the set in registers, looked up by byte shuffles;
//! - [`found`]: the values of the first splits of each split size, as
//!   bits (values below 256), kept with the rare-mark rows;
//! - [`rare_rows`]: the rare-mark rows of a batch as bits, four rows at a
//!   time;
//! - [`first_hit`]: the portable search's vectorised scan for a few values
//!   (values of 1024 and more), compiled for AVX2;
//! - [`splits_reach`]: the settling's check, the portable code compiled
//!   for AVX2.

mod found;
mod rare_rows;
mod sought;

pub(crate) use found::first_found;
pub(crate) use rare_rows::word_rows;
pub(crate) use sought::missing;

use super::portable::hit::{self, Splits, TARGETS};

/// Proof that the CPU has AVX2: [`Avx2::detect`] alone makes one.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Avx2(());

impl Avx2 {
    /// The token, if the CPU has AVX2 and it is allowed
    /// (`GRUNDY_OCTAL_SIMD`, see the `kernels` module).
    #[inline]
    pub(crate) fn detect() -> Option<Avx2> {
        #[cfg(test)]
        if super::simd::test_level() < super::simd::Simd::Avx2 {
            return None;
        }
        // `simd_used` is `Avx2` or more only if the CPU has AVX2.
        (super::simd::simd_used() >= super::simd::Simd::Avx2).then_some(Avx2(()))
    }
}

/// The first `a` of `splits` with `G(a) ^ G(r - a)` among `targets`, as
/// the portable `hit::first_hit` finds it.
#[inline]
pub(crate) fn first_hit(_: Avx2, splits: Splits<'_>, targets: &[u16; TARGETS]) -> Option<usize> {
    // SAFETY: the token says that the CPU has AVX2, the only requirement
    // of the function.
    unsafe { first_hit_avx2(splits, targets) }
}

/// [`first_hit`] compiled for AVX2: about 25% less CPU than the baseline
/// (SSE2) build on `.376` to 2^18, 5% on `.6`.
#[target_feature(enable = "avx2")]
fn first_hit_avx2(splits: Splits<'_>, targets: &[u16; TARGETS]) -> Option<usize> {
    hit::first_hit(splits, targets)
}

/// The settling's check of the splits into the heaps settled since a
/// chunk's state, `portable::splits_reach` compiled for AVX2 (16 splits
/// per comparison instead of 8).
#[inline]
pub(crate) fn splits_reach(_: Avx2, values: &[u16], r: usize, m: usize, candidates: &[u32]) -> u32 {
    // SAFETY: the token says that the CPU has AVX2, the only requirement
    // of the function.
    unsafe { splits_reach_avx2(values, r, m, candidates) }
}

/// [`splits_reach`] compiled for AVX2.
#[target_feature(enable = "avx2")]
fn splits_reach_avx2(values: &[u16], r: usize, m: usize, candidates: &[u32]) -> u32 {
    super::portable::splits_reach(values, r, m, candidates)
}
