//! The list search (see the parent module), for values sought of 1024
//! and more (beyond the sets of the kernels), on every CPU: a first scalar
//! scan marks the sought values it meets in a short prefix of the splits,
//! then the ones it missed are sought a few at a time by a vectorised
//! comparison of blocks of splits (`kernels::first_hit`: the portable scan
//! of `portable::hit`, compiled for AVX2 too when the CPU has it). The
//! search's tests compare every kernel with trying each split.

use std::ops::ControlFlow;

use super::{SCAN_TURN, SearchScratch, first_splits, in_turns};
use crate::kernels;
use crate::moves::Moves;
use crate::portable::hit::{Splits, TARGETS};

/// The smallest of `need` (ascending, nonempty) that a short scan of the
/// splits of heap `h` (a few per value) does not meet: it may be reached
/// by a later split or by none. `None` when all are met.
#[inline]
pub(super) fn first_unmet(
    moves: &Moves,
    values: &[u16],
    h: usize,
    top: usize,
    need: &[u16],
    scratch: &mut SearchScratch,
) -> Option<u16> {
    scan(moves, values, h, top, need, scratch);
    need.iter()
        .copied()
        .find(|&v| scratch.sought[usize::from(v)] != FOUND)
}

/// The exact part of [`search`](super::search) (the values of `need` no
/// split reaches, the smallest `limit`) for values of 1024 and more: a first scalar
/// scan, then a vectorised search for a few values at a time.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(super) fn first_missing_portable(
    moves: &Moves,
    values: &[u16],
    h: usize,
    top: usize,
    need: &[u16],
    limit: usize,
    missing: &mut Vec<u16>,
    scratch: &mut SearchScratch,
) {
    missing.clear();
    scan(moves, values, h, top, need, scratch);
    // The values the first scan did not find, smallest first, in groups
    // of TARGETS: each group is sought through every remaining split.
    let sought = &scratch.sought;
    let mut left = need
        .iter()
        .copied()
        .filter(|&v| sought[v as usize] != FOUND)
        .peekable();
    while left.peek().is_some() {
        let mut group = [0u16; TARGETS];
        let mut len = 0;
        for (slot, v) in group.iter_mut().zip(left.by_ref()) {
            *slot = v;
            len += 1;
        }
        let mut found = [false; TARGETS];
        seek(
            moves,
            values,
            h,
            &scratch.next,
            &group[..len],
            &mut found[..len],
        );
        for (&v, _) in group[..len].iter().zip(found).filter(|(_, f)| !f) {
            missing.push(v);
            if missing.len() == limit {
                return;
            }
        }
    }
}

/// Splits looked at by the first scan per value sought (it marks any
/// sought value it meets; the values it misses, usually few, are then
/// sought a few at a time by a vectorised scan of the remaining splits).
const SCAN_PER_VALUE: usize = 8;

/// A value the first scan looks for.
pub(crate) const WANTED: u8 = 1;
/// A value the first scan looked for and met.
pub(crate) const FOUND: u8 = 2;

/// A first scan of the splits, marking in `scratch.sought` (as [`FOUND`])
/// each value of `need` it meets; stops when all are found or after
/// `SCAN_PER_VALUE` splits per value. The takes are scanned in turns of
/// [`SCAN_TURN`] splits (as in the AVX-512 search); `scratch.next[t]` is
/// then the next smaller part `a` to look at for take `t` of `moves.pair`.
fn scan(
    moves: &Moves,
    values: &[u16],
    h: usize,
    top: usize,
    need: &[u16],
    scratch: &mut SearchScratch,
) {
    let SearchScratch { sought, next, .. } = scratch;
    let n = values.len();
    sought.clear();
    sought.resize(top, 0);
    for &v in need {
        sought[v as usize] = WANTED;
    }
    first_splits(moves, h, n, next);
    let mut missing = need.len();
    let mut budget = SCAN_PER_VALUE * missing;
    in_turns(moves, h, n, next, |r, lo, hi| {
        let end = hi.min(lo + SCAN_TURN.min(budget) - 1);
        for a in lo..=end {
            let x = (values[a] ^ values[r - a]) as usize;
            if sought[x] == WANTED {
                sought[x] = FOUND;
                missing -= 1;
                if missing == 0 {
                    return ControlFlow::Break(end);
                }
            }
        }
        budget -= end + 1 - lo;
        match budget {
            0 => ControlFlow::Break(end),
            _ => ControlFlow::Continue(end),
        }
    });
}

/// Looks for the values `targets` (at most [`TARGETS`]) among the splits
/// from `next` on (per take, as [`scan`] left them), setting `found[k]`
/// for each one met; stops when all are found. The takes take turns of
/// [`SCAN_TURN`] splits.
#[inline]
fn seek(
    moves: &Moves,
    values: &[u16],
    h: usize,
    next: &[usize],
    targets: &[u16],
    found: &mut [bool],
) {
    let n = values.len();
    // Padded with the first target (a repeat changes nothing).
    let mut padded = [targets[0]; TARGETS];
    padded[..targets.len()].copy_from_slice(targets);
    let mut missing = targets.len();
    let mut from = next.to_vec();
    // Turns only help when there are several takes to alternate; with one
    // (`.6`), a turn per 64 splits cost more than the comparisons.
    let turn = if moves.pair.len() == 1 {
        usize::MAX
    } else {
        SCAN_TURN
    };
    in_turns(moves, h, n, &mut from, |r, mut lo, hi| {
        let end = hi.min(lo.saturating_add(turn - 1));
        while lo <= end {
            let Some(a) = kernels::first_hit(
                Splits {
                    values,
                    r,
                    lo,
                    hi: end,
                },
                &padded,
            ) else {
                break;
            };
            let x = values[a] ^ values[r - a];
            for (k, &v) in targets.iter().enumerate() {
                if v == x && !found[k] {
                    found[k] = true;
                    missing -= 1;
                }
            }
            if missing == 0 {
                return ControlFlow::Break(end);
            }
            // Seek only the values still missing.
            let first_missing = targets[found.iter().position(|&f| !f).unwrap_or(0)];
            padded = [first_missing; TARGETS];
            for (slot, (&v, _)) in padded
                .iter_mut()
                .zip(targets.iter().zip(found.iter()).filter(|(_, f)| !**f))
            {
                *slot = v;
            }
            lo = a + 1;
        }
        ControlFlow::Continue(end)
    });
}
