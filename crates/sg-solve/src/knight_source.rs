//! Where the value of a knight's square comes from, for any move set, as
//! `grundy knight` (and the Python module's `knight`) obtain it: the
//! certified description of the whole board (compiled in for the hyper
//! knight, searched for on the spot for another move set), or, when no
//! description is found, the definition up to [`DEFINITION_MAX_SUM`].

use crate::error::quote;
use sg_core::knight::{KnightError, MoveSet, TriangleTable};
use sg_core::knight_pattern::{KnightPattern, SearchOptions, search};

/// The largest `x + y` computed by the definition when no certified
/// description is found for a move set (the limit of on-demand tables).
pub const DEFINITION_MAX_SUM: u64 = TriangleTable::DEFAULT_MAX_SUM;

/// The source of a move set's values.
#[derive(Debug, Clone)]
pub enum KnightSource {
    /// A certified description of the whole board.
    Pattern(KnightPattern),
    /// The definition, for squares with `x + y` up to
    /// [`DEFINITION_MAX_SUM`].
    Definition(Box<TriangleTable>),
}

/// A source, with the note to show when it is the definition (why no
/// description was found).
#[derive(Debug)]
pub struct Found {
    /// The source.
    pub source: KnightSource,
    /// Why the values come from the definition, if they do.
    pub note: Option<String>,
}

impl KnightSource {
    /// The source for `moves` (the hyper knight when absent; `online`:
    /// search its description too), able to answer squares up to
    /// `x + y = max_sum`; an error message (the user's to fix) when no
    /// description is found and `max_sum` is beyond the definition's
    /// limit.
    pub fn find(moves: Option<MoveSet>, online: bool, max_sum: u64) -> Result<Found, String> {
        let moves = moves.unwrap_or_else(MoveSet::hyper_knight);
        if !online && moves == MoveSet::hyper_knight() {
            let source = Self::Pattern(sg_tables::embedded_knight_pattern().clone());
            return Ok(Found { source, note: None });
        }
        match search(&moves, &SearchOptions::default()) {
            Ok(found) => Ok(Found {
                source: Self::Pattern(found.pattern),
                note: None,
            }),
            Err(e) if max_sum <= DEFINITION_MAX_SUM => Ok(Found {
                source: Self::Definition(Box::new(TriangleTable::new(moves, DEFINITION_MAX_SUM))),
                note: Some(format!(
                    "note: {e}; computing by the definition (x + y <= {DEFINITION_MAX_SUM})"
                )),
            }),
            Err(e) => Err(format!(
                "move set {}: {e}, and x + y = {max_sum} is beyond {DEFINITION_MAX_SUM}, \
                 the limit for computing by the definition",
                quote(&format!("{:?}", moves.steps()))
            )),
        }
    }

    /// The value of the square `(x, y)`.
    pub fn value(&mut self, x: u64, y: u64) -> Result<u32, KnightError> {
        Ok(u32::from(match self {
            Self::Pattern(p) => p.value(x, y),
            Self::Definition(t) => t.value(x, y)?,
        }))
    }

    /// The largest `x + y` this source answers.
    pub fn max_sum(&self) -> u64 {
        match self {
            Self::Pattern(_) => u64::MAX,
            Self::Definition(_) => DEFINITION_MAX_SUM,
        }
    }
}
