//! The run behind `grundy octal`: the values of a game from the
//! compiled-in catalogue, from a stored run (`--resume`, checked) extended,
//! or computed now with a progress bar; and writing them (`--out`).
//!
//! A resumed file's values are checked before they are trusted: every heap
//! below [`CHECK_ALL_BELOW`], the last [`CHECK_LAST`] heaps and
//! [`CHECK_SPREAD`] heaps spread evenly between are recomputed by the
//! definition (`sg_core::octal::grundy_of_heap`: the mex of the options
//! over the stored values), within a budget of [`CHECK_BUDGET`] options,
//! so that the check costs well under a second whatever the file. The
//! file's CRC-32 guards every value against corruption; the check catches
//! a file of another game or values that do not satisfy the recurrence.
//! Recomputing every value would cost as much as the stored run, which
//! `--resume` is there to save.

use super::octal_progress::new_bar;
pub(crate) use super::shared::bad_input;
use super::shared::{print_error, wrong_path};
use anyhow::Result;
use indicatif::ProgressBar;
use sg_core::octal::{OctalError, PeriodicSequence, Rules, Sequence, grundy_of_heap};
use sg_tables::format::{Game, Metadata, encode};
use sg_tables::octal::CatalogueEntry;
use sg_tables::safe_write::Destination;
use std::io::IsTerminal;
use std::path::Path;
use std::time::{Duration, Instant};

/// Heaps below this are all checked when a run is resumed.
const CHECK_ALL_BELOW: u64 = 2048;
/// The last heaps of a resumed run, all checked.
const CHECK_LAST: u64 = 64;
/// Heaps spread evenly through a resumed run, checked.
const CHECK_SPREAD: u64 = 256;
/// The most options the check of a resumed run evaluates (beyond it, the
/// remaining heaps are skipped, largest first).
const CHECK_BUDGET: u64 = 1 << 27;

/// The generator named in the metadata of the files `--out` writes.
const GENERATOR: &str = concat!("grundy ", env!("CARGO_PKG_VERSION"));

/// Where a run's values came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// The compiled-in catalogue.
    Catalogue,
    /// Computed now.
    Computed,
    /// A stored run, checked and extended.
    Resumed {
        /// Values in the file.
        stored: u64,
        /// Heaps checked by the definition.
        checked: u64,
    },
}

impl Source {
    /// For the summary.
    pub(crate) fn describe(self) -> String {
        match self {
            Self::Catalogue => "from the compiled-in catalogue".to_owned(),
            Self::Computed => "computed".to_owned(),
            Self::Resumed { stored, checked } => format!(
                "resumed from {stored} stored values, {checked} of them checked by the definition"
            ),
        }
    }
}

/// The values of a game and what the run found.
#[derive(Debug)]
pub(crate) struct Run {
    /// The summary (the catalogue's record of the game, or the same made
    /// from the run).
    pub(crate) summary: CatalogueEntry,
    /// `G(0..summary.computed)`.
    pub(crate) values: Vec<u16>,
    /// Where they came from.
    pub(crate) source: Source,
}

impl Run {
    /// The run for `rules` (or the game of `resume`) up to heap `to`: an
    /// error message for bad input (exit status 2), an error for the rest.
    pub(crate) fn obtain(
        rules: Option<Rules>,
        to: u64,
        resume: Option<&Path>,
        online: bool,
    ) -> Result<Result<Run, String>> {
        let (sequence, source) = match resume {
            Some(path) => match resumed(rules, path)? {
                Ok(found) => found,
                Err(message) => return Ok(Err(message)),
            },
            None => {
                let rules = rules.expect("clap requires a game without --resume");
                if !online && let Some(run) = from_catalogue(&rules, to) {
                    return Ok(Ok(run));
                }
                (Sequence::new(rules), Source::Computed)
            }
        };
        Ok(extend(sequence, to)?.map(|sequence| Run {
            summary: CatalogueEntry::from_sequence(&sequence),
            values: sequence.values().to_vec(),
            source,
        }))
    }

    /// The whole sequence, if a period is certified.
    pub(crate) fn periodic(&self) -> Option<PeriodicSequence> {
        self.summary
            .period
            .map(|p| PeriodicSequence::new(p, &self.values))
    }

    /// `--out`: writes the values as an octal-sequence table into
    /// `destination` (checked before the run), which is the old file or
    /// the complete new one whatever happens.
    pub(crate) fn write(&self, destination: &Destination) -> Result<()> {
        let metadata = Metadata {
            game: Game::OctalSequence {
                code: self.summary.rules.to_string(),
                count: self.values.len() as u64,
            },
            generator: GENERATOR.to_owned(),
        };
        let payload: Vec<u8> = self.values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let bytes = encode(&metadata, &payload)?;
        // A failed write is reported by `write` as the destination's error.
        destination.write(|out| Ok::<_, anyhow::Error>(out.write_all(&bytes)?))
    }
}

/// The catalogue's answer for `rules`, if the game is solved there and a
/// run to `to` would reach the same certificate. The entry is not taken on
/// trust: every value is computed anew and its period certified again
/// ([`CatalogueEntry::verify`], the check of `grundy tables verify`; a few
/// milliseconds); an entry that fails is reported and the game computed
/// instead.
fn from_catalogue(rules: &Rules, to: u64) -> Option<Run> {
    let entry = sg_tables::embedded_octal_catalogue().get(rules)?;
    if entry.computed > to.saturating_add(1) {
        return None;
    }
    let values = entry.all_values()?;
    if entry.verify().is_err() {
        print_error(format_args!(
            "warning: the compiled-in catalogue's entry for {rules} fails its check; computing"
        ));
        return None;
    }
    Some(Run {
        values,
        summary: entry.clone(),
        source: Source::Catalogue,
    })
}

/// The stored run of `path`, checked, ready to extend; a message if the
/// file is not a run of `rules` (when given).
fn resumed(rules: Option<Rules>, path: &Path) -> Result<Result<(Sequence, Source), String>> {
    let file = match sg_tables::read_file(path) {
        Ok(file) => file,
        // Nothing there, or a folder: the user must fix the command.
        Err(sg_tables::TableError::Io { error, .. }) if wrong_path(&error) => {
            return Ok(Err(format!("--resume {}: {error}", path.display())));
        }
        Err(e @ sg_tables::TableError::Io { .. }) => return Err(e.into()),
        Err(e) => return Ok(Err(format!("--resume {}: {e}", path.display()))),
    };
    let stored = match file.table().octal_sequence() {
        Ok(stored) => stored,
        Err(e) => return Ok(Err(format!("--resume {}: {e}", path.display()))),
    };
    if let Some(rules) = &rules
        && rules != stored.rules()
    {
        return Ok(Err(format!(
            "--resume {}: the file holds the game {}, not {rules}",
            path.display(),
            stored.rules()
        )));
    }
    let rules = stored.rules().clone();
    let checked = match check_values(&rules, stored.values()) {
        Ok(checked) => checked,
        Err(message) => return Ok(Err(format!("--resume {}: {message}", path.display()))),
    };
    let values = stored.values().to_vec();
    let count = values.len() as u64;
    match Sequence::resume(rules, values) {
        Ok(sequence) => Ok(Ok((
            sequence,
            Source::Resumed {
                stored: count,
                checked,
            },
        ))),
        Err(e) => Ok(Err(format!("--resume {}: {e}", path.display()))),
    }
}

/// The heaps of a stored run of `len` values that [`check_values`] checks,
/// in the order it checks them.
fn heaps_to_check(len: u64) -> Vec<u64> {
    let mut heaps: Vec<u64> = (0..len.min(CHECK_ALL_BELOW)).collect();
    heaps.extend(len.saturating_sub(CHECK_LAST).max(CHECK_ALL_BELOW)..len);
    if len > CHECK_ALL_BELOW {
        let step = (len / CHECK_SPREAD).max(1);
        heaps.extend((CHECK_ALL_BELOW..len).step_by(step as usize));
    }
    heaps.sort_unstable();
    heaps.dedup();
    heaps
}

/// An estimate of the options of heap `n` (what [`grundy_of_heap`] costs).
fn options_of(rules: &Rules, n: u64) -> u64 {
    match rules.max_parts() {
        3 => n.saturating_mul(n) / 12 * (rules.max_take() as u64 + 1),
        _ => n / 2 * (rules.max_take() as u64 + 1) + 1,
    }
}

/// Checks stored values against the definition at the heaps of
/// [`heaps_to_check`], within [`CHECK_BUDGET`]; the number of heaps
/// checked, or where the values fail.
fn check_values(rules: &Rules, values: &[u16]) -> Result<u64, String> {
    let mut spent = 0u64;
    let mut checked = 0;
    for heap in heaps_to_check(values.len() as u64) {
        spent = spent.saturating_add(options_of(rules, heap));
        if spent > CHECK_BUDGET {
            break;
        }
        let expected = grundy_of_heap(rules, values, heap).map_err(|e| e.to_string())?;
        let stored = values[heap as usize];
        if stored != expected {
            return Err(format!(
                "stored G({heap}) = {stored}, but the definition gives {expected}: \
                 these are not the values of {rules}"
            ));
        }
        checked += 1;
    }
    Ok(checked)
}

/// Extends `sequence` to heap `to` (or until certified), with a progress
/// bar on a terminal once the run has lasted a second; a message if `to`
/// is beyond the engine's heaps.
fn extend(mut sequence: Sequence, to: u64) -> Result<Result<Sequence, String>> {
    let start = Instant::now();
    let first = sequence.values().len() as u64;
    let mut bar: Option<ProgressBar> = None;
    let show = std::io::stderr().is_terminal();
    let mut progress = |done: u64| {
        if !show {
            return;
        }
        let bar = match &bar {
            Some(bar) => bar,
            None if start.elapsed() > Duration::from_secs(1) => {
                bar.insert(new_bar(to, first, start))
            }
            None => return,
        };
        bar.set_position(done);
    };
    let status = sequence.extend_to(to, &mut progress);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    match status {
        Ok(_) => Ok(Ok(sequence)),
        Err(e @ OctalError::TooManyHeaps { .. }) => Ok(Err(format!("--to {to}: {e}"))),
        Err(e) => Err(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checked_heaps_cover_the_start_the_end_and_a_spread() {
        assert_eq!(heaps_to_check(10), (0..10).collect::<Vec<_>>());
        let heaps = heaps_to_check(1 << 20);
        assert!(heaps.windows(2).all(|w| w[0] < w[1]));
        assert!((0..CHECK_ALL_BELOW).all(|h| heaps.contains(&h)));
        assert!(((1 << 20) - CHECK_LAST..1 << 20).all(|h| heaps.contains(&h)));
        assert!(heaps.len() as u64 >= CHECK_ALL_BELOW + CHECK_LAST + CHECK_SPREAD - 1);
        assert_eq!(*heaps.last().unwrap(), (1 << 20) - 1);
    }

    #[test]
    fn a_wrong_value_is_found() {
        let rules = Rules::parse("0.77").unwrap();
        let mut values = sg_core::octal::grundy_by_definition(&rules, 3000).unwrap();
        assert_eq!(
            check_values(&rules, &values),
            Ok(heaps_to_check(3001).len() as u64)
        );
        values[2999] ^= 1;
        let err = check_values(&rules, &values).unwrap_err();
        assert!(err.contains("G(2999)"), "{err}");
    }
}
