//! The question the period search asks after a value: the smallest `p <=
//! len/2` such that the last `max(len/4, p)` values repeat `p` earlier
//! (`G(m) = G(m - p)` for each of them), answered in time linear in the
//! values, whatever their shape.
//!
//! The search asks it after each of the first [`EVERY_VALUE_UP_TO`] values,
//! then each time the values have grown by an eighth (see
//! `period::Tracker`). After each value, [`Watch`] answers it, looking
//! only at the `p` whose window has passed their last known mismatch;
//! after an eighth,
//! [`first_repeat`] answers it from the values alone, by a screen and, when
//! the screen lets too much through, by string matching ([`by_matching`]).

use std::ops::ControlFlow;

/// The period search asks after every value up to this many values.
pub(super) const EVERY_VALUE_UP_TO: usize = 4096;

/// The answer after each of the first [`EVERY_VALUE_UP_TO`] values, kept
/// up to date value by value without looking at every `p` each time.
///
/// `p` repeats at `len` when no *mismatch* (`G(m) != G(m - p)`) lies in its
/// window `[len - max(len/4, p), len)`, whose start never moves back. So a
/// `p` with a known mismatch at `m` sleeps until its window has passed
/// `m` (it waits in the list of that length), then the window is read from
/// its end back to the latest mismatch, which puts `p` to sleep again, or
/// to the window's start, which makes `p` *awake*: its window was clean
/// when it woke. The answer is the smallest awake `p` whose window is
/// still clean: each awake `p` in increasing order is read from where it
/// was last read to the end, and goes back to sleep at its latest
/// mismatch, until one is clean. A `p` enters at `len = 2p`.
///
/// On values that do not repeat, a `p` mostly finds its mismatch at the
/// end and sleeps until the length has grown by a third: a few checks of
/// a few values each, per value pushed, where reading every `p` cost more
/// than computing the values of the catalogue's games.
#[derive(Clone, Default)]
pub(super) struct Watch {
    /// The first `p` that wakes at each length (0: none), and after each
    /// `p` the next one that wakes at the same length: a list per length,
    /// each `p` in at most one.
    waking: Vec<u16>,
    next: Vec<u16>,
    /// Bit `p`: `p` is awake.
    awake: Vec<u64>,
    /// For an awake `p`, at `p`: the values read up to it (its window is
    /// clean before it).
    read_to: Vec<u16>,
    /// The values taken so far.
    len: usize,
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch")
            .field("len", &self.len)
            .finish_non_exhaustive()
    }
}

/// The start of the window of `p` at `len`.
fn window_start(len: usize, p: usize) -> usize {
    len - (len / 4).max(p)
}

impl Watch {
    /// Takes the last value of `values` (each value in turn, at most
    /// [`EVERY_VALUE_UP_TO`] of them) and answers the question for
    /// `values`: what [`first_repeat`] answers. `None` when the values are
    /// not the ones taken so far and one more, or too many: the caller then
    /// asks [`first_repeat`].
    pub(super) fn push(&mut self, values: &[u16], work: &mut u64) -> Option<Option<usize>> {
        const K: usize = EVERY_VALUE_UP_TO;
        let len = values.len();
        if len != self.len + 1 || len > K {
            return None;
        }
        if self.waking.is_empty() {
            self.waking = vec![0; K + 1];
            self.next = vec![0; K / 2 + 1];
            self.awake = vec![0; K / 2 / 64 + 1];
            self.read_to = vec![0; K / 2 + 1];
        }
        self.len = len;
        if len.is_multiple_of(2) {
            self.wake_at(len / 2, len);
        }
        // Wake the sleepers of this length: read back from the end.
        let mut waking = std::mem::take(&mut self.waking[len]);
        while waking != 0 {
            let p = usize::from(waking);
            waking = self.next[p];
            let start = window_start(len, p);
            let latest = (start..len).rev().find(|&m| values[m] != values[m - p]);
            *work += (len - latest.map_or(start, |m| m)) as u64;
            match latest {
                Some(m) => self.sleep(p, m),
                None => {
                    self.awake[p / 64] |= 1 << (p % 64);
                    self.read_to[p] = len as u16;
                }
            }
        }
        // The smallest awake p still clean.
        for word in 0..self.awake.len() {
            while self.awake[word] != 0 {
                let p = word * 64 + self.awake[word].trailing_zeros() as usize;
                let from = usize::from(self.read_to[p]);
                let latest = (from..len).rev().find(|&m| values[m] != values[m - p]);
                *work += (len - latest.map_or(from, |m| m)) as u64;
                match latest {
                    None => {
                        self.read_to[p] = len as u16;
                        return Some(Some(p));
                    }
                    Some(m) => {
                        self.awake[word] &= !(1 << (p % 64));
                        self.sleep(p, m);
                    }
                }
            }
        }
        Some(None)
    }

    /// Puts `p` to sleep until its window has passed its mismatch at `m`:
    /// the first length `l` with `window_start(l, p) > m` (none needed
    /// beyond [`EVERY_VALUE_UP_TO`]).
    fn sleep(&mut self, p: usize, m: usize) {
        // window_start grows by 0 or 1 with the length: at least m + 1 -
        // window_start(len) lengths away; found from a lower bound in a
        // few steps (the window is at most len/2 long).
        let mut l = (m + 1 + p).max(4 * m / 3).max(self.len + 1);
        while l <= EVERY_VALUE_UP_TO && window_start(l, p) <= m {
            l += 1.max((m + 1 - window_start(l, p)) / 2);
        }
        if l <= EVERY_VALUE_UP_TO {
            self.wake_at(p, l);
        }
    }

    /// Adds `p` to the list of length `l`.
    fn wake_at(&mut self, p: usize, l: usize) {
        self.next[p] = self.waking[l];
        self.waking[l] = p as u16;
    }
}

/// The smallest `p <= len/2` such that the last `max(len/4, p)` values
/// repeat `p` earlier, in `O(len)` (adding the values read to `work`).
///
/// Most `p` fail at once: blocks of 32 are screened without a branch for
/// the last two values (the loop vectorises), and only the `p` that pass
/// are checked in full. That is quadratic when many `p` pass and fail
/// late (a small period after a long preperiod: every multiple of the
/// period passes, and its check reaches back into the preperiod), so once
/// the checks have read `len` values the search starts again by string
/// matching ([`by_matching`]), linear whatever the values.
pub(super) fn first_repeat(values: &[u16], work: &mut u64) -> Option<usize> {
    const BLOCK: usize = 32;
    let len = values.len();
    if len < 8 {
        // The screen needs windows of two values or more (len/4 >= 2).
        return (1..=len / 2).find(|&p| holds(values, p, work));
    }
    let budget = *work + len as u64;
    let (last, before) = (values[len - 1], values[len - 2]);
    let top = len / 2;
    let mut p = 1;
    *work += top as u64;
    while p + BLOCK <= top + 1 {
        // Bit j: p + j passes the screen (values[len - 1 - (p + j)] is
        // `last`, values[len - 2 - (p + j)] is `before`).
        let ends = &values[len - 1 - (p + BLOCK - 1)..=len - 1 - p];
        let befores = &values[len - 2 - (p + BLOCK - 1)..=len - 2 - p];
        let mut pass = 0u32;
        for (k, (&e, &b)) in ends.iter().zip(befores).enumerate() {
            // ends[k] is values[len - 1 - q] with q = p + BLOCK - 1 - k.
            pass |= u32::from((e == last) & (b == before)) << (BLOCK - 1 - k);
        }
        while pass != 0 {
            let j = pass.trailing_zeros() as usize;
            pass &= pass - 1;
            if holds(values, p + j, work) {
                return Some(p + j);
            }
            if *work > budget {
                return by_matching(values, work);
            }
        }
        p += BLOCK;
    }
    (p..=top).find(|&p| holds(values, p, work))
}

/// Whether the last `max(len/4, p)` values repeat `p` earlier, read from
/// the last (adding the values read to `work`).
fn holds(values: &[u16], p: usize, work: &mut u64) -> bool {
    let len = values.len();
    let window = (len / 4).max(p);
    let mismatch = (len - window..len)
        .rev()
        .position(|m| values[m] != values[m - p]);
    *work += mismatch.map_or(window, |i| i + 1) as u64;
    mismatch.is_none()
}

/// [`first_repeat`] by string matching, in `O(len)` whatever the values
/// (`len >= 8`). Read backwards (`r(i)` is `values[len - 1 - i]`), `p`
/// repeats when `r(i) = r(i + p)` for every `i < max(w, p)`, `w = len/4`:
/// every such `p` is an occurrence of the pattern `r(0..w)` at `p`, found
/// in increasing order by the two-way algorithm in the first `len/2 + w`
/// values; an occurrence `p <= w` is the answer, a larger one is the
/// answer if `r(i) = r(i + p)` holds for `w <= i < p` as well.
///
/// Those checks add up to `O(len)`: if the next occurrence is `p + d`
/// with `d <= w`, then `r(p..p + d + w)` has period `d`, so the check of
/// `p` fails within its first `d` values (were `r(w..w + d)` to match, `r`
/// would have period `d` up to `w + d`: an occurrence at `d < p`, which
/// would have been the answer), and those `d` add up to at most the `len/2`
/// values searched; occurrences more than `w` apart are at most a few.
pub(super) fn by_matching(values: &[u16], work: &mut u64) -> Option<usize> {
    let len = values.len();
    let (w, top) = (len / 4, len / 2);
    let r = |i: usize| values[len - 1 - i];
    let found = super::two_way::occurrences(
        r,
        w,
        // The text starts at 1: the occurrence at 0 is the pattern itself.
        |j| r(j + 1),
        top + w - 1,
        work,
        |j, work| {
            let p = j + 1;
            if p <= w {
                return ControlFlow::Break(p);
            }
            let mismatch = (w..p).position(|i| r(i) != r(i + p));
            *work += mismatch.map_or(p - w, |i| i + 1) as u64;
            if mismatch.is_none() {
                ControlFlow::Break(p)
            } else {
                ControlFlow::Continue(())
            }
        },
    );
    match found {
        ControlFlow::Break(p) => Some(p),
        ControlFlow::Continue(()) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The contract of `first_repeat`, by trying every `p` in order.
    fn every_period(values: &[u16]) -> Option<usize> {
        let len = values.len();
        (1..=len / 2).find(|&p| {
            let window = (len / 4).max(p);
            (len - window..len).all(|m| values[m] == values[m - p])
        })
    }

    /// `first_repeat`, and the string matching on its own, equal trying
    /// every `p` in order, on random sequences that repeat (with small
    /// alphabets, so that the screen passes often), that do not, and that
    /// repeat with a small period after a long preperiod of other values
    /// (where the screen passes for every multiple of the period and the
    /// search falls back to string matching).
    #[test]
    fn first_repeat_equals_trying_every_period() {
        let mut rng = sg_nimber::testing::SplitMix64::new(12);
        let mut found = 0;
        for case in 0..4000 {
            let len = 1 + rng.below(if case % 4 == 3 { 3000 } else { 300 }) as usize;
            let alphabet = 1 + rng.below(4);
            let p = 1 + rng.below(if case % 4 == 3 { 6 } else { 70 }) as usize;
            let e = rng.below(len as u64 + 1) as usize;
            let mut values: Vec<u16> = (0..len).map(|_| rng.below(alphabet) as u16).collect();
            if case % 4 == 3 {
                // Values the preperiod never takes.
                for m in e..len {
                    values[m] = if m < e + p {
                        10 + rng.below(2) as u16
                    } else {
                        values[m - p]
                    };
                }
            } else if case % 2 == 0 {
                for m in e.max(p)..len {
                    values[m] = values[m - p];
                }
            }
            let expected = every_period(&values);
            found += usize::from(expected.is_some());
            let mut work = 0;
            assert_eq!(
                first_repeat(&values, &mut work),
                expected,
                "case {case}: {values:?}"
            );
            if len >= 8 {
                assert_eq!(
                    by_matching(&values, &mut work),
                    expected,
                    "case {case}: {values:?}"
                );
            }
        }
        assert!(found > 1000 && found < 3900, "{found}");
    }

    /// `Watch` answers what `first_repeat` answers, after every value, on
    /// the same shapes of sequences, and gives way beyond its values.
    #[test]
    fn watch_equals_trying_every_period() {
        let mut rng = sg_nimber::testing::SplitMix64::new(13);
        for case in 0..300 {
            let len = 1 + rng.below(if case % 10 == 0 {
                EVERY_VALUE_UP_TO as u64 + 10
            } else {
                400
            }) as usize;
            let alphabet = 1 + rng.below(4);
            let p = 1 + rng.below(if case % 3 == 0 { 4 } else { 70 }) as usize;
            let e = rng.below(len as u64 + 1) as usize;
            let mut values: Vec<u16> = (0..len).map(|_| rng.below(alphabet) as u16).collect();
            if case % 2 == 0 {
                for m in e.max(p)..len {
                    values[m] = values[m - p];
                }
            }
            let mut runs = Watch::default();
            for n in 1..=len {
                let answer = runs.push(&values[..n], &mut 0);
                if n <= EVERY_VALUE_UP_TO {
                    assert_eq!(
                        answer,
                        Some(every_period(&values[..n])),
                        "case {case}, {n} values"
                    );
                } else {
                    assert_eq!(answer, None);
                }
            }
        }
        // Not the values taken and one more: no answer.
        let mut runs = Watch::default();
        assert_eq!(runs.push(&[0, 0], &mut 0), None);
    }
}
