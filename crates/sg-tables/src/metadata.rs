//! What a table is of, as its file says: the kind numbered in the header
//! ([`TableKind`]), and the metadata after it ([`Metadata`]): the game with
//! its parameters ([`Game`]) and the program that wrote the table. Types
//! only, shared by every layer; what each kind's parameters imply (the
//! payload's length) is said by the kind's own module.

use serde::{Deserialize, Serialize};
use std::fmt;

/// What a table holds, as numbered in the header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TableKind {
    /// The row game of HDU 5724, by bit mask.
    Row,
    /// A knight game (LightOJ 1315) on a square, by `(x, y)`.
    Knight,
    /// A certified finite description of a knight game on the whole
    /// unbounded board (`sg_core::knight_pattern`); the payload is its
    /// encoding, one byte per entry.
    KnightPattern,
    /// The Grundy sequence `G(0), G(1), ...` of a take-and-break game
    /// (`sg_octal`), one `u16` little-endian per heap.
    OctalSequence,
    /// The catalogue of the octal games `0.d1d2d3` and `4.d1d2d3`: per
    /// game its certified period and the values that describe it, or how
    /// far it was computed (`crate::octal`).
    OctalCatalogue,
    /// The nimbers of every Cram component (polyomino) of at most `K`
    /// cells, by canonical form, through a static function of 16-bit
    /// values: the nimber and a fingerprint of the key (`crate::cram`).
    /// Code 7; code 6 was its first layout, without fingerprints, which
    /// readers refuse
    /// ([`TableError::RetiredCramEndgame`](crate::TableError::RetiredCramEndgame)).
    CramEndgame,
    /// What a sweep found of any number of take-and-break games, one
    /// catalogue record each, by code (`crate::octal_runs`).
    OctalRuns,
    /// The misère quotient of the first heaps of a take-and-break game
    /// (`crate::misere`).
    MisereQuotient,
}

impl fmt::Display for TableKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Row => "row",
            Self::Knight => "knight",
            Self::KnightPattern => "knight pattern",
            Self::OctalSequence => "octal sequence",
            Self::OctalCatalogue => "octal catalogue",
            Self::CramEndgame => "Cram endgame",
            Self::OctalRuns => "octal runs",
            Self::MisereQuotient => "misère quotient",
        })
    }
}

/// The game a table is for, with its parameters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Game {
    /// Every row of `width` cells.
    Row {
        /// Cells in a row; the table has `2^width` entries.
        width: u32,
    },
    /// Every square `(x, y)` with `x, y < size` of the knight game with
    /// these steps.
    Knight {
        /// Side of the square; the table has `size^2` entries.
        size: u64,
        /// The steps `(dx, dy)` of the knight.
        moves: Vec<(i32, i32)>,
    },
    /// A certified description of the knight game with these steps on the
    /// whole board, `len` bytes long, found from the diagonals
    /// `x + y <= searched_to`.
    KnightPattern {
        /// The steps `(dx, dy)` of the knight.
        moves: Vec<(i32, i32)>,
        /// The largest `x + y` of the table the search read.
        searched_to: u64,
        /// Length of the encoded description (the payload).
        len: u64,
    },
    /// `G(0), ..., G(count - 1)` of the take-and-break game `code`, as
    /// `u16` little-endian (`2 * count` bytes).
    OctalSequence {
        /// The game, in the canonical form of `sg_octal::Rules`
        /// (`0.77`, `4.007`, `grundys-game`).
        code: String,
        /// How many values (heaps `0..count`).
        count: u64,
    },
    /// The catalogue of every game `0.d1d2d3` and `4.d1d2d3` (the octal
    /// digits `d_i` in `0..=7`), each computed up to heap `limit` or until
    /// its period was certified; `len` bytes of records (`crate::octal`).
    OctalCatalogue {
        /// The largest heap computed for a game whose period was not
        /// certified.
        limit: u64,
        /// The number of games (records).
        games: u32,
        /// Length of the records (the payload).
        len: u64,
    },
    /// The nimber of every Cram component of `1..=max_cells` cells (every
    /// free polyomino), `polyominoes` in all, through a static function per
    /// size whose arrays have `slots` slots in all, each of
    /// `nimber_bits + fingerprint_bits` bits (`crate::cram`).
    CramEndgame {
        /// `K`: the largest polyominoes of the table.
        max_cells: u32,
        /// The polyominoes of the table, of all sizes.
        polyominoes: u64,
        /// The slots of the static functions' arrays.
        slots: u64,
        /// Bits of a slot that hold the nimber (the low bits): exactly
        /// [`crate::cram::NIMBER_BITS`].
        nimber_bits: u32,
        /// Bits of a slot that hold the key's fingerprint (the high bits):
        /// exactly [`crate::cram::FINGERPRINT_BITS`].
        fingerprint_bits: u32,
    },
    /// What a sweep found of `games` take-and-break games, `len` bytes of
    /// records (`crate::octal_runs`).
    OctalRuns {
        /// The number of games (records).
        games: u32,
        /// Length of the records (the payload).
        len: u64,
    },
    /// The misère quotient of the heaps `0..heaps` of the take-and-break
    /// game `code` (`crate::misere`).
    MisereQuotient {
        /// The game, in the canonical form of `sg_octal::Rules`.
        code: String,
        /// The number of elements.
        order: u32,
        /// How many heaps (heaps `0..heaps`).
        heaps: u64,
    },
}

impl Game {
    /// The kind of table for this game.
    pub fn kind(&self) -> TableKind {
        match self {
            Self::Row { .. } => TableKind::Row,
            Self::Knight { .. } => TableKind::Knight,
            Self::KnightPattern { .. } => TableKind::KnightPattern,
            Self::OctalSequence { .. } => TableKind::OctalSequence,
            Self::OctalCatalogue { .. } => TableKind::OctalCatalogue,
            Self::CramEndgame { .. } => TableKind::CramEndgame,
            Self::OctalRuns { .. } => TableKind::OctalRuns,
            Self::MisereQuotient { .. } => TableKind::MisereQuotient,
        }
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Row { width } => write!(f, "row game, width {width}"),
            Self::Knight { size, moves } => {
                write!(f, "knight game, {size} x {size} squares, moves ")?;
                write_moves(f, moves)
            }
            Self::KnightPattern {
                moves,
                searched_to,
                len,
            } => {
                write!(
                    f,
                    "knight game on the whole board, certified description of {len} bytes \
                     found from x + y <= {searched_to}, moves "
                )?;
                write_moves(f, moves)
            }
            Self::OctalSequence { code, count } => {
                write!(f, "take-and-break game {code}, G(0..{count})")
            }
            Self::OctalCatalogue { limit, games, .. } => write!(
                f,
                "catalogue of {games} octal games 0.ddd and 4.ddd, computed to heap {limit} \
                 unless certified sooner"
            ),
            Self::CramEndgame {
                max_cells,
                polyominoes,
                fingerprint_bits,
                ..
            } => write!(
                f,
                "Cram endgame: the nimbers of every component of at most {max_cells} cells \
                 ({polyominoes} free polyominoes), {fingerprint_bits}-bit fingerprints"
            ),
            Self::OctalRuns { games, .. } => {
                write!(
                    f,
                    "octal runs: what a sweep found of {games} take-and-break games"
                )
            }
            Self::MisereQuotient { code, order, heaps } => write!(
                f,
                "misère quotient of take-and-break game {code}, heaps 0..={}, order {order}",
                heaps.saturating_sub(1)
            ),
        }
    }
}

fn write_moves(f: &mut fmt::Formatter<'_>, moves: &[(i32, i32)]) -> fmt::Result {
    for (i, (dx, dy)) in moves.iter().enumerate() {
        let sep = if i == 0 { "" } else { " " };
        write!(f, "{sep}({dx},{dy})")?;
    }
    Ok(())
}

/// The metadata of a table, encoded with postcard after the header.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metadata {
    /// The game and its parameters.
    pub game: Game,
    /// The program that wrote the table, e.g. `"xtask 0.1.0"`.
    pub generator: String,
}
