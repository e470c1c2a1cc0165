//! Checking a table's values themselves against the game's recurrence: a
//! checksum only says that the bytes are those that were written, and
//! anyone can recompute a CRC, so a table is trusted only once every value
//! is the mex of its followers' values ([`RowTable::verify_values`],
//! [`KnightTable::verify_values`]). By induction on the moves (every move
//! lowers the mask of a row, and `x + y` of a knight), the values are then
//! the Grundy values.
//!
//! Cost (one thread): one pass over the table, reading each follower's
//! value: the row table of 2^20 rows and the knight table of 1024^2
//! squares take milliseconds (see docs/TABLES.md).

use crate::error::TableError;
use crate::metadata::TableKind;
use crate::octal::CatalogueEntry;
use crate::octal_runs::verify_run;
use crate::table::Table;
use crate::views::{KnightTable, RowTable};
use sg_core::row::row_grundy_by_definition;
use sg_octal::{OctalError, Rules, Sequence, check_values};

impl Table<'_> {
    /// Checks the values against the game's recurrence, whatever the kind:
    /// [`RowTable::verify_values`], [`KnightTable::verify_values`], for a
    /// knight pattern its certificate ([`Table::knight_pattern`]), for an
    /// octal sequence every value ([`sg_octal::check_values`]), for
    /// an octal catalogue every record ([`CatalogueEntry::verify`]).
    pub fn verify_values(&self) -> Result<(), TableError> {
        match self.kind() {
            TableKind::Row => self.row()?.verify_values(),
            TableKind::Knight => self.knight()?.verify_values(),
            TableKind::KnightPattern => self.knight_pattern().map(drop),
            TableKind::OctalSequence => {
                let table = self.octal_sequence()?;
                verify_octal_sequence(table.rules(), table.values())
            }
            TableKind::OctalCatalogue => {
                let catalogue = self.octal_catalogue()?;
                catalogue
                    .entries()
                    .iter()
                    .try_for_each(|entry| entry.verify(catalogue.limit()))
            }
            TableKind::CramEndgame => self.cram_endgame()?.verify_values(),
            TableKind::OctalRuns => self.octal_runs()?.entries().iter().try_for_each(verify_run),
            TableKind::MisereQuotient => self.misere_quotient()?.verify(),
        }
    }
}

/// Checks stored octal values `G(0..values.len())`: each heap's value is
/// computed anew from the stored values below it (exact: see
/// `sg_octal::check_values`), in parallel on the current rayon pool,
/// and compared as the check goes, failing at the first wrong heap. It
/// costs what computing the sequence costs, shared by the threads; the
/// memory is the file's values and the engine's lists.
fn verify_octal_sequence(rules: &Rules, values: &[u16]) -> Result<(), TableError> {
    check_values(rules, values, &mut |_| {}).map_err(|error| match error {
        OctalError::WrongValue {
            heap,
            stored,
            expected,
        } => TableError::OctalValue {
            code: rules.to_string(),
            heap,
            stored,
            expected,
        },
        error => TableError::OctalCompute {
            code: rules.to_string(),
            error,
        },
    })
}

/// A field of a catalogue record as text.
type ShowField = fn(&CatalogueEntry) -> String;

impl CatalogueEntry {
    /// Checks every field of the record of a catalogue computed to heap
    /// `limit`: the game is computed anew up to `limit` (or until its
    /// period is certified, as the catalogue's generator does), and the
    /// record must be exactly what that run finds: the values computed,
    /// the values stored (with a period, `G(0..preperiod + period)`), the
    /// preperiod and period, the largest value, the rare mask, the rare
    /// count and the last rare heap. Fails at the first stored value that
    /// differs, then at the first field. The memory is that of the run (2
    /// bytes a heap up to `limit`, at most
    /// [`MAX_CATALOGUE_LIMIT`](crate::octal::MAX_CATALOGUE_LIMIT) in a
    /// valid file).
    pub fn verify(&self, limit: u64) -> Result<(), TableError> {
        let code = || self.rules.to_string();
        let mut sequence = Sequence::new(self.rules.clone());
        sequence
            .extend_to(limit, &mut |_| {})
            .map_err(|error| TableError::OctalCompute {
                code: code(),
                error,
            })?;
        let found = CatalogueEntry::from_sequence(&sequence);
        let mut stored_values = self.values.iter().zip(&found.values).enumerate();
        if let Some((heap, (&stored, &expected))) = stored_values.find(|(_, (a, b))| a != b) {
            return Err(TableError::OctalValue {
                code: code(),
                heap: heap as u64,
                stored,
                expected: expected.into(),
            });
        }
        let period =
            |e: &CatalogueEntry| e.period.map_or("none".to_owned(), |p| p.period.to_string());
        let preperiod = |e: &CatalogueEntry| {
            e.period
                .map_or("none".to_owned(), |p| p.preperiod.to_string())
        };
        let last_rare =
            |e: &CatalogueEntry| e.last_rare.map_or("none".to_owned(), |h| h.to_string());
        let fields: [(&'static str, ShowField); 8] = [
            ("values computed", |e| e.computed.to_string()),
            ("period", period),
            ("preperiod", preperiod),
            ("values stored", |e| e.values.len().to_string()),
            ("largest value", |e| e.max_value.to_string()),
            ("rare mask", |e| e.rare_mask.to_string()),
            ("rare count", |e| e.rare_count.to_string()),
            ("last rare heap", last_rare),
        ];
        for (field, show) in fields {
            let (stored, found) = (show(self), show(&found));
            if stored != found {
                return Err(TableError::CatalogueField {
                    code: code(),
                    field,
                    stored,
                    found,
                });
            }
        }
        Ok(())
    }
}

impl RowTable<'_> {
    /// Checks that every row's value is the mex of the values of the rows
    /// one move away (all of which are in the table: a move lowers the
    /// mask). Fails at the first row where it is not.
    pub fn verify_values(&self) -> Result<(), TableError> {
        let values = self.values();
        for (mask, &stored) in values.iter().enumerate() {
            let mex = row_grundy_by_definition(mask as u64, |next| {
                // `next < mask`, so it is in the table.
                u32::from(values[next as usize])
            });
            if u32::from(stored) != mex {
                return Err(TableError::RowValue {
                    mask: mask as u64,
                    stored,
                    mex,
                });
            }
        }
        Ok(())
    }
}

impl KnightTable<'_> {
    /// Checks that every square's value is the mex of the values of the
    /// squares one move away. Those outside the table (a step that raises
    /// x or y leaves it at its edge) are computed by the same recurrence,
    /// diagonal by diagonal, keeping only the last diagonals a step can
    /// reach back to: memory O(size * the longest step), not O(size^2).
    /// Fails at the first square (by increasing `x + y`) where it is not.
    pub fn verify_values(&self) -> Result<(), TableError> {
        let size = self.size();
        let values = self.values();
        // Each step with how many diagonals back it lands (`-(dx + dy) >= 1`).
        let steps: Vec<(i64, i64, u64)> = self
            .moves()
            .steps()
            .iter()
            .map(|&(dx, dy)| {
                let (dx, dy) = (i64::from(dx), i64::from(dy));
                (dx, dy, (-(dx + dy)) as u64)
            })
            .collect();
        let reach = steps.iter().map(|s| s.2).max().unwrap_or(1);
        let diagonals = 2 * size - 1;
        let window = reach.min(diagonals) + 1;
        let width = diagonals as usize;
        // ring[d % window][x]: the value of (x, d - x), stored or computed.
        let mut ring = vec![0u8; window as usize * width];
        let inside = |x: u64, y: u64| x < size && y < size;
        let mut slot = 0u64; // d % window, without a division per square
        for d in 0..diagonals {
            for x in 0..=d {
                let y = d - x;
                let mut seen = 0u64;
                for &(dx, dy, back) in &steps {
                    let (Some(a), Some(b)) = (x.checked_add_signed(dx), y.checked_add_signed(dy))
                    else {
                        continue;
                    };
                    let g = if inside(a, b) {
                        values[(a * size + b) as usize]
                    } else if back < window {
                        let from = if slot >= back {
                            slot - back
                        } else {
                            slot + window - back
                        };
                        ring[from as usize * width + a as usize]
                    } else {
                        // Further back than any diagonal kept: only when
                        // the window holds every diagonal, so unreachable;
                        // a square off every table has no value to give.
                        continue;
                    };
                    seen |= 1u64.checked_shl(g.into()).unwrap_or(0);
                }
                let mex = (!seen).trailing_zeros() as u8;
                if inside(x, y) {
                    let stored = values[(x * size + y) as usize];
                    if stored != mex {
                        return Err(TableError::KnightValue {
                            x,
                            y,
                            stored,
                            mex: mex.into(),
                        });
                    }
                }
                ring[slot as usize * width + x as usize] = mex;
            }
            slot = if slot + 1 == window { 0 } else { slot + 1 };
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::format::Game;
    use crate::views::{KnightTable, RowTable};
    use sg_core::knight::{MoveSet, knight_square_table};

    #[test]
    fn right_values_pass_and_any_changed_value_fails() {
        let game = Game::Row { width: 8 };
        let mut values = sg_core::row::row_table_by_definition(8);
        RowTable::new(&game, &values)
            .unwrap()
            .verify_values()
            .unwrap();
        for mask in [0usize, 1, 77, 255] {
            values[mask] ^= 1;
            let e = RowTable::new(&game, &values).unwrap().verify_values();
            assert!(e.is_err(), "{mask}");
            values[mask] ^= 1;
        }
        for moves in [
            MoveSet::hyper_knight(),
            MoveSet::new(&[(-1, 0), (0, -1)]).unwrap(),
            MoveSet::new(&[(3, -5), (-7, 2), (-1, -1)]).unwrap(),
        ] {
            let size = 23;
            let game = Game::Knight {
                size,
                moves: moves.steps().to_vec(),
            };
            let mut values = knight_square_table(&moves, size);
            KnightTable::new(&game, &values)
                .unwrap()
                .verify_values()
                .unwrap();
            for i in [0usize, 1, 22, 300, 528] {
                values[i] = values[i].wrapping_add(1);
                let e = KnightTable::new(&game, &values).unwrap().verify_values();
                assert!(e.is_err(), "{moves:?} {i}");
                values[i] = values[i].wrapping_sub(1);
            }
        }
    }

    /// An octal sequence file is trusted only when every value is the
    /// game's: a changed value fails with its heap, checksums right or not.
    #[test]
    fn octal_sequence_values_are_checked() {
        use crate::aligned::AlignedBytes;
        use crate::error::TableError;
        use crate::format::{Metadata, encode};
        use crate::table::Table;
        use sg_octal::{Rules, grundy_by_definition};

        for code in ["0.77", "0.6", "4.007", "0.3033"] {
            let rules = Rules::parse(code).unwrap();
            let mut values = grundy_by_definition(&rules, 300).unwrap();
            let file = |values: &[u16]| {
                let metadata = Metadata {
                    game: Game::OctalSequence {
                        code: rules.to_string(),
                        count: values.len() as u64,
                    },
                    generator: "test".to_owned(),
                };
                let payload: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
                AlignedBytes::copy_from(&encode(&metadata, &payload).unwrap())
            };
            let bytes = file(&values);
            Table::from_bytes(&bytes).unwrap().verify_values().unwrap();
            for heap in [0usize, 1, 150, 300] {
                values[heap] ^= 1;
                let bytes = file(&values);
                let e = Table::from_bytes(&bytes).unwrap().verify_values();
                assert!(
                    matches!(e, Err(TableError::OctalValue { heap: h, .. }) if h == heap as u64),
                    "{code} {heap}: {e:?}"
                );
                values[heap] ^= 1;
            }
        }
    }

    /// A catalogue entry is trusted only when every field is what a run
    /// finds: a changed value, period, preperiod, count, largest value,
    /// rare mask, rare count or last rare heap fails, naming the field in
    /// words (no debug text).
    #[cfg(feature = "embedded")]
    #[test]
    fn catalogue_entries_are_checked() {
        use crate::error::TableError;
        use crate::octal::CatalogueEntry;
        use sg_octal::Rules;

        let catalogue = crate::embedded_octal_catalogue();
        let limit = catalogue.limit();
        let entry = catalogue.get(&Rules::parse("0.77").unwrap()).unwrap();
        entry.verify(limit).unwrap();
        let mut wrong = entry.clone();
        wrong.values[40] ^= 1;
        assert!(matches!(
            wrong.verify(limit),
            Err(TableError::OctalValue { heap: 40, .. })
        ));
        // The same values with a preperiod one too long (not the smallest):
        // the values agree, the claimed preperiod does not.
        let mut wrong = entry.clone();
        let mut period = wrong.period.unwrap();
        let first = wrong.values[period.preperiod as usize];
        period.preperiod += 1;
        wrong.values.push(first);
        wrong.period = Some(period);
        let e = wrong.verify(limit).unwrap_err().to_string();
        assert!(e.contains("preperiod 72, but a run finds 71"), "{e}");
        // A check that cannot be run says why.
        let e = entry.verify(1 << 62).unwrap_err().to_string();
        assert_eq!(
            e,
            "cannot check the values of 0.77: heap 4611686018427387904 is beyond the \
             largest heap computed directly (4294967294)"
        );
        type Change = fn(&mut CatalogueEntry);
        let changes: [(&str, Change); 7] = [
            ("values computed", |e| e.computed += 1),
            ("period", |e| e.period = None),
            ("largest value", |e| e.max_value += 1),
            ("rare mask", |e| e.rare_mask ^= 1),
            ("rare count", |e| e.rare_count += 1),
            ("last rare heap", |e| e.last_rare = None),
            ("last rare heap", |e| e.last_rare = Some(5)),
        ];
        for (field, change) in changes {
            let mut wrong = entry.clone();
            change(&mut wrong);
            let e = wrong.verify(limit).unwrap_err();
            assert!(
                matches!(&e, TableError::CatalogueField { field: f, .. } if *f == field),
                "{field}: {e}"
            );
            let text = e.to_string();
            assert!(!text.contains("Some(") && !text.contains('{'), "{text}");
        }
        // An unsolved entry is checked too: its numbers are the run's to
        // the limit.
        let unsolved = catalogue
            .entries()
            .iter()
            .find(|e| e.period.is_none())
            .unwrap();
        unsolved.verify(limit).unwrap();
        let mut wrong = unsolved.clone();
        wrong.rare_count += 1;
        assert!(wrong.verify(limit).is_err());
        let mut wrong = unsolved.clone();
        wrong.computed -= 1;
        assert!(wrong.verify(limit).is_err());
    }
}
