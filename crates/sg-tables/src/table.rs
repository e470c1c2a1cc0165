//! A validated table borrowed from bytes: [`Table::from_bytes`].

use crate::cram::CramEndgameTable;
use crate::error::TableError;
use crate::layout::{HEADER_LEN, Header, PAYLOAD_ALIGN};
use crate::metadata::{Metadata, TableKind};
use crate::misere::MisereQuotientTable;
use crate::octal::{OctalCatalogue, OctalSequenceTable};
use crate::octal_runs::OctalRuns;
use crate::views::{self, KnightTable, RowTable};
use sg_core::knight_pattern::KnightPattern;
use std::borrow::Cow;
use std::ops::Range;

/// What a table file says about itself: its header and metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableInfo {
    /// The decoded header.
    pub header: Header,
    /// The decoded metadata.
    pub metadata: Metadata,
}

impl TableInfo {
    /// The table kind.
    pub fn kind(&self) -> TableKind {
        self.header.kind
    }
}

/// A validated table whose payload is borrowed from the bytes of a file.
/// Its header and metadata are decoded once, when validated; a table of an
/// [`OwnedTable`](crate::OwnedTable) or a [`MappedTable`](crate::MappedTable)
/// borrows theirs.
#[derive(Debug, Clone)]
pub struct Table<'a> {
    info: Cow<'a, TableInfo>,
    payload: &'a [u8],
}

/// What validating the bytes of a table file finds: the decoded header and
/// metadata, and where the payload lies in the bytes.
#[derive(Debug, Clone)]
pub(crate) struct Validated {
    pub(crate) info: TableInfo,
    pub(crate) payload: Range<usize>,
}

impl<'a> Table<'a> {
    /// Validates a whole table file held in `bytes`, which must start at a
    /// 64-byte aligned address: header, metadata, sizes, alignment and the
    /// payload checksum. Never panics, whatever the bytes.
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Self, TableError> {
        validate(bytes, Checksums::Both).map(|v| Self::owning(v, bytes))
    }

    /// Like [`from_bytes`](Self::from_bytes) but without the payload
    /// checksum, which reads every byte of the payload: for a large memory
    /// map that should not be paged in at once. This is not `unsafe`:
    /// every lookup is bounds-checked, so a corrupt payload gives wrong
    /// values, never undefined behaviour.
    pub fn from_bytes_unverified(bytes: &'a [u8]) -> Result<Self, TableError> {
        validate(bytes, Checksums::Metadata).map(|v| Self::owning(v, bytes))
    }

    /// Like [`from_bytes_unverified`](Self::from_bytes_unverified) but
    /// without the metadata checksum either: for the tables compiled into
    /// the binary, whose bytes cannot change and whose checksums the tests
    /// and `cargo xtask gen --check` verify. Computing even the small
    /// metadata checksum at run time costs a CPU-feature probe (crc32fast's
    /// first call), a measurable part of a short run.
    #[cfg(any(feature = "embedded", test))]
    pub(crate) fn from_compiled_in(bytes: &'a [u8]) -> Result<Self, TableError> {
        validate(bytes, Checksums::Neither).map(|v| Self::owning(v, bytes))
    }

    fn owning(validated: Validated, bytes: &'a [u8]) -> Self {
        Self {
            payload: &bytes[validated.payload],
            info: Cow::Owned(validated.info),
        }
    }

    /// The table of `bytes`, which [`validate`] found to be `validated`.
    pub(crate) fn borrowing(validated: &'a Validated, bytes: &'a [u8]) -> Self {
        Self {
            info: Cow::Borrowed(&validated.info),
            payload: &bytes[validated.payload.clone()],
        }
    }

    /// The header and metadata.
    pub fn info(&self) -> &TableInfo {
        &self.info
    }

    /// The kind of table.
    pub fn kind(&self) -> TableKind {
        self.info.header.kind
    }

    /// The payload, 64-byte aligned: one byte per entry for row and knight
    /// tables, the encoded description for a knight pattern.
    pub fn payload(&self) -> &'a [u8] {
        self.payload
    }

    /// The row-table view, if this is a row table.
    pub fn row(&self) -> Result<RowTable<'a>, TableError> {
        RowTable::new(&self.info.metadata.game, self.payload)
    }

    /// The knight-table view, if this is a knight table.
    pub fn knight(&self) -> Result<KnightTable<'a>, TableError> {
        KnightTable::new(&self.info.metadata.game, self.payload)
    }

    /// The certified description, if this is a knight-pattern table: decoded
    /// and certified anew (a fraction of a millisecond for the hyper knight).
    pub fn knight_pattern(&self) -> Result<KnightPattern, TableError> {
        views::knight_pattern(&self.info.metadata.game, self.payload)
    }

    /// The Grundy sequence, if this is an octal-sequence table (its values
    /// read in place).
    pub fn octal_sequence(&self) -> Result<OctalSequenceTable<'a>, TableError> {
        OctalSequenceTable::new(&self.info.metadata.game, self.payload)
    }

    /// The decoded quotient, if this is a misère-quotient table (its form
    /// checked; [`MisereQuotientTable::verify`] checks the
    /// rest).
    pub fn misere_quotient(&self) -> Result<MisereQuotientTable, TableError> {
        MisereQuotientTable::new(&self.info.metadata.game, self.payload)
    }

    /// The decoded records, if this is an octal-runs table.
    pub fn octal_runs(&self) -> Result<OctalRuns, TableError> {
        OctalRuns::new(&self.info.metadata.game, self.payload)
    }

    /// The decoded catalogue, if this is an octal-catalogue table.
    pub fn octal_catalogue(&self) -> Result<OctalCatalogue, TableError> {
        OctalCatalogue::new(&self.info.metadata.game, self.payload)
    }

    /// The Cram endgame table, if this is one: its records checked against
    /// each other (not its nimbers: see
    /// [`CramEndgameTable::verify_values`]), its bit arrays read in place.
    pub fn cram_endgame(&self) -> Result<CramEndgameTable<'a>, TableError> {
        CramEndgameTable::new(&self.info.metadata.game, self.payload)
    }
}

/// Which checksums [`validate`] compares with the header's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Checksums {
    /// The metadata's and the payload's.
    Both,
    /// The metadata's only (the payload's reads every byte of it).
    Metadata,
    /// None: bytes compiled in and verified by the tests.
    #[cfg(any(feature = "embedded", test))]
    Neither,
}

/// Validates a whole table file held in `bytes` (see [`Table::from_bytes`]):
/// every check but the checksums that `checksums` leaves out. The
/// header's numbers are untrusted: every sum is checked and every bound is
/// compared with the length of `bytes` before anything is sliced.
pub(crate) fn validate(bytes: &[u8], checksums: Checksums) -> Result<Validated, TableError> {
    let header = Header::parse(bytes)?;
    let len = bytes.len() as u64;
    let meta_end = HEADER_LEN as u64 + u64::from(header.metadata_len);
    if meta_end > len {
        return Err(TableError::Truncated {
            what: "metadata",
            needed: meta_end,
            len,
        });
    }
    let meta_bytes = &bytes[HEADER_LEN..meta_end as usize];
    let found = match checksums {
        #[cfg(any(feature = "embedded", test))]
        Checksums::Neither => header.metadata_crc,
        Checksums::Both | Checksums::Metadata => crc32fast::hash(meta_bytes),
    };
    if found != header.metadata_crc {
        return Err(TableError::MetadataChecksum {
            expected: header.metadata_crc,
            found,
        });
    }
    let (metadata, rest): (Metadata, _) =
        postcard::take_from_bytes(meta_bytes).map_err(|error| TableError::Metadata { error })?;
    if !rest.is_empty() {
        return Err(TableError::MetadataTrailing { extra: rest.len() });
    }
    if metadata.game.kind() != header.kind {
        return Err(TableError::KindMismatch {
            header: header.kind,
            metadata: metadata.game.kind(),
        });
    }
    let expected = metadata.game.entries()?;
    let offset = header.payload_offset;
    if !offset.is_multiple_of(PAYLOAD_ALIGN as u64) || offset < meta_end {
        return Err(TableError::PayloadOffset {
            offset,
            min: meta_end,
        });
    }
    if header.payload_len != expected {
        return Err(TableError::PayloadLength {
            expected,
            found: header.payload_len,
        });
    }
    let end = offset
        .checked_add(expected)
        .ok_or(TableError::PayloadEndOverflow {
            offset,
            len: expected,
        })?;
    if end > len {
        return Err(TableError::Truncated {
            what: "payload",
            needed: end,
            len,
        });
    }
    if end < len {
        return Err(TableError::TrailingBytes { extra: len - end });
    }
    let payload = &bytes[offset as usize..end as usize];
    let address = payload.as_ptr() as usize;
    if !address.is_multiple_of(PAYLOAD_ALIGN) {
        return Err(TableError::Misaligned { address });
    }
    if checksums == Checksums::Both {
        let found = crc32fast::hash(payload);
        if found != header.payload_crc {
            return Err(TableError::PayloadChecksum {
                expected: header.payload_crc,
                found,
            });
        }
    }
    Ok(Validated {
        info: TableInfo { header, metadata },
        payload: offset as usize..end as usize,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aligned::AlignedBytes;
    use crate::format::{self, Game, Metadata};

    /// A valid row table of width 4, its metadata checksum (header bytes
    /// 44..48) replaced by `metadata_crc` when given.
    fn row_file(metadata_crc: Option<u32>) -> AlignedBytes {
        let metadata = Metadata {
            game: Game::Row { width: 4 },
            generator: "test".into(),
        };
        let mut file = format::encode(&metadata, &[1; 16]).unwrap();
        if let Some(crc) = metadata_crc {
            file[44..48].copy_from_slice(&crc.to_le_bytes());
        }
        AlignedBytes::copy_from(&file)
    }

    #[test]
    fn compiled_in_tables_skip_only_the_checksums() {
        let good = row_file(None);
        let crc = u32::from_le_bytes(good[44..48].try_into().unwrap());
        let bad_crc = row_file(Some(!crc));
        assert!(matches!(
            Table::from_bytes_unverified(&bad_crc),
            Err(TableError::MetadataChecksum { .. })
        ));
        let table = Table::from_compiled_in(&bad_crc).unwrap();
        assert_eq!(table.row().unwrap().get(15), Some(1));
        // Every other check still runs: a header that does not parse.
        let mut bad_magic = bad_crc.as_slice().to_vec();
        bad_magic[0] ^= 0xff;
        assert!(Table::from_compiled_in(&AlignedBytes::copy_from(&bad_magic)).is_err());
        // Nor does a payload cut short.
        let cut = AlignedBytes::copy_from(&good[..good.len() - 1]);
        assert!(matches!(
            Table::from_compiled_in(&cut),
            Err(TableError::Truncated { .. })
        ));
    }
}
