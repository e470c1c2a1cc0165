//! The bottom layer of the `.sgt` format, which knows no kind of table:
//! the fixed header ([`Header`]) and the header's numbering of the kinds
//! ([`TableKind::code`]), the byte readers, the checks every kind makes of
//! a payload, and the bytes of a file whose payload length the kind's
//! module has computed. The layout, byte by byte, is documented with
//! [`format`](crate::format); what a payload holds, and so how long it
//! is, is each kind's own (see `kinds.rs`).

use crate::error::TableError;
use crate::metadata::{Game, Metadata, TableKind};

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
/// The header number of the Cram endgame's first layout (4-bit slots, no
/// fingerprints: a key it did not hold got some nimber), refused.
pub const RETIRED_CRAM_ENDGAME: u32 = 6;

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
fn align_up(n: u64) -> u64 {
    n.div_ceil(PAYLOAD_ALIGN as u64) * PAYLOAD_ALIGN as u64
}

/// The error for a table of `game` asked for as one of `expected`: the
/// first check of a kind's view of a payload.
pub(crate) fn wrong_kind(expected: TableKind, game: &Game) -> TableError {
    TableError::WrongKind {
        expected,
        found: game.kind(),
    }
}

/// Checks that `payload` has the length `expected` that its metadata's
/// parameters imply (computed, and the parameters checked, by the module
/// of the table's kind).
pub(crate) fn check_payload(expected: u64, payload: &[u8]) -> Result<(), TableError> {
    if expected != payload.len() as u64 {
        return Err(TableError::PayloadLength {
            expected,
            found: payload.len() as u64,
        });
    }
    Ok(())
}

/// Everything of a table file before its payload (header, metadata,
/// padding), for a payload of `payload_len` bytes and CRC-32 `payload_crc`:
/// the length its metadata implies, which the caller has computed (the
/// module of the table's kind, or [`Game::entries`]).
pub(crate) fn encode_prefix_of_len(
    metadata: &Metadata,
    payload_len: u64,
    payload_crc: u32,
) -> Result<Vec<u8>, TableError> {
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

/// The complete table file for `metadata` and `payload`, after checking
/// that `payload` has the length `expected` that the metadata implies
/// (computed by the caller, as for [`encode_prefix_of_len`]).
pub(crate) fn encode_of_len(
    metadata: &Metadata,
    expected: u64,
    payload: &[u8],
) -> Result<Vec<u8>, TableError> {
    check_payload(expected, payload)?;
    let mut out = encode_prefix_of_len(metadata, expected, crc32fast::hash(payload))?;
    out.extend_from_slice(payload);
    Ok(out)
}
