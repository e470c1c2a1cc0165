//! The table kind of a sweep's results ([`OctalRuns`]): any number of
//! take-and-break games, each with what its run found, as a catalogue
//! record ([`CatalogueEntry`]) of any code the parser accepts (octal or
//! hexadecimal digits, any length), sorted by code. A certified game keeps
//! `G(0..preperiod + period)`, which describe the whole sequence; one not
//! certified keeps every value computed. `grundy sweep merge` writes it
//! from a sweep's runs; `grundy octal --tables DIR` answers from it.
//!
//! Record layout, little-endian, one after the other: the code's length
//! (`u16`) and its bytes (ASCII, the canonical form of
//! [`sg_octal::Rules`]); values computed (`u64`); largest value,
//! rare mask (`u16` each); rare count, last rare heap (`u64::MAX`: none),
//! preperiod, period (`0`: none certified), values stored (`u64` each);
//! the values (`u16` each).
//!
//! Reading checks the form of every record: the codes canonical and in
//! strictly increasing order, the numbers consistent (the values stored
//! are `preperiod + period` with a period, every value computed without);
//! [`verify_run`] checks the values themselves.

use crate::error::TableError;
use crate::layout::wrong_kind;
use crate::metadata::{Game, TableKind};
use crate::octal::{CatalogueEntry, rules_of};
use sg_octal::{OctalError, Period, Rules, Sequence, check_values};
use std::ops::ControlFlow;

/// The decoded records of an octal-runs table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OctalRuns {
    entries: Vec<CatalogueEntry>,
}

impl OctalRuns {
    /// Decodes and checks the records `payload` of a table described by
    /// `game` (as [`Table::octal_runs`](crate::Table::octal_runs) does for
    /// a file).
    pub fn new(game: &Game, payload: &[u8]) -> Result<Self, TableError> {
        let &Game::OctalRuns { games, .. } = game else {
            return Err(wrong_kind(TableKind::OctalRuns, game));
        };
        let mut at = 0;
        let mut entries: Vec<CatalogueEntry> = Vec::new();
        for index in 0..games {
            let entry = read_record(payload, &mut at, index)?;
            if let Some(before) = entries.last()
                && before.rules.to_string() >= entry.rules.to_string()
            {
                return Err(TableError::RunsRecord {
                    index,
                    why: "out of order (the codes must increase)".to_owned(),
                });
            }
            entries.push(entry);
        }
        if at != payload.len() {
            return Err(TableError::RunsRecord {
                index: games,
                why: format!(
                    "absent, but {} bytes follow the {games} records the metadata announces",
                    payload.len() - at
                ),
            });
        }
        Ok(OctalRuns { entries })
    }

    /// Every game, in the order of their codes.
    pub fn entries(&self) -> &[CatalogueEntry] {
        &self.entries
    }

    /// The record of `rules`, if the table has the game.
    pub fn get(&self, rules: &Rules) -> Option<&CatalogueEntry> {
        let code = rules.to_string();
        self.entries
            .binary_search_by(|e| e.rules.to_string().cmp(&code))
            .ok()
            .map(|i| &self.entries[i])
    }
}

/// The payload of an octal-runs table of `entries` (any order; one record
/// per game: a later entry of the same game replaces an earlier one).
pub fn encode_octal_runs(entries: &[CatalogueEntry]) -> Vec<u8> {
    let mut sorted: Vec<(String, &CatalogueEntry)> =
        entries.iter().map(|e| (e.rules.to_string(), e)).collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    sorted.dedup_by(|later, earlier| {
        if later.0 == earlier.0 {
            earlier.1 = later.1;
            true
        } else {
            false
        }
    });
    let mut out = Vec::new();
    for (code, e) in sorted {
        out.extend_from_slice(&(code.len() as u16).to_le_bytes());
        out.extend_from_slice(code.as_bytes());
        out.extend_from_slice(&e.computed.to_le_bytes());
        out.extend_from_slice(&e.max_value.to_le_bytes());
        out.extend_from_slice(&e.rare_mask.to_le_bytes());
        out.extend_from_slice(&e.rare_count.to_le_bytes());
        out.extend_from_slice(&e.last_rare.unwrap_or(u64::MAX).to_le_bytes());
        let (pre, per) = e.period.map_or((0, 0), |p| (p.preperiod, p.period));
        out.extend_from_slice(&pre.to_le_bytes());
        out.extend_from_slice(&per.to_le_bytes());
        out.extend_from_slice(&(e.values.len() as u64).to_le_bytes());
        for v in &e.values {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    out
}

/// The number of records of a payload written by [`encode_octal_runs`].
pub fn octal_runs_count(entries: &[CatalogueEntry]) -> u32 {
    let mut codes: Vec<String> = entries.iter().map(|e| e.rules.to_string()).collect();
    codes.sort();
    codes.dedup();
    codes.len() as u32
}

/// The record of the run of `rules` that computed `values` (`G(0..)`):
/// the summary of those values as [`Sequence::resume`] finds it (the
/// period certified by the periodicity theorem, the largest value, the
/// rare mask, count and last rare heap of the sparse space rebuilt from
/// the values: a function of the values alone, so that a record is checked
/// by the values), with every value when no period is certified (the
/// catalogue's records keep only a certified game's values).
pub fn run_entry(rules: &Rules, values: Vec<u16>) -> Result<CatalogueEntry, OctalError> {
    let sequence = Sequence::resume(rules.clone(), values)?;
    let mut entry = CatalogueEntry::from_sequence(&sequence);
    if entry.period.is_none() {
        entry.values = sequence.into_values();
    }
    Ok(entry)
}

/// `G(0..computed)` of a record of an octal-runs table: through the
/// period, or the values stored.
pub fn run_values(entry: &CatalogueEntry) -> Vec<u16> {
    entry.all_values().unwrap_or_else(|| entry.values.clone())
}

/// Checks a record of an octal-runs table against the game's rules, then
/// every field against the summary of its values (period certified by
/// the periodicity theorem, values computed, largest value, rare mask,
/// count and last rare heap). A record without a period: every value
/// computed anew from the values below it
/// ([`sg_octal::check_values`], on the current rayon pool). A
/// certified one: the game computed from its rules until its period is
/// certified, each value compared with the record's as it comes, so that
/// a record claiming more heaps than its file holds costs at most what
/// computing to its first wrong value costs. A right record costs what
/// computing the game to `computed` costs.
pub fn verify_run(entry: &CatalogueEntry) -> Result<(), TableError> {
    let code = || entry.rules.to_string();
    let computed = |error: OctalError| match error {
        OctalError::WrongValue {
            heap,
            stored,
            expected,
        } => TableError::OctalValue {
            code: code(),
            heap,
            stored,
            expected,
        },
        error => TableError::OctalCompute {
            code: code(),
            error,
        },
    };
    let found = match entry.period {
        // A certified record: its values (those stored, then the period's
        // repetition) compared with the game's as they are computed, until
        // its period is certified anew or a value differs. Never more than
        // the record's `computed` heaps: what a right record costs, while
        // a wrong one claiming a huge `computed` costs only the heaps up
        // to its first wrong value.
        Some(period) => {
            let (pre, per) = (period.preperiod as usize, period.period as usize);
            let stored = &entry.values;
            let predicted = |h: usize| {
                if h < stored.len() {
                    stored[h]
                } else {
                    stored[pre + (h - pre) % per]
                }
            };
            let mut sequence = Sequence::new(entry.rules.clone());
            let mut checked = 0;
            let mut wrong = None;
            sequence
                .extend_watched(entry.computed.saturating_sub(1), &mut |values| {
                    for (h, &value) in values.iter().enumerate().skip(checked) {
                        if value != predicted(h) {
                            wrong = Some((h as u64, predicted(h), value));
                            return ControlFlow::Break(());
                        }
                    }
                    checked = values.len();
                    ControlFlow::Continue(())
                })
                .map_err(computed)?;
            if let Some((heap, stored, expected)) = wrong {
                return Err(TableError::OctalValue {
                    code: code(),
                    heap,
                    stored,
                    expected: u64::from(expected),
                });
            }
            run_entry(&entry.rules, sequence.into_values()).map_err(computed)?
        }
        None => {
            check_values(&entry.rules, &entry.values, &mut |_| {}).map_err(computed)?;
            run_entry(&entry.rules, entry.values.clone()).map_err(computed)?
        }
    };
    if found != *entry {
        let show = |e: &CatalogueEntry| {
            format!(
                "period {}, largest value {}, rare mask {}, rare count {}, last rare heap {}",
                e.period.map_or("none".to_owned(), |p| format!(
                    "{} from heap {}",
                    p.period, p.preperiod
                )),
                e.max_value,
                e.rare_mask,
                e.rare_count,
                e.last_rare.map_or("none".to_owned(), |h| h.to_string()),
            )
        };
        return Err(TableError::CatalogueField {
            code: code(),
            field: "summary",
            stored: show(entry),
            found: show(&found),
        });
    }
    Ok(())
}

/// Record `index` at `*at` of `payload`, its form checked; `*at` moves past it.
fn read_record(payload: &[u8], at: &mut usize, index: u32) -> Result<CatalogueEntry, TableError> {
    let offset = *at;
    let bad = |why: String| TableError::RunsRecord { index, why };
    let truncated = || {
        bad(format!(
            "truncated (it starts at byte {offset} of the payload)"
        ))
    };
    let mut take = |n: usize| -> Result<&[u8], TableError> {
        let end = at.checked_add(n).ok_or_else(truncated)?;
        let bytes = payload.get(*at..end).ok_or_else(truncated)?;
        *at = end;
        Ok(bytes)
    };
    let u16_of = |b: &[u8]| u16::from_le_bytes(b.try_into().expect("2 bytes"));
    let u64_of = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
    let len = u16_of(take(2)?) as usize;
    let code_bytes = take(len)?;
    let code = std::str::from_utf8(code_bytes)
        .map_err(|_| bad("its code is not text".to_owned()))?
        .to_owned();
    let rules = rules_of(&code)?;
    if rules.to_string() != code {
        return Err(bad(format!(
            "its code {} is not in canonical form ({rules})",
            sg_text::quote(&code)
        )));
    }
    let computed = u64_of(take(8)?);
    let max_value = u16_of(take(2)?);
    let rare_mask = u16_of(take(2)?);
    let rare_count = u64_of(take(8)?);
    let last_rare = u64_of(take(8)?);
    let pre = u64_of(take(8)?);
    let per = u64_of(take(8)?);
    let count = u64_of(take(8)?);
    let consistent = computed >= 1
        && match per {
            0 => pre == 0 && count == computed,
            _ => pre
                .checked_add(per)
                .is_some_and(|d| d == count && d <= computed),
        };
    if !consistent {
        return Err(bad(format!(
            "inconsistent ({code}: {computed} values computed, preperiod {pre}, period {per}, {count} values stored)"
        )));
    }
    let bytes = take(
        usize::try_from(count)
            .ok()
            .and_then(|c| c.checked_mul(2))
            .ok_or_else(truncated)?,
    )?;
    let values = bytes.chunks_exact(2).map(u16_of).collect();
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

    fn run(code: &str, to: u64) -> CatalogueEntry {
        let mut s = Sequence::new(Rules::parse(code).unwrap());
        s.extend_to(to, &mut |_| {}).unwrap();
        let entry = run_entry(s.rules(), s.values().to_vec()).unwrap();
        // The run's own period is the one its values certify.
        assert_eq!(entry.period.map(|p| p.len()), s.period().map(|p| p.len()));
        entry
    }

    fn game(payload: &[u8], games: u32) -> Game {
        Game::OctalRuns {
            games,
            len: payload.len() as u64,
        }
    }

    #[test]
    fn records_read_back_sorted_and_verify() {
        let entries = vec![
            run("0.77", 300),
            run(".6", 2000),
            run("4.3cc6", 300),
            run("0.f1", 500),
        ];
        let payload = encode_octal_runs(&entries);
        let runs = OctalRuns::new(&game(&payload, 4), &payload).unwrap();
        let codes: Vec<String> = runs.entries().iter().map(|e| e.rules.to_string()).collect();
        let mut sorted = codes.clone();
        sorted.sort();
        assert_eq!(codes, sorted);
        for e in &entries {
            assert_eq!(runs.get(&e.rules), Some(e));
            verify_run(e).unwrap();
        }
        // The values of a game not certified are all there.
        let six = runs.get(&Rules::parse(".6").unwrap()).unwrap();
        assert!(six.period.is_none());
        assert_eq!(run_values(six).len(), 2001);
        assert!(runs.get(&Rules::parse("0.07").unwrap()).is_none());
    }

    #[test]
    fn wrong_values_and_fields_fail_their_check() {
        let mut wrong = run(".6", 1000);
        wrong.values[500] ^= 1;
        assert!(matches!(
            verify_run(&wrong),
            Err(TableError::OctalValue { heap: 500, .. })
        ));
        let mut wrong = run(".6", 1000);
        wrong.max_value += 1;
        assert!(matches!(
            verify_run(&wrong),
            Err(TableError::CatalogueField { .. })
        ));
        let mut wrong = run("0.77", 300);
        wrong.values[3] ^= 1;
        assert!(verify_run(&wrong).is_err());
    }

    #[test]
    fn malformed_payloads_are_refused() {
        let entries = vec![run("0.77", 300), run(".6", 300)];
        let payload = encode_octal_runs(&entries);
        // Truncated anywhere, one record too many or too few announced.
        for cut in [1, 10, payload.len() / 2, payload.len() - 1] {
            assert!(
                OctalRuns::new(&game(&payload[..cut], 2), &payload[..cut]).is_err(),
                "{cut}"
            );
        }
        assert!(OctalRuns::new(&game(&payload, 3), &payload).is_err());
        assert!(OctalRuns::new(&game(&payload, 1), &payload).is_err());
        // Out of order: the second record first.
        let one = encode_octal_runs(&entries[..1]);
        let two = encode_octal_runs(&entries[1..]);
        let swapped = [one.clone(), two.clone()].concat();
        let reordered = [two, one].concat();
        let sorted_first = if swapped == payload {
            reordered
        } else {
            swapped
        };
        assert!(OctalRuns::new(&game(&sorted_first, 2), &sorted_first).is_err());
        // A code not canonical.
        let mut bad = payload.clone();
        let at = bad.windows(4).position(|w| w == b"0.77").unwrap();
        bad[at..at + 4].copy_from_slice(b"00.7");
        assert!(OctalRuns::new(&game(&bad, 2), &bad).is_err());
    }
}

#[cfg(test)]
mod crafted {
    use super::*;

    /// A certified record claiming far more heaps than the game needs, or
    /// a period the game does not have, fails fast, without computing or
    /// allocating the heaps it claims.
    #[test]
    fn a_certified_record_claiming_huge_runs_fails_at_its_first_wrong_heap() {
        let mut s = Sequence::new(Rules::parse("0.7").unwrap());
        s.extend_to(100, &mut |_| {}).unwrap();
        let mut entry = run_entry(s.rules(), s.values().to_vec()).unwrap();
        assert!(entry.period.is_some());
        verify_run(&entry).unwrap();
        entry.computed = 1 << 40;
        assert!(verify_run(&entry).is_err());
        // 0.8's values grow: a period of 2 claimed to 2^31 heaps is wrong
        // within the first few heaps.
        let mut s = Sequence::new(Rules::parse("0.8").unwrap());
        s.extend_to(3, &mut |_| {}).unwrap();
        let values = s.values()[..2].to_vec();
        let claim = CatalogueEntry {
            rules: Rules::parse("0.8").unwrap(),
            computed: 1 << 31,
            period: Some(Period {
                preperiod: 0,
                period: 2,
                certified_with: 1 << 31,
            }),
            values,
            ..entry.clone()
        };
        assert!(matches!(
            verify_run(&claim),
            Err(TableError::OctalValue { .. })
        ));
    }
}
