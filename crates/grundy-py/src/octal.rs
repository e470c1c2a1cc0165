//! `grundy.octal` and `grundy.subtraction`: the Grundy sequence of a
//! take-and-break game and its certified period, from the compiled-in
//! catalogue or computed by the octal engine (`sg_octal::Sequence`),
//! as `grundy octal` obtains it; who wins a sum of heaps and how.
//!
//! The engine keeps values as `u16`; the result keeps them once as `u32`
//! (the type numpy users expect of `values`), and `values` is a read-only
//! numpy view of that buffer, made without a copy at each access.

use numpy::ndarray::ArrayView1;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use sg_octal::{
    HeapMove as EngineMove, HeapValues, MAX_COMPUTED_HEAP, MAX_DIGITS, OctalError, Period, Rules,
    Sequence, winning_move,
};
use sg_solve::octal::answers::{Catalogued, from_catalogue, say_move, unknown_value};
use sg_solve::octal::summary::{Source, text_summary};
use sg_tables::octal::CatalogueEntry;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::args::{IntError, MAX_MOVES, MAX_TERMS, int_in, int_of, ints_in, ints_told, threads};
use crate::errors::{memory_error, value_error};
use crate::progress::Progress;
use crate::run::{Stop, run_detached};

/// The default largest heap: 2^25, as the command's.
const DEFAULT_TO: u64 = 1 << 25;

/// The largest heap of a sum (heaps are below 2^63).
const MAX_HEAP: u64 = (1 << 63) - 1;

/// The largest `n` of [`OctalGame::values_to`] (an array of 8 GiB).
const MAX_VALUES_TO: u64 = (1 << 31) - 1;

/// The heaps of a sum: any iterable of at most [`MAX_TERMS`] heaps, each
/// at most [`MAX_HEAP`] (for `OctalGame` and `MisereQuotient`).
pub(crate) fn sum_of_heaps(heaps: &Bound<'_, PyAny>) -> PyResult<Vec<u64>> {
    ints_in(heaps, "heaps", 0, MAX_HEAP, MAX_TERMS)
}

/// The Grundy sequence of a take-and-break game and its certified period.
///
/// ``code`` is a Winning Ways code ``d0.d1d2...dk`` (digit ``d_i`` for taking
/// ``i`` tokens: bit 1 = take the whole heap, 2 = leave one heap, 4 = leave
/// two, 8 = leave three; ``d0`` is 0 or 4), e.g. ``"0.77"`` (Kayles),
/// ``"0.07"`` (Dawson's Kayles), ``".6"`` (Officers), ``"4.007"``; or a
/// classic game's name: ``"kayles"``, ``"dawsons-kayles"``,
/// ``"dawsons-chess"``, ``"officers"``, ``"treblecross"``, ``"guiles"``,
/// ``"double-kayles"``, ``"grundys-game"`` (any case, ``"Dawson's
/// Kayles"`` too; the result's ``code`` is the code). The values of heaps ``0..=to`` are computed (``to``
/// defaults to 2**25), stopping as soon as a period is certified by the
/// periodicity theorem; a period is never claimed otherwise. Games
/// ``0.ddd`` and ``4.ddd`` solved in the compiled-in catalogue are answered
/// from it (recomputed and certified again, in milliseconds) unless
/// ``online=True``.
///
/// ``threads`` (default: one per CPU, and at most that) never changes the
/// values. The computation releases the interpreter, stops with
/// ``KeyboardInterrupt`` on Ctrl-C, and reports its progress to
/// ``progress`` (a callable taking ``(heaps_done, heaps_asked)``, or
/// ``True`` for a ``tqdm`` bar).
///
/// >>> import grundy
/// >>> kayles = grundy.octal("0.77")
/// >>> kayles.preperiod, kayles.period, kayles.certified
/// (71, 12, True)
/// >>> kayles.value(10**18)
/// 1
/// >>> kayles.outcome([10, 20, 30])
/// 'WIN'
/// >>> str(kayles.hint([10, 20, 30]))
/// 'in the third heap (30 tokens), take 2 and split the rest into 5 and 23'
#[pyfunction]
#[pyo3(signature = (code, *, to = None, threads = None, online = false, progress = None))]
pub(crate) fn octal(
    py: Python<'_>,
    code: &str,
    to: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    online: bool,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<OctalGame> {
    let rules = sg_solve::octal::args::parse_code(code).map_err(value_error)?;
    solve(py, rules, to, threads, online, progress)
}

/// The Grundy sequence of the subtraction game of ``moves`` (a move takes
/// a number of tokens of the set from one heap; each from 1 to 1024, at
/// most 65536 of them, repeats allowed), as ``grundy octal --subtract``
/// computes it; the same object as :func:`octal` gives.
///
/// >>> import grundy
/// >>> s = grundy.subtraction([1, 3, 4])
/// >>> s.values[:10].tolist()
/// [0, 1, 0, 1, 2, 3, 2, 0, 1, 0]
/// >>> s.period, s.code
/// (7, '0.3033')
#[pyfunction]
#[pyo3(signature = (moves, *, to = None, threads = None, online = false, progress = None))]
pub(crate) fn subtraction(
    py: Python<'_>,
    moves: &Bound<'_, PyAny>,
    to: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    online: bool,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<OctalGame> {
    // Read from 0: 0 and the moves too large get the command's messages.
    let told = (1, MAX_DIGITS as u64);
    let set = ints_told(moves, "moves", (0, u64::MAX), told, MAX_MOVES)?;
    let rules = Rules::subtraction(&set).map_err(|e| value_error(format!("moves: {e}")))?;
    solve(py, rules, to, threads, online, progress)
}

/// `to=`: a heap from 0 to the engine's largest; one beyond gets the
/// command's message, a negative one the whole range.
fn largest_heap(to: &Bound<'_, PyAny>) -> PyResult<u64> {
    match int_of(to, "to", 0, MAX_COMPUTED_HEAP) {
        Ok(to) => Ok(to),
        Err(IntError::TooLarge(shown)) => match shown.parse::<u64>() {
            Ok(heap) => {
                let e = OctalError::TooManyHeaps { heap };
                Err(value_error(format!("to={heap}: {e}")))
            }
            Err(_) => Err(IntError::TooLarge(shown).into_err("to", (0, MAX_COMPUTED_HEAP))),
        },
        Err(e) => Err(e.into_err("to", (0, MAX_COMPUTED_HEAP))),
    }
}

/// The run for `rules` to heap `to`: from the catalogue, or computed.
fn solve(
    py: Python<'_>,
    rules: Rules,
    to: Option<&Bound<'_, PyAny>>,
    threads_arg: Option<&Bound<'_, PyAny>>,
    online: bool,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<OctalGame> {
    let to = match to.filter(|to| !to.is_none()) {
        None => DEFAULT_TO,
        Some(to) => largest_heap(to)?,
    };
    let threads = threads(threads_arg, None)?;
    crate::progress::check(progress)?;
    check_simd_variable()?;
    if !online {
        match from_catalogue(&rules, to) {
            Catalogued::Found { entry, values } => {
                return OctalGame::new(entry, &values, true);
            }
            Catalogued::Absent => {}
            Catalogued::FailedCheck => PyErr::warn(
                py,
                &py.get_type::<pyo3::exceptions::PyRuntimeWarning>(),
                &std::ffi::CString::new(format!(
                    "the compiled-in catalogue's entry for {rules} fails its check; computing"
                ))
                .expect("no NUL in the message"),
                1,
            )?,
        }
    }
    let done = AtomicU64::new(0);
    let stop = Stop::new();
    let poll = || done.load(Ordering::Relaxed);
    let mut progress = Progress::new(
        py,
        progress,
        &format!("octal {rules}"),
        "heaps",
        Some(to.saturating_add(1)),
        &poll,
    )?;
    let mut sequence = Sequence::new(rules).with_threads(threads);
    let status = run_detached(py, &stop, &mut progress, || {
        sequence.extend_watched(to, &mut |values| {
            done.store(values.len() as u64, Ordering::Relaxed);
            if stop.requested() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
    })?;
    match status {
        Ok(_) => {}
        Err(e @ OctalError::OutOfMemory { .. }) => {
            return Err(memory_error(format!(
                "{e} (the values take 2 bytes a heap): lower to, or give the run more memory"
            )));
        }
        Err(e) => return Err(value_error(format!("to={to}: {e}"))),
    }
    let entry = CatalogueEntry::from_sequence(&sequence);
    OctalGame::new(entry, sequence.values(), false)
}

/// `GRUNDY_OCTAL_SIMD` (which lowers the octal engine's vector kernels,
/// to measure them) by the command's rule: a value it refuses is a
/// `ValueError` before any work (the engine would ignore it).
fn check_simd_variable() -> PyResult<()> {
    sg_solve::machine::simd_variable(sg_octal::SIMD_VARIABLE, "the octal engine")
        .map(drop)
        .map_err(value_error)
}

/// The values of a game as far as computed, through the certified period
/// beyond (for `sg_octal::winning_move`).
struct Known<'a> {
    values: &'a [u32],
    period: Option<Period>,
}

impl HeapValues for Known<'_> {
    fn value(&self, heap: u64) -> Option<u16> {
        let index = match self.period {
            Some(p) => p.index(heap),
            None => heap,
        };
        let value = *self.values.get(usize::try_from(index).ok()?)?;
        // Values come from the engine's u16.
        u16::try_from(value).ok()
    }

    fn span(&self) -> u64 {
        self.period
            .map_or(u64::MAX, |p| p.preperiod.max(1) + p.period - 1)
    }
}

/// The Grundy sequence of a take-and-break game, as far as computed, and
/// its certified period (see :func:`octal`).
///
/// >>> import grundy
/// >>> dawson = grundy.octal("0.07")
/// >>> dawson.code, dawson.period, dawson.max_value
/// ('0.07', 34, 9)
#[pyclass(frozen, module = "grundy", name = "OctalGame")]
pub(crate) struct OctalGame {
    entry: CatalogueEntry,
    /// `G(0..entry.computed)`; never changed nor moved while the object
    /// lives (numpy views of it are handed out).
    values: Box<[u32]>,
    from_catalogue: bool,
}

impl OctalGame {
    /// The game with its values widened to `u32`: a `MemoryError` (not
    /// an abort) where the 4 bytes a heap cannot be had.
    fn new(entry: CatalogueEntry, values: &[u16], from_catalogue: bool) -> PyResult<Self> {
        let mut wide = Vec::new();
        wide.try_reserve_exact(values.len()).map_err(|_| {
            crate::errors::memory_error(format!(
                "the values of {} heaps as uint32: {} bytes could not be allocated",
                values.len(),
                values.len().saturating_mul(4)
            ))
        })?;
        wide.extend(values.iter().map(|&v| u32::from(v)));
        Ok(OctalGame {
            entry,
            values: wide.into_boxed_slice(),
            from_catalogue,
        })
    }

    fn known(&self) -> Known<'_> {
        Known {
            values: &self.values,
            period: self.entry.period,
        }
    }

    fn last_computed(&self) -> u64 {
        self.entry.computed.saturating_sub(1)
    }

    /// The message for a heap whose value is not known.
    fn unknown(&self, heap: u64) -> PyErr {
        value_error(unknown_value(
            &self.entry.rules,
            self.last_computed(),
            heap,
            |heap| format!("compute with to={heap} or more"),
        ))
    }

    /// The XOR of the heaps' values.
    fn xor(&self, heaps: &[u64]) -> PyResult<u32> {
        let known = self.known();
        heaps.iter().try_fold(0u32, |x, &h| {
            known
                .value(h)
                .map(|v| x ^ u32::from(v))
                .ok_or_else(|| self.unknown(h))
        })
    }
}

#[pymethods]
impl OctalGame {
    /// The game's code as the command writes it, e.g. ``'0.77'``.
    #[getter]
    fn code(&self) -> String {
        self.entry.rules.to_string()
    }

    /// The last heap whose value was computed.
    #[getter]
    fn computed_to(&self) -> u64 {
        self.last_computed()
    }

    /// The smallest preperiod of the certified period, or None.
    #[getter]
    fn preperiod(&self) -> Option<u64> {
        self.entry.period.map(|p| p.preperiod)
    }

    /// The smallest certified period, or None when none is certified.
    #[getter]
    fn period(&self) -> Option<u64> {
        self.entry.period.map(|p| p.period)
    }

    /// Whether a period is certified (by the periodicity theorem).
    #[getter]
    fn certified(&self) -> bool {
        self.entry.period.is_some()
    }

    /// The largest value computed.
    #[getter]
    fn max_value(&self) -> u16 {
        self.entry.max_value
    }

    /// Whether the values come from the compiled-in catalogue (checked),
    /// rather than computed now.
    #[getter(from_catalogue)]
    fn catalogued(&self) -> bool {
        self.from_catalogue
    }

    /// ``G(0..=computed_to)`` as a read-only numpy ``uint32`` array (a
    /// view of the result's own buffer: no copy). The values computed,
    /// which stop as soon as a period is certified: ``octal("0.07",
    /// to=1000).values`` has the 176 values that certify the period, not
    /// 1001; :meth:`values_to` continues them through the period.
    #[getter]
    fn values<'py>(this: Bound<'py, Self>) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let view = ArrayView1::from(&this.get().values[..]);
        // SAFETY: the array borrows `values`, which the frozen object owns
        // and never changes nor moves (a boxed slice); the object is the
        // array's base, so it lives as long as the array.
        let array = unsafe { PyArray1::borrow_from_array(&view, this.clone().into_any()) };
        array.readwrite().make_nonwriteable();
        Ok(array)
    }

    /// ``G(0..=n)`` as a new numpy ``uint32`` array: the values computed,
    /// continued through the certified period (``n`` below 2**31); a
    /// ``ValueError`` beyond the computed values when no period is
    /// certified, a ``MemoryError`` when the array cannot be allocated.
    ///
    /// >>> import grundy
    /// >>> dawson = grundy.octal("0.07", to=1000)
    /// >>> len(dawson.values), len(dawson.values_to(1000))
    /// (176, 1001)
    fn values_to<'py>(
        &self,
        py: Python<'py>,
        n: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let to = int_in(n, "n", 0, MAX_VALUES_TO)?;
        let known = self.known();
        known.value(to).ok_or_else(|| self.unknown(to))?;
        let len = to as usize + 1;
        let mut values: Vec<u32> = Vec::new();
        values.try_reserve_exact(len).map_err(|_| {
            memory_error(format!(
                "the values of {len} heaps as uint32: {} bytes could not be allocated",
                len.saturating_mul(4)
            ))
        })?;
        values.extend((0..=to).map(|h| u32::from(known.value(h).expect("known to `to`"))));
        Ok(PyArray1::from_vec(py, values))
    }

    /// ``G(n)`` for any heap ``0 <= n < 2**63``: computed, or through the
    /// certified period; a ``ValueError`` beyond the computed values when no
    /// period is certified.
    ///
    /// >>> import grundy
    /// >>> grundy.octal("0.77").value(2**62)
    /// 1
    fn value(&self, n: &Bound<'_, PyAny>) -> PyResult<u16> {
        let heap = int_in(n, "n", 0, MAX_HEAP)?;
        self.known().value(heap).ok_or_else(|| self.unknown(heap))
    }

    /// ``'WIN'`` or ``'LOSE'`` for the player to move in the sum of
    /// ``heaps`` (any iterable of at most 2**24 heaps, each below 2**63;
    /// more is a ``ValueError``).
    ///
    /// >>> import grundy
    /// >>> grundy.octal("0.77").outcome([1, 1])
    /// 'LOSE'
    fn outcome(&self, heaps: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        let heaps = sum_of_heaps(heaps)?;
        Ok(if self.xor(&heaps)? == 0 {
            "LOSE"
        } else {
            "WIN"
        })
    }

    /// A winning move in the sum of ``heaps`` (as for :meth:`outcome`: at
    /// most 2**24 heaps, each below 2**63): ``None`` on a lost sum, else
    /// a :class:`HeapMove` (``heap``: its 0-based index in ``heaps``;
    /// ``take``; ``leaves``: the heaps left in its place).
    ///
    /// >>> import grundy
    /// >>> m = grundy.octal("0.137").hint([10, 20, 30])
    /// >>> m.heap, m.take, m.leaves
    /// (2, 3, (2, 25))
    fn hint(&self, py: Python<'_>, heaps: &Bound<'_, PyAny>) -> PyResult<Option<HeapMove>> {
        let heaps = sum_of_heaps(heaps)?;
        self.xor(&heaps)?;
        let known = self.known();
        let rules = &self.entry.rules;
        let found = py.detach(|| winning_move(rules, &known, &heaps));
        match found {
            Ok(found) => Ok(found.map(|m| HeapMove::new(m, &heaps))),
            Err(OctalError::TooManyHeaps { heap }) => Err(self.unknown(heap)),
            Err(e) => Err(value_error(e.to_string())),
        }
    }

    /// The summary the command prints (``grundy octal CODE``).
    fn summary(&self) -> String {
        let source = if self.from_catalogue {
            Source::Catalogue
        } else {
            Source::Computed
        };
        text_summary(&self.entry, source, None)
    }

    fn __repr__(&self) -> String {
        let e = &self.entry;
        match e.period {
            Some(p) => format!(
                "<OctalGame {}: period {} from heap {}, certified with G(0..{})>",
                e.rules, p.period, p.preperiod, e.computed
            ),
            None => format!(
                "<OctalGame {}: no period certified up to heap {}>",
                e.rules,
                self.last_computed()
            ),
        }
    }

    fn __len__(&self) -> usize {
        self.values.len()
    }
}

/// A winning move in a sum of heaps: in the heap of index ``heap``
/// (0-based, in the list given), of ``size`` tokens, take ``take`` tokens
/// and leave the heaps ``leaves``. ``str()`` says it as the command does.
///
/// >>> import grundy
/// >>> m = grundy.octal("0.77").hint([5])
/// >>> (m.heap, m.size, m.take, m.leaves)
/// (0, 5, 1, (2, 2))
/// >>> str(m)
/// 'in the first heap (5 tokens), take 1 and split the rest into 2 and 2'
#[pyclass(frozen, module = "grundy", name = "HeapMove")]
pub(crate) struct HeapMove {
    engine: EngineMove,
    size: u64,
}

impl HeapMove {
    pub(crate) fn new(engine: EngineMove, heaps: &[u64]) -> Self {
        let size = heaps[engine.heap];
        HeapMove { engine, size }
    }
}

#[pymethods]
impl HeapMove {
    /// The index of the heap moved in, 0-based in the list given.
    #[getter]
    fn heap(&self) -> usize {
        self.engine.heap
    }

    /// Its tokens.
    #[getter]
    fn size(&self) -> u64 {
        self.size
    }

    /// The tokens taken (0 for a split without taking).
    #[getter]
    fn take(&self) -> u64 {
        self.engine.take
    }

    /// The heaps left in its place (none to three, nondecreasing).
    #[getter]
    fn leaves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.engine.leaves)
    }

    fn __str__(&self) -> String {
        say_move(&self.engine, self.size)
    }

    fn __repr__(&self) -> String {
        format!(
            "HeapMove(heap={}, size={}, take={}, leaves={:?})",
            self.engine.heap,
            self.size,
            self.engine.take,
            TupleText(&self.engine.leaves)
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<HeapMove>()
            .is_ok_and(|o| o.get().engine == self.engine && o.get().size == self.size)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (
            self.engine.heap,
            self.size,
            self.engine.take,
            &self.engine.leaves,
        )
            .hash(&mut h);
        h.finish()
    }
}

/// A list of numbers shown as a Python tuple: `(2, 25)`, `(4,)`, `()`.
struct TupleText<'a>(&'a [u64]);

impl std::fmt::Debug for TupleText<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            [one] => write!(f, "({one},)"),
            all => {
                let parts: Vec<String> = all.iter().map(u64::to_string).collect();
                write!(f, "({})", parts.join(", "))
            }
        }
    }
}
