//! Each game of a sweep, its lock held: skipped if its run is done,
//! resumed from its checkpoint, or computed; its line printed and added
//! to the summary.

use super::Sweep;
use super::lock::Claim;
use super::specs::name;
use super::summary::{SUMMARY_EVERY, summary_line};
use crate::cmd::octal::run::{Checkpoints, Ended, Refused, Request, Resume, Run, RunError};
use crate::cmd::shared::{destination, print_error};
use anyhow::{Context, Result, bail};
use sg_octal::{Rules, Sequence};
use sg_tables::octal::CatalogueEntry;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

impl Sweep<'_> {
    /// Every game: those another sweep of the same folder is computing
    /// last, once that sweep is done with them (their runs are then
    /// done, or go on from its checkpoint), or not at all with
    /// `--leave-busy`.
    pub(super) fn all(mut self, games: &[Rules]) -> Result<ExitCode> {
        // The summary from the start (an empty shard's too), and at the
        // end whatever happened (it is rewritten only now and then in
        // between).
        self.write_summary()?;
        let result = self.every(games);
        let written = self.write_summary();
        let code = result?;
        written?;
        Ok(code)
    }

    /// [`Sweep::all`] but for the summary's first and last writes.
    fn every(&mut self, games: &[Rules]) -> Result<ExitCode> {
        let mut busy: Vec<(usize, &Rules)> = Vec::new();
        for (i, rules) in games.iter().enumerate() {
            match self.claim(rules, false)? {
                Claim::Held(lock) => {
                    if let Some(stopped) = self.one(i, rules)? {
                        return Ok(stopped);
                    }
                    drop(lock);
                }
                Claim::Busy => {
                    print_error(format_args!(
                        "sweep: [{}/{}] {}: another sweep of this folder is computing it; \
                         back to it at the end",
                        i + 1,
                        self.count,
                        name(rules)
                    ));
                    busy.push((i, rules));
                }
            }
        }
        if self.args.leave_busy {
            for (i, rules) in busy {
                print_error(format_args!(
                    "sweep: [{}/{}] {}: left to the other sweep (--leave-busy)",
                    i + 1,
                    self.count,
                    name(rules)
                ));
            }
            return Ok(ExitCode::SUCCESS);
        }
        for (i, rules) in busy {
            print_error(format_args!(
                "sweep: [{}/{}] {}: waiting for the other sweep to be done with it",
                i + 1,
                self.count,
                name(rules)
            ));
            let lock = self.claim(rules, true)?;
            if let Some(stopped) = self.one(i, rules)? {
                return Ok(stopped);
            }
            drop(lock);
        }
        Ok(ExitCode::SUCCESS)
    }

    /// The game `i`, its lock held: skipped if done, resumed if
    /// checkpointed, computed otherwise; its line printed and added to the
    /// summary. The exit status if a signal stopped it.
    fn one(&mut self, i: usize, rules: &Rules) -> Result<Option<ExitCode>> {
        let code = name(rules);
        let path = self.runs.join(format!("{code}.sgt"));
        let start = Instant::now();
        let file = destination(&path)?;
        let (entry, how) = match stored(&path, rules, self.to)? {
            Stored::Done(entry) => (entry, DONE_BEFORE.to_owned()),
            stored => {
                let resume = matches!(stored, Stored::Partial).then(|| Resume {
                    path: &path,
                    trust: self.args.trust_resume,
                });
                let checkpoints = Checkpoints {
                    destination: &file,
                    every: self.args.checkpoint_every,
                };
                let request = Request {
                    rules: Some(rules.clone()),
                    to: self.to,
                    resume,
                    online: true,
                    tables: None,
                    checkpoints: Some(checkpoints),
                };
                match Run::obtain(request) {
                    Ok(Ended::Done(run)) => {
                        run.write(&file)?;
                        (run.summary, run.source.describe())
                    }
                    Ok(Ended::Stopped { signal, computed }) => {
                        self.write_summary()?;
                        print_error(format_args!(
                            "sweep: stopped by {} in {code} at heap {computed} (checkpointed \
                             to {}); the same command goes on from there",
                            crate::cmd::shared::signal_name(signal),
                            sg_text::shown_path(&path),
                        ));
                        return Ok(Some(crate::cmd::shared::signal_exit(signal)));
                    }
                    Ok(Ended::StoppedChecking { signal, .. }) => {
                        self.write_summary()?;
                        print_error(format_args!(
                            "sweep: stopped by {} in {code} while checking the values of {}; \
                             the same command goes on from there",
                            crate::cmd::shared::signal_name(signal),
                            sg_text::shown_path(&path),
                        ));
                        return Ok(Some(crate::cmd::shared::signal_exit(signal)));
                    }
                    // A checkpoint that is not a run of the game.
                    Err(RunError::Refused(refused)) => match *refused {
                        Refused::Resume { path, problem } if path.exists() => bail!(
                            "{}: {problem}; remove it to compute the game anew",
                            sg_text::shown_path(&path)
                        ),
                        refused => bail!("{code}: {refused}"),
                    },
                    Err(RunError::Failed(error)) => return Err(error),
                }
            }
        };
        let seconds = start.elapsed().as_secs_f64();
        print_error(format_args!(
            "sweep: [{}/{}] {code}: {how}, {}",
            i + 1,
            self.count,
            describe(&entry)
        ));
        let line = summary_line(&entry, seconds, &self.machine);
        let kept = self.previous.remove(&code).filter(|before| {
            // The same run: the fields before the seconds agree.
            how == DONE_BEFORE && before.split('\t').take(6).eq(line.split('\t').take(6))
        });
        self.lines.push(kept.unwrap_or(line));
        if self.summary_written.elapsed() >= SUMMARY_EVERY {
            self.write_summary()?;
        }
        Ok(None)
    }
}

/// How a game found done is said.
const DONE_BEFORE: &str = "done before";

/// What a game's file holds.
enum Stored {
    /// Nothing yet.
    Absent,
    /// A run that goes on.
    Partial,
    /// A run certified, or computed to the bound: its summary.
    Done(CatalogueEntry),
}

/// What `path` holds of the run of `rules` to heap `to`: a file that is
/// not a table of that game is an error naming it.
fn stored(path: &Path, rules: &Rules, to: u64) -> Result<Stored> {
    if !path.exists() {
        return Ok(Stored::Absent);
    }
    let shown = sg_text::shown_path(path);
    let table = sg_tables::read_file(path).with_context(|| {
        format!("{shown}: not a run of this sweep; remove it to compute the game anew")
    })?;
    let sequence = table
        .table()
        .octal_sequence()
        .with_context(|| format!("{shown}: not a run of this sweep"))?;
    if sequence.rules() != rules {
        bail!(
            "{shown}: holds the game {}, not {rules}; remove it to compute the game anew",
            sequence.rules()
        );
    }
    let values = sequence.values().to_vec();
    let computed = values.len() as u64;
    let resumed = Sequence::resume(rules.clone(), values)
        .with_context(|| format!("{shown}: not a run of {rules}"))?;
    if resumed.period().is_some() || computed > to {
        return Ok(Stored::Done(CatalogueEntry::from_sequence(&resumed)));
    }
    Ok(Stored::Partial)
}

/// `heaps 0..=N, period P from heap Q (certified)` or `..., no period`.
fn describe(entry: &CatalogueEntry) -> String {
    let last = entry.computed.saturating_sub(1);
    match entry.period {
        Some(p) => format!(
            "heaps 0..={last}, period {} from heap {} (certified), largest value {}",
            p.period, p.preperiod, entry.max_value
        ),
        None => format!(
            "heaps 0..={last}, no period certified, largest value {}",
            entry.max_value
        ),
    }
}
