//! The table kinds of take-and-break games (`sg_octal`):
//!
//! - [`OctalSequenceTable`]: a Grundy sequence `G(0), G(1), ...`, stored as
//!   `u16` little-endian and read in place as a `&[u16]` (the payload is
//!   64-byte aligned, see [`crate::aligned`]);
//! - [`OctalCatalogue`]: the catalogue of every game `0.d1d2d3` and
//!   `4.d1d2d3` (octal digits), one [`CatalogueEntry`] per game: its
//!   certified preperiod and period with the values that describe the whole
//!   sequence, or how far it was computed. [`encode_catalogue`] writes the
//!   records; the layout is in FORMAT.md.

use crate::error::TableError;
use crate::layout::{check_payload, encode_prefix_of_len, wrong_kind};
use crate::metadata::{Game, Metadata, TableKind};
use sg_octal::{Period, Rules, Sequence};
use std::borrow::Cow;

/// The number of games of the catalogue: `d0` in {0, 4}, then `d1 d2 d3`.
/// A catalogue file holds exactly this many records.
pub const CATALOGUE_GAMES: u32 = 1024;

/// The largest `limit` of a catalogue file (heaps `0..=limit` computed for
/// a game not certified sooner): checking a record computes its game up
/// to `limit`, so the limit bounds the memory (2 bytes a heap) and the
/// time that checking a file may cost.
pub const MAX_CATALOGUE_LIMIT: u64 = 1 << 20;

/// Bytes of a catalogue record before its values.
const RECORD_HEAD: usize = 48;

/// The rules of a table's code, or the typed error.
pub(crate) fn rules_of(code: &str) -> Result<Rules, TableError> {
    Rules::parse(code).map_err(|error| TableError::OctalCode {
        code: code.to_owned(),
        error,
    })
}

/// The payload length of an octal sequence of `count` values of the game
/// `code` (two bytes a value), after checking the code and the count.
pub(crate) fn sequence_len(code: &str, count: u64) -> Result<u64, TableError> {
    rules_of(code)?;
    count.checked_mul(2).ok_or(TableError::OctalCount { count })
}

/// The payload length of a catalogue (its metadata's `len`), after
/// checking its number of games and its limit.
pub(crate) fn catalogue_len(limit: u64, games: u32, len: u64) -> Result<u64, TableError> {
    if games != CATALOGUE_GAMES {
        return Err(TableError::CatalogueGames {
            games,
            expected: CATALOGUE_GAMES,
        });
    }
    if limit > MAX_CATALOGUE_LIMIT {
        return Err(TableError::CatalogueLimit {
            limit,
            max: MAX_CATALOGUE_LIMIT,
        });
    }
    Ok(len)
}

/// The digits `d0 d1 d2 d3` of the catalogue's game number `index`: `d0 = 0`
/// for the first 512, `4` for the others, then `d1 d2 d3` in increasing
/// order of the octal number they form.
pub fn catalogue_digits(index: u32) -> [u8; 4] {
    let i = index % 512;
    [
        if index < 512 { 0 } else { 4 },
        (i / 64) as u8,
        (i / 8 % 8) as u8,
        (i % 8) as u8,
    ]
}

/// The rules of the catalogue's game with digits `d` (trailing zero digits
/// dropped, as `Rules` does).
pub fn catalogue_rules(d: [u8; 4]) -> Rules {
    let code = format!("{}.{}{}{}", d[0], d[1], d[2], d[3]);
    Rules::parse(&code).expect("catalogue digits form a valid code")
}

/// The catalogue's game number of `rules`, if it has one: an octal code
/// with `d0` 0 or 4 and at most three digits after the point.
pub fn catalogue_index(rules: &Rules) -> Option<u32> {
    let digits = rules.digits()?;
    if digits.len() > 4 || digits.iter().any(|&d| d > 7) {
        return None;
    }
    let digit = |i: usize| u32::from(digits.get(i).copied().unwrap_or(0));
    Some(digit(0) / 4 * 512 + digit(1) * 64 + digit(2) * 8 + digit(3))
}

/// What a run of the engine found about one game: the summary that
/// `grundy octal` prints and the catalogue stores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogueEntry {
    /// The game.
    pub rules: Rules,
    /// How many values were computed: heaps `0..computed`.
    pub computed: u64,
    /// The largest value computed.
    pub max_value: u16,
    /// The sparse-space mask in use at the end of the run.
    pub rare_mask: u16,
    /// The number of rare heaps under that mask.
    pub rare_count: u64,
    /// The largest rare heap, if any.
    pub last_rare: Option<u64>,
    /// The certified period (smallest), if any; its `certified_with` is
    /// `computed`.
    pub period: Option<Period>,
    /// With a period: `G(0..preperiod + period)`, which describe the whole
    /// sequence; without: empty.
    pub values: Vec<u16>,
}

impl CatalogueEntry {
    /// The summary of the run `sequence`.
    pub fn from_sequence(sequence: &Sequence) -> Self {
        let period = sequence.period();
        let values = match period {
            Some(p) => sequence.values()[..p.len() as usize].to_vec(),
            None => Vec::new(),
        };
        Self {
            rules: sequence.rules().clone(),
            computed: sequence.values().len() as u64,
            max_value: sequence.max_value(),
            rare_mask: sequence.rare_mask(),
            rare_count: sequence.rare_count(),
            last_rare: sequence.last_rare(),
            period,
            values,
        }
    }

    /// `G(0..computed)`, through the period, if one is certified.
    pub fn all_values(&self) -> Option<Vec<u16>> {
        let p = self.period?;
        Some(
            (0..self.computed)
                .map(|h| p.value(&self.values, h))
                .collect(),
        )
    }
}

/// The records of a catalogue, in the order of [`catalogue_digits`].
///
/// # Panics
/// If an entry's game is not one of the catalogue.
pub fn encode_catalogue(entries: &[CatalogueEntry]) -> Vec<u8> {
    let mut out = Vec::new();
    for e in entries {
        let index = catalogue_index(&e.rules).expect("a game of the catalogue");
        out.extend_from_slice(&catalogue_digits(index));
        out.extend_from_slice(&e.computed.to_le_bytes());
        out.extend_from_slice(&e.max_value.to_le_bytes());
        out.extend_from_slice(&e.rare_mask.to_le_bytes());
        out.extend_from_slice(&e.rare_count.to_le_bytes());
        out.extend_from_slice(&e.last_rare.unwrap_or(u64::MAX).to_le_bytes());
        let (pre, per) = e.period.map_or((0, 0), |p| (p.preperiod, p.period));
        out.extend_from_slice(&pre.to_le_bytes());
        out.extend_from_slice(&per.to_le_bytes());
        for v in &e.values {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    out
}

/// The Grundy sequence of an octal-sequence table.
#[derive(Debug, Clone)]
pub struct OctalSequenceTable<'a> {
    rules: Rules,
    values: Cow<'a, [u16]>,
}

impl<'a> OctalSequenceTable<'a> {
    pub(crate) fn new(game: &Game, payload: &'a [u8]) -> Result<Self, TableError> {
        let Game::OctalSequence { code, count } = game else {
            return Err(wrong_kind(TableKind::OctalSequence, game));
        };
        check_payload(sequence_len(code, *count)?, payload)?;
        Ok(Self {
            rules: rules_of(code)?,
            values: u16_values(payload),
        })
    }

    /// The game.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// `G(0), G(1), ...` as stored.
    pub fn values(&self) -> &[u16] {
        &self.values
    }
}

/// Values converted to bytes at a time by [`write_octal_sequence`].
const WRITE_VALUES: usize = 1 << 15;

/// Writes the octal-sequence table of `values` (`G(0), G(1), ...` of the
/// game of canonical code `code`), made by `generator`, into `out`: the
/// same bytes as [`encode`](crate::format::encode) of its payload, but
/// without a copy of the values (a run of 2^30 values holds 2 GiB of
/// them): they are read twice, once for the payload's checksum, once to
/// write them, a piece at a time.
pub fn write_octal_sequence(
    out: &mut dyn std::io::Write,
    code: &str,
    generator: &str,
    values: &[u16],
) -> Result<(), OctalWriteError> {
    let count = values.len() as u64;
    let metadata = Metadata {
        game: Game::OctalSequence {
            code: code.to_owned(),
            count,
        },
        generator: generator.to_owned(),
    };
    let payload_len = sequence_len(code, count)?;
    let mut bytes = Vec::with_capacity(2 * WRITE_VALUES.min(values.len()));
    let mut pieces = |each: &mut dyn FnMut(&[u8]) -> std::io::Result<()>| {
        values.chunks(WRITE_VALUES).try_for_each(|piece| {
            bytes.clear();
            bytes.extend(piece.iter().flat_map(|v| v.to_le_bytes()));
            each(&bytes)
        })
    };
    let mut crc = crc32fast::Hasher::new();
    pieces(&mut |b| {
        crc.update(b);
        Ok(())
    })?;
    out.write_all(&encode_prefix_of_len(
        &metadata,
        payload_len,
        crc.finalize(),
    )?)?;
    pieces(&mut |b| out.write_all(b))?;
    Ok(())
}

/// Why [`write_octal_sequence`] failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OctalWriteError {
    /// The table cannot be encoded (metadata too long).
    #[error(transparent)]
    Table(#[from] TableError),
    /// Writing failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// The `u16` little-endian values of `payload` (of even length): borrowed
/// in place on a little-endian target when `payload` is 2-byte aligned (a
/// validated table's payload is 64-byte aligned), decoded otherwise.
fn u16_values(payload: &[u8]) -> Cow<'_, [u16]> {
    if cfg!(target_endian = "little") && payload.as_ptr().cast::<u16>().is_aligned() {
        // SAFETY: the pointer is aligned for u16 (checked above) and the
        // `payload.len() / 2` u16s lie inside `payload`, initialised bytes
        // borrowed for the returned lifetime; every bit pattern is a valid
        // u16, and on a little-endian target its bytes read as u16 are the
        // little-endian values the format stores.
        let values = unsafe {
            std::slice::from_raw_parts(payload.as_ptr().cast::<u16>(), payload.len() / 2)
        };
        return Cow::Borrowed(values);
    }
    Cow::Owned(
        payload
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect(),
    )
}

/// The decoded catalogue of an octal-catalogue table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OctalCatalogue {
    limit: u64,
    entries: Vec<CatalogueEntry>,
}

/// Reads the little-endian fields of a record, with bounds checked.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let end = self.at.checked_add(N)?;
        let field = self.bytes.get(self.at..end)?.try_into().ok()?;
        self.at = end;
        Some(field)
    }
    fn u16(&mut self) -> Option<u16> {
        self.take().map(u16::from_le_bytes)
    }
    fn u64(&mut self) -> Option<u64> {
        self.take().map(u64::from_le_bytes)
    }
}

impl OctalCatalogue {
    /// Decodes and checks the records `payload` of a catalogue described by
    /// `game` (as [`Table::octal_catalogue`](crate::Table::octal_catalogue)
    /// does for a file).
    pub fn new(game: &Game, payload: &[u8]) -> Result<Self, TableError> {
        let &Game::OctalCatalogue { limit, games, .. } = game else {
            return Err(wrong_kind(TableKind::OctalCatalogue, game));
        };
        let mut reader = Reader {
            bytes: payload,
            at: 0,
        };
        let mut entries = Vec::new();
        for index in 0..games {
            if reader.at == payload.len() {
                return Err(TableError::CatalogueCount {
                    expected: games,
                    found: index,
                });
            }
            entries.push(read_record(&mut reader, index, limit)?);
        }
        if reader.at != payload.len() {
            return Err(TableError::CatalogueCount {
                expected: games,
                found: games.saturating_add(1),
            });
        }
        Ok(Self { limit, entries })
    }

    /// The largest heap computed for a game with no certified period.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Every game, in the order of [`catalogue_digits`].
    pub fn entries(&self) -> &[CatalogueEntry] {
        &self.entries
    }

    /// The entry of `rules`, if the catalogue has the game.
    pub fn get(&self, rules: &Rules) -> Option<&CatalogueEntry> {
        self.entries.get(catalogue_index(rules)? as usize)
    }
}

/// Record `index` at the reader's position, checked against its place in
/// the catalogue and against `limit`.
fn read_record(r: &mut Reader<'_>, index: u32, limit: u64) -> Result<CatalogueEntry, TableError> {
    let offset = r.at as u64;
    let truncated = || TableError::CatalogueTruncated { index, offset };
    let head = (|| {
        Some((
            r.take::<4>()?,
            r.u64()?,
            r.u16()?,
            r.u16()?,
            r.u64()?,
            r.u64()?,
            r.u64()?,
            r.u64()?,
        ))
    })();
    let Some((digits, computed, max_value, rare_mask, rare_count, last_rare, pre, per)) = head
    else {
        return Err(truncated());
    };
    debug_assert_eq!(r.at as u64 - offset, RECORD_HEAD as u64);
    let expected = catalogue_digits(index);
    if digits != expected {
        return Err(TableError::CatalogueGame {
            index,
            expected,
            found: digits,
        });
    }
    let rules = catalogue_rules(digits);
    let described = pre.checked_add(per);
    let consistent = computed <= limit.saturating_add(1)
        && (per == 0 && pre == 0 || described.is_some_and(|d| d <= computed));
    if !consistent {
        return Err(TableError::CatalogueRecord {
            index,
            code: rules.to_string(),
            preperiod: pre,
            period: per,
            computed,
        });
    }
    let count = described.unwrap_or(0) as usize;
    let mut values = Vec::with_capacity(count.min(r.bytes.len() / 2));
    for _ in 0..count {
        values.push(r.u16().ok_or_else(truncated)?);
    }
    Ok(CatalogueEntry {
        rules,
        computed,
        max_value,
        rare_mask,
        rare_count,
        last_rare: (last_rare != u64::MAX).then_some(last_rare),
        period: (per > 0).then_some(Period {
            preperiod: pre,
            period: per,
            certified_with: computed,
        }),
        values,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AlignedBytes;
    use crate::format::{Metadata, encode};
    use crate::table::Table;

    fn entry(index: u32, limit: u64) -> CatalogueEntry {
        let mut s = Sequence::new(catalogue_rules(catalogue_digits(index)));
        s.extend_to(limit, &mut |_| {}).unwrap();
        CatalogueEntry::from_sequence(&s)
    }

    fn catalogue_game(limit: u64, payload: &[u8]) -> Game {
        Game::OctalCatalogue {
            limit,
            games: CATALOGUE_GAMES,
            len: payload.len() as u64,
        }
    }

    #[test]
    fn indices_and_digits_agree() {
        for index in 0..CATALOGUE_GAMES {
            let rules = catalogue_rules(catalogue_digits(index));
            assert_eq!(catalogue_index(&rules), Some(index), "{rules}");
        }
        for code in ["0.7777", "0.8", "grundys-game", "0.0001"] {
            assert_eq!(
                catalogue_index(&Rules::parse(code).unwrap()),
                None,
                "{code}"
            );
        }
    }

    #[test]
    fn sequence_tables_round_trip_in_place() {
        let mut s = Sequence::new(Rules::parse("0.77").unwrap());
        s.extend_to(50, &mut |_| {}).unwrap();
        let payload: Vec<u8> = s.values().iter().flat_map(|v| v.to_le_bytes()).collect();
        let game = Game::OctalSequence {
            code: "0.77".into(),
            count: s.values().len() as u64,
        };
        let meta = Metadata {
            game,
            generator: "test".into(),
        };
        let file = AlignedBytes::copy_from(&encode(&meta, &payload).unwrap());
        let table = Table::from_bytes(&file).unwrap();
        let seq = table.octal_sequence().unwrap();
        assert_eq!(seq.values(), s.values());
        assert!(matches!(seq.values, Cow::Borrowed(_)) || cfg!(target_endian = "big"));
        assert_eq!(seq.rules().to_string(), "0.77");
        assert!(matches!(
            table.octal_catalogue(),
            Err(TableError::WrongKind { .. })
        ));
        // Unaligned bytes are decoded, not borrowed.
        assert_eq!(
            &*u16_values(&payload[1..3]),
            &[u16::from_le_bytes([payload[1], payload[2]])]
        );
        let bad = Metadata {
            game: Game::OctalSequence {
                code: "0.9x".into(),
                count: 1,
            },
            generator: "test".into(),
        };
        assert!(matches!(
            encode(&bad, &[0, 0]),
            Err(TableError::OctalCode { .. })
        ));
    }

    /// The streamed writer gives the bytes of `encode`, for sequences
    /// shorter and longer than its pieces, and empty.
    #[test]
    fn streamed_sequences_equal_encoded_ones() {
        let mut s = Sequence::new(Rules::parse("0.6").unwrap());
        s.extend_to(3 * WRITE_VALUES as u64 + 17, &mut |_| {})
            .unwrap();
        for len in [0, 1, 100, WRITE_VALUES, s.values().len()] {
            let values = &s.values()[..len];
            let payload: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
            let meta = Metadata {
                game: Game::OctalSequence {
                    code: "0.6".into(),
                    count: len as u64,
                },
                generator: "test".into(),
            };
            let mut streamed = Vec::new();
            write_octal_sequence(&mut streamed, "0.6", "test", values).unwrap();
            assert_eq!(streamed, encode(&meta, &payload).unwrap(), "{len} values");
        }
        let mut out = Vec::new();
        assert!(matches!(
            write_octal_sequence(&mut out, "0.9x", "test", &[0]),
            Err(OctalWriteError::Table(TableError::OctalCode { .. }))
        ));
    }

    #[test]
    fn catalogue_round_trips_and_refuses_bad_records() {
        let limit = 60;
        let entries: Vec<_> = (0..CATALOGUE_GAMES).map(|i| entry(i, limit)).collect();
        assert!(entries.iter().any(|e| e.period.is_none()));
        let payload = encode_catalogue(&entries);
        let game = catalogue_game(limit, &payload);
        let catalogue = OctalCatalogue::new(&game, &payload).unwrap();
        assert_eq!(catalogue.entries(), &entries[..]);
        assert_eq!(catalogue.limit(), limit);
        let kayles = catalogue.get(&Rules::parse("0.77").unwrap()).unwrap();
        assert_eq!(kayles.rules.to_string(), "0.77");
        for e in &entries {
            if let Some(all) = e.all_values() {
                let mut s = Sequence::new(e.rules.clone());
                s.extend_to(e.computed - 1, &mut |_| {}).unwrap();
                assert_eq!(all, s.values());
            }
        }

        // Record 0 is `0.0`, solved at once: its digits, then its numbers.
        let mut wrong = payload.clone();
        wrong[1] = 1;
        assert!(matches!(
            OctalCatalogue::new(&game, &wrong),
            Err(TableError::CatalogueGame { index: 0, .. })
        ));
        let mut wrong = payload.clone();
        wrong[40..48].copy_from_slice(&1000u64.to_le_bytes());
        assert!(matches!(
            OctalCatalogue::new(&game, &wrong),
            Err(TableError::CatalogueRecord { index: 0, .. })
        ));
        let short = &payload[..payload.len() - 1];
        assert!(matches!(
            OctalCatalogue::new(&catalogue_game(limit, short), short),
            Err(TableError::CatalogueTruncated { index: 1023, .. })
        ));
        let mut long = payload.clone();
        long.push(0);
        assert!(matches!(
            OctalCatalogue::new(&catalogue_game(limit, &long), &long),
            Err(TableError::CatalogueCount { .. })
        ));
        let fewer = Game::OctalCatalogue {
            limit,
            games: CATALOGUE_GAMES + 1,
            len: payload.len() as u64,
        };
        assert!(matches!(
            OctalCatalogue::new(&fewer, &payload),
            Err(TableError::CatalogueCount {
                expected: 1025,
                found: 1024
            })
        ));
    }
}
