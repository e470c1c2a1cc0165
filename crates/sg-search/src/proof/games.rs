//! The built-in games in certificates: their names, rules and the stored
//! form of their positions (as the file format documents them).

use serde::{Deserialize, Serialize};

use super::ProofGame;
use crate::bits::Bits;
use crate::games::cram::{Cells, Cram, Domino};

/// The rules of a Cram board in a certificate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CramRules {
    /// Rows of the board.
    pub rows: u32,
    /// Columns of the board.
    pub cols: u32,
    /// The blocked cells, `(row, column)`, 0-based, sorted and distinct.
    pub blocked: Vec<(u32, u32)>,
}

impl<B: Bits> ProofGame for Cram<B> {
    const NAME: &'static str = "cram";
    type Rules = CramRules;
    type Code = u128;

    fn rules(&self) -> CramRules {
        let free = self.free_cells(self.start());
        let blocked = (0..self.rows())
            .flat_map(|r| (0..self.cols()).map(move |c| (r, c)))
            .filter(|cell| free.binary_search(cell).is_err())
            .collect();
        CramRules {
            rows: self.rows(),
            cols: self.cols(),
            blocked,
        }
    }

    fn from_rules(rules: &CramRules) -> Result<Self, String> {
        if !rules.blocked.windows(2).all(|w| w[0] < w[1]) {
            return Err("the blocked cells are not sorted and distinct".to_owned());
        }
        Cram::with_blocked(rules.rows, rules.cols, &rules.blocked).map_err(|e| e.to_string())
    }

    fn root(&self) -> Cells<B> {
        self.start()
    }

    fn describe(&self) -> String {
        let blocked = self.rules().blocked.len();
        let (rows, cols) = (self.rows(), self.cols());
        match blocked {
            0 => format!("cram {rows}x{cols}"),
            1 => format!("cram {rows}x{cols} with 1 blocked cell"),
            n => format!("cram {rows}x{cols} with {n} blocked cells"),
        }
    }

    fn code(&self, position: &Cells<B>) -> u128 {
        position.0.to_u128()
    }

    fn position_of(&self, code: u128) -> Option<Cells<B>> {
        let cells = B::from_u128(code);
        (cells.to_u128() == code).then_some(Cells(cells))
    }

    /// The free cells as rows of `.` (free) and `#` (not free) across the
    /// smallest rectangle that holds them, in the board's orientation,
    /// rows separated by `/`: `../.#`.
    fn show(&self, position: &Cells<B>) -> String {
        let cells = self.cells_of(*position);
        if cells.is_empty() {
            return "no free cell".to_owned();
        }
        let top = cells.iter().map(|c| c.0).min().expect("a cell");
        let bottom = cells.iter().map(|c| c.0).max().expect("a cell");
        let left = cells.iter().map(|c| c.1).min().expect("a cell");
        let right = cells.iter().map(|c| c.1).max().expect("a cell");
        let rows: Vec<String> = (top..=bottom)
            .map(|r| {
                (left..=right)
                    .map(|c| if cells.contains(&(r, c)) { '.' } else { '#' })
                    .collect()
            })
            .collect();
        format!("cells {}", rows.join("/"))
    }

    fn show_move(&self, mv: &Domino) -> String {
        let [(r1, c1), (r2, c2)] = self.cells(*mv);
        format!("({r1},{c1})-({r2},{c2})")
    }
}
