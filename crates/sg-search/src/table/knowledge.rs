//! What the table knows of a component: [`Knowledge`] for the search,
//! [`Fact`] for its users and checkpoints.

use super::{ENTRY_BITS, Packed};
use crate::game::Nimber;

/// What is known of a component's nimber: exact, or a lower bound and a
/// few values above it that are known not to be the nimber.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Knowledge {
    /// The nimber is at least `low` (every value below it is the nimber of
    /// an option); with `exact`, it is `low`.
    pub(crate) low: Nimber,
    /// The nimber is `low`.
    pub(crate) exact: bool,
    /// Bit `i`: the nimber is not `low + i` (bit 0 is always clear: `low`
    /// excluded raises `low`).
    pub(crate) excluded: u64,
}

impl Knowledge {
    /// The nimber is `n`.
    pub(crate) fn exact(n: Nimber) -> Self {
        Knowledge {
            low: n,
            exact: true,
            excluded: 0,
        }
    }

    /// The nimber if known.
    pub(crate) fn nimber(&self) -> Option<Nimber> {
        self.exact.then_some(self.low)
    }

    /// Whether the nimber is known not to be `t`.
    pub(crate) fn excludes(&self, t: Nimber) -> bool {
        if self.exact {
            return t != self.low;
        }
        if t < self.low {
            return true;
        }
        let above = t - self.low;
        above < 64 && self.excluded >> above & 1 == 1
    }

    /// Records that the nimber is not `t`.
    pub(crate) fn exclude(&mut self, t: Nimber) {
        if self.exact || t < self.low || t - self.low >= 64 {
            return;
        }
        self.excluded |= 1 << (t - self.low);
        self.normalize();
    }

    /// Records that the nimber is at least `low`.
    pub(crate) fn raise(&mut self, low: Nimber) {
        if self.exact || low <= self.low {
            return;
        }
        let shift = low - self.low;
        self.excluded = if shift >= 64 {
            0
        } else {
            self.excluded >> shift
        };
        self.low = low;
        self.normalize();
    }

    /// `low` excluded: the nimber is above it.
    fn normalize(&mut self) {
        while self.excluded & 1 == 1 {
            self.excluded >>= 1;
            self.low += 1;
        }
    }

    /// What both say.
    pub(crate) fn merge(&mut self, other: &Knowledge) {
        if self.exact {
            return;
        }
        if other.exact {
            *self = *other;
            return;
        }
        self.raise(other.low);
        for i in 0..64 {
            if other.excluded >> i & 1 == 1 {
                self.exclude(other.low + i);
            }
        }
    }
}

/// What the table knows of a component, as [`Solver::facts`](crate::Solver::facts)
/// gives it and a checkpoint stores it: the exact nimber, or a lower
/// bound and values above it that are not the nimber.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fact {
    knowledge: Knowledge,
}

impl Fact {
    /// The nimber, if the fact is exact.
    pub fn nimber(&self) -> Option<Nimber> {
        self.knowledge.nimber()
    }

    /// The nimber is at least this.
    pub fn at_least(&self) -> Nimber {
        self.knowledge.low
    }

    /// Whether the nimber is known not to be `t`.
    pub fn excludes(&self, t: Nimber) -> bool {
        self.knowledge.excludes(t)
    }

    /// The fact as one word (the layout of the table's entries, without
    /// the work): what a checkpoint stores.
    pub fn to_word(&self) -> u64 {
        Packed::new(&self.knowledge, 0).map_or(0, |p| p.0)
    }

    /// The fact a word of [`to_word`](Self::to_word) holds, if it is one:
    /// marked used, none of the lock's bits, no work, and an exact nimber
    /// with no values excluded.
    pub fn from_word(word: u64) -> Option<Fact> {
        let packed = Packed(word);
        let knowledge = packed.knowledge();
        let valid = packed.used()
            && word & !ENTRY_BITS == 0
            && packed.work() == 0
            && Packed::new(&knowledge, 0) == Some(packed)
            && !(knowledge.exact && knowledge.excluded != 0);
        valid.then_some(Fact { knowledge })
    }

    pub(crate) fn knowledge(&self) -> Knowledge {
        self.knowledge
    }

    pub(crate) fn of(knowledge: Knowledge) -> Fact {
        Fact { knowledge }
    }
}
