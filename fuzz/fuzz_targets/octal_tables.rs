//! The octal table kinds, built from the input with their checksums right
//! so that the fuzzer gets past them: kind 4 (an octal sequence: the
//! values of a game with the input's changes) and kind 5 (the compiled-in
//! catalogue with the input's bytes mixed into its records, its metadata's
//! limit and number of games from the input). Never a panic, and:
//!
//! - a sequence verifies if and only if its values are the game's (by the
//!   definition), and fails at the first changed heap with the game's
//!   value there; a run resumed from it extends without a panic;
//! - a catalogue whose records decode is verified record by record: a
//!   record changed by the input fails, one left as it was passes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sg_octal::{Rules, Sequence, grundy_by_definition};
use sg_tables::format::{Game, Header, Metadata, TableKind, encode};
use sg_tables::octal::CatalogueEntry;
use sg_tables::{AlignedBytes, Table, TableError};
use std::sync::OnceLock;

/// The games of the sequences, and how many values each file may hold.
const CODES: [&str; 12] = [
    "0.77",
    "0.6",
    "4.007",
    "0.3033",
    "0.f",
    "0.137",
    "grundys-game",
    "0.8",
    "0.52",
    "4.",
    "0.0",
    "0.106",
];
const MAX_LEN: usize = 300;

/// `G(0..MAX_LEN)` of each game, by the definition.
fn definitions() -> &'static [Vec<u16>] {
    static DEFINED: OnceLock<Vec<Vec<u16>>> = OnceLock::new();
    DEFINED.get_or_init(|| {
        CODES
            .iter()
            .map(|code| grundy_by_definition(&Rules::parse(code).unwrap(), MAX_LEN - 1).unwrap())
            .collect()
    })
}

fn u16_at(data: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([
        data.get(at).copied().unwrap_or(0),
        data.get(at + 1).copied().unwrap_or(0),
    ])
}

/// Kind 4: byte 0 the game, bytes 1-2 the length, then changes (heap,
/// XOR) of four bytes each.
fn sequence(data: &[u8]) {
    let game = usize::from(data.first().copied().unwrap_or(0)) % CODES.len();
    let rules = Rules::parse(CODES[game]).unwrap();
    let defined = &definitions()[game];
    let len = usize::from(u16_at(data, 1)) % (MAX_LEN + 1);
    let mut values = defined[..len].to_vec();
    for change in data.get(3..).unwrap_or(&[]).chunks_exact(4) {
        if len > 0 {
            let heap = usize::from(u16_at(change, 0)) % len;
            values[heap] ^= u16_at(change, 2);
        }
    }
    let metadata = Metadata {
        game: Game::OctalSequence {
            code: CODES[game].to_owned(),
            count: len as u64,
        },
        generator: "fuzz".to_owned(),
    };
    let payload: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let bytes = AlignedBytes::copy_from(&encode(&metadata, &payload).unwrap());
    let table = Table::from_bytes(&bytes).unwrap();
    let first_wrong = values.iter().zip(defined).position(|(a, b)| a != b);
    match (table.verify_values(), first_wrong) {
        (Ok(()), None) => {}
        (
            Err(TableError::OctalValue {
                heap,
                stored,
                expected,
                ..
            }),
            Some(h),
        ) => {
            assert_eq!(heap, h as u64);
            assert_eq!(stored, values[h]);
            assert_eq!(expected, u64::from(defined[h]));
        }
        (found, wrong) => panic!("{}: {found:?}, first wrong heap {wrong:?}", CODES[game]),
    }
    if let Ok(mut run) = Sequence::resume(rules, values) {
        let _ = run.extend_to(len as u64 + 40, &mut |_| {});
    }
    let mut out = Vec::new();
    let _ = sg_solve::tables::report("fuzz.sgt", &bytes, true, &mut out);
}

/// The compiled-in catalogue's records and decoded entries.
fn catalogue_records() -> &'static (Vec<u8>, Vec<CatalogueEntry>, u64) {
    static RECORDS: OnceLock<(Vec<u8>, Vec<CatalogueEntry>, u64)> = OnceLock::new();
    RECORDS.get_or_init(|| {
        let table = Table::from_bytes(sg_tables::embedded_octal_catalogue_bytes()).unwrap();
        let catalogue = table.octal_catalogue().unwrap();
        (
            table.payload().to_vec(),
            catalogue.entries().to_vec(),
            catalogue.limit(),
        )
    })
}

/// A file of any metadata bytes, checksums right.
fn raw_table(kind: TableKind, metadata: &[u8], payload: &[u8]) -> Vec<u8> {
    let offset = (64 + metadata.len()).div_ceil(64) * 64;
    let header = Header {
        version: 1,
        kind,
        metadata_len: metadata.len() as u32,
        payload_offset: offset as u64,
        payload_len: payload.len() as u64,
        payload_crc: crc32fast_hash(payload),
        metadata_crc: crc32fast_hash(metadata),
    };
    let mut file = header.to_bytes().to_vec();
    file.extend_from_slice(metadata);
    file.resize(offset, 0);
    file.extend_from_slice(payload);
    file
}

fn crc32fast_hash(bytes: &[u8]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(bytes);
    hasher.finalize()
}

fn varint(mut n: u64, out: &mut Vec<u8>) {
    while n >= 0x80 {
        out.push((n as u8 & 0x7f) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Kind 5: byte 0 picks the limit and the number of games, then changes
/// (offset into the records, XOR) of four bytes each.
fn catalogue(data: &[u8]) {
    let (records, entries, limit) = catalogue_records();
    let pick = data.first().copied().unwrap_or(0);
    let limits = [
        *limit,
        *limit,
        *limit,
        limit - 1,
        1 << 20,
        (1 << 20) + 1,
        0,
        u64::MAX,
    ];
    let file_limit = limits[usize::from(pick & 7)];
    let games: u64 = match pick >> 3 & 3 {
        0 | 1 => 1024,
        2 => 1,
        _ => u64::from(u16_at(data, 1)),
    };
    let mut payload = records.clone();
    for change in data.get(3..).unwrap_or(&[]).chunks_exact(4) {
        if payload.is_empty() {
            break;
        }
        let at = usize::from(u16_at(change, 0)) * 2 % payload.len();
        payload[at] ^= change[2];
        if change[3] & 1 == 1 {
            // Some changes shorten or lengthen the records.
            if change[3] & 2 == 0 {
                payload.truncate(at);
            } else {
                payload.extend_from_slice(&change[..3]);
            }
        }
    }
    let mut meta = Vec::new();
    for n in [4, file_limit, games, payload.len() as u64, 4] {
        varint(n, &mut meta);
    }
    meta.extend_from_slice(b"fuzz");
    let bytes = AlignedBytes::copy_from(&raw_table(TableKind::OctalCatalogue, &meta, &payload));
    let Ok(table) = Table::from_bytes(&bytes) else {
        return;
    };
    let _ = sg_solve::tables::describe("fuzz.sgt", &bytes);
    let Ok(decoded) = table.octal_catalogue() else {
        return;
    };
    // Only a file of a valid limit decodes; checking a record costs a run
    // to it: the records are checked at the catalogue's own limit only.
    if decoded.limit() != *limit {
        return;
    }
    // The records changed fail (the first few: a record not solved costs
    // a run to the limit).
    let changed = decoded
        .entries()
        .iter()
        .zip(entries)
        .filter(|(e, o)| e != o);
    for (entry, _) in changed.take(4) {
        assert!(entry.verify(decoded.limit()).is_err(), "{}", entry.rules);
    }
    // A solved record left as it was passes (one the input names).
    let index = usize::from(u16_at(data, 1)) % entries.len();
    let entry = &decoded.entries()[index];
    if *entry == entries[index] && entry.period.is_some() {
        assert!(entry.verify(decoded.limit()).is_ok(), "{}", entry.rules);
    }
}

fuzz_target!(|data: &[u8]| {
    match data.split_first() {
        Some((kind, rest)) if kind & 1 == 0 => sequence(rest),
        Some((_, rest)) => catalogue(rest),
        None => {}
    }
});
