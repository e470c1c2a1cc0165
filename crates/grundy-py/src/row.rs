//! `grundy.row` and `grundy.row_grid`: the row game of HDU 5724 (pieces
//! on a row jump right to the next empty cell), one row's value or every
//! row of a width as a grid, as `grundy row` computes them
//! (`sg_solve::row_args`).

use numpy::PyArray2;
use pyo3::prelude::*;
use sg_core::row::{MAX_WIDTH, row_grundy};
use sg_solve::row_args::{row_grid as grid_of, row_of};

use crate::args::{int_in, ints_told};
use crate::errors::value_error;
use crate::knight::grid_array;

/// The Grundy value of one row of the row game: pieces on ``columns``
/// (``1..=width`` from the left, distinct; any iterable, at most 64 of
/// them) of a row of ``width`` cells (1 to 64); a piece moves right onto the next empty cell, jumping the
/// pieces in between. The game is staircase Nim.
///
/// >>> import grundy
/// >>> grundy.row([1, 19])
/// 1
/// >>> grundy.row([1, 2], width=3)
/// 2
#[pyfunction]
#[pyo3(signature = (columns, width = None), text_signature = "(columns, width=20)")]
pub(crate) fn row(columns: &Bound<'_, PyAny>, width: Option<&Bound<'_, PyAny>>) -> PyResult<u32> {
    let width = match width {
        Some(w) if !w.is_none() => int_in(w, "width", 1, MAX_WIDTH.into())? as u32,
        _ => 20,
    };
    // Read from 0: 0 and columns beyond the width get the command's
    // messages; a row has at most MAX_WIDTH pieces.
    let told = (1, u64::from(width));
    let columns = ints_told(
        columns,
        "columns",
        (0, u32::MAX.into()),
        told,
        MAX_WIDTH as usize,
    )?;
    let columns: Vec<u32> = columns.iter().map(|&c| c as u32).collect();
    let row = row_of(width, &columns).map_err(value_error)?;
    Ok(row_grundy(row))
}

/// The values of all ``2**width`` rows of ``width`` cells (at most 24) as a
/// 2-D ``uint32`` array, as ``grundy row --grid`` prints them: column ``x``
/// holds the pieces of the right ``ceil(width/2)`` cells read as a binary
/// number (bit 0 the rightmost cell), row ``y`` those of the left
/// ``floor(width/2)`` cells.
///
/// >>> import grundy
/// >>> grundy.row_grid(4).tolist()
/// [[0, 0, 1, 0], [0, 1, 2, 0], [1, 0, 1, 1], [0, 2, 3, 0]]
#[pyfunction]
pub(crate) fn row_grid<'py>(
    py: Python<'py>,
    width: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray2<u32>>> {
    let width = int_in(width, "width", 1, MAX_WIDTH.into())? as u32;
    let grid = py
        .detach(|| grid_of(width, "row_grid"))
        .map_err(value_error)?;
    grid_array(py, &grid)
}
