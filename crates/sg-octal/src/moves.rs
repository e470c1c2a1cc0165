//! The moves of a take-and-break game, grouped by how many heaps they
//! leave, and the enumeration of the options of one heap.

use std::ops::ControlFlow;

use super::Rules;

/// The moves of [`Rules`], as lists of takes by the number of heaps left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Moves {
    /// Takes `i` that may remove a heap of exactly `i` tokens (bit 1).
    pub(crate) whole: Vec<u32>,
    /// Takes `i` that may leave one nonempty heap (bit 2).
    pub(crate) single: Vec<u32>,
    /// Takes `i` that may leave two nonempty heaps (bit 4; `i = 0` for
    /// `d0 = 4` and for Grundy's game).
    pub(crate) pair: Vec<u32>,
    /// Takes `i` that may leave three nonempty heaps (bit 8).
    pub(crate) triple: Vec<u32>,
    /// Grundy's game: the two heaps left must differ.
    pub(crate) unequal: bool,
    /// The largest take (`k`).
    pub(crate) max_take: u32,
}

impl Moves {
    /// The moves of `rules`.
    pub(crate) fn new(rules: &Rules) -> Moves {
        let Some(digits) = rules.digits() else {
            return Moves {
                whole: vec![],
                single: vec![],
                pair: vec![0],
                triple: vec![],
                unequal: true,
                max_take: 0,
            };
        };
        let takes = |bit: u8| -> Vec<u32> {
            (0..digits.len() as u32)
                .filter(|&i| digits[i as usize] & bit != 0)
                .collect()
        };
        Moves {
            whole: takes(1),
            single: takes(2),
            pair: takes(4),
            triple: takes(8),
            unequal: false,
            max_take: rules.max_take() as u32,
        }
    }

    /// Calls `f(take, parts)` for every option of a heap of `n` tokens:
    /// `parts` are the heaps left (none, one, two or three; in
    /// nondecreasing order). Splits are enumerated with their smaller parts
    /// at most `span` (pass `u64::MAX` for all of them); see
    /// [`crate::winning_move`] for why a span of
    /// `preperiod + period - 1` loses no option value through a period.
    /// Stops early when `f` breaks.
    ///
    /// `#[inline]` here and on the three below: the dev and test profile
    /// has no thin LTO, and without it the caller's closure was called once
    /// per option from another codegen unit (the definitional checks of the
    /// unit tests took 1.4 times as long).
    #[inline]
    pub(crate) fn for_each_option(
        &self,
        n: u64,
        span: u64,
        mut f: impl FnMut(u64, &[u64]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.for_each_unsplit(n, &mut f)?;
        self.for_each_pair(n, span, &mut f)?;
        self.for_each_triple(n, span, &mut f)
    }

    /// The options of `n` that leave no heap or one heap.
    #[inline]
    pub(crate) fn for_each_unsplit(
        &self,
        n: u64,
        mut f: impl FnMut(u64, &[u64]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for &i in &self.whole {
            if u64::from(i) == n && n > 0 {
                f(n, &[])?;
            }
        }
        for &i in &self.single {
            let i = u64::from(i);
            if n > i {
                f(i, &[n - i])?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The options of `n` that leave two heaps, the smaller at most `span`.
    #[inline]
    pub(crate) fn for_each_pair(
        &self,
        n: u64,
        span: u64,
        mut f: impl FnMut(u64, &[u64]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for &i in &self.pair {
            let i = u64::from(i);
            let Some(r) = n.checked_sub(i) else { continue };
            for a in 1..=self.pair_top(r).min(span) {
                f(i, &[a, r - a])?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The largest smaller part of a split of `r` tokens into two heaps.
    pub(crate) fn pair_top(&self, r: u64) -> u64 {
        if self.unequal {
            r.saturating_sub(1) / 2
        } else {
            r / 2
        }
    }

    /// The options of `n` that leave three heaps, the two smaller at most
    /// `span`.
    #[inline]
    pub(crate) fn for_each_triple(
        &self,
        n: u64,
        span: u64,
        mut f: impl FnMut(u64, &[u64]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for &i in &self.triple {
            let i = u64::from(i);
            let Some(r) = n.checked_sub(i) else { continue };
            for a in 1..=(r / 3).min(span) {
                for b in a..=((r - a) / 2).min(span) {
                    f(i, &[a, b, r - a - b])?;
                }
            }
        }
        ControlFlow::Continue(())
    }
}
