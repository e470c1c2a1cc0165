//! The built-in games in certificates: their names, rules and the stored
//! form of their positions (as the file format documents them).

use serde::{Deserialize, Serialize};

use super::ProofGame;
use crate::bits::{Bits, from_le_bytes, to_le_bytes};
use crate::games::chomp::{Bite, Chomp, Diagram};
use crate::games::cram::{Cells, Cram, Domino};
use crate::games::node_kayles::{NodeKayles, Vertices};

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

    fn code(&self, position: &Cells<B>) -> Vec<u8> {
        to_le_bytes(position.0)
    }

    fn position_of(&self, code: &[u8]) -> Option<Cells<B>> {
        from_le_bytes(code).map(Cells)
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

/// The rules of Node-Kayles in a certificate: the graph, and the
/// symmetries its canonical forms use.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeKaylesRules {
    /// Vertices, numbered from 0.
    pub vertices: u32,
    /// The edges `(u, v)`, `u < v`, sorted and distinct.
    pub edges: Vec<(u32, u32)>,
    /// Automorphisms of the graph other than the identity, each as the
    /// image of every vertex: the symmetries of canonical forms (and of
    /// symmetric losses) on a graph that is not a grid; empty on a grid,
    /// whose canonical forms use the grid's own symmetries.
    pub symmetries: Vec<Vec<u32>>,
}

impl<B: Bits> ProofGame for NodeKayles<B> {
    const NAME: &'static str = "node-kayles";
    type Rules = NodeKaylesRules;

    fn rules(&self) -> NodeKaylesRules {
        NodeKaylesRules {
            vertices: self.vertices(),
            edges: self.edges(),
            symmetries: self.symmetries(),
        }
    }

    fn from_rules(rules: &NodeKaylesRules) -> Result<Self, String> {
        if !rules.edges.windows(2).all(|w| w[0] < w[1]) || rules.edges.iter().any(|e| e.0 >= e.1) {
            return Err("the edges are not sorted, distinct pairs (u, v) with u < v".to_owned());
        }
        NodeKayles::with_symmetries(rules.vertices, &rules.edges, &rules.symmetries)
            .map_err(|e| e.to_string())
    }

    fn root(&self) -> Vertices<B> {
        self.start()
    }

    fn describe(&self) -> String {
        let (vertices, edges) = (self.vertices(), self.edges().len());
        format!(
            "node-kayles, {vertices} vert{}, {edges} edge{}",
            if vertices == 1 { "ex" } else { "ices" },
            if edges == 1 { "" } else { "s" }
        )
    }

    fn code(&self, position: &Vertices<B>) -> Vec<u8> {
        to_le_bytes(position.0)
    }

    fn position_of(&self, code: &[u8]) -> Option<Vertices<B>> {
        from_le_bytes::<B>(code)
            .filter(|&set| set & !self.start().0 == B::ZERO)
            .map(Vertices)
    }

    /// `vertices 0,3,4`.
    fn show(&self, position: &Vertices<B>) -> String {
        let members: Vec<String> = self.members(*position).iter().map(u32::to_string).collect();
        match members.len() {
            0 => "no vertex".to_owned(),
            _ => format!("vertices {}", members.join(",")),
        }
    }

    fn show_move(&self, vertex: &u32) -> String {
        format!("vertex {vertex}")
    }
}

/// The rules of Chomp in a certificate: the starting diagram.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChompRules {
    /// Row lengths from the top, non-increasing, each at least 1.
    pub rows: Vec<u32>,
}

impl<B: Bits> ProofGame for Chomp<B> {
    const NAME: &'static str = "chomp";
    type Rules = ChompRules;

    fn rules(&self) -> ChompRules {
        ChompRules {
            rows: Chomp::rows(self.start()),
        }
    }

    fn from_rules(rules: &ChompRules) -> Result<Self, String> {
        Chomp::from_rows(&rules.rows).map_err(|e| e.to_string())
    }

    fn root(&self) -> Diagram<B> {
        self.start()
    }

    fn describe(&self) -> String {
        format!("chomp {}", rows_text(&Chomp::rows(self.start())))
    }

    fn code(&self, position: &Diagram<B>) -> Vec<u8> {
        to_le_bytes(position.0)
    }

    /// A diagram exactly as `Chomp` encodes one (decoded and encoded
    /// again to the same bits).
    fn position_of(&self, code: &[u8]) -> Option<Diagram<B>> {
        let bits = from_le_bytes::<B>(code)?;
        if bits == B::ZERO {
            return None;
        }
        let rows = Chomp::rows(Diagram(bits));
        Chomp::<B>::diagram(&rows)
            .ok()
            .filter(|diagram| *diagram == Diagram(bits))
    }

    /// `rows 4,3,1`.
    fn show(&self, position: &Diagram<B>) -> String {
        format!(
            "rows {}",
            Chomp::rows(*position)
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(",")
        )
    }

    fn show_move(&self, bite: &Bite) -> String {
        format!("({},{})", bite.row, bite.col)
    }
}

/// Row lengths as `RxC` for a rectangle, `L1,L2,...` otherwise.
fn rows_text(rows: &[u32]) -> String {
    match rows {
        [first, ..] if rows.iter().all(|r| r == first) => format!("{}x{first}", rows.len()),
        _ => rows
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(","),
    }
}
