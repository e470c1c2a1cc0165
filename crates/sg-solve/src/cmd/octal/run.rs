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

use super::progress::with_progress;
pub(crate) use crate::cmd::shared::bad_input;
use crate::cmd::shared::{print_error, wrong_path};
use anyhow::Result;
use sg_files::safe_write::Destination;
use sg_files::signals::StopSignals;
use sg_octal::{OctalError, PeriodicSequence, Rules, Sequence, Status, check_values_watched};
use sg_solve::octal::answers::Catalogued;
pub(crate) use sg_solve::octal::summary::Source;
use sg_tables::octal::{CatalogueEntry, write_octal_sequence};
use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The generator named in the metadata of the files `--out` writes.
const GENERATOR: &str = concat!("grundy ", env!("CARGO_PKG_VERSION"));

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

/// What a run is asked for.
#[derive(Debug, Clone)]
pub(crate) struct Request<'a> {
    /// The game; `None` with `resume`: the game of the file.
    pub(crate) rules: Option<Rules>,
    /// The last heap (the run stops sooner once a period is certified).
    pub(crate) to: u64,
    /// A stored run to continue (`--resume`).
    pub(crate) resume: Option<Resume<'a>>,
    /// Compute, even a game the compiled-in catalogue answers (`--online`).
    pub(crate) online: bool,
    /// A folder whose octal-runs tables are looked in first (`--tables`).
    pub(crate) tables: Option<&'a Path>,
    /// Where and how often a run that computes writes its values (`--out`).
    pub(crate) checkpoints: Option<Checkpoints<'a>>,
}

/// Why a run did not end: a command the user must change (exit status
/// 2), or a failure of the machine or of the files (exit status 1).
#[derive(Debug, thiserror::Error)]
pub(crate) enum RunError {
    /// Input the user must change.
    #[error(transparent)]
    Refused(Box<Refused>),
    /// Anything else (no memory, a file that cannot be written, ...).
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

impl From<Refused> for RunError {
    fn from(refused: Refused) -> Self {
        RunError::Refused(Box::new(refused))
    }
}

/// A run refused for its input (exit status 2).
#[derive(Debug, thiserror::Error)]
pub(crate) enum Refused {
    /// The file of `--resume` is not a run this command continues.
    #[error("--resume {}: {problem}", sg_text::shown_path(path))]
    Resume {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: ResumeProblem,
    },
    /// The folder of `--tables` cannot be listed.
    #[error("--tables {}: {error}", sg_text::shown_path(dir))]
    Tables {
        /// The folder.
        dir: PathBuf,
        /// Why it cannot be listed.
        error: std::io::Error,
    },
    /// `--to` beyond the heaps the engine computes.
    #[error("--to {to}: {error}")]
    BeyondEngine {
        /// The heap asked for.
        to: u64,
        /// The engine's refusal.
        error: OctalError,
    },
    /// A record of `--tables` (checked) that the engine cannot extend.
    #[error("{0}")]
    Record(OctalError),
}

/// What is wrong with the file of `--resume`.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ResumeProblem {
    /// Nothing there, or a folder.
    #[error("{0}")]
    Missing(std::io::Error),
    /// Not a table file, or a damaged one.
    #[error("{0}")]
    Unreadable(sg_tables::TableError),
    /// A table of another kind (a misère quotient: `--misere` continues it).
    #[error("{error}{}", if *misere { " (continue it with --misere)" } else { "" })]
    NotARun {
        /// Why it is not an octal sequence.
        error: sg_tables::TableError,
        /// It is a misère quotient.
        misere: bool,
    },
    /// A run of another game than the one named.
    #[error("the file holds the game {stored}, not {asked}")]
    OtherGame {
        /// The file's game.
        stored: Rules,
        /// The game named on the command line.
        asked: Rules,
    },
    /// A stored value that is not the game's.
    #[error("{error}: the file is not a run of {rules}")]
    WrongValues {
        /// The first wrong value.
        error: OctalError,
        /// The file's game.
        rules: Rules,
    },
    /// Values the engine cannot continue from.
    #[error("{0}")]
    NotResumable(OctalError),
}

impl Run {
    /// The run `request` asks for: from `--tables`, the catalogue, a
    /// stored run or computed now, writing its checkpoints if it computes.
    pub(crate) fn obtain(request: Request<'_>) -> Result<Ended, RunError> {
        let Request {
            rules,
            to,
            resume,
            online,
            tables,
            checkpoints,
        } = request;
        let (sequence, source) = match resume {
            Some(resume) => match resumed(rules, resume)? {
                Resumed::Ready(sequence, source) => (*sequence, source),
                Resumed::Stopped(ended) => return Ok(ended),
            },
            None => {
                let rules = rules.expect("clap requires a game without --resume");
                let from_tables = match tables {
                    Some(dir) => from_tables(dir, &rules)?,
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
                        return Ok(Ended::Done(Run {
                            values: sg_tables::octal_runs::run_values(&entry),
                            summary: entry,
                            source: Source::Table,
                            stopped: None,
                        }));
                    }
                    // Short of the heap asked for: its values, extended.
                    Some(entry) => {
                        let values = sg_tables::octal_runs::run_values(&entry);
                        match Sequence::resume(rules, values) {
                            Ok(sequence) => (sequence, Source::Table),
                            Err(e) => return Err(Refused::Record(e).into()),
                        }
                    }
                    None => {
                        if !online && let Some(run) = from_catalogue(&rules, to) {
                            return Ok(Ended::Done(run));
                        }
                        (Sequence::new(rules), Source::Computed)
                    }
                }
            }
        };
        let (sequence, stopped) = extend(sequence, to, checkpoints)?;
        if let (Some(signal), Some(checkpoints)) = (stopped, checkpoints) {
            write_table(checkpoints.destination, sequence.rules(), sequence.values())?;
            return Ok(Ended::Stopped {
                signal,
                computed: sequence.values().len() as u64,
            });
        }
        Ok(Ended::Done(Run {
            summary: CatalogueEntry::from_sequence(&sequence),
            values: sequence.into_values(),
            source,
            stopped,
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
/// is solved there ([`sg_solve::octal::answers::from_catalogue`]: checked
/// before use); an entry that fails its check is reported and the game
/// computed instead.
fn from_catalogue(rules: &Rules, to: u64) -> Option<Run> {
    match sg_solve::octal::answers::from_catalogue(rules, to) {
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
fn from_tables(dir: &Path, rules: &Rules) -> Result<Option<CatalogueEntry>, RunError> {
    // A folder that cannot be listed (missing, misspelt, a file) is an
    // error before any work; a table in it that cannot be read is passed
    // over with a warning.
    let listing = std::fs::read_dir(dir).map_err(|error| Refused::Tables {
        dir: dir.to_owned(),
        error,
    })?;
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
fn resumed(rules: Option<Rules>, resume: Resume<'_>) -> Result<Resumed, RunError> {
    let path = resume.path;
    let refused = |problem| {
        RunError::from(Refused::Resume {
            path: path.to_owned(),
            problem,
        })
    };
    let file = match sg_tables::read_file(path) {
        Ok(file) => file,
        // Nothing there, or a folder: the user must fix the command.
        Err(sg_tables::TableError::Io { error, .. }) if wrong_path(&error) => {
            return Err(refused(ResumeProblem::Missing(error)));
        }
        Err(e @ sg_tables::TableError::Io { .. }) => return Err(anyhow::Error::from(e).into()),
        Err(e) => return Err(refused(ResumeProblem::Unreadable(e))),
    };
    let stored = match file.table().octal_sequence() {
        Ok(stored) => stored,
        Err(error) => {
            let misere = file.table().kind() == sg_tables::format::TableKind::MisereQuotient;
            return Err(refused(ResumeProblem::NotARun { error, misere }));
        }
    };
    if let Some(rules) = rules
        && &rules != stored.rules()
    {
        return Err(refused(ResumeProblem::OtherGame {
            stored: stored.rules().clone(),
            asked: rules,
        }));
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
                return Ok(Resumed::Stopped(Ended::StoppedChecking {
                    signal,
                    checked,
                    stored: count,
                }));
            }
            Err(e @ OctalError::OutOfMemory { .. }) => {
                return Err(anyhow::anyhow!(
                    "--resume {}: checking: {e}",
                    sg_text::shown_path(path)
                )
                .into());
            }
            Err(error) => return Err(refused(ResumeProblem::WrongValues { error, rules })),
        }
    }
    let values = stored.values().to_vec();
    match Sequence::resume(rules, values) {
        Ok(sequence) => Ok(Resumed::Ready(
            Box::new(sequence),
            Source::Resumed {
                stored: count,
                checked: !resume.trust,
            },
        )),
        Err(e @ OctalError::OutOfMemory { .. }) => {
            Err(anyhow::anyhow!("--resume {}: {e}", sg_text::shown_path(path)).into())
        }
        Err(e) => Err(refused(ResumeProblem::NotResumable(e))),
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
) -> Result<(Sequence, Option<i32>), RunError> {
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
            Ok((sequence, signal))
        }
        Ok(_) => Ok((sequence, None)),
        Err(error @ OctalError::TooManyHeaps { .. }) => {
            Err(Refused::BeyondEngine { to, error }.into())
        }
        // The environment's limit (exit status 1), said once, with what
        // to do.
        Err(e @ OctalError::OutOfMemory { .. }) => Err(anyhow::anyhow!(
            "{e} (the values take 2 bytes a heap): lower --to, or give the run more memory"
        )
        .into()),
        Err(e) => Err(anyhow::Error::from(e).into()),
    }
}
