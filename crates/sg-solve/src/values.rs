//! Where the solvers get their Grundy values: a precomputed table
//! (`sg-tables`, or for rows by default the half-row tables of
//! `sg_core::row_halves`) where it covers the position, otherwise
//! computation (the closed form for rows; for knights the certified description of the whole
//! board, or on-demand diagonals without it).

use sg_core::knight::{KnightError, MoveSet, TriangleTable};
use sg_core::knight_pattern::KnightPattern;
use sg_core::row::row_grundy;
use sg_core::row_halves::row_grundy_fast;
use sg_tables::{KnightTable, RowTable};

/// Row values: by lookup for masks the table covers (rows narrower than its
/// width), by the closed form for the others or without a table.
#[derive(Debug, Clone, Copy)]
pub struct RowValues<'a> {
    table: Option<RowTable<'a>>,
    /// Rows of up to 20 cells from the compiled-in half-row tables.
    halves: bool,
}

impl<'a> RowValues<'a> {
    /// Values from `table` where it has them; `None`: closed form only.
    pub fn new(table: Option<RowTable<'a>>) -> Self {
        Self {
            table,
            halves: false,
        }
    }

    /// Values of rows of up to 20 cells from two half-row tables of 22.5 KiB
    /// built at compile time ([`sg_core::row_halves`]), which stay in cache
    /// where the 1 MiB table of every row does not; the closed form beyond.
    pub fn by_halves() -> Self {
        Self {
            table: None,
            halves: true,
        }
    }

    /// The Grundy value of the row `mask` (bit 0 = rightmost cell).
    #[inline]
    pub fn value(&self, mask: u64) -> u32 {
        if self.halves {
            return row_grundy_fast(mask);
        }
        match self.table.and_then(|t| t.get(mask)) {
            Some(g) => u32::from(g),
            None => row_grundy(mask),
        }
    }
}

/// A table for another game than the one asked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the knight table is for the moves {}, not the hyper knight's",
    crate::error::quote(&format!("{found:?}"))
)]
pub struct WrongMoves {
    /// The table's steps.
    pub found: Vec<(i32, i32)>,
}

/// Hyper-knight values: by lookup inside the table's square; outside it,
/// through the certified description of the whole board when one is given
/// ([`KnightValues::with_pattern`]: any square in O(1)), else on
/// demand (diagonal by diagonal, up to `x + y = TriangleTable::DEFAULT_MAX_SUM`).
#[derive(Debug)]
pub struct KnightValues<'a> {
    table: Option<KnightTable<'a>>,
    pattern: Option<PatternSource>,
    online: TriangleTable,
}

/// A certified description, or where to get one on first use.
#[derive(Debug)]
enum PatternSource {
    Given(KnightPattern),
    /// Decoded and certified on the first call (the compiled-in one):
    /// inputs that stay inside the table never pay for it.
    OnFirstUse(fn() -> &'static KnightPattern),
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
        self.pattern = Some(PatternSource::Given(pattern));
        Ok(self)
    }

    /// Answers squares outside the table through the description that
    /// `pattern` returns, called on the first such square only: for the
    /// compiled-in description (`sg_tables::embedded_knight_pattern`), whose
    /// moves the tests check are the hyper knight's.
    pub fn with_pattern_on_first_use(mut self, pattern: fn() -> &'static KnightPattern) -> Self {
        self.pattern = Some(PatternSource::OnFirstUse(pattern));
        self
    }

    /// The move set (the hyper knight's).
    pub fn moves(&self) -> &MoveSet {
        self.online.moves()
    }

    /// The Grundy value of `(x, y)`, for any `x, y` with the certified
    /// description; an error only for a square outside the table and too
    /// far out to compute on demand (without the description).
    #[inline]
    pub fn value(&mut self, x: u64, y: u64) -> Result<u8, KnightError> {
        match self.table.as_ref().and_then(|t| t.get(x, y)) {
            Some(g) => Ok(g),
            None => match &self.pattern {
                // Certified for the whole board, exact for any u64 square:
                // a hint's square one step beyond 2^63 - 1 included.
                Some(PatternSource::Given(p)) => Ok(p.value(x, y)),
                Some(PatternSource::OnFirstUse(get)) => Ok(get().value(x, y)),
                None => self.online.value(x, y),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_description_on_first_use_answers_beyond_the_table_like_computation() {
        let table = sg_tables::embedded_knight_table().clone();
        let mut lazy = KnightValues::new(Some(table))
            .unwrap()
            .with_pattern_on_first_use(sg_tables::embedded_knight_pattern);
        let mut online = KnightValues::new(None).unwrap();
        // Inside the table, just beyond it, and far beyond.
        for (x, y) in [(3, 4), (1023, 1023), (1024, 0), (1500, 700), (3000, 9)] {
            assert_eq!(lazy.value(x, y), online.value(x, y), "({x}, {y})");
        }
        let far = sg_tables::embedded_knight_pattern().value_checked(1 << 40, 12345);
        assert_eq!(lazy.value(1 << 40, 12345), far);
    }
}
