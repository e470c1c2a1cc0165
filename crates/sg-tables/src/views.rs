//! The table kinds of the row game and the knight games: typed views of a
//! validated table, [`RowTable`] by bit mask and [`KnightTable`] by
//! square, and [`knight_pattern`]: a certified description of the whole
//! board; with the payload length each kind's parameters imply.

use crate::error::TableError;
use crate::layout::{check_payload, wrong_kind};
use crate::metadata::{Game, TableKind};
use sg_core::knight::MoveSet;
use sg_core::knight_pattern::{CHECK_LIMIT, KnightPattern};

/// The widest row table a file may describe: rows as wide as `sg-core`
/// evaluates ([`sg_core::row::MAX_WIDTH`]), less one, so that the table's
/// `2^W` entries can be counted by the header's `u64` payload length.
pub const MAX_ROW_WIDTH: u32 = sg_core::row::MAX_WIDTH - 1;

/// The payload length of a row table of `width` cells (one byte a row),
/// after checking the width.
pub(crate) fn row_len(width: u32) -> Result<u64, TableError> {
    if !(1..=MAX_ROW_WIDTH).contains(&width) {
        return Err(TableError::RowWidth {
            width,
            max: MAX_ROW_WIDTH,
        });
    }
    Ok(1u64 << width)
}

/// The payload length of a knight table of side `size` (one byte a
/// square), after checking the moves and the size.
pub(crate) fn knight_len(size: u64, moves: &[(i32, i32)]) -> Result<u64, TableError> {
    knight_moves(moves)?;
    match size.checked_mul(size) {
        Some(n) if n > 0 => Ok(n),
        _ => Err(TableError::KnightSize { size }),
    }
}

/// The payload length of a knight pattern (its metadata's `len`), after
/// checking the moves.
pub(crate) fn pattern_len(moves: &[(i32, i32)], len: u64) -> Result<u64, TableError> {
    knight_moves(moves)?;
    Ok(len)
}

/// The move set of a knight game's metadata, checked.
fn knight_moves(steps: &[(i32, i32)]) -> Result<MoveSet, TableError> {
    MoveSet::new(steps).map_err(|error| TableError::KnightMoves { error })
}

/// The description stored in a knight-pattern table, decoded and certified
/// anew (see `sg_core::knight_pattern`: stored bytes are never trusted),
/// for the move set its metadata names.
pub(crate) fn knight_pattern(game: &Game, payload: &[u8]) -> Result<KnightPattern, TableError> {
    let Game::KnightPattern { moves, len, .. } = game else {
        return Err(wrong_kind(TableKind::KnightPattern, game));
    };
    check_payload(pattern_len(moves, *len)?, payload)?;
    let (pattern, _) = KnightPattern::load(payload, CHECK_LIMIT)
        .map_err(|error| TableError::KnightPattern { error })?;
    if pattern.moves().steps() != moves.as_slice() {
        return Err(TableError::PatternMoves {
            pattern: pattern.moves().steps().to_vec(),
            metadata: moves.clone(),
        });
    }
    Ok(pattern)
}

/// Grundy values of every row of `width()` cells, by bit mask (bit 0 is
/// the rightmost cell, as in [`sg_core::row`]).
#[derive(Debug, Clone, Copy)]
pub struct RowTable<'a> {
    width: u32,
    values: &'a [u8],
}

impl<'a> RowTable<'a> {
    pub(crate) fn new(game: &Game, values: &'a [u8]) -> Result<Self, TableError> {
        let &Game::Row { width } = game else {
            return Err(wrong_kind(TableKind::Row, game));
        };
        check_payload(row_len(width)?, values)?;
        Ok(Self { width, values })
    }

    /// Cells in a row: the table answers every mask below `2^width`.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The Grundy value of the row `mask`, or `None` if it has a piece at
    /// bit `width()` or above (the row is wider than the table).
    #[inline]
    pub fn get(&self, mask: u64) -> Option<u8> {
        usize::try_from(mask)
            .ok()
            .and_then(|i| self.values.get(i))
            .copied()
    }

    /// All values, by mask.
    pub fn values(&self) -> &'a [u8] {
        self.values
    }
}

/// Grundy values of every square `(x, y)` with `x, y < size()` of a knight
/// game, stored row-major (`x * size + y`).
#[derive(Debug, Clone)]
pub struct KnightTable<'a> {
    size: u64,
    moves: MoveSet,
    values: &'a [u8],
}

impl<'a> KnightTable<'a> {
    pub(crate) fn new(game: &Game, values: &'a [u8]) -> Result<Self, TableError> {
        let Game::Knight { size, moves } = game else {
            return Err(wrong_kind(TableKind::Knight, game));
        };
        check_payload(knight_len(*size, moves)?, values)?;
        Ok(Self {
            size: *size,
            moves: knight_moves(moves)?,
            values,
        })
    }

    /// Side of the square the table covers.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The move set the values are for.
    pub fn moves(&self) -> &MoveSet {
        &self.moves
    }

    /// The Grundy value of `(x, y)`, or `None` outside the table.
    #[inline]
    pub fn get(&self, x: u64, y: u64) -> Option<u8> {
        if x >= self.size || y >= self.size {
            return None;
        }
        // x, y < size and size * size fits (checked when validated).
        self.values.get((x * self.size + y) as usize).copied()
    }

    /// All values, row-major.
    pub fn values(&self) -> &'a [u8] {
        self.values
    }
}
