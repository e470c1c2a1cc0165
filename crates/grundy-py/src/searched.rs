//! `grundy.cram`, `grundy.node_kayles` and `grundy.chomp`: the games
//! built into `sg-search`, solved as `grundy cram`, `node-kayles` and
//! `chomp` solve them (the same boards and limits, messages, table,
//! threads, endgame table and certificates), and `grundy.check_proof`,
//! the check of `grundy proof check`.

use numpy::PyUntypedArrayMethods;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use sg_files::safe_write::Destination;
use sg_search::bits::Bits;
use sg_search::games::chomp::{self as chomp_game, Chomp};
use sg_search::games::cram::{self as cram_game, Cram, CramEndgame};
use sg_search::games::node_kayles::{self as node_kayles_game, MAX_VERTICES, NodeKayles};
use sg_search::proof::{ProofGame, prove};
use sg_search::{Options, Outcome, SearchError, Solver};
use sg_solve::InputErrorKind;
use sg_solve::boards::{CHOMP_MAX_ROWS, CramBoard, chomp_rows, cram_board, cram_size};
use std::io::Read;
use std::sync::Arc;
use std::time::Instant;

use crate::args::{
    IntError, check_array_like, int_of, ints_told, memory, path as path_of, threads,
};
use crate::edges::{EdgeLimits, edge_list};
use crate::errors::{ProofError, read_error, value_error, write_error};
use crate::progress::Progress;
use crate::run::{Stop, run_detached};
use crate::stoppable::Stoppable;

/// The writer named in the certificates the module writes.
const GENERATOR: &str = concat!("grundy (Python) ", env!("CARGO_PKG_VERSION"));

/// The largest certificate read: 1 GiB (the command's `--max-input`).
const MAX_PROOF_FILE: u64 = 1 << 30;

/// The options of a search, as the command's.
struct SearchArgs<'py> {
    options: Options,
    proof: Option<Destination>,
    online: bool,
    hint: bool,
    misere: bool,
    progress: Option<Bound<'py, PyAny>>,
}

impl<'py> SearchArgs<'py> {
    #[allow(clippy::too_many_arguments)]
    fn new(
        threads_arg: Option<&Bound<'py, PyAny>>,
        memory_arg: Option<&Bound<'py, PyAny>>,
        proof: Option<&Bound<'py, PyAny>>,
        online: bool,
        hint: bool,
        misere: bool,
        progress: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Self> {
        let given = |arg: Option<&Bound<'py, PyAny>>| arg.is_some_and(|a| !a.is_none());
        // The options without a meaning in misère play, refused in the
        // command's words.
        let refused = [
            (
                given(proof),
                "proof= writes a certificate of the normal-play nimber",
            ),
            (online, "online=True skips the normal-play endgame table"),
            (
                given(threads_arg),
                "threads=: the misère search runs on one thread",
            ),
        ];
        if let Some((_, why)) = refused.iter().find(|(given, _)| misere && *given) {
            return Err(value_error(format!(
                "{why}; it cannot be used with misere=True"
            )));
        }
        let options = Options {
            memory: memory(memory_arg)?,
            threads: threads(threads_arg, None)?,
        };
        crate::progress::check(progress)?;
        // The certificate's file is checked before any work.
        let proof = match proof {
            Some(p) if !p.is_none() => {
                Some(Destination::check(path_of(p, "proof")?).map_err(write_error)?)
            }
            _ => None,
        };
        Ok(SearchArgs {
            options,
            proof,
            online,
            hint,
            misere,
            progress: progress.cloned(),
        })
    }
}

/// The answer of a search: the game, its ``nimber``, ``outcome`` (``'WIN'``
/// or ``'LOSE'`` for the player to move), ``hint`` (a winning move as the
/// command's JSON writes it, or None on a lost position), ``positions``
/// (entries of the transposition table) and ``seconds`` (of the search).
/// With ``misere=True`` the outcome and the move are those of misère play
/// (the player who makes the last move loses), and ``nimber`` is None.
///
/// >>> import grundy
/// >>> r = grundy.chomp("3x4")
/// >>> r.game, r.nimber, r.outcome, r.hint
/// ('chomp 3x4', 9, 'WIN', (1, 2))
#[pyclass(frozen, module = "grundy", name = "SearchResult")]
pub(crate) struct SearchResult {
    game: String,
    nimber: Option<u32>,
    win: bool,
    misere: bool,
    hint: Option<Py<PyAny>>,
    hint_text: Option<String>,
    positions: usize,
    seconds: f64,
}

#[pymethods]
impl SearchResult {
    /// The game with its rules in a few words, e.g. ``'cram 4x7'``.
    #[getter]
    fn game(&self) -> &str {
        &self.game
    }

    /// The nimber of the start position (None in misère play: misère sums
    /// are not decided by nimbers).
    #[getter]
    fn nimber(&self) -> Option<u32> {
        self.nimber
    }

    /// ``'WIN'`` or ``'LOSE'`` for the player to move (in misère play
    /// with ``misere=True``).
    #[getter]
    fn outcome(&self) -> &'static str {
        if self.win { "WIN" } else { "LOSE" }
    }

    /// Whether the answer is that of misère play.
    #[getter]
    fn misere(&self) -> bool {
        self.misere
    }

    /// A winning move (Cram: the domino's two cells ``((r1, c1), (r2,
    /// c2))``; Node-Kayles: the vertex; Chomp: the cell taken ``(r, c)``;
    /// 0-based), or None on a lost position or with ``hint=False``.
    #[getter]
    fn hint(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.hint.as_ref().map(|h| h.clone_ref(py))
    }

    /// The winning move as the command prints it (``move ...``), or None.
    #[getter]
    fn hint_text(&self) -> Option<&str> {
        self.hint_text.as_deref()
    }

    /// Entries of the transposition table.
    #[getter]
    fn positions(&self) -> usize {
        self.positions
    }

    /// Seconds of the search.
    #[getter]
    fn seconds(&self) -> f64 {
        self.seconds
    }

    fn __repr__(&self) -> String {
        format!(
            "<SearchResult {}: {}, {}{}>",
            self.game,
            self.nimber
                .map_or("misère play".to_owned(), |n| format!("nimber {n}")),
            self.outcome(),
            self.hint_text
                .as_ref()
                .map_or(String::new(), |h| format!(", move {h}"))
        )
    }
}

/// Solves the start of `game` with `args`; `show` gives a move as Python
/// sees it; writes the certificate.
fn search<G: ProofGame>(
    py: Python<'_>,
    game: G,
    args: SearchArgs<'_>,
    show: impl Fn(Python<'_>, &G, &G::Move) -> PyResult<Py<PyAny>>,
) -> PyResult<SearchResult> {
    let stop = Stop::new();
    let game = Stoppable::new(game, Arc::clone(&stop));
    let solver = Solver::with_options(&game, args.options);
    let root = game.root();
    let poll = || solver.stats().expanded;
    let describe = game.describe();
    let mut progress = Progress::new(
        py,
        args.progress.as_ref(),
        &describe,
        "positions",
        None,
        &poll,
    )?;
    let begin = Instant::now();
    let want_hint = args.hint;
    let misere = args.misere;
    let (nimber, win, hint) = run_detached(py, &stop, &mut progress, || {
        if misere {
            let win = solver.misere_outcome(&root)? == Outcome::Win;
            let hint = match want_hint && win {
                true => solver.misere_winning_move(&root)?,
                false => None,
            };
            return Ok((None, win, hint));
        }
        let nimber = solver.nimber(&root)?;
        let hint = match (want_hint, nimber) {
            (true, 1..) => solver.winning_move(&root)?,
            _ => None,
        };
        Ok::<_, SearchError>((Some(nimber), nimber != 0, hint))
    })?
    .map_err(|e| value_error(e.to_string()))?;
    let seconds = begin.elapsed().as_secs_f64();
    if let Some(destination) = &args.proof {
        let mut quiet = Progress::none();
        let proof = run_detached(py, &stop, &mut quiet, || prove(&solver, GENERATOR))?
            .map_err(|e| value_error(format!("cannot write the certificate: {e}")))?;
        py.detach(|| {
            destination.write(|out| {
                out.write_all(&proof.bytes)
                    .map_err(|error| sg_files::safe_write::WriteError::Io {
                        path: destination.path().to_owned(),
                        error,
                    })
            })
        })
        .map_err(write_error)?;
    }
    Ok(SearchResult {
        game: describe,
        nimber,
        win,
        misere,
        hint: hint
            .as_ref()
            .map(|mv| show(py, &game.game, mv))
            .transpose()?,
        hint_text: hint.as_ref().map(|mv| game.show_move(mv)),
        positions: solver.positions(),
        seconds,
    })
}

/// The nimber of a Cram board, who wins it, and a winning move.
///
/// Players in turn place a domino on two free adjacent cells; the player
/// who cannot loses. ``board`` is ``"RxC"`` (an empty board), a list of
/// strings of ``.`` (free) and ``#`` (blocked) (or one string of lines),
/// or a 2-D bool array (True = free, or a list of lists of bools: at most
/// 16 of at most 16 are read); one side at most 8 cells, the other at
/// most 16. Components of at most 14 cells come from the endgame table
/// (``online=True``: searched too). ``threads`` (default: one per CPU),
/// ``memory`` (bytes, or ``"512M"``; default: a quarter of the machine's),
/// ``proof`` (a path: writes a certificate that :func:`check_proof` and
/// ``grundy proof check`` confirm), ``hint`` (False: no winning move),
/// ``misere`` (True: who wins, and how, in misère play, where the player
/// who places the last domino loses; ``nimber`` is then None, and
/// ``proof``, ``online`` and ``threads`` are refused as the command
/// refuses them), ``progress`` as for :func:`octal`.
///
/// >>> import grundy
/// >>> r = grundy.cram("4x7")
/// >>> r.nimber, r.outcome, r.hint
/// (3, 'WIN', ((0, 1), (0, 2)))
/// >>> grundy.cram(["..#", "..."]).nimber
/// 0
/// >>> grundy.cram("2x2").outcome, grundy.cram("2x2", misere=True).outcome
/// ('LOSE', 'WIN')
#[pyfunction]
#[pyo3(signature = (board, *, threads = None, memory = None, proof = None, online = false, hint = true, misere = false, progress = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn cram(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
    memory: Option<&Bound<'_, PyAny>>,
    proof: Option<&Bound<'_, PyAny>>,
    online: bool,
    hint: bool,
    misere: bool,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<SearchResult> {
    let board = cram_board_of(board)?;
    let args = SearchArgs::new(threads, memory, proof, online, hint, misere, progress)?;
    if cram_game::fits_u64(board.rows, board.cols) {
        cram_on::<u64>(py, &board, args)
    } else {
        cram_on::<u128>(py, &board, args)
    }
}

fn cram_on<B: Bits>(
    py: Python<'_>,
    board: &CramBoard,
    args: SearchArgs<'_>,
) -> PyResult<SearchResult> {
    let game = Cram::<B>::with_blocked(board.rows, board.cols, &board.blocked)
        .map_err(|e| value_error(e.to_string()))?;
    // The misère search asks no nimber of the endgame table.
    let game = if args.online || args.misere {
        game
    } else {
        let endgame: Arc<dyn CramEndgame> = Arc::new(sg_tables::embedded_cram_endgame());
        game.with_endgame(endgame)
    };
    search(py, game, args, |py, cram, mv| {
        let [a, b] = cram.cells(*mv);
        Ok((a, b).into_pyobject(py)?.into_any().unbind())
    })
}

/// A Cram board from any of the forms [`cram`] accepts, read by the
/// command's parsers.
fn cram_board_of(board: &Bound<'_, PyAny>) -> PyResult<CramBoard> {
    let drawn = |text: &str| cram_board(text.as_bytes()).map_err(|e| value_error(e.to_string()));
    if board.is_instance_of::<PyString>() {
        let text: String = board.extract()?;
        if text.contains(['.', '#', '\n']) {
            return drawn(&text);
        }
        return cram_size(&text).map_err(|e| value_error(e.to_string()));
    }
    if board.is_instance_of::<PyList>() || board.is_instance_of::<PyTuple>() {
        let rows: Vec<Bound<'_, PyAny>> = board.try_iter()?.collect::<PyResult<_>>()?;
        if rows.iter().all(|r| r.is_instance_of::<PyString>()) {
            let rows: Vec<String> = rows.iter().map(|r| r.extract()).collect::<PyResult<_>>()?;
            return drawn(&rows.join("\n"));
        }
    }
    let max = cram_game::MAX_SIDE as usize;
    let note = format!(
        " (a Cram board has one side at most {} cells, the other at most {max})",
        cram_game::MAX_SHORT_SIDE
    );
    check_array_like(board, "board", (max, max, max), &note)?;
    let numpy = board.py().import("numpy")?;
    let array = numpy.getattr("asarray")?.call1((board,));
    let bools = array
        .ok()
        .and_then(|a| a.cast_into::<numpy::PyUntypedArray>().ok());
    match bools {
        Some(a) if a.ndim() == 2 && a.dtype().getattr("kind")?.extract::<String>()? == "b" => {
            let [rows, cols] = [a.shape()[0], a.shape()[1]];
            let max = cram_game::MAX_SIDE as usize;
            if rows > max || cols > max {
                return Err(value_error(format!(
                    "a Cram board of {rows}x{cols} is beyond the engine: one side at most {} \
                     cells, the other at most {}",
                    cram_game::MAX_SHORT_SIDE,
                    cram_game::MAX_SIDE
                )));
            }
            let cells: Vec<bool> = a.call_method0("ravel")?.call_method0("tolist")?.extract()?;
            let text: Vec<String> = cells
                .chunks(cols.max(1))
                .map(|row| {
                    row.iter()
                        .map(|&free| if free { '.' } else { '#' })
                        .collect()
                })
                .collect();
            drawn(&text.join("\n"))
        }
        _ => Err(PyTypeError::new_err(format!(
            "board must be \"RxC\", a list of strings of . and #, or a 2-D bool array, not {}",
            crate::args::type_name(board)
        ))),
    }
}

/// The edges `node_kayles` reads, from a list, a graph or an array:
/// 262144, four times the ordered pairs of 256 vertices (an edge may be
/// listed twice, in both directions).
const NODE_KAYLES_EDGES: EdgeLimits = EdgeLimits {
    listed: 1 << 18,
    array: 1 << 18,
};

/// Node-Kayles on a graph: the nimber, who wins, and a winning move.
///
/// Players in turn pick a vertex and remove it with its neighbours; the
/// player who cannot loses. ``n`` vertices (at most 256), numbered from 0;
/// ``edges`` undirected (a list of pairs, an ``(m, 2)`` integer array, or a
/// graph with ``.edges()`` such as a networkx graph on nodes ``0..n-1``;
/// an edge listed twice is one edge; at most 262144 are read: beyond, a
/// ``ValueError``). The hint is a vertex. Keyword
/// arguments as for :func:`cram`.
///
/// >>> import grundy
/// >>> cycle = [(i, (i + 1) % 5) for i in range(5)]
/// >>> r = grundy.node_kayles(5, cycle)
/// >>> r.nimber, r.outcome, r.hint
/// (0, 'LOSE', None)
/// >>> grundy.node_kayles(3, [(0, 1), (1, 2)]).hint
/// 1
#[pyfunction]
#[pyo3(signature = (n, edges, *, threads = None, memory = None, proof = None, online = false, hint = true, misere = false, progress = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn node_kayles(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    edges: &Bound<'_, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
    memory: Option<&Bound<'_, PyAny>>,
    proof: Option<&Bound<'_, PyAny>>,
    online: bool,
    hint: bool,
    misere: bool,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<SearchResult> {
    // A number too large gets the command's message, a negative one the
    // whole range.
    let vertices = match int_of(n, "n", 0, MAX_VERTICES.into()) {
        Ok(vertices) => vertices as u32,
        Err(IntError::TooLarge(_)) => {
            return Err(value_error(
                InputErrorKind::NumberTooLarge {
                    expected: "the number of vertices",
                    max: MAX_VERTICES.into(),
                }
                .to_string(),
            ));
        }
        Err(e) => return Err(e.into_err("n", (0, MAX_VERTICES.into()))),
    };
    let mut pairs = std::collections::BTreeSet::new();
    for (i, (u, v)) in edge_list(edges, "edges", u64::from(vertices), NODE_KAYLES_EDGES)?
        .into_iter()
        .enumerate()
    {
        if u == v {
            return Err(value_error(format!(
                "edges[{i}]: {}",
                InputErrorKind::SelfLoop { node: u }
            )));
        }
        pairs.insert((u.min(v), u.max(v)));
    }
    let pairs: Vec<(u32, u32)> = pairs.into_iter().collect();
    let args = SearchArgs::new(threads, memory, proof, online, hint, misere, progress)?;
    if node_kayles_game::fits_u64(u64::from(vertices)) {
        node_kayles_on::<u64>(py, vertices, &pairs, args)
    } else if node_kayles_game::fits_u128(u64::from(vertices)) {
        node_kayles_on::<u128>(py, vertices, &pairs, args)
    } else {
        node_kayles_on::<sg_search::bits::U256>(py, vertices, &pairs, args)
    }
}

fn node_kayles_on<B: Bits>(
    py: Python<'_>,
    vertices: u32,
    edges: &[(u32, u32)],
    args: SearchArgs<'_>,
) -> PyResult<SearchResult> {
    let game = NodeKayles::<B>::new(vertices, edges).map_err(|e| value_error(e.to_string()))?;
    search(py, game, args, |py, _, vertex| {
        Ok(vertex.into_pyobject(py)?.into_any().unbind())
    })
}

/// Chomp: the nimber, who wins, and a winning move.
///
/// A bar of chocolate whose top left cell ``(0, 0)`` is poisoned; a move
/// takes a cell with every cell below and to its right; who must take the
/// poisoned cell loses (it is never taken: the player without a move
/// loses). ``rows`` is ``"RxC"`` or the row lengths from the top
/// (non-increasing; a list of integers, any iterable of at most 127 of
/// them, or ``"5,3,1"``); rows plus columns at most 127. The hint is the cell taken ``(row, column)``. Keyword
/// arguments as for :func:`cram`.
///
/// >>> import grundy
/// >>> grundy.chomp("3x4").nimber
/// 9
/// >>> grundy.chomp([3, 1]).hint
/// (0, 2)
#[pyfunction]
#[pyo3(signature = (rows, *, threads = None, memory = None, proof = None, online = false, hint = true, misere = false, progress = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn chomp(
    py: Python<'_>,
    rows: &Bound<'_, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
    memory: Option<&Bound<'_, PyAny>>,
    proof: Option<&Bound<'_, PyAny>>,
    online: bool,
    hint: bool,
    misere: bool,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<SearchResult> {
    let text = if rows.is_instance_of::<PyString>() {
        rows.extract::<String>()?
    } else {
        // Read from 0: 0 and rows too long get the command's messages.
        let read = (0, u64::from(u32::MAX));
        let told = (1, CHOMP_MAX_ROWS as u64);
        let lengths = ints_told(rows, "rows", read, told, CHOMP_MAX_ROWS + 1)?;
        if lengths.is_empty() {
            return Err(value_error("rows: a diagram has at least one row"));
        }
        let lengths: Vec<String> = lengths.iter().map(u64::to_string).collect();
        lengths.join(",")
    };
    let lengths = chomp_rows(&text, CHOMP_MAX_ROWS).map_err(value_error)?;
    let args = SearchArgs::new(threads, memory, proof, online, hint, misere, progress)?;
    if chomp_game::fits_u64(lengths.len() as u64, u64::from(lengths[0])) {
        chomp_on::<u64>(py, &lengths, args)
    } else {
        chomp_on::<u128>(py, &lengths, args)
    }
}

fn chomp_on<B: Bits>(py: Python<'_>, rows: &[u32], args: SearchArgs<'_>) -> PyResult<SearchResult> {
    let game = Chomp::<B>::from_rows(rows).map_err(|e| value_error(e.to_string()))?;
    search(py, game, args, |py, _, bite| {
        Ok((bite.row, bite.col).into_pyobject(py)?.into_any().unbind())
    })
}

/// What a certificate proves: ``game`` (e.g. ``'cram 4x7'``), the
/// ``nimber`` of its start, and the ``positions`` (claims) checked. It
/// unpacks as a tuple ``(game, nimber, positions)``.
///
/// >>> import grundy, os, tempfile
/// >>> path = os.path.join(tempfile.mkdtemp(), "c.proof")
/// >>> _ = grundy.cram("3x4", proof=path)
/// >>> game, nimber, positions = grundy.check_proof(path)
/// >>> game, nimber
/// ('cram 3x4', 1)
#[pyclass(frozen, module = "grundy", name = "CheckedProof")]
pub(crate) struct CheckedProof {
    game: String,
    nimber: u32,
    positions: u64,
}

#[pymethods]
impl CheckedProof {
    /// The game with its rules, e.g. ``'cram 4x7'``.
    #[getter]
    fn game(&self) -> &str {
        &self.game
    }

    /// The nimber of its start position.
    #[getter]
    fn nimber(&self) -> u32 {
        self.nimber
    }

    /// The positions (claims) checked.
    #[getter]
    fn positions(&self) -> u64 {
        self.positions
    }

    fn __len__(&self) -> usize {
        3
    }

    /// As the tuple `(game, nimber, positions)` answers it: an index out
    /// of range, however large, is an `IndexError`; a slice a tuple.
    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.tuple(py)?.as_any().get_item(index)
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.tuple(py)?.try_iter()?.into_any())
    }

    fn __repr__(&self) -> String {
        format!(
            "CheckedProof(game={:?}, nimber={}, positions={})",
            self.game, self.nimber, self.positions
        )
    }

    fn __str__(&self) -> String {
        format!(
            "{}: nimber {}, {} positions checked",
            self.game, self.nimber, self.positions
        )
    }
}

impl CheckedProof {
    fn tuple<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        (self.game.as_str(), self.nimber, self.positions).into_pyobject(py)
    }
}

/// Checks a certificate written with ``proof=`` (or by ``grundy cram
/// --proof``) from the game's rules alone, without search, as ``grundy
/// proof check`` does: what it proves, or a :class:`ProofError` naming the
/// first claim that fails (and for a file that is not a well-formed
/// certificate). An ``OSError`` if the file cannot be read.
///
/// >>> import grundy, os, tempfile
/// >>> path = os.path.join(tempfile.mkdtemp(), "chomp.proof")
/// >>> grundy.chomp("2x3", proof=path).nimber
/// 4
/// >>> print(grundy.check_proof(path))
/// chomp 2x3: nimber 4, 2 positions checked
#[pyfunction]
pub(crate) fn check_proof(py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<CheckedProof> {
    let path = path_of(path, "path")?;
    let shown = sg_text::shown_path(&path);
    let bytes = py
        .detach(|| read_proof(&path))
        .map_err(|(error, message)| {
            read_error(&path, &error, format!("cannot read {shown}: {message}"))
        })?;
    let checked = py
        .detach(|| sg_search::proof::check(&bytes))
        .map_err(|e| ProofError::new_err(format!("{shown} is not a valid proof: {e}")))?;
    Ok(CheckedProof {
        game: checked.game,
        nimber: checked.nimber,
        positions: checked.claims,
    })
}

/// The bytes of the certificate `path`: a regular file of at most
/// [`MAX_PROOF_FILE`] bytes (a FIFO or a device is refused: it could
/// block or never end).
fn read_proof(path: &std::path::Path) -> Result<Vec<u8>, (std::io::Error, String)> {
    let fail = |error: std::io::Error| {
        let message = error.to_string();
        (error, message)
    };
    // Looked at before it is opened: opening a FIFO waits for a writer.
    let regular = |metadata: &std::fs::Metadata| -> Result<(), (std::io::Error, String)> {
        if metadata.is_dir() {
            let error = std::io::Error::from_raw_os_error(21);
            return Err((error, "it is a folder".to_owned()));
        }
        if !metadata.is_file() {
            let error = std::io::Error::other("not a regular file");
            return Err((error, "it is not a regular file".to_owned()));
        }
        Ok(())
    };
    regular(&std::fs::metadata(path).map_err(fail)?)?;
    let file = std::fs::File::open(path).map_err(fail)?;
    regular(&file.metadata().map_err(fail)?)?;
    let mut bytes = Vec::new();
    file.take(MAX_PROOF_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(fail)?;
    if bytes.len() as u64 > MAX_PROOF_FILE {
        let error = std::io::Error::other("too large");
        return Err((error, format!("it is larger than {MAX_PROOF_FILE} bytes")));
    }
    Ok(bytes)
}
