//! The run behind `grundy octal`: the values of a game from the
//! compiled-in catalogue, from a stored run (`--resume`, checked) extended,
//! or computed now with a progress bar; and writing them (`--out`).
//!
//! With `--out`, a run that computes writes its values so far to the file
//! every `--checkpoint-every` (a checkpoint: the same table, shorter, that
//! `--resume` continues), and once more when `SIGINT`, `SIGTERM` or
//! `SIGHUP` asks it to stop (it then exits with 128 plus the signal's
//! number). Without `--out`, such a signal stops the run with the values
//! computed so far, which `grundy octal` prints as it prints a run to a
//! smaller `--to`, saying that it was stopped. Each write replaces the file whole (`sg_files::safe_write`),
//! so a run killed at any moment leaves the last checkpoint. The values
//! do not depend on where a run was stopped and resumed, so the file a run
//! stopped and resumed any number of times ends with is the one a run that
//! never stopped writes (the table holds no time).
//!
//! A resumed file's values are checked before they are trusted, every one
//! of them (`sg_octal::check_values`: each heap's value computed
//! anew from the stored values below it, so that values that pass are the
//! game's, by induction). Each heap's check depends only on the stored
//! values, so the check runs on every thread of the pool (`--threads`)
//! and costs the time of the stored run divided by the threads, at most.
//! `--trust-resume` skips it for a file the user made: the file's CRC-32
//! still guards against corruption, not against a file made wrong.

use super::octal_progress::with_progress;
pub(crate) use super::shared::bad_input;
use super::shared::{print_error, wrong_path};
use anyhow::Result;
use sg_files::safe_write::Destination;
use sg_files::signals::StopSignals;
use sg_octal::{OctalError, PeriodicSequence, Rules, Sequence, Status, check_values_watched};
use sg_solve::octal_answers::Catalogued;
use sg_tables::octal::{CatalogueEntry, write_octal_sequence};
use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::path::Path;
use std::time::{Duration, Instant};

/// The generator named in the metadata of the files `--out` writes.
const GENERATOR: &str = concat!("grundy ", env!("CARGO_PKG_VERSION"));

/// Where a run's values came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// The compiled-in catalogue.
    Catalogue,
    /// Computed now.
    Computed,
    /// The record of a game in a table of `--tables DIR` (its values
    /// checked), extended if it stops short of the heap asked for.
    Table,
    /// A stored run, checked (unless `--trust-resume`) and extended.
    Resumed {
        /// Values in the file.
        stored: u64,
        /// Whether every stored value was checked.
        checked: bool,
    },
}

impl Source {
    /// For the summary.
    pub(crate) fn describe(self) -> String {
        match self {
            Self::Catalogue => "from the compiled-in catalogue".to_owned(),
            Self::Table => "from a table of --tables, its values checked".to_owned(),
            Self::Computed => "computed".to_owned(),
            Self::Resumed {
                stored,
                checked: true,
            } => format!("resumed from {stored} stored values, every one checked"),
            Self::Resumed {
                stored,
                checked: false,
            } => format!("resumed from {stored} stored values, trusted unchecked (--trust-resume)"),
        }
    }
}

/// How a stored run is resumed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Resume<'a> {
    /// The file (`--resume`).
    pub(crate) path: &'a Path,
    /// Its values are trusted without the check (`--trust-resume`).
    pub(crate) trust: bool,
}

/// Where and how often a run that computes writes its checkpoints.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Checkpoints<'a> {
    /// The `--out` file.
    pub(crate) destination: &'a Destination,
    /// `--checkpoint-every`.
    pub(crate) every: Duration,
}

/// How a run ended.
#[derive(Debug)]
pub(crate) enum Ended {
    /// With its values.
    Done(Run),
    /// Stopped by `signal`, its values up to heap `computed - 1` written to
    /// the checkpoint file.
    Stopped {
        /// The signal's number.
        signal: i32,
        /// The values written.
        computed: u64,
    },
    /// Stopped by `signal` while checking the values of `--resume`: nothing
    /// computed, nothing written.
    StoppedChecking {
        /// The signal's number.
        signal: i32,
        /// The values checked (right) of those stored.
        checked: u64,
        /// The values stored.
        stored: u64,
    },
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
    /// The signal that stopped the run before heap `to` (without `--out`:
    /// the values are those computed by then).
    pub(crate) stopped: Option<i32>,
}

impl Run {
    /// The run for `rules` (or the game of `resume`) up to heap `to`,
    /// writing `checkpoints` if it computes: an error message for bad input
    /// (exit status 2), an error for the rest.
    pub(crate) fn obtain(
        rules: Option<Rules>,
        to: u64,
        resume: Option<Resume<'_>>,
        online: bool,
        checkpoints: Option<Checkpoints<'_>>,
    ) -> Result<Result<Ended, String>> {
        Self::obtain_with(rules, to, resume, online, None, checkpoints)
    }

    /// [`obtain`](Self::obtain), first looking in the tables of `tables`
    /// (`--tables DIR`) for the game's record.
    pub(crate) fn obtain_with(
        rules: Option<Rules>,
        to: u64,
        resume: Option<Resume<'_>>,
        online: bool,
        tables: Option<&Path>,
        checkpoints: Option<Checkpoints<'_>>,
    ) -> Result<Result<Ended, String>> {
        let (sequence, source) = match resume {
            Some(resume) => match resumed(rules, resume)? {
                Ok(Resumed::Ready(sequence, source)) => (*sequence, source),
                Ok(Resumed::Stopped(ended)) => return Ok(Ok(ended)),
                Err(message) => return Ok(Err(message)),
            },
            None => {
                let rules = rules.expect("clap requires a game without --resume");
                let from_tables = match tables.map(|dir| from_tables(dir, &rules)) {
                    Some(Err(message)) => return Ok(Err(message)),
                    Some(Ok(entry)) => entry,
                    None => None,
                };
                // A record whose run ended (certified) within the heaps
                // asked for is what a run to `to` finds. One that went
                // further is not: the game is computed to `to`, as a run
                // to it finds it (the values cut from the record would be
                // the same, but not what a run learns on its way: the rare
                // heaps, a period certified later).
                let within = |entry: &CatalogueEntry| entry.computed <= to.saturating_add(1);
                match from_tables {
                    Some(entry) if !within(&entry) => (Sequence::new(rules), Source::Computed),
                    Some(entry) if entry.period.is_some() => {
                        return Ok(Ok(Ended::Done(Run {
                            values: sg_tables::octal_runs::run_values(&entry),
                            summary: entry,
                            source: Source::Table,
                            stopped: None,
                        })));
                    }
                    // Short of the heap asked for: its values, extended.
                    Some(entry) => {
                        let values = sg_tables::octal_runs::run_values(&entry);
                        match Sequence::resume(rules, values) {
                            Ok(sequence) => (sequence, Source::Table),
                            Err(e) => return Ok(Err(e.to_string())),
                        }
                    }
                    None => {
                        if !online && let Some(run) = from_catalogue(&rules, to) {
                            return Ok(Ok(Ended::Done(run)));
                        }
                        (Sequence::new(rules), Source::Computed)
                    }
                }
            }
        };
        let (sequence, stopped) = match extend(sequence, to, checkpoints)? {
            Ok(extended) => extended,
            Err(message) => return Ok(Err(message)),
        };
        if let (Some(signal), Some(checkpoints)) = (stopped, checkpoints) {
            write_table(checkpoints.destination, sequence.rules(), sequence.values())?;
            return Ok(Ok(Ended::Stopped {
                signal,
                computed: sequence.values().len() as u64,
            }));
        }
        Ok(Ok(Ended::Done(Run {
            summary: CatalogueEntry::from_sequence(&sequence),
            values: sequence.into_values(),
            source,
            stopped,
        })))
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
        write_table(destination, &self.summary.rules, &self.values)
    }
}

/// Writes `values` of `rules` as an octal-sequence table into
/// `destination`, which is the old file or the complete new one whatever
/// happens (the final file and every checkpoint).
fn write_table(destination: &Destination, rules: &Rules, values: &[u16]) -> Result<()> {
    let code = rules.to_string();
    // A failed write is reported by `write` as the destination's error.
    destination.write(|out| {
        write_octal_sequence(out, &code, GENERATOR, values).map_err(anyhow::Error::from)
    })
}

/// The catalogue's answer for `rules` computed to heap `to`, if the game
/// is solved there ([`sg_solve::octal_answers::from_catalogue`]: checked
/// before use); an entry that fails its check is reported and the game
/// computed instead.
fn from_catalogue(rules: &Rules, to: u64) -> Option<Run> {
    match sg_solve::octal_answers::from_catalogue(rules, to) {
        Catalogued::Found { entry, values } => Some(Run {
            values,
            summary: entry,
            source: Source::Catalogue,
            stopped: None,
        }),
        Catalogued::Absent => None,
        Catalogued::FailedCheck => {
            print_error(format_args!(
                "warning: the compiled-in catalogue's entry for {rules} fails its check; computing"
            ));
            None
        }
    }
}

/// The record of `rules` in the octal-runs tables of `dir` (`--tables`):
/// of the valid tables (`.sgt` files of the kind, read and checked; any
/// other is skipped with a warning), the record certified, else the one
/// computed furthest, its values checked (a record that fails is skipped
/// with a warning); `None` if no table has the game.
fn from_tables(dir: &Path, rules: &Rules) -> Result<Option<CatalogueEntry>, String> {
    // A folder that cannot be listed (missing, misspelt, a file) is an
    // error before any work; a table in it that cannot be read is passed
    // over with a warning.
    let listing = std::fs::read_dir(dir)
        .map_err(|e| format!("--tables {}: {e}", sg_text::shown_path(dir)))?;
    let mut paths: Vec<std::path::PathBuf> = listing
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "sgt"))
        .collect();
    paths.sort();
    let mut best: Option<CatalogueEntry> = None;
    for path in paths {
        let shown = sg_text::shown_path(&path);
        // The header first: a table of another kind (a long run's octal
        // sequence, say) is passed over without reading it.
        match sg_tables::read_header(&path) {
            Ok(header) if header.kind == sg_tables::format::TableKind::OctalRuns => {}
            Ok(_) => continue,
            Err(e) => {
                print_error(format_args!("warning: {shown}: skipped: {e}"));
                continue;
            }
        }
        let file = match sg_tables::read_file(&path) {
            Ok(file) => file,
            Err(e) => {
                print_error(format_args!("warning: {shown}: skipped: {e}"));
                continue;
            }
        };
        let runs = match file.table().octal_runs() {
            Ok(runs) => runs,
            Err(e) => {
                print_error(format_args!("warning: {shown}: skipped: {e}"));
                continue;
            }
        };
        let Some(entry) = runs.get(rules) else {
            continue;
        };
        let better = |b: &CatalogueEntry| {
            (entry.period.is_some(), entry.computed) > (b.period.is_some(), b.computed)
        };
        if best.as_ref().is_some_and(|b| !better(b)) {
            continue;
        }
        match sg_tables::octal_runs::verify_run(entry) {
            Ok(()) => best = Some(entry.clone()),
            Err(e) => print_error(format_args!("warning: {shown}: {rules} skipped: {e}")),
        }
    }
    Ok(best)
}

/// A stored run ready to extend, or how its check was stopped.
enum Resumed {
    Ready(Box<Sequence>, Source),
    /// [`Ended::StoppedChecking`].
    Stopped(Ended),
}

/// The stored run of `resume`, checked unless trusted, ready to extend;
/// a message if the file is not a run of `rules` (when given) or holds a
/// wrong value.
fn resumed(rules: Option<Rules>, resume: Resume<'_>) -> Result<Result<Resumed, String>> {
    let path = resume.path;
    let file = match sg_tables::read_file(path) {
        Ok(file) => file,
        // Nothing there, or a folder: the user must fix the command.
        Err(sg_tables::TableError::Io { error, .. }) if wrong_path(&error) => {
            return Ok(Err(format!(
                "--resume {}: {error}",
                sg_text::shown_path(path)
            )));
        }
        Err(e @ sg_tables::TableError::Io { .. }) => return Err(e.into()),
        Err(e) => return Ok(Err(format!("--resume {}: {e}", sg_text::shown_path(path)))),
    };
    let stored = match file.table().octal_sequence() {
        Ok(stored) => stored,
        Err(e) => {
            let misere = file.table().kind() == sg_tables::format::TableKind::MisereQuotient;
            return Ok(Err(format!(
                "--resume {}: {e}{}",
                sg_text::shown_path(path),
                if misere {
                    " (continue it with --misere)"
                } else {
                    ""
                }
            )));
        }
    };
    if let Some(rules) = &rules
        && rules != stored.rules()
    {
        return Ok(Err(format!(
            "--resume {}: the file holds the game {}, not {rules}",
            sg_text::shown_path(path),
            stored.rules()
        )));
    }
    let rules = stored.rules().clone();
    let count = stored.values().len() as u64;
    if !resume.trust {
        let last = count.saturating_sub(1);
        // A signal during the check stops it: the run says so (nothing
        // computed, nothing written) instead of dying silently.
        let stop = StopSignals::catch();
        let mut checked = 0;
        match with_progress("checking", 0, last, |progress| {
            check_values_watched(&rules, stored.values(), &mut |done| {
                progress(done);
                checked = done;
                match stop.caught() {
                    Some(_) => ControlFlow::Break(()),
                    None => ControlFlow::Continue(()),
                }
            })
        }) {
            Ok(true) => {}
            Ok(false) => {
                let signal = stop.caught().expect("the check stops on a signal only");
                return Ok(Ok(Resumed::Stopped(Ended::StoppedChecking {
                    signal,
                    checked,
                    stored: count,
                })));
            }
            Err(e @ OctalError::OutOfMemory { .. }) => {
                return Err(anyhow::anyhow!(
                    "--resume {}: checking: {e}",
                    sg_text::shown_path(path)
                ));
            }
            Err(e) => {
                return Ok(Err(format!(
                    "--resume {}: {e}: the file is not a run of {rules}",
                    sg_text::shown_path(path)
                )));
            }
        }
    }
    let values = stored.values().to_vec();
    match Sequence::resume(rules, values) {
        Ok(sequence) => Ok(Ok(Resumed::Ready(
            Box::new(sequence),
            Source::Resumed {
                stored: count,
                checked: !resume.trust,
            },
        ))),
        Err(e @ OctalError::OutOfMemory { .. }) => Err(anyhow::anyhow!(
            "--resume {}: {e}",
            sg_text::shown_path(path)
        )),
        Err(e) => Ok(Err(format!("--resume {}: {e}", sg_text::shown_path(path)))),
    }
}

/// Extends `sequence` to heap `to` (or until certified), with a progress
/// bar on a terminal once the run has lasted a second, writing
/// `checkpoints` if given (a line on standard error for each when it is
/// not a terminal, for the logs of runs in the background); with the
/// signal that stopped it, if one did (its values are then not written
/// yet), with or without checkpoints. A message if `to` is beyond the
/// engine's heaps.
fn extend(
    mut sequence: Sequence,
    to: u64,
    checkpoints: Option<Checkpoints<'_>>,
) -> Result<Result<(Sequence, Option<i32>), String>> {
    let start = Instant::now();
    let first = sequence.values().len() as u64;
    // Every run that computes stops on a signal with what it has: the
    // checkpoint with `--out`, the values computed otherwise.
    let stop = StopSignals::catch();
    let rules = sequence.rules().clone();
    let log = !std::io::stderr().is_terminal();
    let mut written = Instant::now();
    let status = with_progress("computing", first, to, |progress| {
        sequence.extend_watched(to, &mut |values| {
            progress(values.len() as u64);
            if stop.caught().is_some() {
                return ControlFlow::Break(());
            }
            if let Some(checkpoints) = checkpoints
                && written.elapsed() >= checkpoints.every
            {
                let elapsed = Duration::from_secs(start.elapsed().as_secs());
                match write_table(checkpoints.destination, &rules, values) {
                    // Never a panic (`2>/dev/full`): the run goes on.
                    Ok(()) if log => print_error(format_args!(
                        "checkpoint: G(0..{}) written to {} after {}",
                        values.len(),
                        sg_text::shown_path(checkpoints.destination.path()),
                        humantime::format_duration(elapsed),
                    )),
                    Ok(()) => {}
                    Err(e) => print_error(format_args!(
                        "warning: checkpoint not written (the run goes on): {e:#}"
                    )),
                }
                written = Instant::now();
            }
            ControlFlow::Continue(())
        })
    });
    match status {
        Ok(Status::Stopped) => {
            let signal = stop.caught();
            Ok(Ok((sequence, signal)))
        }
        Ok(_) => Ok(Ok((sequence, None))),
        Err(e @ OctalError::TooManyHeaps { .. }) => Ok(Err(format!("--to {to}: {e}"))),
        // The environment's limit (exit status 1), said once, with what
        // to do.
        Err(e @ OctalError::OutOfMemory { .. }) => Err(anyhow::anyhow!(
            "{e} (the values take 2 bytes a heap): lower --to, or give the run more memory"
        )),
        Err(e) => Err(e.into()),
    }
}
