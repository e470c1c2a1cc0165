//! What dispatches over the kinds of table: the payload length that a
//! game's parameters imply ([`Game::entries`]), asked of each kind's
//! module, and the encoding of a table file that checks it
//! ([`encode`], [`encode_prefix`], [`encode_prefix_with_crc`], public in
//! [`format`](crate::format)). The kinds' modules know only the bottom
//! layer (`layout.rs`, `metadata.rs`, `error.rs`), never this one.

use crate::error::TableError;
use crate::layout::{check_payload, encode_of_len, encode_prefix_of_len};
use crate::metadata::{Game, Metadata};
use crate::{cram, misere, octal, views};

impl Game {
    /// The payload length in bytes, after checking the parameters: the
    /// number of entries for row and knight tables (one byte each), twice
    /// the number of values for an octal sequence.
    pub fn entries(&self) -> Result<u64, TableError> {
        match self {
            Self::Row { width } => views::row_len(*width),
            Self::Knight { size, moves } => views::knight_len(*size, moves),
            Self::KnightPattern { moves, len, .. } => views::pattern_len(moves, *len),
            Self::OctalSequence { code, count } => octal::sequence_len(code, *count),
            Self::OctalCatalogue { limit, games, len } => {
                octal::catalogue_len(*limit, *games, *len)
            }
            Self::CramEndgame {
                max_cells,
                polyominoes,
                slots,
                nimber_bits,
                fingerprint_bits,
            } => cram::payload_len(
                *max_cells,
                *polyominoes,
                *slots,
                (*nimber_bits, *fingerprint_bits),
            ),
            Self::OctalRuns { len, .. } => Ok(*len),
            Self::MisereQuotient { code, order, heaps } => {
                misere::payload_len(code, *order, *heaps)
            }
        }
    }
}

/// Everything of a table file before its payload (header, metadata,
/// padding), for `payload`. Writing these bytes then `payload` gives the
/// file; [`encode`] does both in memory.
///
/// Fails if `payload` does not have the length the metadata implies.
pub fn encode_prefix(metadata: &Metadata, payload: &[u8]) -> Result<Vec<u8>, TableError> {
    let expected = metadata.game.entries()?;
    check_payload(expected, payload)?;
    encode_prefix_of_len(metadata, expected, crc32fast::hash(payload))
}

/// [`encode_prefix`] for a payload of the length the metadata implies and
/// of CRC-32 `payload_crc`, for a payload written in pieces.
pub fn encode_prefix_with_crc(
    metadata: &Metadata,
    payload_crc: u32,
) -> Result<Vec<u8>, TableError> {
    encode_prefix_of_len(metadata, metadata.game.entries()?, payload_crc)
}

/// The complete table file for `metadata` and `payload`.
pub fn encode(metadata: &Metadata, payload: &[u8]) -> Result<Vec<u8>, TableError> {
    encode_of_len(metadata, metadata.game.entries()?, payload)
}
