//! Certified periods: the bound of the periodicity theorem (see the module
//! doc of [`crate`]), the search for a candidate period while values
//! arrive, and the smallest period and preperiod once one is certified.

use super::moves::Moves;
use super::repeat::{EVERY_VALUE_UP_TO, Watch, first_repeat};

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

/// The period a [`Sequence`](super::Sequence) computing these values
/// certifies, and where: the values are given to the period search one at
/// a time, as a run gives them, so a run that computed them stops at
/// `certified_with` with this period. `None` if no period is certified
/// by the end of the values, and for Grundy's game (no periodicity
/// theorem). The values are trusted to be `G(0), G(1), ...` of `rules`;
/// the time is linear in their number.
pub fn certify(rules: &super::Rules, values: &[u16]) -> Option<Period> {
    if !rules.has_periodicity_theorem() {
        return None;
    }
    let moves = Moves::new(rules);
    let mut tracker = Tracker::default();
    (1..=values.len()).find_map(|len| tracker.push(&moves, &values[..len]))
}

/// How many values `G(0..L)` certify period `p` from `e`: the smallest `L`
/// with `L >= N(e, p) + p` (the table in [`crate`]), or `None` for
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
///
/// Its cost is linear in the values pushed, whatever their shape: a
/// search runs after each of the first 4096 values, then each time the
/// values have grown by an eighth, and each costs `O(len)` (see
/// [`first_repeat`]), so the searches add up to about 9 passes over the
/// values; each push costs `O(1)` otherwise; and the smallest period and
/// preperiod of a certified candidate cost `O(p log p + e)`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Tracker {
    /// The candidate `(period, preperiod)`: `G(m + p) = G(m)` for every
    /// `m` from the preperiod up to the last value, and the number of
    /// values that will certify it.
    candidate: Option<Candidate>,
    /// The number of values at which the next search for a candidate runs.
    next_search: u64,
    /// The answers of the searches after each of the first
    /// [`EVERY_VALUE_UP_TO`] values (dropped after them).
    runs: Option<Watch>,
    /// The values read by the searches so far (what bounds their time; the
    /// tests check that it grows linearly).
    work: u64,
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
        // After each of the first values, the runs answer; then they go.
        let answered = match &mut self.runs {
            _ if len as usize > EVERY_VALUE_UP_TO => {
                self.runs = None;
                None
            }
            Some(runs) => runs.push(values, &mut self.work),
            None if len == 1 => {
                let mut runs = Watch::default();
                let answer = runs.push(values, &mut self.work);
                self.runs = Some(runs);
                answer
            }
            None => None,
        };
        if len >= self.next_search {
            self.next_search = len
                + if len < EVERY_VALUE_UP_TO as u64 {
                    1
                } else {
                    len / 8
                };
            let repeat = answered.unwrap_or_else(|| first_repeat(values, &mut self.work));
            self.search(moves, values, repeat);
        }
        let c = self.candidate?;
        (len >= c.certify_at).then(|| smallest(values, c.preperiod, c.period, len, &mut self.work))
    }

    /// Given the smallest `p <= len/2` such that the last `max(len/4, p)`
    /// values repeat `p` earlier (`repeat`), adopts it if it would
    /// certify sooner than the current candidate. A period certifiable with
    /// `len` values passes this test (the window lies beyond `e + p`), so a
    /// candidate is found before it can be certified, and the run stops at
    /// the first length that certifies it.
    fn search(&mut self, moves: &Moves, values: &[u16], repeat: Option<usize>) {
        let len = values.len();
        let Some(p) = repeat else {
            return;
        };
        if self.candidate.is_some_and(|c| c.period == p as u64) {
            return;
        }
        let e = preperiod_for(values, p, len - p, &mut self.work);
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

    /// The values read by the searches so far.
    #[cfg(test)]
    pub(crate) fn work(&self) -> u64 {
        self.work
    }
}

/// The smallest `e <= from` such that `G(m) = G(m + p)` for `e <= m < from`
/// (adding the values read to `work`).
fn preperiod_for(values: &[u16], p: usize, from: usize, work: &mut u64) -> usize {
    let e = (0..from)
        .rev()
        .find(|&m| values[m] != values[m + p])
        .map_or(0, |m| m + 1);
    *work += (from - e + 1) as u64;
    e
}

/// The smallest period and preperiod, given that `G` is certified
/// `p`-periodic from `e` and `G(0..len)` is known with `len >= e + p`
/// (adding the values read to `work`).
///
/// The periods `d` dividing `p` for which one period from `e` repeats
/// `d` later (`G` is then `d`-periodic from `e`) are the multiples of the
/// smallest one that divide `p` (two such periods give their gcd), so the
/// smallest is found by dividing `p` by each of its prime factors while
/// the quotient is still a period: at most `log2 p` checks of `p` values.
pub(crate) fn smallest(values: &[u16], e: u64, p: u64, len: u64, work: &mut u64) -> Period {
    let (e, p) = (e as usize, p as usize);
    // G through the certified period (the values may end before e + 2p).
    let at = |m: usize| values[if m < e { m } else { e + (m - e) % p }];
    let mut repeats = |d: usize| {
        *work += p as u64;
        (e..e + p).all(|m| at(m) == at(m + d))
    };
    let mut d = p;
    let mut rest = p;
    let mut factor = 2;
    while rest > 1 {
        if factor * factor > rest {
            // What is left is prime.
            factor = rest;
        }
        if rest % factor == 0 {
            while rest % factor == 0 {
                rest /= factor;
            }
            while d % factor == 0 && repeats(d / factor) {
                d /= factor;
            }
        }
        factor += 1;
    }
    Period {
        preperiod: preperiod_for(values, d, e, work) as u64,
        period: d as u64,
        certified_with: len,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    /// `smallest` equals trying every divisor of the period in increasing
    /// order (the definition: the first `d` such that one period from `e`
    /// repeats `d` later), then walking the preperiod down.
    #[test]
    fn smallest_equals_trying_every_divisor() {
        let mut rng = sg_nimber::testing::SplitMix64::new(5);
        for case in 0..3000 {
            // A sequence with smallest period d from some e0, written as
            // period p = d * k from e >= e0.
            let d = 1 + rng.below(12) as usize;
            let p = d * (1 + rng.below(12) as usize);
            let e = rng.below(40) as usize;
            let alphabet = 1 + rng.below(3);
            let mut values: Vec<u16> = (0..e + 2 * p + rng.below(20) as usize)
                .map(|_| rng.below(alphabet) as u16)
                .collect();
            for m in e + d..values.len() {
                values[m] = values[m - d];
            }
            let len = values.len();
            let at = |m: usize| values[if m < e { m } else { e + (m - e) % p }];
            let expected = (1..=p)
                .filter(|&dd| p.is_multiple_of(dd))
                .find(|&dd| (e..e + p).all(|m| at(m) == at(m + dd)))
                .unwrap();
            let expected_e = (0..e)
                .rev()
                .find(|&m| values[m] != values[m + expected])
                .map_or(0, |m| m + 1);
            let got = smallest(&values, e as u64, p as u64, len as u64, &mut 0);
            assert_eq!(
                (got.preperiod, got.period, got.certified_with),
                (expected_e as u64, expected as u64, len as u64),
                "case {case}: e {e} p {p}: {values:?}"
            );
        }
    }

    /// The shape that made the tracker quadratic: a long preperiod, then
    /// period 2. The values it reads stay within a fixed multiple of the
    /// values pushed (about 11 per value here; the screen alone, without
    /// the fall-back to string matching, passed the bound after 1,038,247
    /// values, having read 376 million).
    #[test]
    fn tracking_is_linear_after_a_long_preperiod() {
        let moves = Moves::new(&Rules::parse(".376").unwrap());
        let mut rng = sg_nimber::testing::SplitMix64::new(2);
        let preperiod = 1_000_000;
        let mut values = Vec::new();
        let mut tracker = Tracker::default();
        let certified = loop {
            let n = values.len();
            values.push(if n < preperiod {
                rng.below(4) as u16
            } else {
                5 + (n % 2) as u16
            });
            if let Some(p) = tracker.push(&moves, &values) {
                break p;
            }
            // Checked as it goes, so that quadratic work fails fast.
            assert!(
                tracker.work() <= 20 * values.len() as u64 + (1 << 26),
                "{} values read for {} values",
                tracker.work(),
                values.len()
            );
        };
        // Certified as soon as the theorem allows: N = 2e + p + 3, plus p.
        let e = preperiod as u64;
        assert_eq!(
            (
                certified.preperiod,
                certified.period,
                certified.certified_with
            ),
            (e, 2, 2 * e + 2 + 3 + 2)
        );
    }

    #[test]
    fn smallest_period_and_preperiod() {
        // 5 1 2 3 1 2 3 ... written as period 6 from 3: smallest is 3 from 1.
        let v = [5, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3];
        let p = smallest(&v, 3, 6, v.len() as u64, &mut 0);
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
