//! A winning move of Cram known without search, by symmetry: on a board
//! that is its own image under half a turn about its centre, where the
//! centre lies between two free cells (a bounding box odd one way and
//! even the other, as an empty 3 x 4 or 5 x 8 board), the first player
//! takes those two cells and then copies each move of the opponent turned
//! by half a turn. After the first move the free cells are their own image
//! and no domino meets its own image (only a domino on the centre could,
//! and its cells are taken), so the copy is always free and disjoint from
//! the move it answers: the opponent runs out of moves first. This is the
//! strategy of Gardner's account of Cram (and the reason the solver values
//! a position that is its own image with its centre taken 0, without
//! search: `Shape::is_symmetric_loss` in the parent module).

use super::{Cells, Cram, Domino};
use crate::bits::Bits;

impl<B: Bits> Cram<B> {
    /// The move that wins `position` by symmetry (see the module
    /// documentation), if its free cells are their own image under half a
    /// turn about the centre of their bounding box and the two central
    /// cells are free; `None` otherwise, which says nothing of who wins.
    pub fn symmetry_win(&self, position: Cells<B>) -> Option<Domino> {
        let cells = self.free_cells(position);
        let (&(first_row, _), &(last_row, _)) = (cells.first()?, cells.last()?);
        let first_col = cells.iter().map(|&(_, c)| c).min()?;
        let last_col = cells.iter().map(|&(_, c)| c).max()?;
        let turned = |(r, c): (u32, u32)| (first_row + last_row - r, first_col + last_col - c);
        // Row by row both ways: the image of the list, reversed, is the list.
        if !cells
            .iter()
            .rev()
            .map(|&cell| turned(cell))
            .eq(cells.iter().copied())
        {
            return None;
        }
        let (rows, cols) = (last_row - first_row + 1, last_col - first_col + 1);
        let (mid_row, mid_col) = ((first_row + last_row) / 2, (first_col + last_col) / 2);
        let (a, b) = match (rows % 2, cols % 2) {
            (1, 0) => ((mid_row, mid_col), (mid_row, mid_col + 1)),
            (0, 1) => ((mid_row, mid_col), (mid_row + 1, mid_col)),
            _ => return None,
        };
        let free = |cell| cells.binary_search(&cell).is_ok();
        if free(a) && free(b) {
            self.domino(a, b)
        } else {
            None
        }
    }
}
