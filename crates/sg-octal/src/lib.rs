//! The heap games of `grundy`: octal and hexadecimal take-and-break games,
//! Grundy's game and finite subtraction games, in normal play (Grundy
//! sequences, computed exactly and fast, and their periods, claimed only
//! when certified) and in misère play ([`misere`]: misère quotients).
//!
//! For: the values of heap games, their periods, winning moves of sums of
//! heaps, misère quotients. Not for: games given as graphs, rows or knights
//! (`sg-core`, which this crate builds on for mex and sums), storing tables
//! (`sg-tables`), or reading judge input (`sg-solve`).
//!
//! Unlike `sg-core`, this crate runs threads (a crew of threads of its own,
//! and rayon in the caller's pool with the feature `parallel`), holds all of
//! the project's `unsafe` vector code (AVX-512 and AVX2 kernels behind safe
//! functions that take a token proving the CPU feature), and reads one
//! environment variable, [`SIMD_VARIABLE`] (`GRUNDY_OCTAL_SIMD`), which lowers
//! the kernels it may use.
//!
//! # The games
//!
//! A heap game is played on heaps of tokens; a move acts on one heap. Its
//! Grundy value `G(n)` for a heap of `n` tokens is the mex of the values of
//! the options, and the value of a position with several heaps (or of an
//! option leaving several heaps) is the XOR of the heaps' values.
//!
//! [`Rules`] parses the Winning Ways notation `d0.d1d2...dk`: the digit
//! `d_i` says what a move taking `i` tokens may do, by its bits: 1 = take a
//! whole heap of exactly `i`, 2 = leave one nonempty heap, 4 = leave two
//! nonempty heaps (split the rest), 8 = leave three (hexadecimal digits).
//! `d0 = 4` splits a heap in two without taking. Kayles is `0.77`,
//! Dawson's Kayles `0.07`, Officers `0.6`. A finite subtraction set `S` is
//! the code with digit 3 at each element of `S` ([`Rules::subtraction`]).
//! Grundy's game (split a heap into two unequal heaps) has no code; it is
//! [`Rules::grundys_game`].
//!
//! # The engines
//!
//! - [`grundy_by_definition`]: the reference, mex over every option.
//! - [`Sequence`]: the incremental engine, exactly equal to the reference
//!   (tested on hundreds of random games). Two-heap splits use the
//!   sparse-space method (Gangolli and Plambeck 1989, Flammenkamp), one
//!   value costing about one pass over the few *rare* heaps instead of a
//!   pass over all `n/2` splits; see the `sparse` module for the argument
//!   that makes it exact for every choice of mask (and of a flip by heap
//!   parity), and the `heap` module for how one value is found. Batches of
//!   heaps are computed in parallel by a crew of threads (the `sequence`
//!   and `crew` modules say how, and why not one value at a time). It stops as soon as a period is
//!   certified.
//! - [`check_values`]: checks stored values, each heap's from the stored
//!   values below it, in parallel (a run to resume, a table to verify).
//! - [`PeriodicSequence`]: a certified sequence answering any heap below
//!   2^63 in O(1); [`winning_move`] finds a winning move in a sum of heaps.
//!
//! # Where each part lives
//!
//! - `rules`, `moves`: the code and the moves it allows; `definition`:
//!   the reference (mex over every option).
//! - `sparse`: the rare and common values and the argument that makes the
//!   engine exact; `heap/`: the value of one heap (`mod.rs` the candidates,
//!   `marks.rs` the marks of the rare splits, `rare_rows.rs` the marks of
//!   a batch computed once, `settle.rs` the settling); `search/`: the
//!   search of the splits for the values the marks cannot settle (`mod.rs`
//!   the entry and the choice of a path by the values sought, `small.rs`
//!   the path for values below 64, `list.rs` the list search for values
//!   of 1024 and more).
//! - `avx512/` and `avx2/`: the vector kernels, the engine's only
//!   `unsafe` vector code, behind safe functions that take a token proving
//!   the CPU feature; `portable/`: their portable counterparts (what ARM
//!   and x86-64 without AVX2 run), written for the compiler to vectorise,
//!   without `unsafe`; the tests compare each kernel with them and with
//!   the definitions; `simd`: which of them may run
//!   (`GRUNDY_OCTAL_SIMD=avx2` or `portable` lowers them, to measure what
//!   a CPU without AVX-512 or AVX2 gets); `kernels`: the one place that
//!   chooses the kernel of each operation; `splits`: the splits of a heap
//!   that the search and the kernels share (ranges, cursors, value sets).
//! - `sequence`, `crew`: the incremental engine and its threads; `check`:
//!   stored values checked by the same method; `period`: certified
//!   periods, and `repeat`, `two_way`: the period search in linear time;
//!   `sums`: sums of heaps and winning moves.
//!
//! # The periodicity theorem
//!
//! Let `k` be the largest take of a finite code (`k = 0` for `4.`), and
//! let `e' = max(e, 1)`. Write `N(e, p)` for
//!
//! | the code leaves at most | `N(e, p)` |
//! |---|---|
//! | no heap (only bit 1) | `k + 1` |
//! | one heap (bits 1, 2: subtraction-like) | `max(k + 1, e' + k)` |
//! | two heaps (bit 4, octal; `d0 = 4` included) | `max(k + 1, 2e' + p + k)` |
//! | three heaps (bit 8, hexadecimal) | `max(k + 1, 3e' + 2p + k)` |
//!
//! (the largest row that applies). **Theorem** (Guy and Smith 1956 for
//! octal games; the same argument for the others): if `G(m + p) = G(m)` for
//! every `m` with `e <= m < N(e, p)`, then `G(m + p) = G(m)` for every
//! `m >= e`.
//!
//! *Proof.* By induction on `n >= N(e, p)`, assuming `G(m + p) = G(m)` for
//! `e <= m < n`. As `n > k`, neither `n` nor `n + p` can be taken whole.
//! We match the options of `n` and of `n + p` taking the same `i` so that
//! matched options have the same value; then the two mex are equal.
//! - One heap: `n - i` against `n + p - i`. Since `n - i >= n - k >= e'`,
//!   both are nonempty and `G(n + p - i) = G(n - i)` by hypothesis.
//! - Two heaps of `n`: `{a, b}` with `a <= b`, `a + b = n - i`, so
//!   `b >= (n - k)/2 >= e`; it matches `{a, b + p}`, and
//!   `G(b + p) = G(b)`. Two heaps of `n + p`: `{a, b}` with `a <= b`,
//!   `a + b = n + p - i`, so `b >= (n + p - k)/2 >= e' + p`; it matches
//!   `{a, b - p}` with `b - p >= e' >= 1` nonempty and `b - p < n`.
//! - Three heaps: the same with the largest part `c`: `c >= (n - k)/3 >= e`
//!   for `n`, and `c >= (n + p - k)/3 >= e' + p` for `n + p`, which needs
//!   `n - k >= 3e' + 2p`.
//!
//! So the values `G(0..L)` certify period `p` from `e` when `L >= N(e, p) +
//! p`. The bound is not the only thing that must hold: Grundy's game
//! forbids equal heaps, and the matching `{a, b} -> {a, b - p}` can produce
//! `b - p = a`; no such theorem is known for it and [`Sequence`] never
//! claims a period for it.
//!
//! Once `(e, p)` is certified, the *smallest* period `d` divides `p` (the
//! tail is periodic with both, hence with their gcd), and is found by
//! testing the divisors of `p` over one full period from `e` (two
//! `p`-periodic functions that agree on `p` consecutive heaps agree from
//! there on). The smallest preperiod for `d` is then found by walking down
//! from `e` while `G(m) = G(m + d)`. Both are what [`Period`] reports.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod check;
mod crew;
mod definition;
mod heap;
mod kernels;
mod moves;
mod period;
mod portable;
mod repeat;
mod rules;
mod search;
mod sequence;
mod simd;
mod sparse;
mod splits;
mod sums;
#[cfg(test)]
mod tests;
mod two_way;

pub mod misere;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

pub use check::{check_values, check_values_watched};
pub use definition::{grundy_by_definition, grundy_of_heap};
pub use period::{Period, PeriodicSequence, certify};
pub use rules::{CodeError, GRUNDYS_GAME, MAX_DIGITS, NAMED_GAMES, Rules};
pub use sequence::{Sequence, Status};
pub use simd::{SIMD_VARIABLE, Simd, simd_allowed, simd_used};
pub use sums::{HeapMove, HeapValues, winning_move};
// For the misère quotients (`crate::misere`): the moves of a heap and the
// period search, fed with elements' ids instead of values.
pub(crate) use moves::Moves;
pub(crate) use period::Tracker as PeriodTracker;

/// The largest heap the engines compute a value for directly (values are
/// indexed by `u32` positions): `2^32 - 2`. Beyond it, heaps are answered
/// through a certified period.
pub const MAX_COMPUTED_HEAP: u64 = u32::MAX as u64 - 1;

/// A Grundy value: the engines keep values as `u16` and report any value
/// that does not fit as [`OctalError::ValueOverflow`].
pub type Value = u16;

/// Why a computation stopped without a result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OctalError {
    /// A Grundy value above `u16::MAX` (65535).
    #[error("the Grundy value of heap {heap} exceeds 65535, the largest value the engine stores")]
    ValueOverflow {
        /// The heap whose value does not fit.
        heap: u64,
    },
    /// A heap beyond [`MAX_COMPUTED_HEAP`].
    #[error("heap {heap} is beyond the largest heap computed directly ({max})", max = MAX_COMPUTED_HEAP)]
    TooManyHeaps {
        /// The heap asked for.
        heap: u64,
    },
    /// The memory for the values (or the lists the engine keeps with
    /// them) cannot be had: the run stopped cleanly at this heap.
    #[error("not enough memory to go on beyond heap {heap}")]
    OutOfMemory {
        /// The first heap whose value could not be computed and kept.
        heap: u64,
    },
    /// A stored value that is not the game's ([`check_values`]).
    #[error(
        "stored G({heap}) = {stored}, but the game's value there is {expected} \
         (computed from the stored values below it)"
    )]
    WrongValue {
        /// The first heap whose stored value is wrong.
        heap: u64,
        /// The value stored.
        stored: u16,
        /// The game's value, from the stored values below the heap.
        expected: u64,
    },
    /// Stored values that cannot be the start of a Grundy sequence.
    #[error("stored values rejected: {reason}")]
    BadValues {
        /// What is wrong with them.
        reason: String,
    },
}

/// Fails if heap `to` is beyond [`MAX_COMPUTED_HEAP`].
fn check_heap_limit(to: u64) -> Result<(), OctalError> {
    if to > MAX_COMPUTED_HEAP {
        return Err(OctalError::TooManyHeaps { heap: to });
    }
    Ok(())
}

/// The examples of the crate's README.md, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
