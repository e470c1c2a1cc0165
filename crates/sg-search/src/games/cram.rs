//! Cram: players in turn place a domino on two free adjacent cells of a
//! board (any orientation); the player who cannot place one loses.
//!
//! A position is the set of free cells, one *lane* of bits per row (bit
//! `stride * row + column`), in a `u64` or a `u128`. Rows are lanes of 8
//! bits where the board allows (at most 8 columns, or 8 rows and the board
//! stored transposed): 8 rows in a `u64`, 16 in a `u128`; other boards
//! have lanes of 16 bits (4 rows of up to 16 cells in a `u64`, 8 in a
//! `u128`), so that 4 x 11 plays in a `u64`. Moves and cells are given back
//! in the board's own orientation. Lanes make the symmetries cheap: a
//! shape turned upside down is a byte swap (and, for lanes of 16 bits, a
//! swap of the bytes of each lane), mirrored a bit reversal, transposed
//! (lanes of 8 bits) the classic 8 x 8 bit-matrix transpose.
//!
//! A position splits into its connected components (cells joined by
//! sides); a cell with no free neighbour can never be covered and is left
//! out. The canonical form of a component is the smallest, as a number, of
//! its images under the symmetries of the square, each moved to the top
//! left corner: all eight with lanes of 8 bits (a transposed image only
//! when the shape has at most 8 rows), the four that keep rows rows with
//! lanes of 16. Translations, rotations and reflections map dominoes to
//! dominoes, so the images are the same game.
//!
//! Tried and dropped (instruction counts from callgrind, times from
//! interleaved runs of the example `cram_time 4x9 1`, feature
//! `timing-examples`):
//! - Splitting the position after a move without a flood fill when the
//!   free cells beside the domino are joined within the 3 x 4 box around
//!   it (a lookup table): only 22% to 24% of the moves searched on 4 x 9
//!   and 5 x 7 qualify (most leave a lone cell beside them), and the box's
//!   extraction cost more than the fills it saved (2% more
//!   instructions, the same time).
//! - Two steps of the flood fill between checks of its end: 11% fewer
//!   mispredicted branches, 4% more instructions, the same time.

use std::sync::Arc;

use crate::bits::Bits;
use crate::game::{Game, Nimber, Reduced};

mod class;
mod endgame;
mod symmetry;
pub use endgame::CramEndgame;

/// The longest side of a board the engine supports (with the other at
/// most [`MAX_SHORT_SIDE`]).
pub const MAX_SIDE: u32 = 16;

/// The most cells of the shorter side of a board.
pub const MAX_SHORT_SIDE: u32 = 8;

/// Free cells, bit `stride * row + column` in the stored orientation
/// (see the module documentation).
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
        "a Cram board of {rows}x{cols} is larger than the engine supports: one side at most {MAX_SHORT_SIDE} and the other at most {MAX_SIDE}"
    )]
    TooLarge {
        /// Rows asked for.
        rows: u32,
        /// Columns asked for.
        cols: u32,
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

/// A Cram board: its size and blocked cells; `B` is the set type of its
/// positions (see [`fits_u64`]).
#[derive(Clone, Debug)]
pub struct Cram<B = u128> {
    /// Rows and columns as given.
    rows: u32,
    cols: u32,
    /// Whether the board is stored transposed.
    transposed: bool,
    /// Bits per stored row: 8 or 16.
    stride: u32,
    start: B,
    /// The cells not in the first (last) column of their lane.
    not_first: B,
    not_last: B,
    /// Nimbers of small components known in advance, if given.
    endgame: Option<endgame::Endgame>,
    /// Whether components have class keys (see [`Game::class_key`]).
    classes: bool,
}

/// How a board of `rows` x `cols` is stored in `B`: whether transposed,
/// and the bits per row; `None` when it does not fit. A board that fits
/// in a `u64` is stored the same way in a `u128` (so that positions, and
/// the certificates that name them, do not depend on the set type).
fn layout<B: Bits>(rows: u32, cols: u32) -> Option<(bool, u32)> {
    let bits = if B::BITS > 64 && fits_in(rows, cols, 64).is_some() {
        64
    } else {
        B::BITS
    };
    fits_in(rows, cols, bits)
}

/// How a board of `rows` x `cols` is stored in `bits` bits, if it fits:
/// in lanes of 8 bits if it can, else of 16.
fn fits_in(rows: u32, cols: u32, bits: u32) -> Option<(bool, u32)> {
    for stride in [8, 16] {
        let lanes = bits / stride;
        if cols <= stride && rows <= lanes {
            return Some((false, stride));
        }
        if rows <= stride && cols <= lanes {
            return Some((true, stride));
        }
    }
    None
}

/// Whether the engine supports a board of `rows` x `cols` (in a `u128`):
/// one side at most [`MAX_SHORT_SIDE`], the other at most [`MAX_SIDE`].
pub fn fits(rows: u32, cols: u32) -> bool {
    rows > 0 && cols > 0 && layout::<u128>(rows, cols).is_some()
}

/// Whether a board of `rows` x `cols` fits in a `u64` (so that
/// `Cram::<u64>` takes it, with the faster arithmetic); every board that
/// fits at all fits in a `u128`.
pub fn fits_u64(rows: u32, cols: u32) -> bool {
    rows > 0 && cols > 0 && layout::<u64>(rows, cols).is_some()
}

/// `mask` with one bit per lane of `stride` bits, the lowest of each.
fn lane_starts(stride: u32) -> u128 {
    (0..128 / stride).fold(0, |mask, lane| mask | 1 << (lane * stride))
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
        let (transposed, stride) =
            layout::<B>(rows, cols).ok_or(CramError::TooLarge { rows, cols })?;
        let (srows, scols) = if transposed {
            (cols, rows)
        } else {
            (rows, cols)
        };
        let row = (1u128 << scols) - 1;
        let mut board = 0u128;
        for r in 0..srows {
            board |= row << (stride * r);
        }
        let first = lane_starts(stride);
        let mut cram = Cram {
            rows,
            cols,
            transposed,
            stride,
            start: B::from_u128(board),
            not_first: B::from_u128(!first),
            not_last: B::from_u128(!(first << (stride - 1))),
            endgame: None,
            classes: true,
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

    /// The board consulting `endgame` for the nimbers of its components
    /// of at most [`CramEndgame::max_cells`] cells (in
    /// [`reduce`](Game::reduce) and [`known_nimber`](Game::known_nimber),
    /// after the rules that cost less than a lookup, with the canonical
    /// form they compute anyway). A component the database does not hold
    /// is searched, and the board consults the database no more: see
    /// [`endgame_misses`](Self::endgame_misses).
    pub fn with_endgame(mut self, endgame: Arc<dyn CramEndgame>) -> Self {
        self.endgame = Some(endgame::Endgame::new(endgame));
        self
    }

    /// The board without class keys ([`Game::class_key`]): its components
    /// are shared by canonical forms only (to measure what the classes
    /// save).
    pub fn without_classes(mut self) -> Self {
        self.classes = false;
        self
    }

    /// How many components of at most [`CramEndgame::max_cells`] cells
    /// the endgame database did not hold (by this board and its clones,
    /// since [`with_endgame`](Self::with_endgame)): 0 when it holds what
    /// it claims. After the first, the board searched every component
    /// without it (the database and the board disagree on canonical
    /// forms, say), so the answers stay right but come slower. 0 without
    /// a database.
    pub fn endgame_misses(&self) -> u64 {
        self.endgame.as_ref().map_or(0, endgame::Endgame::misses)
    }

    /// The endgame database the board consults, if any.
    pub fn endgame(&self) -> Option<&Arc<dyn CramEndgame>> {
        self.endgame.as_ref().map(endgame::Endgame::table)
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

    /// The cells of `position`, `(row, column)` in the board's
    /// orientation, in the order of their bits: also those of a canonical
    /// form, which may lie outside the board (a shape turned to fit).
    pub fn cells_of(&self, position: Cells<B>) -> Vec<(u32, u32)> {
        (0..B::BITS)
            .filter(|&bit| position.0.has(bit))
            .map(|bit| self.cell(bit))
            .collect()
    }

    /// The two cells `(row, column)` a domino covers, in the board's
    /// orientation, the upper or left one first.
    pub fn cells(&self, domino: Domino) -> [(u32, u32); 2] {
        let bit = u32::from(domino.bit);
        let (a, b) = (
            self.cell(bit),
            self.cell(bit + if domino.down { self.stride } else { 1 }),
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
        if high - low == 1 && low % self.stride != self.stride - 1 {
            Some(Domino {
                bit: low as u8,
                down: false,
            })
        } else if high - low == self.stride {
            Some(Domino {
                bit: low as u8,
                down: true,
            })
        } else {
            None
        }
    }

    /// The bit of a cell given in the board's orientation.
    fn bit(&self, row: u32, col: u32) -> u32 {
        if self.transposed {
            self.stride * col + row
        } else {
            self.stride * row + col
        }
    }

    /// The cell of a bit, in the board's orientation.
    fn cell(&self, bit: u32) -> (u32, u32) {
        let (r, c) = (bit / self.stride, bit % self.stride);
        if self.transposed { (c, r) } else { (r, c) }
    }

    /// Horizontal dominoes (bit of the left cell) and vertical ones (bit
    /// of the upper cell), in the stored orientation.
    #[inline]
    fn dominoes(&self, free: B) -> (B, B) {
        let horizontal = free & (free >> 1) & self.not_last;
        let vertical = free & (free >> self.stride);
        (horizontal, vertical)
    }

    /// The component of `free` that holds `seed`.
    #[inline]
    fn component(&self, free: B, seed: B) -> B {
        let mut part = seed;
        loop {
            let grown = (part
                | ((part << 1) & self.not_first)
                | ((part >> 1) & self.not_last)
                | (part << self.stride)
                | (part >> self.stride))
                & free;
            if grown == part {
                return part;
            }
            part = grown;
        }
    }

    /// The nimber of a shape the game knows without search, or else its
    /// canonical form.
    fn reduce_shape(&self, free: B) -> Reduced<Cells<B>> {
        let (horizontal, vertical) = self.dominoes(free);
        if horizontal | vertical == B::ZERO {
            return Reduced::Known(0);
        }
        // Two or three cells with a move: every move leaves no move.
        if free.count_ones() <= 3 {
            return Reduced::Known(1);
        }
        let shape = Shape::new(free, self.stride);
        let turned = shape.turned();
        if shape.is_symmetric_loss(turned) {
            return Reduced::Known(0);
        }
        let canonical = shape.canonical(turned);
        // The table answers for connected sets only (split gives those,
        // but a caller may ask about any set).
        if let Some(endgame) = &self.endgame
            && endgame.covers(free)
            && self.component(free, free.lowest()) == free
            && let Some(n) = endgame.nimber(canonical, self.stride)
        {
            return Reduced::Known(n);
        }
        Reduced::Canonical(Cells(canonical))
    }
}

/// A nonempty set of cells moved to the top left corner of its lanes, with
/// its height and width.
#[derive(Clone, Copy)]
struct Shape<B> {
    cells: B,
    height: u32,
    width: u32,
    stride: u32,
}

impl<B: Bits> Shape<B> {
    #[inline]
    fn new(free: B, stride: u32) -> Self {
        Self::with_origin(free, stride).0
    }

    /// The shape of `free`, with the row and the column (in `free`'s
    /// lanes) of the top left corner of its bounding box.
    #[inline]
    fn with_origin(free: B, stride: u32) -> (Self, u32, u32) {
        // Lanes of 8 or 16 bits: shifts, not divisions (by a number the
        // compiler does not know).
        let lane = stride.trailing_zeros();
        let top = free.trailing_zeros() >> lane;
        let cells = free >> (top << lane);
        // The columns it occupies, the lanes folded onto the first.
        let mut folded = cells;
        let mut half = B::BITS / 2;
        while half >= stride {
            folded = folded | (folded >> half);
            half /= 2;
        }
        let columns = (folded.low_u64() & ((1 << stride) - 1)) as u32;
        let left = columns.trailing_zeros();
        let width = 32 - (columns >> left).leading_zeros();
        let height = (B::BITS - cells.leading_zeros() + stride - 1) >> lane;
        let shape = Shape {
            cells: cells >> left,
            height,
            width,
            stride,
        };
        (shape, top, left)
    }

    /// The images of the shape under the symmetries of the square that
    /// fit (see [`canonical`](Self::canonical)), each with its number for
    /// [`map`](Self::map): 0 itself, 1 turned by half a turn, 2 upside
    /// down, 3 mirrored, then 4 to 7 the same of the shape transposed.
    fn images(&self) -> [Option<(B, u8)>; 8] {
        let mut images = [None; 8];
        let mut fill = |shape: &Self, first: u8| {
            let turned = shape.turned();
            let up = B::BITS - shape.stride * shape.height;
            images[usize::from(first)] = Some((shape.cells, first));
            images[usize::from(first) + 1] = Some((turned, first + 1));
            images[usize::from(first) + 2] =
                Some((shape.lanes_reversed(shape.cells) >> up, first + 2));
            images[usize::from(first) + 3] = Some((shape.lanes_reversed(turned << up), first + 3));
        };
        fill(self, 0);
        if let Some(transposed) = self.transposed() {
            fill(&transposed, 4);
        }
        images
    }

    /// Where the cell at `row`, `column` of the shape lies in its image
    /// number `image` (see [`images`](Self::images)).
    fn map(&self, image: u8, row: u32, col: u32) -> (u32, u32) {
        let (h, w) = (self.height, self.width);
        match image {
            0 => (row, col),
            1 => (h - 1 - row, w - 1 - col),
            2 => (h - 1 - row, col),
            3 => (row, w - 1 - col),
            4 => (col, row),
            5 => (w - 1 - col, h - 1 - row),
            6 => (w - 1 - col, row),
            _ => (col, h - 1 - row),
        }
    }

    /// The lanes of `cells` in reverse order (the bits of each kept).
    #[inline]
    fn lanes_reversed(&self, cells: B) -> B {
        let bytes = cells.swap_bytes();
        if self.stride == 8 {
            bytes
        } else {
            // Each lane's two bytes came back swapped: swap them again.
            let low = B::from_u128(0x00ff_00ff_00ff_00ff_00ff_00ff_00ff_00ff);
            ((bytes >> 8) & low) | ((bytes & low) << 8)
        }
    }

    /// The shape turned by half a turn (about the centre of its bounding
    /// box): all bits reversed, moved back to the top left corner.
    #[inline]
    fn turned(&self) -> B {
        self.cells.reverse_bits()
            >> (B::BITS - self.stride * self.height + self.stride - self.width)
    }

    /// The smallest of the images with rows kept rows, given the shape
    /// turned by half a turn: the mirror image is the turned one upside
    /// down, so that one bit reversal serves both.
    #[inline]
    fn smallest_image(&self, turned: B) -> B {
        let up = B::BITS - self.stride * self.height;
        let flipped = self.lanes_reversed(self.cells) >> up;
        let mirror = self.lanes_reversed(turned << up);
        self.cells.min(mirror).min(flipped).min(turned)
    }

    /// The canonical form, given the shape turned by half a turn: the
    /// smallest of the images that fit.
    #[inline]
    fn canonical(&self, turned: B) -> B {
        let mut best = self.smallest_image(turned);
        if let Some(transposed) = self.transposed() {
            best = best.min(transposed.smallest_image(transposed.turned()));
        }
        best
    }

    /// The shape transposed, if it fits: with lanes of 8 bits, when it has
    /// at most 8 rows; with lanes of 16, when it fits in 8 x 8 and its
    /// width in the lanes there are.
    #[inline]
    fn transposed(&self) -> Option<Self> {
        if self.height > 8 {
            return None;
        }
        let cells = if self.stride == 8 {
            B::from_u128(u128::from(transpose8(self.cells.low_u64())))
        } else {
            if self.width > 8 || self.width > B::BITS / 16 {
                return None;
            }
            lanes16(transpose8(bytes_of_lanes16(self.cells)))
        };
        Some(Shape {
            cells,
            height: self.width,
            width: self.height,
            stride: self.stride,
        })
    }

    /// Whether the second player wins by copying each move turned by half
    /// a turn about the centre of the bounding box: the shape is its own
    /// image, and no domino meets its own image. A domino meets its image
    /// only when it covers the centre: the central cell (odd height and
    /// width), or the two central cells (odd height and even width, or the
    /// reverse) as a domino of its own. Then after any move the copy is
    /// free and disjoint from it, and the position is its own image
    /// again: the first player runs out of moves first, so the nimber is
    /// 0.
    #[inline]
    fn is_symmetric_loss(&self, turned: B) -> bool {
        if turned != self.cells {
            return false;
        }
        let centre = self.stride * (self.height / 2) + self.width / 2;
        match (self.height % 2, self.width % 2) {
            (1, 1) => !self.cells.has(centre),
            (1, 0) => !(self.cells.has(centre) && self.cells.has(centre - 1)),
            (0, 1) => !(self.cells.has(centre) && self.cells.has(centre - self.stride)),
            _ => true,
        }
    }
}

/// The low bytes of the lanes of 16 bits of `cells` (at most 8 lanes,
/// each at most 8 bits wide), as the bytes of a `u64`.
#[inline]
fn bytes_of_lanes16<B: Bits>(cells: B) -> u64 {
    let mask = |m: u128| B::from_u128(m);
    let mut x = cells;
    x = (x | x >> 8) & mask(0x0000_ffff_0000_ffff_0000_ffff_0000_ffff);
    x = (x | x >> 16) & mask(0x0000_0000_ffff_ffff_0000_0000_ffff_ffff);
    if B::BITS > 64 {
        x = x | x >> 32;
    }
    x.low_u64()
}

/// The bytes of `bytes` as the low bytes of lanes of 16 bits (as many
/// lanes as `B` has: the bytes above must be 0).
#[inline]
fn lanes16<B: Bits>(bytes: u64) -> B {
    let mask = |m: u128| B::from_u128(m);
    let mut x = B::from_u128(u128::from(bytes));
    if B::BITS > 64 {
        x = (x | x << 32) & mask(0x0000_0000_ffff_ffff_0000_0000_ffff_ffff);
    }
    x = (x | x << 16) & mask(0x0000_ffff_0000_ffff_0000_ffff_0000_ffff);
    (x | x << 8) & mask(0x00ff_00ff_00ff_00ff_00ff_00ff_00ff_00ff)
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

impl<B: Bits> Game for Cram<B> {
    type Position = Cells<B>;
    type Move = Domino;

    fn moves(&self, position: &Cells<B>, moves: &mut Vec<Domino>) {
        let (horizontal, vertical) = self.dominoes(position.0);
        // On long boards (lanes of 16 bits) the dominoes across the board
        // come first: they cut it into parts sooner (4 x 9: 330k positions
        // expanded instead of 530k; on other boards the order along rows
        // first does as well or better).
        let order = if self.stride == 16 {
            [(vertical, true), (horizontal, false)]
        } else {
            [(horizontal, false), (vertical, true)]
        };
        for (mut set, down) in order {
            while set != B::ZERO {
                let bit = set.trailing_zeros() as u8;
                set = set.without_lowest();
                moves.push(Domino { bit, down });
            }
        }
    }

    fn play(&self, position: &Cells<B>, domino: &Domino) -> Cells<B> {
        let pair = B::ONE | (B::ONE << if domino.down { self.stride } else { 1 });
        Cells(position.0 & !(pair << u32::from(domino.bit)))
    }

    fn split(&self, position: &Cells<B>, components: &mut Vec<Cells<B>>) {
        let (horizontal, vertical) = self.dominoes(position.0);
        // Only cells with a free neighbour matter.
        let live = horizontal | horizontal << 1 | vertical | vertical << self.stride;
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
        let shape = Shape::new(component.0, self.stride);
        Cells(shape.canonical(shape.turned()))
    }

    fn known_nimber(&self, component: &Cells<B>) -> Option<Nimber> {
        match self.reduce_shape(component.0) {
            Reduced::Known(n) => Some(n),
            Reduced::Canonical(_) => None,
        }
    }

    fn reduce(&self, component: &Cells<B>) -> Reduced<Cells<B>> {
        self.reduce_shape(component.0)
    }

    /// The key of the component's graph of cells (see the module
    /// `class`): its 2-core, as canonical forms turn it, with the trees
    /// hanging from it, whatever their shape on the board.
    fn class_key(&self, component: &Cells<B>) -> Option<u128> {
        self.classes
            .then(|| self.class_key_of(component.0))
            .flatten()
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
mod tests;
