//! Exact string matching in linear time and constant space: the two-way
//! algorithm of Crochemore and Perrin ("Two-way string-matching", J. ACM
//! 38(3), 1991), as presented by Charras and Lecroq ("Exact string
//! matching algorithms"), on sequences of values read through a function
//! of the index, so that the period search of the `period` module reads
//! the values backwards without copying them.
//!
//! The pattern `x` (length `m`) is cut at a critical factorisation
//! `x = u v`, found from the maximal suffixes of `x` for the order of the
//! values and for its reverse. A window of the text is compared with `v`
//! left to right, then with `u` right to left; a mismatch in `v` moves the
//! window past it, a match moves it by the period of `v` (remembering, for
//! a periodic pattern, the prefix already known to match). Every
//! occurrence is reported, in increasing order, with at most `2n`
//! comparisons of values for a text of length `n` (after `O(m)` for the
//! factorisation).

use std::ops::ControlFlow;

/// The start of the maximal suffix of `x[..m]` minus one (`-1` for the
/// whole of `x`), and the period of that suffix; for the order of the
/// values, or for its reverse when `reverse`. Adds the values compared to
/// `work`.
fn maximal_suffix(
    x: &impl Fn(usize) -> u16,
    m: usize,
    reverse: bool,
    work: &mut u64,
) -> (isize, usize) {
    let mut ms: isize = -1;
    let (mut j, mut k, mut p) = (0usize, 1usize, 1usize);
    while j + k < m {
        *work += 1;
        let (mut a, mut b) = (x(j + k), x((ms + k as isize) as usize));
        if reverse {
            std::mem::swap(&mut a, &mut b);
        }
        if a < b {
            j += k;
            k = 1;
            p = (j as isize - ms) as usize;
        } else if a == b {
            if k == p {
                j += p;
                k = 1;
            } else {
                k += 1;
            }
        } else {
            ms = j as isize;
            j += 1;
            k = 1;
            p = 1;
        }
    }
    (ms, p)
}

/// Calls `found` with every `j` such that `y(j + i) == x(i)` for every
/// `i < m` (an occurrence of the pattern `x[..m]` in the text `y[..n]`),
/// in increasing order, until it breaks. Adds the values compared to
/// `work` (at most `2n` plus `O(m)`).
///
/// # Panics
/// If `m` is 0.
pub(crate) fn occurrences<B>(
    x: impl Fn(usize) -> u16,
    m: usize,
    y: impl Fn(usize) -> u16,
    n: usize,
    work: &mut u64,
    mut found: impl FnMut(usize, &mut u64) -> ControlFlow<B>,
) -> ControlFlow<B> {
    assert!(m > 0, "an empty pattern");
    if n < m {
        return ControlFlow::Continue(());
    }
    let (i1, p1) = maximal_suffix(&x, m, false, work);
    let (i2, p2) = maximal_suffix(&x, m, true, work);
    // The critical factorisation: x[..=ell] and x[ell + 1..].
    let (ell, per) = if i1 > i2 { (i1, p1) } else { (i2, p2) };
    let last = n - m;
    let m = m as isize;
    let mut compared = 0u64;
    let mut j = 0usize;
    let periodic = {
        // x[..=ell] is a suffix of x[..per + ell + 1] (per + ell + 1 <= m:
        // the maximal suffix x[ell + 1..] has period per).
        let len = (ell + 1) as usize;
        compared += len as u64;
        (0..len).all(|i| x(i) == x(i + per))
    };
    let flow = if periodic {
        // A prefix x[..=memory] already known to match the window.
        let mut memory: isize = -1;
        loop {
            if j > last {
                break ControlFlow::Continue(());
            }
            let start = ell.max(memory) + 1;
            let mut i = start;
            while i < m && x(i as usize) == y(i as usize + j) {
                i += 1;
            }
            compared += (i - start) as u64 + u64::from(i < m);
            if i >= m {
                let mut i = ell;
                while i > memory && x(i as usize) == y(i as usize + j) {
                    i -= 1;
                }
                compared += (ell - i) as u64 + u64::from(i > memory);
                if i <= memory {
                    *work += compared;
                    compared = 0;
                    found(j, work)?;
                }
                j += per;
                memory = m - per as isize - 1;
            } else {
                j += (i - ell) as usize;
                memory = -1;
            }
        }
    } else {
        let per = (ell + 1).max(m - ell - 1) as usize + 1;
        loop {
            if j > last {
                break ControlFlow::Continue(());
            }
            let mut i = ell + 1;
            while i < m && x(i as usize) == y(i as usize + j) {
                i += 1;
            }
            compared += (i - ell - 1) as u64 + u64::from(i < m);
            if i >= m {
                let mut i = ell;
                while i >= 0 && x(i as usize) == y(i as usize + j) {
                    i -= 1;
                }
                compared += (ell - i) as u64 + u64::from(i >= 0);
                if i < 0 {
                    *work += compared;
                    compared = 0;
                    found(j, work)?;
                }
                j += per;
            } else {
                j += (i - ell) as usize;
            }
        }
    };
    *work += compared;
    flow
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The occurrences found by trying every position.
    fn naive(x: &[u16], y: &[u16]) -> Vec<usize> {
        if y.len() < x.len() {
            return Vec::new();
        }
        (0..=y.len() - x.len())
            .filter(|&j| y[j..j + x.len()] == *x)
            .collect()
    }

    fn two_way(x: &[u16], y: &[u16]) -> (Vec<usize>, u64) {
        let mut found = Vec::new();
        let mut work = 0;
        let flow = occurrences(
            |i| x[i],
            x.len(),
            |i| y[i],
            y.len(),
            &mut work,
            |j, _| {
                found.push(j);
                ControlFlow::<()>::Continue(())
            },
        );
        assert_eq!(flow, ControlFlow::Continue(()));
        (found, work)
    }

    /// The words of length `len` over `0..radix`.
    fn words(radix: u16, len: usize) -> impl Iterator<Item = Vec<u16>> {
        (0..(radix as usize).pow(len as u32)).map(move |mut code| {
            (0..len)
                .map(|_| {
                    let d = (code % radix as usize) as u16;
                    code /= radix as usize;
                    d
                })
                .collect()
        })
    }

    /// Every pattern of length 1 to 5 over 2 letters in every text of
    /// length up to 11, and over 3 letters up to 4 in texts up to 7: the
    /// occurrences of the naive search, in the same order, within the
    /// bound on the values compared.
    #[test]
    fn equals_the_naive_search_exhaustively() {
        for (radix, patterns, texts) in [(2, 5, 11), (3, 4, 7)] {
            for m in 1..=patterns {
                for x in words(radix, m) {
                    for n in 0..=texts {
                        for y in words(radix, n) {
                            let (found, work) = two_way(&x, &y);
                            assert_eq!(found, naive(&x, &y), "{x:?} in {y:?}");
                            assert!(
                                work <= 2 * n as u64 + 4 * m as u64,
                                "{x:?} in {y:?}: {work}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Random long patterns and texts, periodic or not, with small
    /// alphabets so that they occur often.
    #[test]
    fn equals_the_naive_search_on_random_texts() {
        let mut rng = sg_nimber::testing::SplitMix64::new(41);
        for case in 0..2000 {
            let radix = 1 + rng.below(3) as u16;
            let n = rng.below(400) as usize;
            let mut y: Vec<u16> = (0..n).map(|_| rng.below(u64::from(radix)) as u16).collect();
            if case % 2 == 0 && n > 0 {
                // Mostly periodic, with a few changes.
                let p = 1 + rng.below(12) as usize;
                for i in p..n {
                    y[i] = y[i - p];
                }
                for _ in 0..rng.below(3) {
                    let i = rng.below(n as u64) as usize;
                    y[i] = rng.below(u64::from(radix) + 1) as u16;
                }
            }
            let m = 1 + rng.below(40) as usize;
            let x: Vec<u16> = if n >= m && case % 3 != 0 {
                let at = rng.below((n - m + 1) as u64) as usize;
                y[at..at + m].to_vec()
            } else {
                (0..m).map(|_| rng.below(u64::from(radix)) as u16).collect()
            };
            let (found, work) = two_way(&x, &y);
            assert_eq!(found, naive(&x, &y), "case {case}");
            assert!(work <= 2 * n as u64 + 4 * m as u64, "case {case}: {work}");
        }
    }

    /// `found` breaking stops the search at once.
    #[test]
    fn a_break_stops_the_search() {
        let y = [1u16; 50];
        let mut seen = 0;
        let flow = occurrences(
            |_| 1,
            3,
            |i| y[i],
            y.len(),
            &mut 0,
            |j, _| {
                seen += 1;
                if j == 4 {
                    ControlFlow::Break(j)
                } else {
                    ControlFlow::Continue(())
                }
            },
        );
        assert_eq!((flow, seen), (ControlFlow::Break(4), 5));
    }
}
