//! Typed views of a validated table: [`RowTable`] by bit mask,
//! [`KnightTable`] by square, and [`knight_pattern`]: a certified
//! description of the whole board.

use crate::error::TableError;
use crate::format::{Game, TableKind, knight_moves};
use sg_core::knight::MoveSet;
use sg_core::knight_pattern::{CHECK_LIMIT, KnightPattern};

/// Checks that `game` is of `kind` and that `payload` has the length its
/// parameters imply.
pub(crate) fn check_payload(
    game: &Game,
    kind: TableKind,
    payload: &[u8],
) -> Result<(), TableError> {
    if game.kind() != kind {
        return Err(TableError::WrongKind {
            expected: kind,
            found: game.kind(),
        });
    }
    let expected = game.entries()?;
    if expected != payload.len() as u64 {
        return Err(TableError::PayloadLength {
            expected,
            found: payload.len() as u64,
        });
    }
    Ok(())
}

/// The description stored in a knight-pattern table, decoded and certified
/// anew (see `sg_core::knight_pattern`: stored bytes are never trusted),
/// for the move set its metadata names.
pub(crate) fn knight_pattern(game: &Game, payload: &[u8]) -> Result<KnightPattern, TableError> {
    check_payload(game, TableKind::KnightPattern, payload)?;
    let Game::KnightPattern { moves, .. } = game else {
        unreachable!("checked to be a knight pattern");
    };
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
        match *game {
            Game::Row { width } if game.entries()? == values.len() as u64 => {
                Ok(Self { width, values })
            }
            Game::Row { .. } => Err(TableError::PayloadLength {
                expected: game.entries()?,
                found: values.len() as u64,
            }),
            _ => Err(TableError::WrongKind {
                expected: TableKind::Row,
                found: game.kind(),
            }),
        }
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
        match game {
            Game::Knight { size, moves } => {
                let expected = game.entries()?;
                if expected != values.len() as u64 {
                    return Err(TableError::PayloadLength {
                        expected,
                        found: values.len() as u64,
                    });
                }
                let moves = knight_moves(moves)?;
                Ok(Self {
                    size: *size,
                    moves,
                    values,
                })
            }
            _ => Err(TableError::WrongKind {
                expected: TableKind::Knight,
                found: game.kind(),
            }),
        }
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
