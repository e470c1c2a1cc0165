//! Games defined in Python, solved by the search of `sg-search`:
//! `grundy.nimber`, `grundy.outcome` and `grundy.winning_move`.
//!
//! A game is any object with `options(position)` (the positions a move
//! leads to), and optionally `components(position)` (the independent
//! parts of a position, whose nimbers are XORed) and `canonical(position)`
//! (one representative of symmetric positions). Positions are any
//! hashable Python values.
//!
//! # How it works
//!
//! Each position met is *interned*: a Python dict maps it to a `u64` id,
//! and a Rust store keeps the position back for each id, with what the
//! callbacks said of it (its options, its components, its canonical form,
//! each as ids, in one arena). The search (`sg_search::Solver`: the
//! transposition table, the splitting into components, the prunings) works
//! on the ids alone ([`PythonGame`] implements `sg_search::Game` with ids
//! for positions and for moves: a move is the id of the option it leads
//! to); it attaches to the interpreter only to call a callback the store
//! has no answer for, so each callback runs once per position, however
//! often the search meets it. The store is never locked while Python code
//! runs (a callback, or the `__hash__` and `__eq__` of a position), so a
//! callback may take any time and release the interpreter without
//! deadlock.
//!
//! A callback that raises stops the search at once (the exception is kept
//! and the search unwinds, see `run`), and the exception is raised
//! unchanged. Moves that loop raise `grundy.CycleError` naming the
//! position. The store is bounded like the table: by `memory` bytes
//! (counting the ids, the lists and an estimate of the dict's entry per
//! position; not the positions' own Python objects, which the game
//! makes). The lists are counted as they are read, so a callback that
//! returns an endless iterable is a `MemoryError`, and the reading stops
//! on Ctrl-C (see [`PythonGame::ask`]).
//!
//! A component is asked its options when it is first met (not only when
//! it is expanded): a component without options has nimber 0 without
//! search, and the number of options is the size by which the search
//! takes the smaller components of a sum first.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use sg_search::{Game, Nimber, Options, Outcome, Reduced, SearchError, Solver};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::args::{CHECK_EVERY, checkpoint, memory, threads};
use crate::errors::{CycleError, memory_error, value_error};
use crate::progress::Progress;
use crate::run::{Stop, run_detached, unwind};

/// Bytes counted for each position interned besides its lists: its id and
/// record here, and the entry of the dict with the `int` of its id.
const BYTES_PER_POSITION: usize = 160;

/// A list of ids in the arena; [`Span::UNKNOWN`] before the callback that
/// gives it has run.
#[derive(Clone, Copy)]
struct Span {
    start: usize,
    len: usize,
}

impl Span {
    const UNKNOWN: Span = Span {
        start: usize::MAX,
        len: 0,
    };

    fn known(self) -> bool {
        self.start != usize::MAX
    }
}

/// What the callbacks said of a position.
#[derive(Clone, Copy)]
struct Record {
    options: Span,
    components: Span,
    /// The id of its canonical form, or [`NO_ID`].
    canonical: u64,
}

/// No id (a canonical form not asked for yet).
const NO_ID: u64 = u64::MAX;

/// The positions interned and what the callbacks said of them.
#[derive(Default)]
struct Store {
    positions: Vec<Py<PyAny>>,
    records: Vec<Record>,
    arena: Vec<u64>,
    bytes: usize,
}

/// Which list of a record.
#[derive(Clone, Copy)]
enum List {
    Options,
    Components,
}

impl List {
    /// The game's method that gives it, as a message names it.
    fn method(self) -> &'static str {
        match self {
            List::Options => "options()",
            List::Components => "components()",
        }
    }

    /// What it holds, as a message names it.
    fn what(self) -> &'static str {
        match self {
            List::Options => "options",
            List::Components => "components",
        }
    }
}

impl Store {
    fn list(&self, id: u64, which: List) -> Option<&[u64]> {
        let record = self.records[id as usize];
        let span = match which {
            List::Options => record.options,
            List::Components => record.components,
        };
        span.known()
            .then(|| &self.arena[span.start..span.start + span.len])
    }
}

/// A game defined in Python, on interned positions (see the module
/// documentation).
pub(crate) struct PythonGame {
    options: Py<PyAny>,
    components: Option<Py<PyAny>>,
    canonical: Option<Py<PyAny>>,
    ids: Py<PyDict>,
    store: Mutex<Store>,
    stop: Arc<Stop>,
    budget: usize,
}

impl PythonGame {
    /// The game of the object `game`, stopped by `stop`, its store of at
    /// most `budget` bytes.
    fn new(game: &Bound<'_, PyAny>, stop: Arc<Stop>, budget: usize) -> PyResult<Self> {
        let py = game.py();
        let method = |name: &str| -> PyResult<Option<Py<PyAny>>> {
            match game.getattr_opt(name)? {
                Some(f) if f.is_none() => Ok(None),
                Some(f) if f.is_callable() => Ok(Some(f.unbind())),
                Some(f) => Err(PyTypeError::new_err(format!(
                    "the game's {name} must be a method, not {}",
                    crate::args::type_name(&f)
                ))),
                None => Ok(None),
            }
        };
        let Some(options) = method("options")? else {
            return Err(PyTypeError::new_err(format!(
                "a game must have a method options(position) returning the positions a move \
                 leads to; {} has none",
                crate::args::type_name(game)
            )));
        };
        Ok(PythonGame {
            options,
            components: method("components")?,
            canonical: method("canonical")?,
            ids: PyDict::new(py).unbind(),
            store: Mutex::new(Store::default()),
            stop,
            budget,
        })
    }

    fn store(&self) -> MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The id of `position`, interning it if new.
    fn intern(&self, position: &Bound<'_, PyAny>) -> PyResult<u64> {
        self.intern_with(position, 0)
    }

    /// The id of `position`, interning it if new, with `pending` bytes
    /// read besides the store's (the options of a position being read).
    fn intern_with(&self, position: &Bound<'_, PyAny>, pending: usize) -> PyResult<u64> {
        let ids = self.ids.bind(position.py());
        if let Some(id) = ids.get_item(position)? {
            return id.extract();
        }
        let id = {
            let mut store = self.store();
            if store.bytes.saturating_add(pending) > self.budget {
                drop(store);
                return Err(memory_error(format!(
                    "the positions of the game take more than memory={} bytes; give the \
                     search more memory (or a game with fewer positions: components and \
                     canonical forms)",
                    self.budget
                )));
            }
            let id = store.positions.len() as u64;
            store.positions.push(position.clone().unbind());
            store.records.push(Record {
                options: Span::UNKNOWN,
                components: Span::UNKNOWN,
                canonical: NO_ID,
            });
            store.bytes += BYTES_PER_POSITION;
            id
        };
        ids.set_item(position, id)?;
        Ok(id)
    }

    /// The position of `id`.
    fn position<'py>(&self, py: Python<'py>, id: u64) -> Bound<'py, PyAny> {
        self.store().positions[id as usize].bind(py).clone()
    }

    /// The list `which` of `id` (calling `callback` on the position if the
    /// store has no answer yet), passed to `with`.
    fn with_list<T>(
        &self,
        id: u64,
        which: List,
        callback: &Py<PyAny>,
        with: impl FnOnce(&[u64]) -> T,
    ) -> T {
        if let Some(list) = self.store().list(id, which) {
            return with(list);
        }
        let asked = {
            let _in_python = self.stop.in_python();
            Python::attach(|py| self.ask(py, id, which, callback))
        };
        if let Err(e) = asked {
            self.stop.request(e);
            unwind();
        }
        let store = self.store();
        with(store.list(id, which).expect("recorded by ask"))
    }

    /// Calls `callback` on the position `id` and records the list of ids
    /// of the positions it returns. The list is read as any iterable
    /// argument is (`args::checkpoint` every 1024 positions: the
    /// interpreter released for a moment, so that the waiting thread sees
    /// a Ctrl-C and requests the stop, which ends the reading even of an
    /// iterator written in C such as `itertools.repeat`, where no bytecode
    /// runs to raise `KeyboardInterrupt`), and its 8 bytes a position count
    /// against `memory` as they are read: an endless list is a
    /// `MemoryError`.
    fn ask(&self, py: Python<'_>, id: u64, which: List, callback: &Py<PyAny>) -> PyResult<()> {
        let position = self.position(py, id);
        let returned = callback.bind(py).call1((position,))?;
        let iterable = returned.hasattr("__iter__")? || returned.hasattr("__getitem__")?;
        if !iterable {
            return Err(PyTypeError::new_err(format!(
                "the game's {} must return an iterable of positions, not {}",
                which.method(),
                crate::args::type_name(&returned)
            )));
        }
        let iter = returned.try_iter()?;
        let mut base = self.store().bytes;
        let mut ids: Vec<u64> = Vec::new();
        for item in iter {
            if !ids.is_empty() && ids.len().is_multiple_of(CHECK_EVERY) {
                checkpoint(py, Some(&self.stop))?;
                base = self.store().bytes;
            }
            let item = item?;
            let pending = (ids.len() + 1) * std::mem::size_of::<u64>();
            if base.saturating_add(pending) > self.budget {
                return Err(memory_error(format!(
                    "the {} of a position take more than memory={} bytes (more than {} \
                     positions returned by {}); give the search more memory, or return \
                     fewer (an iterable that never ends never fits)",
                    which.what(),
                    self.budget,
                    ids.len(),
                    which.method()
                )));
            }
            let option = self.intern_with(&item, pending)?;
            if ids.len() == ids.capacity() {
                ids.try_reserve(ids.len().max(16)).map_err(|_| {
                    memory_error(format!(
                        "the {} of a position: {} ids could not be allocated",
                        which.what(),
                        ids.len() * 2
                    ))
                })?;
            }
            ids.push(option);
        }
        let mut store = self.store();
        let start = store.arena.len();
        store.bytes += ids.len() * std::mem::size_of::<u64>();
        store.arena.extend_from_slice(&ids);
        let span = Span {
            start,
            len: ids.len(),
        };
        let record = &mut store.records[id as usize];
        match which {
            List::Options if !record.options.known() => record.options = span,
            List::Components if !record.components.known() => record.components = span,
            // Another thread recorded it meanwhile: the same answer.
            _ => {}
        }
        Ok(())
    }

    /// The canonical form of `id`.
    fn canonical_of(&self, id: u64) -> u64 {
        let Some(canonical) = &self.canonical else {
            return id;
        };
        let known = self.store().records[id as usize].canonical;
        if known != NO_ID {
            return known;
        }
        let found = {
            let _in_python = self.stop.in_python();
            Python::attach(|py| {
                let position = self.position(py, id);
                let returned = canonical.bind(py).call1((position,))?;
                self.intern(&returned)
            })
        };
        match found {
            Ok(c) => {
                self.store().records[id as usize].canonical = c;
                c
            }
            Err(e) => {
                self.stop.request(e);
                unwind();
            }
        }
    }
}

impl Game for PythonGame {
    type Position = u64;
    type Move = u64;

    fn moves(&self, position: &u64, moves: &mut Vec<u64>) {
        self.stop.check();
        self.with_list(*position, List::Options, &self.options, |options| {
            moves.extend_from_slice(options);
        });
    }

    fn play(&self, _: &u64, option: &u64) -> u64 {
        *option
    }

    fn split(&self, position: &u64, components: &mut Vec<u64>) {
        match &self.components {
            None => components.push(*position),
            Some(callback) => {
                self.with_list(*position, List::Components, callback, |parts| {
                    components.extend_from_slice(parts);
                });
            }
        }
    }

    fn canonical(&self, component: &u64) -> u64 {
        self.canonical_of(*component)
    }

    fn reduce(&self, component: &u64) -> Reduced<u64> {
        let canonical = self.canonical_of(*component);
        let terminal = self.with_list(canonical, List::Options, &self.options, <[u64]>::is_empty);
        match terminal {
            true => Reduced::Known(0),
            false => Reduced::Canonical(canonical),
        }
    }

    fn known_nimber(&self, component: &u64) -> Option<Nimber> {
        match self.reduce(component) {
            Reduced::Known(n) => Some(n),
            Reduced::Canonical(_) => None,
        }
    }

    fn size(&self, component: &u64) -> u64 {
        self.with_list(*component, List::Options, &self.options, |o| o.len() as u64)
    }
}

/// What is asked of a game's position.
enum Question {
    Nimber,
    Outcome,
    WinningMove,
    /// Who wins in misère play.
    MisereOutcome,
    /// A winning move in misère play.
    MisereWinningMove,
}

/// The answer.
enum Answer {
    Nimber(Nimber),
    Outcome(Outcome),
    Move(Option<u64>),
}

/// Asks `question` of `position` in `game`.
fn solve<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    position: &Bound<'py, PyAny>,
    question: Question,
    memory_arg: Option<&Bound<'py, PyAny>>,
    threads_arg: Option<&Bound<'py, PyAny>>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Answer, PythonGame)> {
    let misere = matches!(
        question,
        Question::MisereOutcome | Question::MisereWinningMove
    );
    if misere && threads_arg.is_some_and(|t| !t.is_none()) {
        return Err(value_error(
            "threads=: the misère search runs on one thread; it cannot be used with misere=True",
        ));
    }
    let options = Options {
        memory: memory(memory_arg)?,
        threads: threads(threads_arg, Some(1))?,
    };
    crate::progress::check(progress)?;
    let stop = Stop::new();
    let game = PythonGame::new(game, Arc::clone(&stop), options.memory)?;
    let root = game.intern(position)?;
    let answer = {
        let solver = Solver::with_options(&game, options);
        let poll = || solver.stats().expanded;
        let mut progress = Progress::new(py, progress, "searching", "positions", None, &poll)?;
        run_detached(py, &stop, &mut progress, || match question {
            Question::Nimber => solver.nimber(&root).map(Answer::Nimber),
            Question::Outcome => solver.outcome(&root, 0).map(Answer::Outcome),
            Question::WinningMove => solver.winning_move(&root).map(Answer::Move),
            Question::MisereOutcome => solver.misere_outcome(&root).map(Answer::Outcome),
            Question::MisereWinningMove => solver.misere_winning_move(&root).map(Answer::Move),
        })?
    };
    match answer {
        Ok(answer) => Ok((answer, game)),
        Err(SearchError::Cycle { position }) => Err(cycle_error(py, &game, &position)),
        Err(e) => Err(value_error(e.to_string())),
    }
}

/// The `CycleError` for the position of id `id` (as the search's message
/// writes it), naming the Python position.
fn cycle_error(py: Python<'_>, game: &PythonGame, id: &str) -> PyErr {
    let Ok(id) = id.parse::<u64>() else {
        return CycleError::new_err(
            SearchError::Cycle {
                position: id.to_owned(),
            }
            .to_string(),
        );
    };
    let position = game.position(py, id);
    let shown = position
        .repr()
        .map_or_else(|_| format!("#{id}"), |r| r.to_string_lossy().into_owned());
    let error = CycleError::new_err(SearchError::Cycle { position: shown }.to_string());
    let _ = error.value(py).setattr("position", position);
    error
}

/// The nimber (Grundy value) of ``position`` in ``game``, a game defined
/// in Python: any object with ``options(position)`` returning the positions
/// a move leads to (an iterable), and optionally ``components(position)``
/// (the independent parts of a position, whose nimbers are XORed: what
/// makes big positions tractable) and ``canonical(position)`` (one
/// representative of the positions that are the same game, e.g. under
/// symmetries). Positions are any hashable values.
///
/// The Rust search (a transposition table of at most ``memory`` bytes,
/// the splitting into components, the prunings of Lemoine and Viennot)
/// does the work; each callback runs once per position. ``memory`` also
/// bounds the store of positions and what ``options`` and ``components``
/// return, counted as it is read (8 bytes a position): an iterable that
/// never ends is a ``MemoryError`` naming ``memory=``. An exception
/// raised in a callback propagates unchanged; moves that loop raise
/// :class:`CycleError`; Ctrl-C raises ``KeyboardInterrupt`` within a
/// fraction of a second, also while an iterable a callback returned is
/// read (even ``itertools.repeat``). ``threads`` defaults to 1 (the callbacks share
/// the interpreter); ``progress`` as for :func:`octal`.
///
/// >>> import grundy
/// >>> class Kayles:
/// ...     "Rows of pins; a move knocks down one pin or two adjacent ones."
/// ...     def options(self, rows):
/// ...         for i, n in enumerate(rows):
/// ...             rest = rows[:i] + rows[i + 1:]
/// ...             for take in (1, 2):
/// ...                 for left in range(n - take + 1):
/// ...                     parts = [p for p in (left, n - take - left) if p]
/// ...                     yield tuple(sorted(rest + tuple(parts)))
/// ...     def components(self, rows):
/// ...         return [(n,) for n in rows]
/// >>> [grundy.nimber(Kayles(), (n,)) for n in range(12)]
/// [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
/// >>> grundy.nimber(Kayles(), (3, 5))
/// 7
#[pyfunction]
#[pyo3(signature = (game, position, *, memory = None, threads = None, progress = None))]
pub(crate) fn nimber<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    position: &Bound<'py, PyAny>,
    memory: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Nimber> {
    match solve(
        py,
        game,
        position,
        Question::Nimber,
        memory,
        threads,
        progress,
    )? {
        (Answer::Nimber(n), _) => Ok(n),
        _ => unreachable!("a nimber is asked"),
    }
}

/// ``'WIN'`` or ``'LOSE'`` for the player to move from ``position`` in
/// ``game`` (see :func:`nimber`); it may search less than the nimber needs.
/// With ``misere=True``, in misère play: the player who makes the last
/// move loses (a player without a move wins); the misère search runs on
/// one thread (``threads`` is refused).
///
/// >>> import grundy
/// >>> class Subtract:
/// ...     def options(self, n):
/// ...         return [n - k for k in (1, 3, 4) if k <= n]
/// >>> grundy.outcome(Subtract(), 7), grundy.outcome(Subtract(), 8)
/// ('LOSE', 'WIN')
/// >>> grundy.outcome(Subtract(), 7, misere=True), grundy.outcome(Subtract(), 8, misere=True)
/// ('WIN', 'LOSE')
#[pyfunction]
#[pyo3(signature = (game, position, *, memory = None, threads = None, misere = false, progress = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn outcome<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    position: &Bound<'py, PyAny>,
    memory: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    misere: bool,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<&'static str> {
    match solve(
        py,
        game,
        position,
        if misere {
            Question::MisereOutcome
        } else {
            Question::Outcome
        },
        memory,
        threads,
        progress,
    )? {
        (Answer::Outcome(Outcome::Win), _) => Ok("WIN"),
        (Answer::Outcome(Outcome::Lose), _) => Ok("LOSE"),
        (Answer::Outcome(Outcome::Draw), _) => Ok("DRAW"),
        _ => unreachable!("an outcome is asked"),
    }
}

/// The option of ``position`` to move to in ``game`` (see :func:`nimber`):
/// a position of nimber 0, which wins; or None when the position is lost
/// (or has no move). With ``misere=True``, a move that wins in misère
/// play (see :func:`outcome`), or None when there is none.
///
/// >>> import grundy
/// >>> class Subtract:
/// ...     def options(self, n):
/// ...         return [n - k for k in (1, 3, 4) if k <= n]
/// >>> grundy.winning_move(Subtract(), 10), grundy.winning_move(Subtract(), 7)
/// (9, None)
/// >>> grundy.winning_move(Subtract(), 7, misere=True)
/// 3
#[pyfunction]
#[pyo3(signature = (game, position, *, memory = None, threads = None, misere = false, progress = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn winning_move<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    position: &Bound<'py, PyAny>,
    memory: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    misere: bool,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    match solve(
        py,
        game,
        position,
        if misere {
            Question::MisereWinningMove
        } else {
            Question::WinningMove
        },
        memory,
        threads,
        progress,
    )? {
        (Answer::Move(found), game) => Ok(found.map(|id| game.position(py, id))),
        _ => unreachable!("a move is asked"),
    }
}
