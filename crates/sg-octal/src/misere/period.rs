//! The periodicity theorem for misère quotients, and the pretending
//! function answered through a certified period.
//!
//! # The theorem
//!
//! Let `k` be the largest take of a finite code, `e' = max(e, 1)`, and
//! `N(e, p)` the bound of the normal-play theorem (the table in
//! [`crate`]: `k + 1`; `max(k + 1, e' + k)` when moves leave at most
//! one heap; `max(k + 1, 2e' + p + k)` when they leave two;
//! `max(k + 1, 3e' + 2p + k)` when they leave three).
//!
//! **Theorem.** Let `Q` be the misère quotient of the heaps `0..=L` of the
//! game, with pretending function `Phi`, where `L = N(e, p) + p - 1`. If
//! `Phi(m + p) = Phi(m)` for every `m` with `e <= m < N(e, p)`, then `Q` is
//! the quotient of all the heaps, and `Phi(m + p) = Phi(m)` for every
//! `m >= e`.
//!
//! Plambeck and Siegel state a periodicity theorem for misère quotients of
//! octal games ("Misère quotients for impartial games", JCTA 2008), and
//! Siegel's lecture notes ("Misère games and misère quotients", Games of
//! No Chance 5, from a 2006 course) prove one; the statement and proof
//! here are written for this code, with the bound of Guy and Smith's
//! normal-play theorem, and use only the fitting theorem of
//! [`crate::misere`].
//!
//! *Proof.* By induction on `n >= N(e, p)`: assume `Q` is the quotient of
//! the heaps `0..n + p - 1` and `Phi(m + p) = Phi(m)` for `e <= m < n`.
//! The options of heap `n` and those of heap `n + p` are matched exactly as
//! in the normal-play proof (module [`crate`]): an option leaving
//! one heap `n - i` matches `n + p - i` (both at least `e'`); a split
//! `{a, b}` of `n`, `a <= b`, has `b >= e` and matches `{a, b + p}`; a split
//! `{a, b}` of `n + p` has `b >= e' + p` and matches `{a, b - p}`, with
//! `e' <= b - p < n`; three heaps likewise with the largest part. Matched
//! options have parts with equal images, so equal images (the products of
//! the parts' images). Hence heap `n + p` and heap `n` have the same set
//! `S` of option images, so the same escapes `H = {z : z s in P for some s
//! in S}`. Heap `n` is a sum of smaller heaps of class `x = Phi(n)`, so by
//! the fitting theorem with the representative heap `n` (whose escapes are
//! `H`), heap `n + p` fits `x`: its escapes `H` contain those of the
//! representative, miss `x^-1 P` (heap `n` plus any sum of class in
//! `x^-1 P` is lost, so has no option in `P`), and heap `n + p` alone is
//! lost iff heap `n` is. So `Q` is the quotient of the heaps `0..=n + p`
//! and `Phi(n + p) = x = Phi(n)`, which is the induction step. QED.
//!
//! So a quotient computed to heap `L >= N(e, p) + p - 1` with `Phi` `p`-
//! periodic from `e` over `e..N(e, p) + p` is the game's quotient for all
//! heaps: the same certificate as the normal-play sequence `G(0..L + 1)`,
//! found by the same search (`crate`'s period tracker, fed with the
//! elements' ids), which also gives the smallest period and preperiod.
//! Grundy's game has no such theorem (its splits into unequal heaps do not
//! match), and no period is claimed for it.
//!
//! # Sums through the period
//!
//! A heap `h` beyond the heaps computed has the image of `e + (h - e) mod
//! p`. A split of a heap whose smaller part `a` is at least `e' + p` has
//! the image of the split with `p` tokens moved from `a` to the largest
//! part (both parts stay at least `e'`, in the periodic range), so every
//! option image of any heap is reached by an option whose smaller parts
//! are below `e' + p`: a move to a lost position is searched among those,
//! and costs `O(k (e' + p)^2)` for any heap, even near 2^63.

use super::monoid::Element;
use crate::Period;

/// `Phi(heap)` through `period`, from the images of the heaps
/// `0..period.len()` at least.
pub(crate) fn image(pretending: &[Element], period: &Period, heap: u64) -> Element {
    pretending[period.index(heap) as usize]
}

/// The span of the splits searched for a move: every option image of any
/// heap is reached by an option whose smaller parts are at most this.
pub(crate) fn span(period: &Period) -> u64 {
    period.preperiod.max(1) + period.period - 1
}
