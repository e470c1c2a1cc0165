//! Every way a table file can be wrong gives its own error, never a panic.

use proptest::prelude::*;
use sg_tables::format::TableKind;
use sg_tables::format::{self, Game, HEADER_LEN, Metadata};
use sg_tables::{AlignedBytes, Table, TableError};

fn row_metadata(width: u32) -> Metadata {
    Metadata {
        game: Game::Row { width },
        generator: "test".into(),
    }
}

/// A valid row table of width 6 (values: the popcount, any bytes will do).
fn row_file() -> Vec<u8> {
    let payload: Vec<u8> = (0u32..64).map(|m| m.count_ones() as u8).collect();
    format::encode(&row_metadata(6), &payload).unwrap()
}

fn knight_file() -> Vec<u8> {
    let metadata = Metadata {
        game: Game::Knight {
            size: 5,
            moves: sg_core::knight::HYPER_KNIGHT.to_vec(),
        },
        generator: "test".into(),
    };
    format::encode(&metadata, &[3; 25]).unwrap()
}

fn parse(bytes: &[u8]) -> Result<TableKind, TableError> {
    Table::from_bytes(&AlignedBytes::copy_from(bytes)).map(|t| t.kind())
}

fn set_u32(bytes: &mut [u8], at: usize, value: u32) {
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

fn set_u64(bytes: &mut [u8], at: usize, value: u64) {
    bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());
}

#[test]
fn valid_files_round_trip() {
    let bytes = AlignedBytes::copy_from(&row_file());
    let table = Table::from_bytes(&bytes).unwrap();
    assert_eq!(table.info().metadata, row_metadata(6));
    let row = table.row().unwrap();
    assert_eq!(row.width(), 6);
    assert_eq!(row.get(0b101101), Some(4));
    assert_eq!(row.get(64), None);
    assert_eq!(row.get(u64::MAX), None);
    assert_eq!(table.payload().as_ptr() as usize % 64, 0);

    let bytes = AlignedBytes::copy_from(&knight_file());
    let knight = Table::from_bytes(&bytes).unwrap().knight().unwrap();
    assert_eq!(knight.size(), 5);
    assert_eq!(knight.get(4, 4), Some(3));
    assert_eq!(knight.get(5, 0), None);
    assert_eq!(knight.get(0, u64::MAX), None);
    assert_eq!(knight.moves(), &sg_core::knight::MoveSet::hyper_knight());
}

#[test]
fn truncated() {
    let file = row_file();
    for len in 0..file.len() {
        match parse(&file[..len]) {
            Err(TableError::Truncated { what, needed, .. }) => {
                let part = if len < HEADER_LEN {
                    "header"
                } else {
                    "payload"
                };
                assert!(what == part || what == "metadata", "{what} at {len}");
                assert!(needed > len as u64);
            }
            other => panic!("length {len}: {other:?}"),
        }
    }
    let err = parse(&file[..100]).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "table truncated: payload needs {} bytes, the file has 100",
            file.len()
        )
    );
}

#[test]
fn flipped_payload_byte() {
    let mut file = row_file();
    let last = file.len() - 1;
    file[last] ^= 1;
    assert!(matches!(
        parse(&file),
        Err(TableError::PayloadChecksum { .. })
    ));
    // Without the checksum the table loads (bounds-checked, so harmless).
    let bytes = AlignedBytes::copy_from(&file);
    assert!(Table::from_bytes_unverified(&bytes).is_ok());
}

#[test]
fn wrong_magic() {
    let mut file = row_file();
    file[..8].copy_from_slice(b"PK\x03\x04\0\0\0\0");
    let err = parse(&file).unwrap_err();
    assert!(matches!(err, TableError::BadMagic { .. }));
    assert!(err.to_string().contains("not a grundy table"));
}

#[test]
fn wrong_endianness() {
    let mut file = row_file();
    file[8..12].reverse();
    assert!(matches!(
        parse(&file),
        Err(TableError::BadEndianness { found: 0x0403_0201 })
    ));
}

#[test]
fn newer_version() {
    let mut file = row_file();
    set_u32(&mut file, 12, 2);
    let err = parse(&file).unwrap_err();
    assert!(matches!(
        err,
        TableError::UnsupportedVersion {
            found: 2,
            supported: 1
        }
    ));
    assert!(err.to_string().contains("version 2 is not supported"));
}

#[test]
fn wrong_kind() {
    let mut file = row_file();
    set_u32(&mut file, 16, 99);
    assert!(matches!(parse(&file), Err(TableError::UnknownKind(99))));

    let mut file = row_file();
    set_u32(&mut file, 16, TableKind::Knight.code());
    assert!(matches!(
        parse(&file),
        Err(TableError::KindMismatch {
            header: TableKind::Knight,
            metadata: TableKind::Row
        })
    ));

    let bytes = AlignedBytes::copy_from(&row_file());
    let table = Table::from_bytes(&bytes).unwrap();
    let err = table.knight().unwrap_err();
    assert_eq!(
        err.to_string(),
        "expected a knight table, found a row table"
    );
    let bytes = AlignedBytes::copy_from(&knight_file());
    let table = Table::from_bytes(&bytes).unwrap();
    assert!(matches!(table.row(), Err(TableError::WrongKind { .. })));
}

#[test]
fn lying_payload_length() {
    for lie in [0, 63, 65, 1 << 40, u64::MAX] {
        let mut file = row_file();
        set_u64(&mut file, 32, lie);
        assert!(
            matches!(
                parse(&file),
                Err(TableError::PayloadLength {
                    expected: 64,
                    found
                }) if found == lie
            ),
            "{lie}"
        );
    }
    // A payload offset past the end, or one that does not add up.
    let mut file = row_file();
    set_u64(&mut file, 24, u64::MAX - 63);
    assert!(matches!(
        parse(&file),
        Err(TableError::PayloadEndOverflow {
            offset,
            len: 64
        }) if offset == u64::MAX - 63
    ));
    let mut file = row_file();
    set_u64(&mut file, 24, 1 << 20);
    assert!(matches!(parse(&file), Err(TableError::Truncated { .. })));
}

#[test]
fn bad_payload_offset() {
    for offset in [0, 65, 8] {
        let mut file = row_file();
        set_u64(&mut file, 24, offset);
        assert!(
            matches!(parse(&file), Err(TableError::PayloadOffset { .. })),
            "{offset}"
        );
    }
}

#[test]
fn trailing_bytes() {
    let mut file = row_file();
    file.push(0);
    assert!(matches!(
        parse(&file),
        Err(TableError::TrailingBytes { extra: 1 })
    ));
}

#[test]
fn misaligned() {
    let file = row_file();
    let mut buffer = AlignedBytes::zeroed(file.len() + 1);
    buffer.as_mut_slice()[1..].copy_from_slice(&file);
    let err = Table::from_bytes(&buffer[1..]).unwrap_err();
    assert!(matches!(err, TableError::Misaligned { .. }));
    assert!(err.to_string().contains("not a multiple of 64"));
}

#[test]
fn corrupt_metadata() {
    let mut file = row_file();
    file[HEADER_LEN] ^= 0xff;
    assert!(matches!(
        parse(&file),
        Err(TableError::MetadataChecksum { .. })
    ));

    // Garbage with a matching checksum: the decoder refuses it.
    let mut file = row_file();
    let len = u32::from_le_bytes(file[20..24].try_into().unwrap()) as usize;
    file[HEADER_LEN..HEADER_LEN + len].fill(0xff);
    let crc = crc32fast::hash(&file[HEADER_LEN..HEADER_LEN + len]);
    set_u32(&mut file, 44, crc);
    assert!(matches!(parse(&file), Err(TableError::Metadata { .. })));

    // A metadata length past the end of the file.
    let mut file = row_file();
    set_u32(&mut file, 20, u32::MAX);
    assert!(matches!(
        parse(&file),
        Err(TableError::Truncated {
            what: "metadata",
            ..
        })
    ));
}

#[test]
fn bad_parameters() {
    let too_wide = Metadata {
        game: Game::Row { width: 64 },
        generator: "test".into(),
    };
    assert!(matches!(
        format::encode(&too_wide, &[]),
        Err(TableError::RowWidth { width: 64, max: 63 })
    ));
    let endless = Metadata {
        game: Game::Knight {
            size: 2,
            moves: vec![(1, 0)],
        },
        generator: "test".into(),
    };
    assert!(matches!(
        format::encode(&endless, &[0; 4]),
        Err(TableError::KnightMoves { .. })
    ));
    assert!(matches!(
        format::encode(&row_metadata(3), &[0; 7]),
        Err(TableError::PayloadLength {
            expected: 8,
            found: 7
        })
    ));
}

#[test]
fn reserved_bytes() {
    let mut file = row_file();
    file[60] = 1;
    assert!(matches!(parse(&file), Err(TableError::ReservedNotZero)));
}

proptest! {
    #[test]
    fn any_corruption_is_an_error_or_harmless(
        edits in proptest::collection::vec((0usize..200, any::<u8>()), 1..4),
        cut in 0usize..300,
    ) {
        for file in [row_file(), knight_file()] {
            let mut bytes = file.clone();
            for &(at, value) in &edits {
                if let Some(b) = bytes.get_mut(at) {
                    *b = value;
                }
            }
            bytes.truncate(cut.max(1));
            // Must return, never panic; when it is accepted, lookups work.
            if let Ok(table) = Table::from_bytes(&AlignedBytes::copy_from(&bytes)) {
                if let Ok(row) = table.row() {
                    let _ = row.get(3);
                }
                if let Ok(knight) = table.knight() {
                    let _ = knight.get(1, 1);
                }
            }
        }
    }
}
