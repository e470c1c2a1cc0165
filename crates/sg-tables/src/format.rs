//! The byte layout of a `.sgt` table file, its header and metadata, and
//! [`encode`] to write one.
//!
#![doc = include_str!("../FORMAT.md")]

use crate::error::TableError;
use crate::octal::{CATALOGUE_GAMES, MAX_CATALOGUE_LIMIT};
use serde::{Deserialize, Serialize};
use sg_core::knight::MoveSet;
use std::fmt;

/// The first eight bytes of every table file.
pub const MAGIC: [u8; 8] = *b"GRUNDYT\0";
/// The endianness check word, stored little-endian.
pub const ENDIANNESS_CHECK: u32 = 0x0102_0304;
/// The one format version this crate reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// Size of the fixed header.
pub const HEADER_LEN: usize = 64;
/// Alignment of the payload, in the file and in memory.
pub const PAYLOAD_ALIGN: usize = 64;
/// The widest row table a file may describe: rows as wide as `sg-core`
/// evaluates ([`sg_core::row::MAX_WIDTH`]), less one, so that the table's
/// `2^W` entries can be counted by the header's `u64` payload length.
pub const MAX_ROW_WIDTH: u32 = sg_core::row::MAX_WIDTH - 1;

/// The header number of the Cram endgame's first layout (4-bit slots, no
/// fingerprints: a key it did not hold got some nimber), refused.
pub const RETIRED_CRAM_ENDGAME: u32 = 6;

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
    /// readers refuse ([`TableError::RetiredCramEndgame`]).
    CramEndgame,
    /// What a sweep found of any number of take-and-break games, one
    /// catalogue record each, by code (`crate::octal_runs`).
    OctalRuns,
    /// The misère quotient of the first heaps of a take-and-break game
    /// (`crate::misere`).
    MisereQuotient,
}

impl TableKind {
    /// The number of the kind in the header.
    pub fn code(self) -> u32 {
        match self {
            Self::Row => 1,
            Self::Knight => 2,
            Self::KnightPattern => 3,
            Self::OctalSequence => 4,
            Self::OctalCatalogue => 5,
            Self::CramEndgame => 7,
            Self::OctalRuns => 8,
            Self::MisereQuotient => 9,
        }
    }

    /// The kind with header number `code`.
    pub fn from_code(code: u32) -> Result<Self, TableError> {
        match code {
            1 => Ok(Self::Row),
            2 => Ok(Self::Knight),
            3 => Ok(Self::KnightPattern),
            4 => Ok(Self::OctalSequence),
            5 => Ok(Self::OctalCatalogue),
            RETIRED_CRAM_ENDGAME => Err(TableError::RetiredCramEndgame),
            7 => Ok(Self::CramEndgame),
            8 => Ok(Self::OctalRuns),
            9 => Ok(Self::MisereQuotient),
            other => Err(TableError::UnknownKind(other)),
        }
    }
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

    /// The payload length in bytes, after checking the parameters: the
    /// number of entries for row and knight tables (one byte each), twice
    /// the number of values for an octal sequence.
    pub fn entries(&self) -> Result<u64, TableError> {
        match self {
            Self::Row { width } => {
                if !(1..=MAX_ROW_WIDTH).contains(width) {
                    return Err(TableError::RowWidth {
                        width: *width,
                        max: MAX_ROW_WIDTH,
                    });
                }
                Ok(1u64 << width)
            }
            Self::Knight { size, moves } => {
                knight_moves(moves)?;
                match size.checked_mul(*size) {
                    Some(n) if n > 0 => Ok(n),
                    _ => Err(TableError::KnightSize { size: *size }),
                }
            }
            Self::KnightPattern { moves, len, .. } => {
                knight_moves(moves)?;
                Ok(*len)
            }
            Self::OctalSequence { code, count } => {
                crate::octal::rules_of(code)?;
                count
                    .checked_mul(2)
                    .ok_or(TableError::OctalCount { count: *count })
            }
            Self::OctalCatalogue { limit, games, len } => {
                if *games != CATALOGUE_GAMES {
                    return Err(TableError::CatalogueGames {
                        games: *games,
                        expected: CATALOGUE_GAMES,
                    });
                }
                if *limit > MAX_CATALOGUE_LIMIT {
                    return Err(TableError::CatalogueLimit {
                        limit: *limit,
                        max: MAX_CATALOGUE_LIMIT,
                    });
                }
                Ok(*len)
            }
            Self::CramEndgame {
                max_cells,
                polyominoes,
                slots,
                nimber_bits,
                fingerprint_bits,
            } => crate::cram::payload_len(
                *max_cells,
                *polyominoes,
                *slots,
                (*nimber_bits, *fingerprint_bits),
            ),
            Self::OctalRuns { len, .. } => Ok(*len),
            Self::MisereQuotient { code, order, heaps } => {
                crate::octal::rules_of(code)?;
                if !(1..=sg_octal::misere::MAX_ORDER as u32).contains(order) || *heaps == 0 {
                    return Err(TableError::MisereQuotient {
                        why: format!(
                            "order {order} (from 1 to {}) over {heaps} heaps (at least 1)",
                            sg_octal::misere::MAX_ORDER
                        ),
                    });
                }
                crate::misere::payload_len(*order, *heaps).ok_or(TableError::MisereQuotient {
                    why: format!("{heaps} heaps do not fit in a payload"),
                })
            }
        }
    }
}

/// The move set of a knight game's metadata, checked.
pub(crate) fn knight_moves(steps: &[(i32, i32)]) -> Result<MoveSet, TableError> {
    MoveSet::new(steps).map_err(|error| TableError::KnightMoves { error })
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

/// The fixed 64-byte header, decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Format version.
    pub version: u32,
    /// Table kind.
    pub kind: TableKind,
    /// Metadata length in bytes.
    pub metadata_len: u32,
    /// Offset of the payload from the start of the file.
    pub payload_offset: u64,
    /// Payload length in bytes (= entries).
    pub payload_len: u64,
    /// CRC-32 of the payload.
    pub payload_crc: u32,
    /// CRC-32 of the metadata.
    pub metadata_crc: u32,
}

/// The little-endian `u32` at `at` of `bytes` (which holds it).
pub(crate) fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut word = [0; 4];
    word.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(word)
}

/// The little-endian `u64` at `at` of `bytes` (which holds it).
pub(crate) fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

impl Header {
    /// Decodes and checks the fixed header at the start of `bytes`: length,
    /// magic, endianness, version, kind and reserved bytes.
    pub fn parse(bytes: &[u8]) -> Result<Self, TableError> {
        if bytes.len() < HEADER_LEN {
            return Err(TableError::Truncated {
                what: "header",
                needed: HEADER_LEN as u64,
                len: bytes.len() as u64,
            });
        }
        let mut magic = [0; 8];
        magic.copy_from_slice(&bytes[..8]);
        if magic != MAGIC {
            return Err(TableError::BadMagic { found: magic });
        }
        let check = u32_at(bytes, 8);
        if check != ENDIANNESS_CHECK {
            return Err(TableError::BadEndianness { found: check });
        }
        let version = u32_at(bytes, 12);
        if version != FORMAT_VERSION {
            return Err(TableError::UnsupportedVersion {
                found: version,
                supported: FORMAT_VERSION,
            });
        }
        let kind = TableKind::from_code(u32_at(bytes, 16))?;
        if bytes[48..HEADER_LEN].iter().any(|&b| b != 0) {
            return Err(TableError::ReservedNotZero);
        }
        Ok(Self {
            version,
            kind,
            metadata_len: u32_at(bytes, 20),
            payload_offset: u64_at(bytes, 24),
            payload_len: u64_at(bytes, 32),
            payload_crc: u32_at(bytes, 40),
            metadata_crc: u32_at(bytes, 44),
        })
    }

    /// The 64 header bytes.
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut out = [0; HEADER_LEN];
        out[..8].copy_from_slice(&MAGIC);
        out[8..12].copy_from_slice(&ENDIANNESS_CHECK.to_le_bytes());
        out[12..16].copy_from_slice(&self.version.to_le_bytes());
        out[16..20].copy_from_slice(&self.kind.code().to_le_bytes());
        out[20..24].copy_from_slice(&self.metadata_len.to_le_bytes());
        out[24..32].copy_from_slice(&self.payload_offset.to_le_bytes());
        out[32..40].copy_from_slice(&self.payload_len.to_le_bytes());
        out[40..44].copy_from_slice(&self.payload_crc.to_le_bytes());
        out[44..48].copy_from_slice(&self.metadata_crc.to_le_bytes());
        out
    }
}

/// Rounds `n` up to a multiple of [`PAYLOAD_ALIGN`].
pub(crate) fn align_up(n: u64) -> u64 {
    n.div_ceil(PAYLOAD_ALIGN as u64) * PAYLOAD_ALIGN as u64
}

/// Everything of a table file before its payload (header, metadata,
/// padding), for `payload`. Writing these bytes then `payload` gives the
/// file; [`encode`] does both in memory.
///
/// Fails if `payload` does not have the length the metadata implies.
pub fn encode_prefix(metadata: &Metadata, payload: &[u8]) -> Result<Vec<u8>, TableError> {
    let expected = metadata.game.entries()?;
    if payload.len() as u64 != expected {
        return Err(TableError::PayloadLength {
            expected,
            found: payload.len() as u64,
        });
    }
    encode_prefix_with_crc(metadata, crc32fast::hash(payload))
}

/// [`encode_prefix`] for a payload of the length the metadata implies and
/// of CRC-32 `payload_crc`, for a payload written in pieces.
pub fn encode_prefix_with_crc(
    metadata: &Metadata,
    payload_crc: u32,
) -> Result<Vec<u8>, TableError> {
    let payload_len = metadata.game.entries()?;
    let meta = postcard::to_allocvec(metadata).map_err(|error| TableError::Metadata { error })?;
    let metadata_len =
        u32::try_from(meta.len()).map_err(|_| TableError::MetadataTooLong { len: meta.len() })?;
    let payload_offset = align_up((HEADER_LEN + meta.len()) as u64);
    let header = Header {
        version: FORMAT_VERSION,
        kind: metadata.game.kind(),
        metadata_len,
        payload_offset,
        payload_len,
        payload_crc,
        metadata_crc: crc32fast::hash(&meta),
    };
    let mut out = Vec::with_capacity(payload_offset as usize);
    out.extend_from_slice(&header.to_bytes());
    out.extend_from_slice(&meta);
    out.resize(payload_offset as usize, 0);
    Ok(out)
}

/// The complete table file for `metadata` and `payload`.
pub fn encode(metadata: &Metadata, payload: &[u8]) -> Result<Vec<u8>, TableError> {
    let mut out = encode_prefix(metadata, payload)?;
    out.extend_from_slice(payload);
    Ok(out)
}
