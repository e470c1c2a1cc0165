//! `grundy.knight` and `grundy.knight_grid`: the value of a knight on any
//! square below 2^63, for any move set that lowers `x + y`, from the
//! certified description of the board (`sg_solve::knight_source`, as
//! `grundy knight` obtains it). The sources of the move sets used lately
//! are kept, so that a loop over squares searches a move set's
//! description once.

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;
use sg_core::knight::MoveSet;
use sg_solve::heatmap::{Grid, check_grid};
use sg_solve::knight_source::KnightSource;
use std::sync::{Arc, Mutex, PoisonError};

use crate::args::{Few, Items, MAX_MOVES, few_items, int_in, ints_in, type_name};
use crate::errors::value_error;

/// The largest coordinate (squares are below 2^63).
const MAX_COORDINATE: u64 = (1 << 63) - 1;

/// How many move sets' sources are kept.
const KEPT: usize = 8;

/// A move set's source, shared by the calls that use it.
type Shared = Arc<Mutex<KnightSource>>;

/// The sources of the move sets used lately, the latest last.
static SOURCES: Mutex<Vec<(MoveSet, Shared)>> = Mutex::new(Vec::new());

/// The Grundy value of one knight on ``(x, y)``, for any ``x, y < 2**63``.
///
/// A move goes by one of the steps ``moves`` (default: the hyper knight of
/// LightOJ 1315), each lowering ``x + y``: a list of ``(dx, dy)`` pairs
/// (any iterable of at most 65536 steps, each of 32-bit integers), or the
/// command's text ``"-2,-1 -1,-2"``. The value comes from a finite
/// description of the whole board, certified before use: compiled in for
/// the hyper knight, searched for another move set on its first use (then
/// kept). When no description is found, squares with ``x + y <= 32767``
/// are computed by the definition (with a ``RuntimeWarning``).
///
/// >>> import grundy
/// >>> grundy.knight(2, 5)
/// 3
/// >>> grundy.knight(2**62, 7)
/// 3
/// >>> grundy.knight(10, 20, moves=[(-2, -1), (-1, -2), (-2, 1), (1, -2)])
/// 3
#[pyfunction]
#[pyo3(signature = (x, y, moves = None))]
pub(crate) fn knight(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    moves: Option<&Bound<'_, PyAny>>,
) -> PyResult<u32> {
    let x = int_in(x, "x", 0, MAX_COORDINATE)?;
    let y = int_in(y, "y", 0, MAX_COORDINATE)?;
    let moves = move_set(moves)?;
    let source = source(py, moves, x.saturating_add(y))?;
    let mut source = source.lock().unwrap_or_else(PoisonError::into_inner);
    source.value(x, y).map_err(|e| value_error(e.to_string()))
}

/// The values of the squares ``(x, y)`` for ``x`` in ``xs`` and ``y`` in
/// ``ys`` (ranges, or any iterables of coordinates; at most 4096 each), as
/// a 2-D ``uint32`` array whose row ``i`` is ``ys[i]``, as ``grundy knight
/// --grid`` prints them. ``moves`` as for :func:`knight`.
///
/// >>> import grundy
/// >>> grundy.knight_grid(range(8), range(3))[0].tolist()
/// [0, 0, 1, 1, 0, 0, 0, 1]
/// >>> grundy.knight_grid(range(4), range(2)).shape
/// (2, 4)
#[pyfunction]
#[pyo3(signature = (xs, ys, moves = None))]
pub(crate) fn knight_grid<'py>(
    py: Python<'py>,
    xs: &Bound<'py, PyAny>,
    ys: &Bound<'py, PyAny>,
    moves: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray2<u32>>> {
    // Sides checked before the coordinates are read when their lengths
    // are known (`range(10**9)`); the others are read up to the limit.
    if let (Some(width), Some(height)) = (side(xs)?, side(ys)?) {
        check_grid(width, height).map_err(|e| value_error(e.to_string()))?;
    }
    let limit = sg_solve::heatmap::MAX_GRID_SIDE;
    let xs = ints_in(xs, "xs", 0, MAX_COORDINATE, limit)?;
    let ys = ints_in(ys, "ys", 0, MAX_COORDINATE, limit)?;
    check_grid(xs.len(), ys.len()).map_err(|e| value_error(e.to_string()))?;
    let max_sum = xs.iter().max().copied().unwrap_or(0) + ys.iter().max().copied().unwrap_or(0);
    let moves = move_set(moves)?;
    let source = source(py, moves, max_sum)?;
    let grid = py.detach(|| {
        let mut source = source.lock().unwrap_or_else(PoisonError::into_inner);
        Grid::from_fn::<Box<dyn std::error::Error + Send + Sync>>(xs.len(), ys.len(), |col, row| {
            Ok(source.value(xs[col], ys[row])?)
        })
    });
    let grid = grid.map_err(|e| value_error(e.to_string()))?;
    grid_array(py, &grid)
}

/// The number of items of `obj` if it says (a range, a list, an array);
/// None for an iterator, or a range too large to count (read up to the
/// limit, then refused).
fn side(obj: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "coordinates must be integers, not str",
        ));
    }
    Ok(obj.len().ok())
}

/// `grid` as a 2-D `uint32` array, row by row.
pub(crate) fn grid_array<'py>(py: Python<'py>, grid: &Grid) -> PyResult<Bound<'py, PyArray2<u32>>> {
    let values: Vec<u32> = grid.rows().flatten().copied().collect();
    PyArray1::from_vec(py, values).reshape([grid.height(), grid.width()])
}

/// The move set of `moves=` (`None`: the hyper knight).
fn move_set(moves: Option<&Bound<'_, PyAny>>) -> PyResult<Option<MoveSet>> {
    let Some(moves) = moves.filter(|m| !m.is_none()) else {
        return Ok(None);
    };
    if moves.is_instance_of::<PyString>() {
        let text: String = moves.extract()?;
        return sg_solve::knight_moves::parse_moves(&text)
            .map(Some)
            .map_err(|e| value_error(format!("moves: {e}")));
    }
    let not_steps = || {
        PyTypeError::new_err(format!(
            "moves must be a list of (dx, dy) steps or a text such as \"-2,-1 -1,-2\", not {}",
            type_name(moves)
        ))
    };
    let items = match Items::new(moves, "moves", "steps", MAX_MOVES) {
        Ok(items) => items,
        Err(e) if e.is_instance_of::<PyTypeError>(moves.py()) => return Err(not_steps()),
        Err(e) => return Err(e),
    };
    let mut steps = Vec::new();
    for (i, step) in items.enumerate() {
        steps.push(step_of(&step?, &format!("moves[{i}]"))?);
    }
    if steps.is_empty() {
        return Err(value_error(format!(
            "moves: {}",
            sg_solve::knight_moves::MovesError::Empty
        )));
    }
    MoveSet::new(&steps)
        .map(Some)
        .map_err(|e| value_error(format!("moves: {e}")))
}

/// A step `(dx, dy)` of 32-bit integers.
fn step_of(step: &Bound<'_, PyAny>, name: &str) -> PyResult<(i32, i32)> {
    let not_pair = || {
        PyTypeError::new_err(format!(
            "{name} must be a pair (dx, dy), not {}",
            type_name(step)
        ))
    };
    if step.is_instance_of::<PyString>() {
        return Err(not_pair());
    }
    // At most three items are read: a step that never ends is no pair.
    let items = match few_items(step, 2)? {
        Few::NotIterable => return Err(not_pair()),
        Few::Items(items) => items,
        Few::TooMany(count) => {
            return Err(value_error(format!(
                "{name} must be a pair (dx, dy), not {count}"
            )));
        }
    };
    let [dx, dy] = items.as_slice() else {
        return Err(value_error(format!(
            "{name} must be a pair (dx, dy), not {} items",
            items.len()
        )));
    };
    let one = |v: &Bound<'_, PyAny>| -> PyResult<i32> {
        let range = (i128::from(i32::MIN), i128::from(i32::MAX));
        let out_of_range = |shown: String| {
            value_error(format!(
                "{name}: a step must be from {} to {}, not {shown}",
                range.0, range.1
            ))
        };
        let value: i128 = match v.extract() {
            Ok(value) if !v.is_instance_of::<pyo3::types::PyFloat>() => value,
            Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(v.py()) => {
                return Err(out_of_range(crate::args::short_int(v)?));
            }
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "{name}: a step must be an integer, not {}",
                    type_name(v)
                )));
            }
        };
        i32::try_from(value).map_err(|_| out_of_range(value.to_string()))
    };
    Ok((one(dx)?, one(dy)?))
}

/// The source of `moves`'s values able to answer squares up to
/// `x + y = max_sum`: kept, or made (and kept).
fn source(py: Python<'_>, moves: Option<MoveSet>, max_sum: u64) -> PyResult<Shared> {
    let key = moves.clone().unwrap_or_else(MoveSet::hyper_knight);
    {
        let mut kept = SOURCES.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(at) = kept.iter().position(|(m, _)| *m == key) {
            let entry = kept.remove(at);
            let reaches = entry
                .1
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .max_sum()
                >= max_sum;
            let shared = Arc::clone(&entry.1);
            kept.push(entry);
            if reaches {
                return Ok(shared);
            }
        }
    }
    let found = py
        .detach(|| KnightSource::find(moves, false, max_sum))
        .map_err(value_error)?;
    if let Some(note) = &found.note {
        let message = std::ffi::CString::new(note.trim_start_matches("note: ")).unwrap_or_default();
        PyErr::warn(
            py,
            &py.get_type::<pyo3::exceptions::PyRuntimeWarning>(),
            &message,
            1,
        )?;
    }
    let shared = Arc::new(Mutex::new(found.source));
    let mut kept = SOURCES.lock().unwrap_or_else(PoisonError::into_inner);
    kept.retain(|(m, _)| *m != key);
    kept.push((key, Arc::clone(&shared)));
    if kept.len() > KEPT {
        kept.remove(0);
    }
    Ok(shared)
}
