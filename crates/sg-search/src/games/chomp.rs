//! Chomp on a Young diagram: rows of non-increasing length, aligned on
//! the left; the cell `(0, 0)` (top left) is poisoned. A move takes a cell
//! `(r, c)` other than `(0, 0)` together with every cell `(r', c')` with
//! `r' >= r` and `c' >= c`; the player who cannot move (only the poisoned
//! cell is left) loses. Every position is again a Young diagram holding
//! `(0, 0)`.
//!
//! ```
//! use sg_search::games::chomp::{Bite, Chomp};
//! use sg_search::{Game, Solver};
//!
//! let chomp = Chomp::<u64>::rectangle(3, 4).unwrap();
//! let solver = Solver::new(&chomp);
//! assert_eq!(solver.nimber(&chomp.start()).unwrap(), 9);
//! // Taking (1, 1) leaves an L-shape of 4 + 3 cells: Nim with heaps 3
//! // and 2, nimber 1.
//! let after = chomp.play(&chomp.start(), &Bite { row: 1, col: 1 });
//! assert_eq!(Chomp::rows(after), [4, 1, 1]);
//! assert_eq!(solver.nimber(&after).unwrap(), 1);
//! ```
//!
//! # Positions
//!
//! A diagram of `k` rows, the first of length `a`, is stored as its
//! boundary: the lattice path from its bottom left corner to its top right
//! corner, `a` steps right (bit 0) and `k` steps up (bit 1), the first
//! step in bit 0; a sentinel bit above the last step gives the length. The
//! path of the rows `a = l0 >= l1 >= ... >= l(k-1) > 0` goes, for each row
//! from the bottom, right by the difference between its length and that
//! of the row below (0 below the last), then up. A `u64` holds diagrams
//! with `k + a <= 63`, a `u128` those with `k + a <= 127`.
//!
//! # Symmetry
//!
//! Transposing a diagram (rows become columns) maps moves to moves (the
//! cell `(r, c)` to `(c, r)`), so a diagram and its transpose are the same
//! game. The transposed path is the path read backwards with right and up
//! exchanged (a bit reversal and a complement). The canonical form is the
//! smaller, as a number, of the two. Chomp does not split: every position
//! is one component.
//!
//! # Nimbers known without search
//!
//! - **L-shapes** (a first row of `a` cells, a first column of `b` cells,
//!   nothing else; a single row or column included): `(a - 1) xor (b - 1)`.
//!   The moves are exactly those of Nim on two heaps of `a - 1` and `b - 1`:
//!   taking `(0, c)`, `c >= 1`, leaves the L-shape with a first row of `c`,
//!   taking `(r, 0)`, `r >= 1`, the one with a first column of `r`, and
//!   there are no other cells. A diagram of `k` rows and `a` columns holds
//!   its first row and column, `a + k - 1` cells; it is an L-shape exactly
//!   when it has no more cells.
//! - **Two rows `[b + 1, b]`** (and their transposes, two columns of
//!   `b + 1` and `b` cells): nimber 0. Write `[x, y]` for two rows. From
//!   `[b + 1, b]` a move leaves `[c, c]` (taking `(0, c)`, `1 <= c <= b`),
//!   `[b + 1, c]` with `c < b` (taking `(1, c)`, `c >= 1`), or the single
//!   row `[b + 1]` (taking `(1, 0)`), of nimber `b >= 1`. From `[c, c]` the
//!   move `(1, c - 1)` leaves `[c, c - 1]`, and from `[b + 1, c]` the move
//!   `(0, c + 1)` leaves `[c + 1, c]`, both of the form `[y + 1, y]`, which
//!   by induction on the number of cells have nimber 0; so no option of
//!   `[b + 1, b]` has nimber 0, and its nimber is 0.

use crate::bits::Bits;
use crate::game::{Game, Nimber, Reduced};

/// A diagram: its boundary path and a sentinel bit (see the module
/// documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Diagram<B>(pub B);

/// A move: the cell taken (with every cell below and to the right of it),
/// 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bite {
    /// Its row, from the top.
    pub row: u32,
    /// Its column, from the left.
    pub col: u32,
}

/// Why a diagram is refused.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum ChompError {
    /// No cell (no row, or a first row of length 0).
    #[error("a Chomp diagram needs at least one cell (the poisoned one)")]
    Empty,
    /// A row after the first of length 0.
    #[error("row {row} of the Chomp diagram is empty (every row needs at least one cell)")]
    EmptyRow {
        /// The row, from 0.
        row: usize,
    },
    /// A row longer than the one above it.
    #[error(
        "row {row} of the Chomp diagram has {length} cells, more than the {previous} of the row above (lengths must not increase)"
    )]
    Increasing {
        /// The row, from 0.
        row: usize,
        /// Its length.
        length: u32,
        /// The length of the row above.
        previous: u32,
    },
    /// Larger than the engine holds.
    #[error(
        "a Chomp diagram of {rows}x{cols} (rows x columns) is larger than the engine supports (rows + columns at most {max})"
    )]
    TooLarge {
        /// Rows.
        rows: u64,
        /// Columns (the length of the first row).
        cols: u64,
        /// The most rows + columns.
        max: u32,
    },
}

/// Whether a diagram of `rows` rows and `cols` columns fits in a `u64` (so
/// that `Chomp::<u64>` takes it).
pub fn fits_u64(rows: u64, cols: u64) -> bool {
    rows + cols < 64
}

/// Chomp from a starting diagram; `B` is `u64` for diagrams with rows +
/// columns at most 63, `u128` for at most 127.
#[derive(Clone, Debug)]
pub struct Chomp<B = u128> {
    start: Diagram<B>,
}

/// The most rows (and the most columns) of a diagram.
const MAX_SIDE: usize = 128;

impl<B: Bits> Chomp<B> {
    /// Chomp on a full rectangle of `rows` x `cols` cells.
    pub fn rectangle(rows: u32, cols: u32) -> Result<Self, ChompError> {
        if rows == 0 || cols == 0 {
            return Err(ChompError::Empty);
        }
        check_size::<B>(u64::from(rows), u64::from(cols))?;
        Self::from_rows(&vec![cols; rows as usize])
    }

    /// Chomp on the diagram with the given row lengths, from the top.
    pub fn from_rows(rows: &[u32]) -> Result<Self, ChompError> {
        Ok(Chomp {
            start: Self::diagram(rows)?,
        })
    }

    /// The diagram with the given row lengths, from the top: a position of
    /// any Chomp game of the same set type.
    pub fn diagram(rows: &[u32]) -> Result<Diagram<B>, ChompError> {
        let first = *rows.first().ok_or(ChompError::Empty)?;
        if first == 0 {
            return Err(ChompError::Empty);
        }
        check_size::<B>(rows.len() as u64, u64::from(first))?;
        for (row, pair) in rows.windows(2).enumerate() {
            let (previous, length) = (pair[0], pair[1]);
            if length == 0 {
                return Err(ChompError::EmptyRow { row: row + 1 });
            }
            if length > previous {
                return Err(ChompError::Increasing {
                    row: row + 1,
                    length,
                    previous,
                });
            }
        }
        Ok(encode(rows.iter().map(|&l| l as u8)))
    }

    /// The starting position.
    pub fn start(&self) -> Diagram<B> {
        self.start
    }

    /// The row lengths of `diagram`, from the top.
    pub fn rows(diagram: Diagram<B>) -> Vec<u32> {
        let (lengths, k) = decode(diagram);
        lengths[..k].iter().map(|&l| u32::from(l)).collect()
    }

    /// `diagram` transposed (its columns as rows).
    pub fn transpose(diagram: Diagram<B>) -> Diagram<B> {
        let length = B::BITS - 1 - diagram.0.leading_zeros();
        let path = diagram.0 ^ B::ONE << length;
        // The path's `length` low bits reversed (those above are shifted
        // out), right and up exchanged.
        let reversed = (path << (B::BITS - length)).reverse_bits();
        Diagram(reversed ^ (B::ALL >> (B::BITS - length)) | B::ONE << length)
    }
}

/// Refuses a diagram whose path and sentinel do not fit in `B`.
fn check_size<B: Bits>(rows: u64, cols: u64) -> Result<(), ChompError> {
    if rows + cols >= u64::from(B::BITS) {
        return Err(ChompError::TooLarge {
            rows,
            cols,
            max: B::BITS - 1,
        });
    }
    Ok(())
}

/// The path of the non-increasing positive row lengths `rows` (from the
/// top; the path and its sentinel fit in `B`).
#[inline]
fn encode<B: Bits>(rows: impl DoubleEndedIterator<Item = u8>) -> Diagram<B> {
    let mut bits = B::ZERO;
    let mut step = 0u32;
    let mut below = 0u8;
    for length in rows.rev() {
        step += u32::from(length - below);
        bits |= B::ONE << step;
        step += 1;
        below = length;
    }
    Diagram(bits | B::ONE << step)
}

/// The row lengths of a diagram from the top, and its number of rows.
#[inline]
fn decode<B: Bits>(diagram: Diagram<B>) -> ([u8; MAX_SIDE], usize) {
    let rows = diagram.0.count_ones() as usize - 1;
    let mut lengths = [0u8; MAX_SIDE];
    let mut up = diagram.0 ^ B::ONE << (B::BITS - 1 - diagram.0.leading_zeros());
    // The i-th up step from the bottom (at bit j) closes row rows - 1 - i,
    // of length j - i (the right steps before it).
    for i in 0..rows {
        let j = up.trailing_zeros() as usize;
        lengths[rows - 1 - i] = (j - i) as u8;
        up = up.without_lowest();
    }
    (lengths, rows)
}

/// The path of a diagram without its sentinel, and the path's length.
#[inline]
fn path<B: Bits>(diagram: Diagram<B>) -> (B, u32) {
    let length = B::BITS - 1 - diagram.0.leading_zeros();
    (diagram.0 ^ B::ONE << length, length)
}

/// `{0, ..., n - 1}`.
#[inline]
fn below<B: Bits>(n: u32) -> B {
    if n == 0 {
        B::ZERO
    } else {
        B::ALL >> (B::BITS - n)
    }
}

/// The place of member `i` (from 0, the least first) of `set`.
#[inline]
fn select<B: Bits>(mut set: B, i: u32) -> u32 {
    for _ in 0..i {
        set = set.without_lowest();
    }
    set.trailing_zeros()
}

/// Bit `t` of the places: the members of `PLACE_BITS[t]` are the places
/// `j` with bit `t` of `j` set.
const PLACE_BITS: [u128; 7] = [
    0xaaaa_aaaa_aaaa_aaaa_aaaa_aaaa_aaaa_aaaa,
    0xcccc_cccc_cccc_cccc_cccc_cccc_cccc_cccc,
    0xf0f0_f0f0_f0f0_f0f0_f0f0_f0f0_f0f0_f0f0,
    0xff00_ff00_ff00_ff00_ff00_ff00_ff00_ff00,
    0xffff_0000_ffff_0000_ffff_0000_ffff_0000,
    0xffff_ffff_0000_0000_ffff_ffff_0000_0000,
    0xffff_ffff_ffff_ffff_0000_0000_0000_0000,
];

/// Cells of a diagram: the up step `i` (from 0, from the bottom), at
/// place `j`, closes a row of `j - i` cells (the right steps before it),
/// so the cells are the sum of the places of the up steps less
/// `0 + 1 + ... + (rows - 1)`; the sum of the places is added up bit by
/// bit of the places.
#[inline]
fn cells<B: Bits>(diagram: Diagram<B>) -> u32 {
    let (path, _) = path(diagram);
    let places: u32 = PLACE_BITS
        .iter()
        .enumerate()
        .map(|(t, &mask)| (path & B::from_u128(mask)).count_ones() << t)
        .sum();
    let rows = path.count_ones();
    places - rows * (rows - 1) / 2
}

/// Whether a diagram of two rows (`path` of `length` steps) is `[b + 1,
/// b]`: its first row has `length - 2` cells, its second as many as
/// right steps come before the first up step.
#[inline]
fn is_two_row_loss<B: Bits>(path: B, length: u32) -> bool {
    path.count_ones() == 2 && length - 2 == path.trailing_zeros() + 1
}

impl<B: Bits> Game for Chomp<B> {
    type Position = Diagram<B>;
    type Move = Bite;

    fn moves(&self, position: &Diagram<B>, moves: &mut Vec<Bite>) {
        let (lengths, rows) = decode(*position);
        for (row, &length) in lengths[..rows].iter().enumerate() {
            let first = if row == 0 { 1 } else { 0 };
            for col in first..u32::from(length) {
                moves.push(Bite {
                    row: row as u32,
                    col,
                });
            }
        }
    }

    /// On the path: the bite `(r, c)` replaces the steps from the point
    /// after the `c`-th right step (at height `u`) to the point after the
    /// up step of row `r` (at height `rows - r`, after `l_r` right steps)
    /// by `rows - r - u` steps up then `l_r - c` right: a path of the same
    /// length, whose end is unchanged. With `c = 0` its first steps are up
    /// (the rows taken whole) and are dropped; with `r = 0` its last steps
    /// are right (the columns taken whole) and are dropped.
    fn play(&self, position: &Diagram<B>, bite: &Bite) -> Diagram<B> {
        let (path, _) = path(*position);
        let up = path.count_ones() - bite.row;
        let end = select(path, up - 1) + 1;
        let start = if bite.col == 0 {
            0
        } else {
            select(!path, bite.col - 1) + 1
        };
        let rise = up - (path & below(start)).count_ones();
        let kept = below::<B>(start) | !below::<B>(end);
        let risen = below::<B>(start + rise) & !below::<B>(start);
        let mut next = path & kept | risen;
        if bite.col == 0 {
            next = next >> rise;
        }
        let length = B::BITS - next.leading_zeros();
        Diagram(next | B::ONE << length)
    }

    fn canonical(&self, component: &Diagram<B>) -> Diagram<B> {
        (*component).min(Self::transpose(*component))
    }

    fn known_nimber(&self, component: &Diagram<B>) -> Option<Nimber> {
        match self.reduce(component) {
            Reduced::Known(n) => Some(n),
            Reduced::Canonical(_) => None,
        }
    }

    fn reduce(&self, component: &Diagram<B>) -> Reduced<Diagram<B>> {
        let (path, length) = path(*component);
        let rows = path.count_ones();
        let cols = length - rows;
        if cells(*component) == rows + cols - 1 {
            return Reduced::Known((rows - 1) ^ (cols - 1));
        }
        let transposed = Self::transpose(*component);
        if is_two_row_loss(path, length) || is_two_row_loss(transposed.0 ^ B::ONE << length, length)
        {
            return Reduced::Known(0);
        }
        Reduced::Canonical((*component).min(transposed))
    }

    fn size(&self, component: &Diagram<B>) -> u64 {
        u64::from(cells(*component))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_encode_and_decode() {
        let d = Chomp::<u64>::diagram(&[3]).unwrap();
        assert_eq!(d.0, 0b1_1000);
        let d = Chomp::<u64>::diagram(&[4, 2, 2, 1]).unwrap();
        // Bottom row 1: R U; then R U (row 2 of 2), U (row 1 of 2), R R U.
        assert_eq!(d.0, 0b1_1001_1010);
        assert_eq!(Chomp::rows(d), [4, 2, 2, 1]);
        assert_eq!(Chomp::rows(Chomp::transpose(d)), [4, 3, 1, 1]);
    }

    /// The moves and their results on the path, against row lengths, for
    /// every diagram inside the 7 x 7 square and every bite, on both set
    /// types; the cells and the transposes likewise.
    #[test]
    fn bites_on_paths_match_bites_on_rows() {
        let chomp = Chomp::<u64>::rectangle(7, 7).unwrap();
        let wide = Chomp::<u128>::rectangle(7, 7).unwrap();
        let mut diagrams = 0;
        for code in 1..8u32.pow(7) {
            let digits: Vec<u32> = (0..7).map(|i| code / 8u32.pow(6 - i) % 8).collect();
            if digits.windows(2).any(|w| w[1] > w[0]) {
                continue;
            }
            diagrams += 1;
            let rows: Vec<u32> = digits.into_iter().filter(|&l| l > 0).collect();
            let diagram = Chomp::<u64>::diagram(&rows).unwrap();
            assert_eq!(cells(diagram), rows.iter().sum::<u32>());
            let columns: Vec<u32> = (0..rows[0])
                .map(|c| rows.iter().filter(|&&l| l > c).count() as u32)
                .collect();
            assert_eq!(Chomp::rows(Chomp::transpose(diagram)), columns);
            let mut moves = Vec::new();
            chomp.moves(&diagram, &mut moves);
            let mut expected = Vec::new();
            for (r, &length) in rows.iter().enumerate() {
                for c in 0..length {
                    if (r, c) != (0, 0) {
                        expected.push(Bite {
                            row: r as u32,
                            col: c,
                        });
                    }
                }
            }
            assert_eq!(moves, expected);
            for bite in moves {
                let after: Vec<u32> = rows
                    .iter()
                    .enumerate()
                    .map(|(r, &l)| {
                        if r as u32 >= bite.row {
                            l.min(bite.col)
                        } else {
                            l
                        }
                    })
                    .filter(|&l| l > 0)
                    .collect();
                assert_eq!(
                    Chomp::rows(chomp.play(&diagram, &bite)),
                    after,
                    "{rows:?} {bite:?}"
                );
                let wide_diagram = Chomp::<u128>::diagram(&rows).unwrap();
                assert_eq!(Chomp::rows(wide.play(&wide_diagram, &bite)), after);
            }
        }
        assert_eq!(diagrams, 3431);
    }

    #[test]
    fn refused_diagrams() {
        assert_eq!(Chomp::<u64>::from_rows(&[]).unwrap_err(), ChompError::Empty);
        assert_eq!(
            Chomp::<u64>::from_rows(&[0]).unwrap_err(),
            ChompError::Empty
        );
        assert_eq!(
            Chomp::<u64>::rectangle(0, 3).unwrap_err(),
            ChompError::Empty
        );
        assert_eq!(
            Chomp::<u64>::from_rows(&[3, 0]).unwrap_err(),
            ChompError::EmptyRow { row: 1 }
        );
        let error = Chomp::<u64>::from_rows(&[3, 3, 4]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "row 2 of the Chomp diagram has 4 cells, more than the 3 of the row above (lengths must not increase)"
        );
        // Rows + columns: at most 63 in a u64, 127 in a u128.
        assert!(Chomp::<u64>::rectangle(31, 32).is_ok());
        assert_eq!(
            Chomp::<u64>::rectangle(32, 32).unwrap_err(),
            ChompError::TooLarge {
                rows: 32,
                cols: 32,
                max: 63
            }
        );
        assert!(Chomp::<u128>::rectangle(32, 32).is_ok());
        assert!(Chomp::<u128>::rectangle(1, 126).is_ok());
        let error = Chomp::<u128>::rectangle(u32::MAX, u32::MAX).unwrap_err();
        assert_eq!(
            error.to_string(),
            "a Chomp diagram of 4294967295x4294967295 (rows x columns) is larger than the engine supports (rows + columns at most 127)"
        );
    }

    #[test]
    fn bites_take_the_cells_below_and_to_the_right() {
        let chomp = Chomp::<u64>::from_rows(&[5, 4, 4, 2]).unwrap();
        let bite = |row, col| Chomp::rows(chomp.play(&chomp.start(), &Bite { row, col }));
        assert_eq!(bite(1, 2), [5, 2, 2, 2]);
        assert_eq!(bite(0, 3), [3, 3, 3, 2]);
        assert_eq!(bite(2, 0), [5, 4]);
        assert_eq!(bite(3, 1), [5, 4, 4, 1]);
        assert_eq!(bite(0, 1), [1, 1, 1, 1]);
        let mut moves = Vec::new();
        chomp.moves(&chomp.start(), &mut moves);
        // Every cell but the poisoned one.
        assert_eq!(moves.len(), 5 + 4 + 4 + 2 - 1);
        assert!(!moves.contains(&Bite { row: 0, col: 0 }));
        assert!(moves.contains(&Bite { row: 3, col: 1 }));
        // At the limits of the set types (rows + columns 63 and 127).
        let bitten = |rows: u32, cols: u32, r: u32, c: u32| -> Vec<u32> {
            (0..rows)
                .map(|i| if i >= r { cols.min(c) } else { cols })
                .filter(|&l| l > 0)
                .collect()
        };
        for (rows, cols) in [(31u32, 32u32), (1, 62), (62, 1)] {
            let chomp = Chomp::<u64>::rectangle(rows, cols).unwrap();
            let wide = Chomp::<u128>::rectangle(2 * rows, 2 * cols + 1).unwrap();
            for (r, c) in [
                (rows - 1, cols - 1),
                (0, cols - 1),
                (rows - 1, 0),
                (0, 1),
                (1, 0),
            ] {
                if (r, c) == (0, 0) || r >= rows || c >= cols {
                    continue;
                }
                let bite = Bite { row: r, col: c };
                assert_eq!(
                    Chomp::rows(chomp.play(&chomp.start(), &bite)),
                    bitten(rows, cols, r, c)
                );
                assert_eq!(
                    Chomp::rows(wide.play(&wide.start(), &bite)),
                    bitten(2 * rows, 2 * cols + 1, r, c)
                );
            }
        }
    }
}
