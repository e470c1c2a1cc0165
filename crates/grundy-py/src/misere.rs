//! `grundy.misere`: the misère quotient of a take-and-break game
//! (`sg_octal::misere::MisereQuotient`, Plambeck and Siegel's quotients), as
//! `grundy octal CODE --misere` computes it: its monoid's presentation,
//! P-portion and pretending function, its certified period, and who wins
//! a sum of heaps in misère play and how.

use pyo3::prelude::*;
use sg_octal::MAX_COMPUTED_HEAP;
use sg_octal::misere::{DEFAULT_MAX_ORDER, DEFAULT_TO, Element, Limits, MAX_ORDER, MisereError};
use sg_octal::misere::{MisereQuotient as Quotient, Presentation};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::args::int_in;
use crate::errors::value_error;
use crate::octal::{HeapMove, sum_of_heaps};
use crate::progress::Progress;
use crate::run::{Stop, run_detached};

/// The misère quotient of a take-and-break game: who wins any sum of its
/// heaps when the player who makes the last move loses.
///
/// ``code`` is a code or a name as for :func:`octal` (``"0.07"`` or
/// ``"dawsons-kayles"``; ``"0.137"``, Dawson's Chess). The quotient is built heap by heap, each
/// proven, until its pretending function is certified periodic (then it
/// answers every heap below 2**63), heap ``to`` is reached (default
/// 16384), or no quotient of at most ``max_order`` elements (default 1024,
/// at most 4096) is proven for the next heap: then it is exact for the
/// heaps before, and ``stopped`` says why. It runs with the interpreter
/// released, stops with ``KeyboardInterrupt`` on Ctrl-C, and reports
/// ``(heaps proven, to)`` to ``progress`` (as for :func:`octal`).
///
/// >>> import grundy
/// >>> q = grundy.misere("0.312")
/// >>> q.order, q.p_portion, q.presentation
/// (12, ['a', 'b^2', 'ac'], '<a, b, c | a^2 = 1, c^2 = 1, b^2c = b^3, b^4 = b^2>')
/// >>> q.pretending, q.preperiod, q.period, q.certified
/// (['1', 'a', 'b', 'b^2', 'c', 'b^2', 'ab^2'], 5, 2, True)
/// >>> q.outcome([1]), q.outcome([2]), q.outcome([10**18])
/// ('LOSE', 'WIN', 'WIN')
#[pyfunction]
#[pyo3(signature = (code, *, to = None, max_order = None, progress = None))]
pub(crate) fn misere(
    py: Python<'_>,
    code: &str,
    to: Option<&Bound<'_, PyAny>>,
    max_order: Option<&Bound<'_, PyAny>>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<MisereQuotient> {
    let rules = sg_solve::octal::args::parse_code(code).map_err(value_error)?;
    let to = match to.filter(|to| !to.is_none()) {
        None => DEFAULT_TO,
        Some(to) => int_in(to, "to", 0, MAX_COMPUTED_HEAP)?,
    };
    let max_order = match max_order.filter(|m| !m.is_none()) {
        None => DEFAULT_MAX_ORDER,
        Some(m) => int_in(m, "max_order", 1, MAX_ORDER as u64)? as usize,
    };
    crate::progress::check(progress)?;
    let proven = AtomicU64::new(0);
    let stop = Stop::new();
    let poll = || proven.load(Ordering::Relaxed);
    let mut progress = Progress::new(
        py,
        progress,
        &format!("misère quotient of {rules}"),
        "heaps",
        Some(to.saturating_add(1)),
        &poll,
    )?;
    let quotient = run_detached(py, &stop, &mut progress, || {
        Quotient::compute_watched(&rules, Limits { to, max_order }, &mut |at| {
            proven.store(at.proven_to + 1, Ordering::Relaxed);
            if stop.requested() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
    })?
    .map_err(|e| value_error(e.to_string()))?;
    Ok(MisereQuotient { quotient })
}

/// The misère quotient of a take-and-break game (see :func:`misere`):
/// exact for every sum of the heaps ``0..=computed_to``, and of all heaps
/// when ``certified``. Elements are written as words in the generators
/// (``'1'`` the identity, ``'ab^2'``), each in its normal form: its least
/// word by degree, then, among words of one degree, by the exponent of
/// the last generator (the smaller first), then of the one before, and so
/// on (so ``ab`` before ``bc``, ``b^2`` before ``c^2``).
///
/// >>> import grundy
/// >>> q = grundy.misere("0.312")
/// >>> q.generators, q.generator_heaps, q.relations
/// (['a', 'b', 'c'], [1, 2, 4], ['a^2 = 1', 'c^2 = 1', 'b^2c = b^3', 'b^4 = b^2'])
/// >>> q.hint([2, 2, 4]).leaves
/// (3,)
#[pyclass(frozen, module = "grundy", name = "MisereQuotient")]
pub(crate) struct MisereQuotient {
    quotient: Quotient,
}

impl MisereQuotient {
    fn words(&self, presentation: &Presentation, elements: &[Element]) -> Vec<String> {
        elements.iter().map(|&x| presentation.word(x)).collect()
    }

    /// The message for a heap beyond those the quotient covers.
    fn not_covered(&self, e: &MisereError) -> PyErr {
        let q = &self.quotient;
        let remedy = match (e, q.ended().stopped_at()) {
            (MisereError::NotExact { .. }, Some(_)) => format!(
                " ({})",
                q.ended()
                    .reason(q.max_order(), q.order(), "max_order")
                    .unwrap_or_else(|| "stopped".to_owned())
            ),
            (MisereError::NotExact { .. }, None) => {
                ": no period of its pretending function is certified; compute with a larger to="
                    .to_owned()
            }
            _ => String::new(),
        };
        value_error(format!("misère quotient of {}: {e}{remedy}", q.rules()))
    }
}

#[pymethods]
impl MisereQuotient {
    /// The game's code as the command writes it, e.g. ``'0.07'``.
    #[getter]
    fn code(&self) -> String {
        self.quotient.rules().to_string()
    }

    /// The last heap the quotient is proven for.
    #[getter]
    fn computed_to(&self) -> u64 {
        self.quotient.computed_to()
    }

    /// The number of elements of the quotient.
    #[getter]
    fn order(&self) -> usize {
        self.quotient.order()
    }

    /// The elements of the P-portion (the sums the player to move loses),
    /// as words, in the order of the normal forms.
    #[getter]
    fn p_portion(&self) -> Vec<String> {
        let presentation = self.quotient.presentation();
        let order_of = presentation.elements_in_order();
        let p: Vec<Element> = order_of
            .iter()
            .copied()
            .filter(|&x| self.quotient.monoid().is_p(x))
            .collect();
        self.words(&presentation, &p)
    }

    /// The generators' names (``a``, ``b``, ...).
    #[getter]
    fn generators(&self) -> Vec<String> {
        self.quotient.presentation().generators().to_vec()
    }

    /// The heap each generator stands for.
    #[getter]
    fn generator_heaps(&self) -> Vec<u64> {
        self.quotient.generators().iter().map(|g| g.heap).collect()
    }

    /// The relations of the presentation, e.g. ``'a^2 = 1'``.
    #[getter]
    fn relations(&self) -> Vec<String> {
        self.quotient.presentation().relations()
    }

    /// The presentation ``<generators | relations>``.
    #[getter]
    fn presentation(&self) -> String {
        self.quotient.presentation().to_string()
    }

    /// The pretending function: heap ``n``'s element, as a word, for the
    /// heaps of the preperiod and one period when certified, else for
    /// every heap computed.
    #[getter]
    fn pretending(&self) -> Vec<String> {
        let all = self.quotient.pretending();
        let shown = match self.quotient.period() {
            Some(p) => &all[..(p.preperiod + p.period) as usize],
            None => all,
        };
        self.words(&self.quotient.presentation(), shown)
    }

    /// The preperiod of the certified period, or None.
    #[getter]
    fn preperiod(&self) -> Option<u64> {
        self.quotient.period().map(|p| p.preperiod)
    }

    /// The certified period of the pretending function, or None.
    #[getter]
    fn period(&self) -> Option<u64> {
        self.quotient.period().map(|p| p.period)
    }

    /// Whether the period is certified (the quotient then covers every
    /// heap).
    #[getter]
    fn certified(&self) -> bool {
        self.quotient.is_certified()
    }

    /// Whether the quotient is that of misère Nim (the game is tame on
    /// the heaps covered).
    #[getter]
    fn tame(&self) -> bool {
        self.quotient.tame().is_some()
    }

    /// The order limit of the computation.
    #[getter]
    fn max_order(&self) -> usize {
        self.quotient.max_order()
    }

    /// Why the quotient stops before ``to`` without a certified period
    /// (``'at heap N: ...'``), or None.
    #[getter]
    fn stopped(&self) -> Option<String> {
        let ended = self.quotient.ended();
        let heap = ended.stopped_at()?;
        let reason = ended.reason(
            self.quotient.max_order(),
            self.quotient.order(),
            "max_order",
        )?;
        Some(format!("at heap {heap}: {reason}"))
    }

    /// ``'WIN'`` or ``'LOSE'`` for the player to move in the sum of
    /// ``heaps`` in misère play (any iterable of at most 2**24 heaps, each
    /// below 2**63 and covered by the quotient; else a ``ValueError``).
    ///
    /// >>> import grundy
    /// >>> grundy.misere("0.77", to=20).outcome([1, 1])
    /// 'WIN'
    fn outcome(&self, heaps: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        let heaps = sum_of_heaps(heaps)?;
        match self.quotient.is_lost(&heaps) {
            Ok(true) => Ok("LOSE"),
            Ok(false) => Ok("WIN"),
            Err(e) => Err(self.not_covered(&e)),
        }
    }

    /// A move that wins the sum of ``heaps`` in misère play (as for
    /// :meth:`outcome`), as a :class:`HeapMove`; None on a lost sum or one
    /// without a move.
    ///
    /// >>> import grundy
    /// >>> str(grundy.misere("0.77", to=20).hint([1, 1]))
    /// 'in the first heap (1 token), take the token'
    fn hint(&self, py: Python<'_>, heaps: &Bound<'_, PyAny>) -> PyResult<Option<HeapMove>> {
        let heaps = sum_of_heaps(heaps)?;
        let quotient = &self.quotient;
        match py.detach(|| quotient.winning_move(&heaps)) {
            Ok(found) => Ok(found.map(|m| HeapMove::new(m, &heaps))),
            Err(e) => Err(self.not_covered(&e)),
        }
    }

    fn __repr__(&self) -> String {
        let q = &self.quotient;
        let reach = match q.period() {
            Some(p) => format!(
                "period {} from heap {}, certified with heaps 0..={}",
                p.period,
                p.preperiod,
                q.computed_to()
            ),
            None => format!("heaps 0..={}, no period certified", q.computed_to()),
        };
        format!(
            "<MisereQuotient {}: order {}, {reach}>",
            q.rules(),
            q.order()
        )
    }
}
