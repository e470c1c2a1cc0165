//! The one place that chooses, for each operation of the octal engine,
//! the kernel that runs it: the best the level allows (`simd`: what the
//! CPU has and `GRUNDY_OCTAL_SIMD` allows), AVX-512, then AVX2, then the
//! portable code, with the exceptions measured where a lower kernel is
//! faster (each says why). The engine's modules (`heap`, `search`) call
//! these functions and never a kernel function of `avx512/`, `avx2/` or
//! `portable/` directly (they use a few of `portable/`'s types and
//! helpers); the tests call each kernel directly, to compare them.

#[cfg(target_arch = "x86_64")]
use crate::avx2::{self, Avx2};
#[cfg(target_arch = "x86_64")]
use crate::avx512::{self, Avx512};
use crate::moves::Moves;
use crate::portable::hit::{Splits, TARGETS};
use crate::portable::{self, Slots};
use crate::sparse::Split;
use crate::splits::{TakeSplits, ValueBits};

/// The rows of bits of the rare marks of a batch (`heap::RareMarks`;
/// see `portable::word_rows`): AVX-512 (eight rows at a time, each value's
/// bit made in its lane), AVX2 for values below 128 (four rows at a time,
/// one compare per word of a row), and the portable kernel otherwise (a
/// byte store per mark: with AVX2 and values up to 511, `.6` to 2^20 on one
/// thread took 0.75x the time of the AVX2 kernel's eight compares per
/// mark).
#[inline]
pub(crate) fn word_rows(
    words: usize,
    split: &Split,
    moves: &Moves,
    values: &[u16],
    lo: usize,
    table: &mut [u64],
) {
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = Avx512::detect() {
        return avx512::word_rows(cpu, words, split, moves, values, lo, table);
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = Avx2::detect().filter(|_| words <= 2) {
        return avx2::word_rows(cpu, words, split, moves, values, lo, table);
    }
    portable::word_rows(words, split, moves, values, lo, table)
}

/// The values of the first splits of `r` as bits (see
/// `portable::first_found`): AVX-512; AVX2's for rows of at most 128
/// values only, as for [`word_rows`]: on rows of 256 or 512 the portable
/// kernel takes half its instructions (`.6` to 2^20,
/// `GRUNDY_OCTAL_SIMD=avx2`, one thread pinned: 0.96x the time, median of
/// 5 interleaved runs, 0.85-0.99x; `.354` unchanged).
#[inline]
pub(crate) fn first_found(moves: &Moves, values: &[u16], r: usize, row: &mut [u64]) {
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = Avx512::detect() {
        return avx512::first_found(cpu, moves, values, r, row);
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = Avx2::detect().filter(|_| row.len() <= 2) {
        return avx2::first_found(cpu, moves, values, r, row);
    }
    portable::first_found(moves, values, r, row)
}

/// The settling's check of the splits `{a, r - a}`, `1 <= a <= m`, into
/// the heaps settled since a chunk's state, against every candidate (see
/// `portable::splits_reach`): AVX-512 where its blocks fit inside
/// `values`, else AVX2, else the portable kernel.
#[inline]
pub(crate) fn splits_reach(values: &[u16], r: usize, m: usize, candidates: &[u32]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = Avx512::detect()
        && let Some(hits) = avx512::splits_reach(cpu, values, r, m, candidates)
    {
        return hits;
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = Avx2::detect() {
        return avx2::splits_reach(cpu, values, r, m, candidates);
    }
    portable::splits_reach(values, r, m, candidates)
}

/// The search of the splits of heap `h` for the values sought below 1024
/// (the contract of `avx512::missing`): AVX-512, AVX2 or the portable
/// kernel (`slots` is the portable kernel's scratch space, `cursors` every
/// kernel's).
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn missing(
    moves: &Moves,
    values: &[u16],
    h: usize,
    top: usize,
    all: &ValueBits,
    exact: &ValueBits,
    skip: usize,
    budget: usize,
    cursors: &mut Vec<TakeSplits>,
    slots: &mut Slots,
) -> (ValueBits, bool) {
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = Avx512::detect() {
        return avx512::missing(
            cpu, moves, values, h, top, all, exact, skip, budget, cursors,
        );
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = Avx2::detect() {
        return avx2::missing(
            cpu, moves, values, h, top, all, exact, skip, budget, cursors,
        );
    }
    portable::missing(
        moves, values, h, top, all, exact, skip, budget, cursors, slots,
    )
}

/// The values below 64 that the splits `{small[j], large[len - 1 - j]}`
/// reach, as bits, for the small-value path (`search::missing_small`),
/// when a kernel does it faster than that path's table lookups: AVX-512
/// (32 splits at a time, for slices of a multiple of 32); `None` without
/// it, and the path looks the splits up itself.
#[inline]
pub(crate) fn found_small(small: &[u16], large: &[u16]) -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = Avx512::detect() {
        return Some(avx512::found_small(cpu, small, large));
    }
    let _ = (small, large);
    None
}

/// The first `a` of `splits` with `G(a) ^ G(r - a)` among `targets`, for
/// the list search (`search::list`): its portable scan compiled for AVX2
/// when the CPU has it (about 25% less CPU than the baseline build on
/// `.376` to 2^18, 5% on `.6`), else as built for the target.
#[inline]
pub(crate) fn first_hit(splits: Splits<'_>, targets: &[u16; TARGETS]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = Avx2::detect() {
        return avx2::first_hit(cpu, splits, targets);
    }
    portable::hit::first_hit(splits, targets)
}
