//! [`Sequence`]: the incremental engine. Values arrive heap by heap (each
//! heap needs all smaller ones), each computed by the sparse-space method;
//! the run stops as soon as a period is certified.

use super::moves::Moves;
use super::period::{Period, PeriodicSequence, Tracker};
use super::sparse::{Sparse, ValueLimit};
use super::{OctalError, Rules, check_heap_limit};

/// How often (in heaps) [`Sequence::extend_to`] reports progress.
const PROGRESS_EVERY: u64 = 1 << 16;

/// Why [`Sequence::extend_to`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// A period is certified ([`Sequence::period`]); no more values are
    /// needed, and none were computed past the certificate.
    Certified(Period),
    /// The values reach the requested heap and no period is certified yet.
    LimitReached,
}

/// The Grundy sequence of a game, computed incrementally.
///
/// ```
/// use sg_core::octal::{Rules, Sequence, Status};
/// let mut kayles = Sequence::new(Rules::parse("0.77").unwrap());
/// let Status::Certified(p) = kayles.extend_to(1000, &mut |_| {}).unwrap() else { panic!() };
/// assert_eq!((p.preperiod, p.period), (71, 12));
/// assert_eq!(kayles.value(1 << 62), Some(kayles.values()[71 + ((1 << 62) - 71) % 12]));
/// ```
#[derive(Debug, Clone)]
pub struct Sequence {
    rules: Rules,
    moves: Moves,
    values: Vec<u16>,
    sparse: Sparse,
    tracker: Tracker,
    period: Option<Period>,
    limit: ValueLimit,
    max_value: u16,
}

impl Sequence {
    /// A sequence with no value computed yet.
    pub fn new(rules: Rules) -> Sequence {
        Sequence {
            moves: Moves::new(&rules),
            rules,
            values: Vec::new(),
            sparse: Sparse::new(),
            tracker: Tracker::default(),
            period: None,
            limit: ValueLimit::from(u16::MAX),
            max_value: 0,
        }
    }

    /// Continues a stored run: `values` must be `G(0), G(1), ...` of
    /// `rules` as an earlier [`Sequence`] computed them (they are trusted,
    /// not recomputed; only `G(0) = 0` is checked). The period search runs
    /// at once, so a stored run long enough to certify is certified here.
    pub fn resume(rules: Rules, values: Vec<u16>) -> Result<Sequence, OctalError> {
        if values.first().is_some_and(|&g| g != 0) {
            return Err(OctalError::BadValues {
                reason: "G(0) must be 0".into(),
            });
        }
        check_heap_limit(values.len() as u64)?;
        let mut s = Sequence::new(rules);
        s.sparse = Sparse::rebuild(&values);
        s.max_value = values.iter().copied().max().unwrap_or(0);
        s.values = values;
        if s.rules.has_periodicity_theorem() {
            for len in 1..=s.values.len() {
                if let Some(p) = s.tracker.push(&s.moves, &s.values[..len]) {
                    s.period = Some(p);
                    break;
                }
            }
        }
        Ok(s)
    }

    /// Computes values up to heap `to` (inclusive), stopping early as soon
    /// as a period is certified. `progress` is called now and then with
    /// the number of values computed so far.
    pub fn extend_to(
        &mut self,
        to: u64,
        progress: &mut dyn FnMut(u64),
    ) -> Result<Status, OctalError> {
        check_heap_limit(to)?;
        if let Some(p) = self.period {
            return Ok(Status::Certified(p));
        }
        let end = to as usize + 1;
        self.values.reserve(end.saturating_sub(self.values.len()));
        while self.values.len() < end {
            let n = self.values.len() as u64;
            let g = self
                .sparse
                .value(&self.moves, &self.values, self.limit)
                .ok_or(OctalError::ValueOverflow { heap: n })?;
            self.values.push(g);
            self.max_value = self.max_value.max(g);
            self.sparse.push(&self.values);
            if n.is_multiple_of(PROGRESS_EVERY) {
                progress(n);
            }
            if self.rules.has_periodicity_theorem()
                && let Some(p) = self.tracker.push(&self.moves, &self.values)
            {
                self.period = Some(p);
                progress(self.values.len() as u64);
                return Ok(Status::Certified(p));
            }
        }
        progress(self.values.len() as u64);
        Ok(Status::LimitReached)
    }

    /// The game.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// `G(0), G(1), ...` as far as computed.
    pub fn values(&self) -> &[u16] {
        &self.values
    }

    /// The certified period, if any (smallest period and preperiod).
    pub fn period(&self) -> Option<Period> {
        self.period
    }

    /// The certified sequence, answering any heap in O(1), if a period is
    /// certified.
    pub fn periodic(&self) -> Option<PeriodicSequence> {
        self.period.map(|p| PeriodicSequence::new(p, &self.values))
    }

    /// `G(heap)`: computed, or through the certified period; `None` beyond
    /// the computed values when no period is certified.
    pub fn value(&self, heap: u64) -> Option<u16> {
        match self.period {
            Some(p) => Some(p.value(&self.values, heap)),
            None => self.values.get(usize::try_from(heap).ok()?).copied(),
        }
    }

    /// The largest value computed (0 before any).
    pub fn max_value(&self) -> u16 {
        self.max_value
    }

    /// The mask of the sparse-space split in use: a heap `a >= 1` is rare
    /// when `popcount(G(a) & mask)` is even. 0 means no split (every heap
    /// rare), e.g. while too few values are known.
    pub fn rare_mask(&self) -> u16 {
        self.sparse.mask()
    }

    /// The number of rare heaps under [`Sequence::rare_mask`].
    pub fn rare_count(&self) -> u64 {
        self.sparse.rare().len() as u64
    }

    /// The largest rare heap under [`Sequence::rare_mask`], if any.
    pub fn last_rare(&self) -> Option<u64> {
        self.sparse.rare().last().map(|&a| u64::from(a))
    }

    /// Lowers the largest value allowed (tests of the overflow error).
    #[cfg(test)]
    pub(crate) fn with_value_limit(mut self, limit: u16) -> Sequence {
        self.limit = ValueLimit::from(limit);
        self
    }
}
