//! The row game as `grundy row` (and the Python module's `row` and
//! `row_grid`) name it: a row of `width` cells given by the columns of its
//! pieces, checked with the tool's messages, and the grid of every row of
//! a width.

use crate::heatmap::{Grid, HeatmapError};
use sg_core::row::{row_from_columns, row_grundy};

/// The widest row whose every position fits in a grid (2^12 on a side).
pub const GRID_MAX_WIDTH: u32 = 24;

/// The row of `width` cells (1 to 64) with pieces on `columns` (1-based
/// from the left, distinct), as a bit mask; the message for the first
/// column outside the row or repeated otherwise.
pub fn row_of(width: u32, columns: &[u32]) -> Result<u64, String> {
    row_from_columns(width, columns).ok_or_else(|| bad_columns(width, columns))
}

/// Why `columns` are not a row of `width` cells: the first column outside
/// `1..=width` or repeated (each cause once, whatever the number of
/// columns).
fn bad_columns(width: u32, columns: &[u32]) -> String {
    let mut seen = 0u64;
    for &column in columns {
        if !(1..=width).contains(&column) {
            return format!("column {column} is outside the row (columns are 1..={width})");
        }
        let bit = 1u64 << (column - 1);
        if seen & bit != 0 {
            return format!("column {column} appears twice");
        }
        seen |= bit;
    }
    format!("the columns are not distinct columns of 1..={width}")
}

/// The size of the grid of every row of `width` cells (cells across, cells
/// down), if `width` is at most [`GRID_MAX_WIDTH`]; else the message,
/// naming `what` asks for the grid (e.g. `--grid`).
pub fn row_grid_size(width: u32, what: &str) -> Result<(usize, usize), String> {
    if width > GRID_MAX_WIDTH {
        return Err(format!(
            "{what} needs a width of at most {GRID_MAX_WIDTH}, not {width}"
        ));
    }
    let right = width.div_ceil(2);
    Ok((1 << right, 1 << (width - right)))
}

/// The values of all `2^width` rows of `width` cells as a grid (see
/// [`row_grid_size`]): x the pieces of the right `ceil(width / 2)` cells
/// read as a binary number (bit 0 the rightmost cell), y those of the left
/// `floor(width / 2)` cells.
pub fn row_grid(width: u32, what: &str) -> Result<Grid, String> {
    let (across, down) = row_grid_size(width, what)?;
    let right = width.div_ceil(2);
    Grid::from_fn::<HeatmapError>(across, down, |x, y| {
        Ok(row_grundy(((y as u64) << right) | x as u64))
    })
    .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_checked() {
        assert_eq!(
            row_of(20, &[1, 19]),
            Ok(row_from_columns(20, &[1, 19]).unwrap())
        );
        assert!(row_of(20, &[21]).unwrap_err().contains("outside the row"));
        assert!(row_of(20, &[3, 3]).unwrap_err().contains("appears twice"));
        assert_eq!(
            row_grid(25, "--grid").unwrap_err(),
            "--grid needs a width of at most 24, not 25"
        );
        let grid = row_grid(4, "--grid").unwrap();
        assert_eq!((grid.width(), grid.height()), (4, 4));
        assert_eq!(grid.get(1, 0), row_grundy(1));
    }
}
