//! [`MisereQuotient`]: the misère quotient of a take-and-break game,
//! computed heap by heap until its pretending function is certified
//! periodic, the heap asked for is reached, or a limit stops it.

use super::construct::Construction;
use super::monoid::{Element, Monoid};
use super::presentation::Presentation;
use super::stored::StoredQuotient;
use super::tame::{Tame, tame};
use super::{Ended, Generator, Limit, Limits, MAX_ORDER, MisereError};
use crate::{Period, Rules};
use std::ops::ControlFlow;

/// Where a computation stands, for [`MisereQuotient::compute_watched`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// The last heap the quotient is proven for.
    pub proven_to: u64,
    /// The quotient's order there.
    pub order: usize,
    /// The size of its P-portion.
    pub p_portion: usize,
    /// The candidates refuted so far for the next heap (0 between heaps).
    pub candidates: usize,
    /// The order of the last candidate for the next heap (0 if none).
    pub candidate_order: usize,
    /// The bytes the quotient and the construction's state take.
    pub bytes: usize,
}

/// The misère quotient of the heaps `0..=computed_to` of a game, exact
/// (proven) for every sum of those heaps, and for every heap when its
/// pretending function is certified periodic.
#[derive(Debug, Clone)]
pub struct MisereQuotient {
    rules: Rules,
    construction: Construction,
    /// The construction's generators less those the others generate.
    generators: Vec<Generator>,
    ended: Ended,
    max_order: usize,
}

impl MisereQuotient {
    /// Computes the quotient of `rules` heap by heap up to `limits.to`,
    /// stopping as soon as the pretending function is certified periodic,
    /// or when the quotient would need more than `limits.max_order`
    /// elements (or another of the construction's limits is met): the
    /// quotient is then exact up to the last heap before. Fails only for a
    /// `max_order` outside `1..=`[`MAX_ORDER`].
    pub fn compute(rules: &Rules, limits: Limits) -> Result<MisereQuotient, MisereError> {
        Self::compute_watched(rules, limits, &mut |_| ControlFlow::Continue(()))
    }

    /// [`MisereQuotient::compute`], calling `watch` after each heap proven
    /// and now and then while a heap is being proven (between the
    /// candidates tried), with where the construction stands: when it
    /// answers [`ControlFlow::Break`], the computation stops with the
    /// quotient of the heaps proven so far, and [`Ended::Stopped`] with
    /// [`Limit::Interrupted`] at the first heap not proven. For a caller
    /// that stops on a signal or a time bound, or shows progress.
    pub fn compute_watched(
        rules: &Rules,
        limits: Limits,
        watch: &mut dyn FnMut(&Progress) -> ControlFlow<()>,
    ) -> Result<MisereQuotient, MisereError> {
        Self::compute_kept(rules, limits, None, watch, &mut |_, _| {})
    }

    /// [`MisereQuotient::compute_watched`] from a stored quotient (`from`,
    /// checked first: see [`StoredQuotient`]; its own heaps are not
    /// computed again) or from heap 0, calling `keep` after each heap
    /// proven with that heap and a way to store the quotient so far (for a
    /// caller that checkpoints a long run). Fails for a `max_order` outside
    /// `1..=`[`MAX_ORDER`], a stored quotient that is not the quotient of
    /// `rules` ([`MisereError::Stored`]), one larger than `max_order`
    /// ([`MisereError::StoredOrder`]) or one whose check `watch` stopped
    /// ([`MisereError::CheckStopped`]).
    pub fn compute_kept(
        rules: &Rules,
        limits: Limits,
        from: Option<StoredQuotient>,
        watch: &mut dyn FnMut(&Progress) -> ControlFlow<()>,
        keep: &mut dyn FnMut(u64, &dyn Fn() -> StoredQuotient),
    ) -> Result<MisereQuotient, MisereError> {
        if !(1..=MAX_ORDER).contains(&limits.max_order) {
            return Err(MisereError::BadOrderLimit {
                max_order: limits.max_order,
            });
        }
        let mut construction = match from {
            None => Construction::new(rules, limits.max_order),
            Some(stored) if stored.order > limits.max_order => {
                return Err(MisereError::StoredOrder {
                    order: stored.order,
                    max_order: limits.max_order,
                });
            }
            Some(stored) => {
                let order = stored.order;
                let proven_to = stored.pretending.len().saturating_sub(1) as u64;
                let mut stop = || {
                    watch(&Progress {
                        proven_to,
                        order,
                        p_portion: 0,
                        candidates: 0,
                        candidate_order: 0,
                        bytes: 0,
                    })
                    .is_break()
                };
                match super::stored::check(rules, limits.max_order, stored, &mut stop) {
                    Ok(Some(construction)) => construction,
                    Ok(None) => return Err(MisereError::CheckStopped),
                    Err(why) => {
                        return Err(MisereError::Stored {
                            code: rules.to_string(),
                            why,
                        });
                    }
                }
            }
        };
        let ended = loop {
            if construction.period.is_some() {
                break Ended::Certified;
            }
            if construction.last_heap() >= limits.to {
                break Ended::Reached;
            }
            let mut progress = Progress {
                proven_to: construction.last_heap(),
                order: construction.monoid.order(),
                p_portion: construction.monoid.p_count(),
                candidates: 0,
                candidate_order: 0,
                bytes: construction.bytes(),
            };
            let interrupted = Ended::Stopped {
                heap: progress.proven_to + 1,
                why: Limit::Interrupted,
            };
            if watch(&progress).is_break() {
                break interrupted;
            }
            let mut poll = |search: Option<&super::adjoin::Search>| {
                if let Some(search) = search {
                    progress.candidates = search.candidates;
                    progress.candidate_order = search.candidate;
                    progress.bytes = progress.bytes.max(search.bytes);
                }
                watch(&progress).is_break()
            };
            if let Err(ended) = construction.push_heap(&mut poll) {
                break ended;
            }
            keep(construction.last_heap(), &|| {
                super::stored::store(&construction)
            });
        };
        let generators =
            super::construct::minimal_generators(&construction.monoid, &construction.generators);
        Ok(MisereQuotient {
            rules: rules.clone(),
            generators,
            construction,
            ended,
            max_order: limits.max_order,
        })
    }

    /// The game.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The bipartite monoid `(Q, P)`.
    pub fn monoid(&self) -> &Monoid {
        &self.construction.monoid
    }

    /// The number of elements of the quotient.
    pub fn order(&self) -> usize {
        self.monoid().order()
    }

    /// The elements of the P-portion (the sums lost by the player to move).
    pub fn p_portion(&self) -> Vec<Element> {
        self.monoid()
            .elements()
            .filter(|&x| self.monoid().is_p(x))
            .collect()
    }

    /// The last heap the quotient is exact for (every heap when certified).
    pub fn computed_to(&self) -> u64 {
        self.construction.last_heap()
    }

    /// `Phi(0), ..., Phi(computed_to)`: each heap's element.
    pub fn pretending(&self) -> &[Element] {
        &self.construction.pretending
    }

    /// The certified period of the pretending function (smallest period
    /// and preperiod), if any.
    pub fn period(&self) -> Option<Period> {
        self.construction.period
    }

    /// Whether the quotient is proven for every heap (the pretending
    /// function is certified periodic).
    pub fn is_certified(&self) -> bool {
        self.period().is_some()
    }

    /// Why the computation stopped.
    pub fn ended(&self) -> &Ended {
        &self.ended
    }

    /// The order limit it ran under.
    pub fn max_order(&self) -> usize {
        self.max_order
    }

    /// The heaps whose elements generate the quotient, in order (`a`,
    /// `b`, ...): each heap whose element the heaps before it do not
    /// generate, less those that the others generate (a minimal set: no
    /// generator is a product of the others).
    pub fn generators(&self) -> &[Generator] {
        &self.generators
    }

    /// The presentation by the generators and relations.
    pub fn presentation(&self) -> Presentation {
        let generators: Vec<Element> = self.generators().iter().map(|g| g.element).collect();
        Presentation::new(self.monoid(), &generators)
    }

    /// Whether the game is tame: its quotient (so far) that of misère Nim.
    pub fn tame(&self) -> Option<Tame> {
        tame(self.monoid())
    }

    /// The element of a heap: computed, or through the certified period;
    /// `None` beyond the heaps the quotient is exact for.
    pub fn element_of_heap(&self, heap: u64) -> Option<Element> {
        if heap <= self.computed_to() {
            return Some(self.pretending()[heap as usize]);
        }
        let period = self.period()?;
        Some(super::period::image(self.pretending(), &period, heap))
    }

    /// The quotient as a file stores it, to be continued by
    /// [`MisereQuotient::compute_kept`].
    pub fn stored(&self) -> StoredQuotient {
        super::stored::store(&self.construction)
    }

    /// The bytes the quotient and the construction's state take.
    pub fn bytes(&self) -> usize {
        self.construction.bytes()
    }
}
