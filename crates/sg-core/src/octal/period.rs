//! Certified periods: the bound of the periodicity theorem (see the module
//! doc of [`crate::octal`]), the search for a candidate period while values
//! arrive, and the smallest period and preperiod once one is certified.

use super::moves::Moves;

/// A certified period of a Grundy sequence: `G(n + period) = G(n)` for
/// every `n >= preperiod`, with both as small as possible.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Period {
    /// The smallest `e` such that the sequence is periodic from `e` on.
    pub preperiod: u64,
    /// The smallest period.
    pub period: u64,
    /// How many values (`G(0..certified_with)`) the certificate used.
    pub certified_with: u64,
}

impl Period {
    /// `G(heap)` for any heap, from values covering at least
    /// `0..preperiod + period`.
    ///
    /// # Panics
    /// If `values` is shorter than `preperiod + period`.
    pub fn value(&self, values: &[u16], heap: u64) -> u16 {
        values[self.index(heap) as usize]
    }

    /// The heap below `preperiod + period` with the same value as `heap`.
    pub fn index(&self, heap: u64) -> u64 {
        if heap < self.preperiod {
            heap
        } else {
            self.preperiod + (heap - self.preperiod) % self.period
        }
    }

    /// The number of values that describe the whole sequence:
    /// `preperiod + period`.
    pub fn len(&self) -> u64 {
        self.preperiod + self.period
    }

    /// Always false: a period is at least 1.
    pub fn is_empty(&self) -> bool {
        false
    }
}

/// A whole certified Grundy sequence in finite form: the preperiod and one
/// period of values, answering any heap in O(1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeriodicSequence {
    period: Period,
    values: Vec<u16>,
}

impl PeriodicSequence {
    /// The sequence described by `period` and the first values (at least
    /// `preperiod + period` of them; the rest are dropped).
    ///
    /// # Panics
    /// If `values` is shorter than `period.len()`.
    pub fn new(period: Period, values: &[u16]) -> PeriodicSequence {
        let values = values[..period.len() as usize].to_vec();
        PeriodicSequence { period, values }
    }

    /// `G(heap)`, for any heap.
    pub fn value(&self, heap: u64) -> u16 {
        self.period.value(&self.values, heap)
    }

    /// The certified period.
    pub fn period(&self) -> Period {
        self.period
    }

    /// `G(0..preperiod + period)`.
    pub fn values(&self) -> &[u16] {
        &self.values
    }
}

/// How many values `G(0..L)` certify period `p` from `e`: the smallest `L`
/// with `L >= N(e, p) + p` (the table in [`crate::octal`]), or `None` for
/// Grundy's game, which has no periodicity theorem.
pub(crate) fn certificate_len(moves: &Moves, e: u64, p: u64) -> Option<u64> {
    if moves.unequal {
        return None;
    }
    let k = u64::from(moves.max_take);
    let e1 = e.max(1);
    let mut n = k + 1;
    if !moves.single.is_empty() {
        n = n.max(e1 + k);
    }
    if !moves.pair.is_empty() {
        n = n.max(2 * e1 + p + k);
    }
    if !moves.triple.is_empty() {
        n = n.max(3 * e1 + 2 * p + k);
    }
    Some(n + p)
}

/// Looks for a period while values arrive, and certifies one as soon as
/// the values suffice.
#[derive(Debug, Clone, Default)]
pub(crate) struct Tracker {
    /// The candidate `(period, preperiod)`: `G(m + p) = G(m)` for every
    /// `m` from the preperiod up to the last value, and the number of
    /// values that will certify it.
    candidate: Option<Candidate>,
    /// The number of values at which the next search for a candidate runs.
    next_search: u64,
}

#[derive(Debug, Clone, Copy)]
struct Candidate {
    period: u64,
    preperiod: u64,
    certify_at: u64,
}

impl Tracker {
    /// Call after each new value (`values` ends with it). Returns the
    /// smallest period and preperiod once a period is certified.
    pub(crate) fn push(&mut self, moves: &Moves, values: &[u16]) -> Option<Period> {
        let len = values.len() as u64;
        if let Some(c) = &mut self.candidate {
            let n = len - 1;
            if n >= c.period
                && n - c.period >= c.preperiod
                && values[n as usize] != values[(n - c.period) as usize]
            {
                c.preperiod = n - c.period + 1;
                c.certify_at = certificate_len(moves, c.preperiod, c.period)?;
            }
        }
        if len >= self.next_search {
            self.next_search = len + if len < 4096 { 1 } else { len / 8 };
            self.search(moves, values);
        }
        let c = self.candidate?;
        (len >= c.certify_at).then(|| smallest(values, c.preperiod, c.period, len))
    }

    /// Looks for the smallest `p <= len/2` such that the last
    /// `max(len/4, p)` values repeat `p` earlier; adopts it if it would
    /// certify sooner than the current candidate. A period certifiable with
    /// `len` values passes this test (the window lies beyond `e + p`), so a
    /// candidate is found before it can be certified, and the run stops at
    /// the first length that certifies it.
    fn search(&mut self, moves: &Moves, values: &[u16]) {
        let len = values.len();
        let Some(p) = first_repeat(values) else {
            return;
        };
        if self.candidate.is_some_and(|c| c.period == p as u64) {
            return;
        }
        let e = preperiod_for(values, p, len - p);
        let Some(certify_at) = certificate_len(moves, e as u64, p as u64) else {
            return;
        };
        if self.candidate.is_none_or(|c| certify_at < c.certify_at) {
            self.candidate = Some(Candidate {
                period: p as u64,
                preperiod: e as u64,
                certify_at,
            });
        }
    }
}

/// The smallest `p <= len/2` such that the last `max(len/4, p)` values
/// repeat `p` earlier. Most `p` fail at once: blocks of 32 are screened
/// without a branch for the last two values (the loop vectorises), and
/// only the `p` that pass are checked in full.
fn first_repeat(values: &[u16]) -> Option<usize> {
    const BLOCK: usize = 32;
    let len = values.len();
    let holds = |p: usize| {
        let window = (len / 4).max(p);
        (len - window..len)
            .rev()
            .all(|m| values[m] == values[m - p])
    };
    if len < 8 {
        // The screen needs windows of two values or more (len/4 >= 2).
        return (1..=len / 2).find(|&p| holds(p));
    }
    let (last, before) = (values[len - 1], values[len - 2]);
    let top = len / 2;
    let mut p = 1;
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
            if holds(p + j) {
                return Some(p + j);
            }
        }
        p += BLOCK;
    }
    (p..=top).find(|&p| holds(p))
}

/// The smallest `e <= from` such that `G(m) = G(m + p)` for `e <= m < from`.
fn preperiod_for(values: &[u16], p: usize, from: usize) -> usize {
    (0..from)
        .rev()
        .find(|&m| values[m] != values[m + p])
        .map_or(0, |m| m + 1)
}

/// The smallest period and preperiod, given that `G` is certified
/// `p`-periodic from `e` and `G(0..len)` is known with `len >= e + p`.
pub(crate) fn smallest(values: &[u16], e: u64, p: u64, len: u64) -> Period {
    let (e, p) = (e as usize, p as usize);
    // G through the certified period (the values may end before e + 2p).
    let at = |m: usize| values[if m < e { m } else { e + (m - e) % p }];
    let d = (1..=p)
        .filter(|d| p % d == 0)
        .find(|&d| (e..e + p).all(|m| at(m) == at(m + d)))
        .unwrap_or(p);
    Period {
        preperiod: preperiod_for(values, d, e) as u64,
        period: d as u64,
        certified_with: len,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::octal::Rules;

    /// `first_repeat` equals trying every `p` in order, on random
    /// sequences that repeat (with small alphabets, so that the screen
    /// passes often) and that do not.
    #[test]
    fn first_repeat_equals_trying_every_period() {
        let mut rng = crate::testing::SplitMix64::new(12);
        let mut found = 0;
        for case in 0..3000 {
            let len = 1 + rng.below(300) as usize;
            let alphabet = 1 + rng.below(4);
            let p = 1 + rng.below(70) as usize;
            let e = rng.below(len as u64 + 1) as usize;
            let mut values: Vec<u16> = (0..len).map(|_| rng.below(alphabet) as u16).collect();
            if case % 2 == 0 {
                for m in e.max(p)..len {
                    values[m] = values[m - p];
                }
            }
            let expected = (1..=len / 2).find(|&p| {
                let window = (len / 4).max(p);
                (len - window..len).all(|m| values[m] == values[m - p])
            });
            found += usize::from(expected.is_some());
            assert_eq!(first_repeat(&values), expected, "case {case}: {values:?}");
        }
        assert!(found > 1000 && found < 2900, "{found}");
    }

    #[test]
    fn smallest_period_and_preperiod() {
        // 5 1 2 3 1 2 3 ... written as period 6 from 3: smallest is 3 from 1.
        let v = [5, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3];
        let p = smallest(&v, 3, 6, v.len() as u64);
        assert_eq!((p.preperiod, p.period), (1, 3));
        assert_eq!(p.value(&v, 1_000_001), 2);
        let s = PeriodicSequence::new(p, &v);
        assert_eq!(s.values(), &[5, 1, 2, 3]);
        assert_eq!(
            (s.value(0), s.value(4), s.value(u64::MAX)),
            (5, 1, v[1 + ((u64::MAX - 1) % 3) as usize])
        );
    }

    #[test]
    fn certificate_bounds_by_kind() {
        let len =
            |code: &str, e, p| certificate_len(&Moves::new(&Rules::parse(code).unwrap()), e, p);
        // Subtraction {1, 2}: k = 2, one heap: N = max(3, 1 + 2) = 3.
        assert_eq!(len("0.33", 0, 3), Some(6));
        // Kayles: k = 2, two heaps: N = 2*71 + 12 + 2.
        assert_eq!(len("0.77", 71, 12), Some(2 * 71 + 12 + 2 + 12));
        // Hexadecimal 0.f: k = 1, three heaps: N = 3*5 + 2*4 + 1.
        assert_eq!(len("0.f", 5, 4), Some(3 * 5 + 2 * 4 + 1 + 4));
        // 4.: k = 0, e' = 1.
        assert_eq!(len("4.", 0, 2), Some(2 + 2 + 2));
        assert_eq!(
            certificate_len(&Moves::new(&Rules::grundys_game()), 0, 1),
            None
        );
    }
}
