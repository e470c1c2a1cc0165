//! The Cram endgame table: its nimbers are those of the rules, a file
//! with any single wrong value fails verification, a corrupt file is a
//! typed error (never a panic), and the solver gives the same answers with
//! and without it.

use proptest::prelude::*;
use sg_search::games::cram::{Cram, CramEndgame};
use sg_search::{Game, Options, Solver};
use sg_tables::cram::{CramEndgameTable, FINGERPRINT_BITS, NIMBER_BITS};
use sg_tables::format::{
    self, FORMAT_VERSION, Game as TableGame, HEADER_LEN, Header, Metadata, TableKind,
};
use sg_tables::polyomino::{FREE_POLYOMINOES, free_polyominoes};
use sg_tables::{AlignedBytes, Table, TableError};
use std::sync::{Arc, LazyLock};

/// The tables of small sizes, from the rules, once.
static SMALL: LazyLock<Vec<CramEndgameTable<'static>>> = LazyLock::new(|| {
    (1..=10)
        .map(|k| CramEndgameTable::by_definition(k).unwrap())
        .collect()
});

fn small(max_cells: u32) -> &'static CramEndgameTable<'static> {
    &SMALL[max_cells as usize - 1]
}

/// The file of a table.
fn file(table: &CramEndgameTable<'_>) -> AlignedBytes {
    file_of(&table.game(), &table.to_payload())
}

fn file_of(game: &TableGame, payload: &[u8]) -> AlignedBytes {
    let metadata = Metadata {
        game: game.clone(),
        generator: "test".into(),
    };
    AlignedBytes::copy_from(&format::encode(&metadata, payload).unwrap())
}

/// The table of a file, through every check but the values'.
fn load(bytes: &[u8]) -> Result<CramEndgameTable<'_>, TableError> {
    Table::from_bytes(bytes)?.cram_endgame()
}

#[test]
fn a_table_round_trips_through_its_file() {
    let table = small(9);
    let bytes = file(table);
    let read = load(&bytes).unwrap();
    assert_eq!(read.max_cells(), 9);
    assert_eq!(read.len(), FREE_POLYOMINOES[..9].iter().sum::<u64>());
    for (n, keys) in free_polyominoes(9).iter().enumerate() {
        assert_eq!(read.count(n as u32 + 1), Some(keys.len() as u64));
        for &key in keys {
            assert_eq!(read.get(key), table.get(key));
            assert!(read.get(key).is_some());
        }
    }
    assert_eq!(read.count(10), None);
    assert_eq!(read.count(0), None);
    read.verify_values().unwrap();
    // Beyond the table's size, or no cell: not found.
    assert_eq!(read.get(0), None);
    assert_eq!(read.get(0x3ff), None);
}

/// A table built with one polyomino's nimber wrong, every polyomino of at
/// most 7 cells and every wrong value in turn: verification fails, naming
/// that polyomino (those of its size do not depend on it, and the smaller
/// ones are right).
#[test]
fn any_single_wrong_nimber_fails_verification() {
    let found = free_polyominoes(7);
    let right = small(7);
    for (size, keys) in found.iter().enumerate() {
        for &forged in keys {
            let nimber = right.get(forged).unwrap();
            for wrong in (0..16u8).filter(|&w| w != nimber) {
                let mut table = CramEndgameTable::builder();
                for keys in &found {
                    let nimbers: Vec<u8> = keys
                        .iter()
                        .map(|&k| {
                            if k == forged {
                                wrong
                            } else {
                                right.get(k).unwrap()
                            }
                        })
                        .collect();
                    table.push_size(keys, &nimbers).unwrap();
                }
                assert_eq!(table.get(forged), Some(wrong));
                let err = table.verify_values().unwrap_err();
                assert!(
                    matches!(err, TableError::CramValue { key, stored, expected }
                        if key == forged && stored == wrong && expected == nimber),
                    "{} cells, {forged:#x}: {err:?}",
                    size + 1
                );
            }
        }
    }
}

/// Any single slot of a file changed (checksums right), in its nimber's
/// bits or in one of its fingerprint's: verification fails exactly when
/// the table's answer for some polyomino changed (a slot no polyomino uses
/// changes nothing), on a wrong nimber for a nimber's bits and on a
/// polyomino not held (its fingerprint no longer matches) for a
/// fingerprint's bit.
#[test]
fn any_changed_slot_that_changes_an_answer_fails_verification() {
    let table = small(8);
    let all = free_polyominoes(8);
    let bytes = file(table);
    let good = Table::from_bytes(&bytes).unwrap();
    let game = good.info().metadata.game.clone();
    let payload = good.payload();
    let slots_at = 16 * 8;
    let slots = (payload.len() - slots_at) / 2;
    let mut failed = [0; 2];
    for slot in 0..slots {
        // The nimber's bits, and one fingerprint bit (each in turn).
        let fingerprint_bit = 1u16 << (NIMBER_BITS + slot as u32 % FINGERPRINT_BITS);
        for (flip, fingerprint) in [(0x5u16, false), (fingerprint_bit, true)] {
            let mut forged = payload.to_vec();
            let at = slots_at + 2 * slot;
            let value = u16::from_le_bytes([forged[at], forged[at + 1]]) ^ flip;
            forged[at..at + 2].copy_from_slice(&value.to_le_bytes());
            let bytes = file_of(&game, &forged);
            let read = load(&bytes).unwrap();
            let changed = all.iter().flatten().any(|&k| read.get(k) != table.get(k));
            let verified = read.verify_values();
            assert_eq!(
                verified.is_err(),
                changed,
                "slot {slot}, flip {flip:#x}: {verified:?}"
            );
            if let Err(err) = verified {
                if fingerprint {
                    assert!(matches!(err, TableError::CramMissing { .. }), "{err:?}");
                } else {
                    assert!(matches!(err, TableError::CramValue { .. }), "{err:?}");
                }
                failed[usize::from(fingerprint)] += 1;
            }
        }
    }
    // Three slots per polyomino, 1.23 slots per polyomino: most slots are
    // used.
    assert!(
        failed.iter().all(|&f| f * 2 > slots),
        "{failed:?} of {slots}"
    );
}

#[test]
fn corrupt_records_are_typed_errors() {
    let table = small(6);
    let bytes = file(table);
    let good = Table::from_bytes(&bytes).unwrap();
    let game = good.info().metadata.game.clone();
    let payload = good.payload().to_vec();
    let TableGame::CramEndgame {
        max_cells,
        polyominoes,
        slots,
        nimber_bits,
        fingerprint_bits,
    } = game
    else {
        panic!("a Cram endgame table");
    };
    let with = |edit: &dyn Fn(&mut Vec<u8>)| {
        let mut forged = payload.clone();
        edit(&mut forged);
        let bytes = file_of(&game, &forged);
        load(&bytes).map(|t| t.verify_values())
    };
    // Size 3 counted once more, size 4 once less: the sums agree, the
    // counts do not.
    let err = with(&|p| {
        p[32] += 1;
        p[48] -= 1;
    });
    assert!(
        matches!(
            err,
            Ok(Err(TableError::CramCount {
                cells: 3,
                stored: 3,
                listed: 2
            }))
        ),
        "{err:?}"
    );
    // More polyominoes than the metadata says.
    let err = with(&|p| p[0] += 1);
    assert!(
        matches!(
            err,
            Err(TableError::CramTotals {
                what: "polyominoes",
                ..
            })
        ),
        "{err:?}"
    );
    // A third of no slot.
    let err = with(&|p| p[28..32].fill(0));
    assert!(
        matches!(err, Err(TableError::CramSizeRecord { cells: 2, third: 0 })),
        "{err:?}"
    );
    // More slots than the metadata says.
    let err = with(&|p| p[12] += 1);
    assert!(
        matches!(err, Err(TableError::CramTotals { what: "slots", .. })),
        "{err:?}"
    );
    // Another seed: the records agree, but the polyominoes of 6 cells
    // are not held (their fingerprints do not match).
    let err = with(&|p| p[16 * 5 + 8] += 1);
    assert!(
        matches!(err, Ok(Err(TableError::CramMissing { key })) if key.count_ones() == 6),
        "{err:?}"
    );
    // Metadata that does not match the payload or cannot be: refused
    // before any record is read, or by the records' totals.
    for (forged, check) in [
        (
            TableGame::CramEndgame {
                max_cells,
                polyominoes: polyominoes + 2,
                slots,
                nimber_bits,
                fingerprint_bits,
            },
            (|e: &TableError| {
                matches!(
                    e,
                    TableError::CramTotals {
                        what: "polyominoes",
                        ..
                    }
                )
            }) as fn(&TableError) -> bool,
        ),
        (
            TableGame::CramEndgame {
                max_cells: 17,
                polyominoes,
                slots,
                nimber_bits,
                fingerprint_bits,
            },
            |e| {
                matches!(
                    e,
                    TableError::CramMaxCells {
                        max_cells: 17,
                        max: 16
                    }
                )
            },
        ),
        (
            TableGame::CramEndgame {
                max_cells,
                polyominoes,
                slots: 1 << 32,
                nimber_bits,
                fingerprint_bits,
            },
            |e| matches!(e, TableError::CramCounts { .. }),
        ),
        (
            TableGame::CramEndgame {
                max_cells,
                polyominoes,
                slots: slots + 1,
                nimber_bits,
                fingerprint_bits,
            },
            |e| matches!(e, TableError::PayloadLength { .. }),
        ),
        (
            TableGame::CramEndgame {
                max_cells,
                polyominoes: 1 << 32,
                slots,
                nimber_bits,
                fingerprint_bits,
            },
            |e| matches!(e, TableError::CramCounts { .. }),
        ),
        // Slots of other widths: 4-bit nimbers without fingerprints (the
        // retired layout's), fingerprints of 4 bits, nimbers of 8.
        (
            TableGame::CramEndgame {
                max_cells,
                polyominoes,
                slots,
                nimber_bits,
                fingerprint_bits: 0,
            },
            |e| {
                matches!(
                    e,
                    TableError::CramSlotBits {
                        nimber_bits: 4,
                        fingerprint_bits: 0,
                        ..
                    }
                )
            },
        ),
        (
            TableGame::CramEndgame {
                max_cells,
                polyominoes,
                slots,
                nimber_bits,
                fingerprint_bits: 4,
            },
            |e| matches!(e, TableError::CramSlotBits { .. }),
        ),
        (
            TableGame::CramEndgame {
                max_cells,
                polyominoes,
                slots,
                nimber_bits: 8,
                fingerprint_bits: 8,
            },
            |e| matches!(e, TableError::CramSlotBits { .. }),
        ),
    ] {
        let bytes = raw_file(&forged, &payload);
        let err = Table::from_bytes(&bytes).and_then(|t| t.cram_endgame().map(drop));
        assert!(err.as_ref().is_err_and(check), "{forged:?}: {err:?}");
    }
}

/// A file of `game` and `payload` written byte by byte, whether they agree
/// or not (`format::encode` refuses what does not).
fn raw_file(game: &TableGame, payload: &[u8]) -> AlignedBytes {
    let meta = postcard::to_allocvec(&Metadata {
        game: game.clone(),
        generator: "test".into(),
    })
    .unwrap();
    let offset = (HEADER_LEN + meta.len()).next_multiple_of(64);
    let header = Header {
        version: FORMAT_VERSION,
        kind: TableKind::CramEndgame,
        metadata_len: meta.len() as u32,
        payload_offset: offset as u64,
        payload_len: payload.len() as u64,
        payload_crc: crc32fast::hash(payload),
        metadata_crc: crc32fast::hash(&meta),
    };
    let mut bytes = header.to_bytes().to_vec();
    bytes.extend_from_slice(&meta);
    bytes.resize(offset, 0);
    bytes.extend_from_slice(payload);
    AlignedBytes::copy_from(&bytes)
}

/// The bytes of a file of header kind `kind`, metadata `meta` (encoded)
/// and `payload`, checksums right.
fn file_of_parts(kind: u32, meta: &[u8], payload: &[u8]) -> AlignedBytes {
    let offset = (HEADER_LEN + meta.len()).next_multiple_of(64);
    let header = Header {
        version: FORMAT_VERSION,
        kind: TableKind::Row,
        metadata_len: meta.len() as u32,
        payload_offset: offset as u64,
        payload_len: payload.len() as u64,
        payload_crc: crc32fast::hash(payload),
        metadata_crc: crc32fast::hash(meta),
    };
    let mut bytes = header.to_bytes().to_vec();
    bytes[16..20].copy_from_slice(&kind.to_le_bytes());
    bytes.extend_from_slice(meta);
    bytes.resize(offset, 0);
    bytes.extend_from_slice(payload);
    AlignedBytes::copy_from(&bytes)
}

/// A table of the retired layout (kind 6: its metadata the variant 5 of
/// three numbers, 4-bit slots) is refused with an error that says so and
/// how to regenerate it, as a file and through its header alone; its
/// metadata under the header of today's kind is refused too, never read
/// as today's.
#[test]
fn a_table_of_the_retired_layout_is_refused() {
    // K = 2: two polyominoes, 2 x 16 bytes of records and 2 x 12 slots
    // of 4 bits; the metadata in postcard: variant 5, then K,
    // polyominoes, slots (varints) and the generator.
    let mut meta = vec![5, 2, 2, 24, 11];
    meta.extend_from_slice(b"xtask 0.1.0");
    let payload = vec![0u8; 2 * 16 + 12];
    let old = file_of_parts(format::RETIRED_CRAM_ENDGAME, &meta, &payload);
    let err = Table::from_bytes(&old).unwrap_err();
    assert!(matches!(err, TableError::RetiredCramEndgame), "{err:?}");
    let text = err.to_string();
    assert!(
        text.contains("retired layout (table kind 6") && text.contains("cargo xtask gen"),
        "{text}"
    );
    let err = format::Header::parse(&old).unwrap_err();
    assert!(matches!(err, TableError::RetiredCramEndgame), "{err:?}");
    // The same metadata and payload under kind 7.
    let forged = file_of_parts(TableKind::CramEndgame.code(), &meta, &payload);
    assert!(load(&forged).is_err());
    assert_eq!(TableKind::CramEndgame.code(), 7);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Whatever bytes the payload holds (checksum right), loading gives a
    /// table or a typed error, and a loaded table answers any key.
    #[test]
    fn random_corruption_never_panics(at in 0usize..10_000, value in any::<u8>(), keys in proptest::collection::vec(any::<u128>(), 8)) {
        let table = small(6);
        let game = table.game();
        let mut payload = table.to_payload();
        let at = at % payload.len();
        payload[at] = value;
        let bytes = file_of(&game, &payload);
        if let Ok(read) = load(&bytes) {
            for key in keys {
                let _ = read.get(key);
                let _ = read.get(key & 0xffff_ffff);
            }
            let _ = read.verify_values();
        }
    }

    /// The solver's answers with the database equal those without, on
    /// random boards with blocked cells, with the committed table (14
    /// cells) and with one of 6 cells (components larger than the table
    /// searched as before).
    #[test]
    fn the_solver_agrees_with_and_without_the_table(rows in 1u32..=5, cols in 1u32..=5, blocked in any::<u32>()) {
        let blocked: Vec<(u32, u32)> = (0..rows * cols)
            .filter(|i| blocked >> (i % 32) & 1 == 1 && i % 3 == 0)
            .map(|i| (i / cols, i % cols))
            .collect();
        let plain = Cram::<u64>::with_blocked(rows, cols, &blocked).unwrap();
        let options = Options { memory: 16 << 20, threads: 1 };
        let expected = Solver::with_options(&plain, options).nimber(&plain.start()).unwrap();
        for table in [Arc::new(sg_tables::embedded_cram_endgame()) as Arc<dyn CramEndgame>, Arc::new(small(6))] {
            let cram = plain.clone().with_endgame(table);
            prop_assert_eq!(Solver::with_options(&cram, options).nimber(&cram.start()).unwrap(), expected);
            let wide = Cram::<u128>::with_blocked(rows, cols, &blocked).unwrap().with_endgame(cram.endgame().unwrap().clone());
            prop_assert_eq!(Solver::with_options(&wide, options).nimber(&wide.start()).unwrap(), expected);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// The same on long boards (lanes of 16 bits: the board translates
    /// its canonical forms to the table's keys).
    #[test]
    fn the_solver_agrees_on_long_boards(rows in 1u32..=3, cols in 9u32..=11, blocked in any::<u64>()) {
        let blocked: Vec<(u32, u32)> = (0..rows * cols)
            .filter(|i| blocked >> (i % 64) & 1 == 1 && i % 3 == 0)
            .map(|i| (i / cols, i % cols))
            .collect();
        let plain = Cram::<u64>::with_blocked(rows, cols, &blocked).unwrap();
        let options = Options { memory: 16 << 20, threads: 1 };
        let expected = Solver::with_options(&plain, options).nimber(&plain.start()).unwrap();
        let cram = plain.clone().with_endgame(Arc::new(sg_tables::embedded_cram_endgame()));
        prop_assert_eq!(Solver::with_options(&cram, options).nimber(&cram.start()).unwrap(), expected);
        // Transposed, in lanes of 16 bits too.
        let turned: Vec<(u32, u32)> = blocked.iter().map(|&(r, c)| (c, r)).collect();
        let tall = Cram::<u128>::with_blocked(cols, rows, &turned).unwrap().with_endgame(Arc::new(small(6)));
        prop_assert_eq!(Solver::with_options(&tall, options).nimber(&tall.start()).unwrap(), expected);
    }
}

#[test]
fn the_board_asks_only_about_components() {
    let table = sg_tables::embedded_cram_endgame();
    let cram = Cram::<u64>::new(8, 8)
        .unwrap()
        .with_endgame(Arc::new(table));
    // A domino and an L tromino apart: not a component, so not looked up
    // (the hash would answer anything).
    let two = cram.position(&[(0, 0), (0, 1), (2, 0), (3, 0), (3, 1)]);
    assert_eq!(cram.known_nimber(&two), None);
    // The L tetromino's nimber (2: its options are a domino, 1, or two
    // single cells, 0) comes from the table.
    let l = cram.position(&[(0, 0), (1, 0), (2, 0), (2, 1)]);
    assert_eq!(cram.known_nimber(&l), Some(2));
    let plain = Cram::<u64>::new(8, 8).unwrap();
    assert_eq!(plain.known_nimber(&l), None);
    // Larger than 14 cells: not looked up.
    let row_and_more: Vec<(u32, u32)> = (0..8).flat_map(|c| [(0, c), (1, c)]).collect();
    assert_eq!(row_and_more.len(), 16);
    let p = cram.position(&row_and_more[..15]);
    assert_eq!(cram.known_nimber(&p), None);
}
