//! Where the solvers get their Grundy values: a precomputed table
//! (`sg-tables`) where it covers the position, otherwise computation (the
//! closed form for rows; for knights the certified description of the whole
//! board, or on-demand diagonals without it).

use sg_core::knight::{KnightError, MoveSet, TriangleTable};
use sg_core::knight_pattern::KnightPattern;
use sg_core::row::row_grundy;
use sg_tables::{KnightTable, RowTable};

/// Row values: by lookup for masks the table covers (rows narrower than its
/// width), by the closed form for the others or without a table.
#[derive(Debug, Clone, Copy)]
pub struct RowValues<'a> {
    table: Option<RowTable<'a>>,
}

impl<'a> RowValues<'a> {
    /// Values from `table` where it has them; `None`: closed form only.
    pub fn new(table: Option<RowTable<'a>>) -> Self {
        Self { table }
    }

    /// The Grundy value of the row `mask` (bit 0 = rightmost cell).
    #[inline]
    pub fn value(&self, mask: u64) -> u32 {
        match self.table.and_then(|t| t.get(mask)) {
            Some(g) => u32::from(g),
            None => row_grundy(mask),
        }
    }
}

/// A table for another game than the one asked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the knight table is for the moves {found:?}, not the hyper knight's")]
pub struct WrongMoves {
    /// The table's steps.
    pub found: Vec<(i32, i32)>,
}

/// Hyper-knight values: by lookup inside the table's square; outside it,
/// through the certified description of the whole board when one is given
/// ([`KnightValues::with_pattern`]: any `x, y < 2^63` in O(1)), else on
/// demand (diagonal by diagonal, up to `x + y = TriangleTable::DEFAULT_MAX_SUM`).
#[derive(Debug)]
pub struct KnightValues<'a> {
    table: Option<KnightTable<'a>>,
    pattern: Option<KnightPattern>,
    online: TriangleTable,
}

impl<'a> KnightValues<'a> {
    /// Values from `table` where it has them; `None`: on demand only.
    /// Refuses a table for another move set than the hyper knight's.
    pub fn new(table: Option<KnightTable<'a>>) -> Result<Self, WrongMoves> {
        let moves = MoveSet::hyper_knight();
        if let Some(t) = &table
            && t.moves() != &moves
        {
            return Err(WrongMoves {
                found: t.moves().steps().to_vec(),
            });
        }
        Ok(Self {
            table,
            pattern: None,
            online: TriangleTable::new(moves, TriangleTable::DEFAULT_MAX_SUM),
        })
    }

    /// Answers squares outside the table through `pattern`, a certified
    /// description (see [`KnightPattern::load`]) for the hyper knight.
    pub fn with_pattern(mut self, pattern: KnightPattern) -> Result<Self, WrongMoves> {
        if &pattern.moves() != self.moves() {
            return Err(WrongMoves {
                found: pattern.moves().steps().to_vec(),
            });
        }
        self.pattern = Some(pattern);
        Ok(self)
    }

    /// The move set (the hyper knight's).
    pub fn moves(&self) -> &MoveSet {
        self.online.moves()
    }

    /// The Grundy value of `(x, y)`; an error only for a square outside the
    /// table and too far out to compute.
    #[inline]
    pub fn value(&mut self, x: u64, y: u64) -> Result<u8, KnightError> {
        match self.table.as_ref().and_then(|t| t.get(x, y)) {
            Some(g) => Ok(g),
            None => match &self.pattern {
                Some(p) => p.value_checked(x, y),
                None => self.online.value(x, y),
            },
        }
    }
}
