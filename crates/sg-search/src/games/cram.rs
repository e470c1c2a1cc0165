//! Cram: players in turn place a domino on two free adjacent cells of a
//! board (any orientation); the player who cannot place one loses.
//!
//! A position is the set of free cells, one byte per row (bit `8 * row +
//! column`), in a `u64` (boards of at most 8 rows and 8 columns) or a
//! `u128` (at most 16 by 8); a board with more than 8 columns is stored
//! transposed (its moves and cells are given back in its own
//! orientation). Rows of a byte make the symmetries cheap: a shape turned
//! upside down is a byte swap, mirrored a bit reversal, transposed the
//! classic 8 x 8 bit-matrix transpose.
//!
//! A position splits into its connected components (cells joined by
//! sides); a cell with no free neighbour can never be covered and is left
//! out. The canonical form of a component is the smallest, as a number, of
//! its images under the eight symmetries of the square (a transposed image
//! only when the shape has at most 8 rows), each moved to the top left
//! corner: translations, rotations and reflections map dominoes to
//! dominoes, so the images are the same game.

use crate::bits::Bits;
use crate::game::{Game, Nimber, Reduced};

/// The most rows a board may have in its stored orientation (its columns
/// are at most 8).
pub const MAX_ROWS: u32 = 16;

/// Free cells, bit `8 * row + column` in the stored orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Cells<B>(pub B);

/// A domino placed on the board, in two bytes (the search keeps many):
/// [`Cram::cells`] gives the two cells it covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Domino {
    /// The bit of its upper or left cell in the stored orientation.
    bit: u8,
    /// Whether its second cell is below the first in the stored
    /// orientation (else to its right).
    down: bool,
}

/// Why a board is refused.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum CramError {
    /// A side is zero.
    #[error("a Cram board needs at least one row and one column (got {rows}x{cols})")]
    Empty {
        /// Rows asked for.
        rows: u32,
        /// Columns asked for.
        cols: u32,
    },
    /// Larger than the engine holds.
    #[error(
        "a Cram board of {rows}x{cols} is larger than the engine supports: one side at most 8 and the other at most {max_rows}"
    )]
    TooLarge {
        /// Rows asked for.
        rows: u32,
        /// Columns asked for.
        cols: u32,
        /// The longest side allowed with the other at most 8.
        max_rows: u32,
    },
    /// A blocked cell outside the board.
    #[error("the blocked cell ({row}, {col}) is outside the {rows}x{cols} board")]
    Outside {
        /// Its row.
        row: u32,
        /// Its column.
        col: u32,
        /// Rows of the board.
        rows: u32,
        /// Columns of the board.
        cols: u32,
    },
}

/// Bits of column 0 of every row.
const COLUMN_0: u128 = 0x0101_0101_0101_0101_0101_0101_0101_0101;

/// A Cram board: its size and blocked cells; `B` is `u64` for boards of
/// at most 8 x 8 cells, `u128` for up to 16 x 8.
#[derive(Clone, Debug)]
pub struct Cram<B = u128> {
    /// Rows and columns as given.
    rows: u32,
    cols: u32,
    /// Whether the board is stored transposed.
    transposed: bool,
    start: B,
    not_column_0: B,
    not_column_7: B,
}

/// Whether a board of `rows` x `cols` fits in `B`, and if so whether it
/// is stored transposed.
fn layout<B: Bits>(rows: u32, cols: u32) -> Option<bool> {
    let max_rows = B::BITS / 8;
    if cols <= 8 && rows <= max_rows {
        Some(false)
    } else if rows <= 8 && cols <= max_rows {
        Some(true)
    } else {
        None
    }
}

/// Whether a board of `rows` x `cols` fits in a `u64` (so that
/// `Cram::<u64>` takes it).
pub fn fits_u64(rows: u32, cols: u32) -> bool {
    rows > 0 && cols > 0 && layout::<u64>(rows, cols).is_some()
}

impl<B: Bits> Cram<B> {
    /// An empty board of `rows` x `cols` cells.
    pub fn new(rows: u32, cols: u32) -> Result<Self, CramError> {
        Self::with_blocked(rows, cols, &[])
    }

    /// A board of `rows` x `cols` cells with the `blocked` cells
    /// (`(row, column)`, 0-based) taken.
    pub fn with_blocked(rows: u32, cols: u32, blocked: &[(u32, u32)]) -> Result<Self, CramError> {
        if rows == 0 || cols == 0 {
            return Err(CramError::Empty { rows, cols });
        }
        let transposed = layout::<B>(rows, cols).ok_or(CramError::TooLarge {
            rows,
            cols,
            max_rows: B::BITS / 8,
        })?;
        let (srows, scols) = if transposed {
            (cols, rows)
        } else {
            (rows, cols)
        };
        let row = (1u128 << scols) - 1;
        let mut board = 0u128;
        for r in 0..srows {
            board |= row << (8 * r);
        }
        let mut cram = Cram {
            rows,
            cols,
            transposed,
            start: B::from_u128(board),
            not_column_0: B::from_u128(!COLUMN_0),
            not_column_7: B::from_u128(!(COLUMN_0 << 7)),
        };
        for &(row, col) in blocked {
            if row >= rows || col >= cols {
                return Err(CramError::Outside {
                    row,
                    col,
                    rows,
                    cols,
                });
            }
            cram.start &= !(B::ONE << cram.bit(row, col));
        }
        Ok(cram)
    }

    /// Rows of the board.
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// Columns of the board.
    pub fn cols(&self) -> u32 {
        self.cols
    }

    /// The starting position: every cell free but the blocked ones.
    pub fn start(&self) -> Cells<B> {
        Cells(self.start)
    }

    /// The position whose free cells are `free` (`(row, column)`); cells
    /// outside the board are ignored.
    pub fn position(&self, free: &[(u32, u32)]) -> Cells<B> {
        let mut cells = B::ZERO;
        for &(row, col) in free {
            if row < self.rows && col < self.cols {
                cells |= B::ONE << self.bit(row, col);
            }
        }
        Cells(cells)
    }

    /// The free cells of `position`, `(row, column)`, row by row.
    pub fn free_cells(&self, position: Cells<B>) -> Vec<(u32, u32)> {
        let mut cells = Vec::new();
        for row in 0..self.rows {
            for col in 0..self.cols {
                if position.0.has(self.bit(row, col)) {
                    cells.push((row, col));
                }
            }
        }
        cells
    }

    /// The two cells `(row, column)` a domino covers, in the board's
    /// orientation, the upper or left one first.
    pub fn cells(&self, domino: Domino) -> [(u32, u32); 2] {
        let bit = u32::from(domino.bit);
        let (a, b) = (
            self.cell(bit),
            self.cell(bit + if domino.down { 8 } else { 1 }),
        );
        if a <= b { [a, b] } else { [b, a] }
    }

    /// The domino covering two adjacent cells `(row, column)` of the
    /// board, in either order; `None` if they are not adjacent cells of
    /// the board.
    pub fn domino(&self, a: (u32, u32), b: (u32, u32)) -> Option<Domino> {
        let inside = |(r, c): (u32, u32)| r < self.rows && c < self.cols;
        if !inside(a) || !inside(b) {
            return None;
        }
        let (x, y) = (self.bit(a.0, a.1), self.bit(b.0, b.1));
        let (low, high) = (x.min(y), x.max(y));
        match high - low {
            1 if low % 8 != 7 => Some(Domino {
                bit: low as u8,
                down: false,
            }),
            8 => Some(Domino {
                bit: low as u8,
                down: true,
            }),
            _ => None,
        }
    }

    /// The bit of a cell given in the board's orientation.
    fn bit(&self, row: u32, col: u32) -> u32 {
        if self.transposed {
            8 * col + row
        } else {
            8 * row + col
        }
    }

    /// The cell of a bit, in the board's orientation.
    fn cell(&self, bit: u32) -> (u32, u32) {
        let (r, c) = (bit / 8, bit % 8);
        if self.transposed { (c, r) } else { (r, c) }
    }

    /// Horizontal dominoes (bit of the left cell) and vertical ones (bit
    /// of the upper cell), in the stored orientation.
    #[inline]
    fn dominoes(&self, free: B) -> (B, B) {
        let horizontal = free & (free >> 1) & self.not_column_7;
        let vertical = free & (free >> 8);
        (horizontal, vertical)
    }

    /// The component of `free` that holds `seed`.
    #[inline]
    fn component(&self, free: B, seed: B) -> B {
        let mut part = seed;
        loop {
            let grown = (part
                | ((part << 1) & self.not_column_0)
                | ((part >> 1) & self.not_column_7)
                | (part << 8)
                | (part >> 8))
                & free;
            if grown == part {
                return part;
            }
            part = grown;
        }
    }
}

/// The columns a shape occupies, as the bits of one byte.
#[inline]
fn columns<B: Bits>(shape: B) -> u32 {
    let mut folded = shape;
    let mut width = B::BITS / 2;
    while width >= 8 {
        folded = folded | (folded >> width);
        width /= 2;
    }
    (folded.low_u64() & 0xff) as u32
}

/// `shape` moved to the top left corner, with its height and width.
#[inline]
fn normalize<B: Bits>(shape: B) -> (B, u32, u32) {
    let shape = shape >> (shape.trailing_zeros() & !7);
    let columns = columns(shape);
    let left = columns.trailing_zeros();
    let width = 32 - (columns >> left).leading_zeros();
    let height = (B::BITS - shape.leading_zeros()).div_ceil(8);
    (shape >> left, height, width)
}

/// A normalized shape of `height` rows upside down.
#[inline]
fn upside_down<B: Bits>(shape: B, height: u32) -> B {
    shape.swap_bytes() >> (B::BITS - 8 * height)
}

/// A normalized shape of `width` columns mirrored (columns reversed).
#[inline]
fn mirrored<B: Bits>(shape: B, width: u32) -> B {
    shape.reverse_bits().swap_bytes() >> (8 - width)
}

/// An 8 x 8 bit matrix (bit `8 * row + column`) transposed.
#[inline]
fn transpose8(mut x: u64) -> u64 {
    let t = 0x0f0f_0f0f_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// Whether the second player wins `free` (a nonempty set of cells) by
/// copying each move turned by half a turn about the centre of its
/// bounding box: `free` is its own image, and no domino meets its own
/// image. A domino meets its image only when it covers the centre: the
/// central cell (odd height and width), or the two central cells (odd
/// height and even width, or the reverse) as a domino of its own.
/// Then after any move the copy is free and disjoint from it, and the
/// position is its own image again: the first player runs out of moves
/// first, so the nimber is 0.
fn is_symmetric_loss<B: Bits>(shape: B, height: u32, width: u32) -> bool {
    if upside_down(mirrored(shape, width), height) != shape {
        return false;
    }
    let centre = 8 * (height / 2) + width / 2;
    match (height % 2, width % 2) {
        (1, 1) => !shape.has(centre),
        (1, 0) => !(shape.has(centre) && shape.has(centre - 1)),
        (0, 1) => !(shape.has(centre) && shape.has(centre - 8)),
        _ => true,
    }
}

/// The canonical form of a normalized shape: the smallest of its images
/// under the symmetries of the square that fit in rows of 8 cells.
#[inline]
fn canonical_image<B: Bits>(shape: B, height: u32, width: u32) -> B {
    let mut best = smallest_image(shape, height, width);
    if height <= 8 {
        let transposed = B::from_u128(u128::from(transpose8(shape.low_u64())));
        best = best.min(smallest_image(transposed, width, height));
    }
    best
}

/// The smallest of a normalized shape's images with rows kept rows.
#[inline]
fn smallest_image<B: Bits>(shape: B, height: u32, width: u32) -> B {
    let mirror = mirrored(shape, width);
    let flipped = upside_down(shape, height);
    let turned = upside_down(mirror, height);
    shape.min(mirror).min(flipped).min(turned)
}

impl<B: Bits> Game for Cram<B> {
    type Position = Cells<B>;
    type Move = Domino;

    fn moves(&self, position: &Cells<B>, moves: &mut Vec<Domino>) {
        let (horizontal, vertical) = self.dominoes(position.0);
        for (mut set, down) in [(horizontal, false), (vertical, true)] {
            while set != B::ZERO {
                let bit = set.trailing_zeros() as u8;
                set = set.without_lowest();
                moves.push(Domino { bit, down });
            }
        }
    }

    fn play(&self, position: &Cells<B>, domino: &Domino) -> Cells<B> {
        let pair = B::from_u128(if domino.down { 0x101 } else { 0b11 });
        Cells(position.0 & !(pair << u32::from(domino.bit)))
    }

    fn split(&self, position: &Cells<B>, components: &mut Vec<Cells<B>>) {
        let (horizontal, vertical) = self.dominoes(position.0);
        // Only cells with a free neighbour matter.
        let live = horizontal | horizontal << 1 | vertical | vertical << 8;
        let mut rest = live;
        while rest != B::ZERO {
            let part = self.component(live, rest.lowest());
            rest &= !part;
            components.push(Cells(part));
        }
    }

    fn canonical(&self, component: &Cells<B>) -> Cells<B> {
        if component.0 == B::ZERO {
            return *component;
        }
        let (shape, height, width) = normalize(component.0);
        Cells(canonical_image(shape, height, width))
    }

    fn known_nimber(&self, component: &Cells<B>) -> Option<Nimber> {
        match self.reduce(component) {
            Reduced::Known(n) => Some(n),
            Reduced::Canonical(_) => None,
        }
    }

    fn reduce(&self, component: &Cells<B>) -> Reduced<Cells<B>> {
        let (horizontal, vertical) = self.dominoes(component.0);
        if horizontal | vertical == B::ZERO {
            return Reduced::Known(0);
        }
        // Two or three cells with a move: every move leaves no move.
        if component.0.count_ones() <= 3 {
            return Reduced::Known(1);
        }
        let (shape, height, width) = normalize(component.0);
        if is_symmetric_loss(shape, height, width) {
            return Reduced::Known(0);
        }
        Reduced::Canonical(Cells(canonical_image(shape, height, width)))
    }

    /// The number of dominoes that fit: what the search of a component
    /// costs grows with it (fewer moves also make a reply quicker to
    /// prove, which orders the replies tried).
    fn size(&self, component: &Cells<B>) -> u64 {
        let (horizontal, vertical) = self.dominoes(component.0);
        u64::from(horizontal.count_ones() + vertical.count_ones())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::{Options, Solver};

    /// The nimber by the definition: the mex of the options', no split, no
    /// symmetry.
    fn by_definition<B: Bits>(
        cram: &Cram<B>,
        position: Cells<B>,
        memo: &mut HashMap<B, Nimber>,
    ) -> Nimber {
        if let Some(&n) = memo.get(&position.0) {
            return n;
        }
        let mut moves = Vec::new();
        cram.moves(&position, &mut moves);
        let mut seen = Vec::new();
        for mv in moves {
            seen.push(by_definition(cram, cram.play(&position, &mv), memo));
        }
        let mex = (0..).find(|n| !seen.contains(n)).unwrap();
        memo.insert(position.0, mex);
        mex
    }

    #[test]
    fn small_boards_match_the_definition() {
        for rows in 1..=4 {
            for cols in 1..=5 {
                let cram = Cram::<u64>::new(rows, cols).unwrap();
                let solver = Solver::new(&cram);
                let expected = by_definition(&cram, cram.start(), &mut HashMap::new());
                assert_eq!(
                    solver.nimber(&cram.start()).unwrap(),
                    expected,
                    "{rows}x{cols}"
                );
                let wide = Cram::<u128>::new(rows, cols).unwrap();
                assert_eq!(
                    Solver::new(&wide).nimber(&wide.start()).unwrap(),
                    expected,
                    "{rows}x{cols}"
                );
                let threads = Options {
                    memory: 1 << 20,
                    threads: 2,
                };
                let parallel = Solver::with_options(&cram, threads);
                assert_eq!(
                    parallel.nimber(&cram.start()).unwrap(),
                    expected,
                    "{rows}x{cols}, 2 threads"
                );
            }
        }
    }

    /// The images of a set of cells under the eight symmetries of the
    /// square, each moved to the top left corner, cell by cell (`None`
    /// where an image does not fit in rows of 8 cells).
    fn images_by_cells(shape: u128) -> Vec<Option<u128>> {
        let cells: Vec<(i64, i64)> = (0..128)
            .filter(|b| shape >> b & 1 == 1)
            .map(|b| (b / 8, b % 8))
            .collect();
        type Map = fn((i64, i64)) -> (i64, i64);
        let maps: [Map; 8] = [
            |(r, c)| (r, c),
            |(r, c)| (-r, -c),
            |(r, c)| (-r, c),
            |(r, c)| (r, -c),
            |(r, c)| (c, r),
            |(r, c)| (-c, -r),
            |(r, c)| (-c, r),
            |(r, c)| (c, -r),
        ];
        maps.iter()
            .map(|map| {
                let moved: Vec<(i64, i64)> = cells.iter().map(|&cell| map(cell)).collect();
                let top = moved.iter().map(|p| p.0).min().unwrap();
                let left = moved.iter().map(|p| p.1).min().unwrap();
                let mut bits = 0u128;
                for &(r, c) in &moved {
                    let (r, c) = (r - top, c - left);
                    if c >= 8 || r >= 16 {
                        return None;
                    }
                    bits |= 1 << (8 * r + c);
                }
                Some(bits)
            })
            .collect()
    }

    proptest::proptest! {
        #[test]
        fn canonical_is_the_smallest_image(rows in 1u32..=16, cols in 1u32..=8, bits in proptest::num::u128::ANY, pick in 0usize..64) {
            let cram = Cram::<u128>::new(rows, cols).unwrap();
            let mut parts = Vec::new();
            cram.split(&Cells(bits & cram.start), &mut parts);
            if let Some(part) = parts.get(pick % parts.len().max(1)) {
                let images = images_by_cells(part.0);
                let canonical = cram.canonical(part).0;
                // An image of the component, and the smallest of those
                // that fit.
                proptest::prop_assert_eq!(Some(canonical), images.iter().flatten().min().copied());
                // Every image that fits has the same canonical form, on
                // both set types where it fits.
                for image in images.iter().flatten() {
                    proptest::prop_assert_eq!(cram.canonical(&Cells(*image)).0, canonical);
                    if *image >> 64 == 0 && canonical >> 64 == 0 {
                        let small = Cram::<u64>::new(8, 8).unwrap();
                        proptest::prop_assert_eq!(u128::from(small.canonical(&Cells(*image as u64)).0), canonical);
                    }
                }
            }
        }
    }

    #[test]
    fn tall_boards_are_stored_transposed() {
        let cram = Cram::<u128>::new(12, 3).unwrap();
        assert!(!cram.transposed);
        let cram = Cram::<u128>::new(3, 12).unwrap();
        assert!(cram.transposed);
        let position = cram.position(&[(0, 11), (1, 11)]);
        let mut moves = Vec::new();
        cram.moves(&position, &mut moves);
        assert_eq!(moves.len(), 1);
        assert_eq!(cram.cells(moves[0]), [(0, 11), (1, 11)]);
        assert_eq!(cram.domino((1, 11), (0, 11)), Some(moves[0]));
        assert_eq!(
            cram.domino((0, 11), (0, 10)).map(|d| cram.cells(d)),
            Some([(0, 10), (0, 11)])
        );
        assert_eq!(cram.domino((0, 11), (1, 10)), None);
        assert_eq!(cram.domino((0, 11), (0, 12)), None);
        assert_eq!(cram.free_cells(cram.play(&position, &moves[0])), []);
        assert!(matches!(
            Cram::<u64>::new(9, 9),
            Err(CramError::TooLarge { .. })
        ));
    }
}
