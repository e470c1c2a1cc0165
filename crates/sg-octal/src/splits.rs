//! The splits of a heap that the search and its kernels share: the range
//! of a split size's smaller parts whose two parts are known, a take's
//! splits still to look at (the kernels' cursors), and the values sought
//! as a set of bits. Its own module so that the kernels (`avx512/`,
//! `avx2/`, `portable/`) do not depend on the search that calls them
//! (through `kernels`).

use crate::moves::Moves;

/// Values the AVX-512 search's set holds: 64 words of 16 bits.
pub(crate) const BITSET_VALUES: usize = 1024;

/// Values below [`BITSET_VALUES`] as bits: value `v` is bit `v % 64` of
/// word `v / 64`.
pub(crate) type ValueBits = [u64; BITSET_VALUES / 64];

/// The range of smaller parts `a` of the splits of `r` whose two parts
/// are known heaps (below `n`).
#[inline]
pub(crate) fn split_range(moves: &Moves, r: usize, n: usize) -> (usize, usize) {
    (
        (r + 1).saturating_sub(n).max(1),
        moves.pair_top(r as u64) as usize,
    )
}

/// The splits `{a, r - a}` of one take still to look at, `a` from `next`
/// to `hi` (the vector kernels' cursors).
#[derive(Debug, Clone, Copy)]
pub(crate) struct TakeSplits {
    pub(crate) r: usize,
    pub(crate) lo: usize,
    pub(crate) next: usize,
    pub(crate) hi: usize,
}

impl TakeSplits {
    /// The splits of `r` with `lo <= a <= hi` but the first `skip` (none
    /// left if `lo + skip > hi`), where `1 <= lo`, `2 hi <= r` and
    /// `r - lo < values.len()`: every split that the blocks of a kernel
    /// read is inside `values` (see `avx512::sought` and `avx2::sought`).
    pub(crate) fn new(
        values: &[u16],
        r: usize,
        lo: usize,
        hi: usize,
        skip: usize,
    ) -> Option<TakeSplits> {
        if lo + skip > hi {
            return None;
        }
        assert!(lo >= 1 && 2 * hi <= r && r - lo < values.len());
        Some(TakeSplits {
            r,
            lo,
            next: lo + skip,
            hi,
        })
    }
}

/// Splits per take whose values the rows keep (see `heap::RareMarks`): heaps
/// `h` and `h + 1` with takes `i` and `i + 1` split the same `r`, and the
/// first splits of each take, which reach most values sought, are then
/// looked at once for both; the search of each heap skips them (one
/// thread: `.354` 0.85x the time, `.376` 0.94x; 192 splits rather than
/// 64: `.376` 0.95x, `.354` 1.01x).
pub(crate) const FIRST_FOUND: usize = 192;
