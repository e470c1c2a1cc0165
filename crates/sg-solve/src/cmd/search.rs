//! What the game subcommands (`cram`, and the other games built into
//! `sg-search`) share: the options of the search, the run with a progress
//! line on a terminal, the answer as text or JSON, and the certificate of
//! `--proof`.

use super::numbers::number;
use super::shared::{bad_input, destination, print_error, read_named};
use crate::input::parse_size;
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use sg_search::proof::{ProofGame, prove};
use sg_search::{Nimber, Options, Outcome, Solver, Stats};
use sg_solve::answer::write_json_line;
use sg_solve::machine::default_table_memory;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The generator named in the certificates `--proof` writes.
const GENERATOR: &str = concat!("grundy ", env!("CARGO_PKG_VERSION"));

/// How long a run goes before its progress line shows.
const QUIET: Duration = Duration::from_secs(1);

/// The options of the search, shared by the game subcommands.
#[derive(clap::Args, Debug)]
pub(crate) struct SearchArgs {
    /// Print one JSON object: game, nimber, outcome (WIN or LOSE for the
    /// player to move), hint (null without --hint or on a lost position),
    /// positions (entries in the table), expanded (positions whose options
    /// the search generated: its work) and seconds (of the search).
    #[arg(long)]
    json: bool,
    /// Also print a winning move (none on a lost position).
    #[arg(long)]
    hint: bool,
    /// Only who wins (WIN or LOSE, and a winning move with --hint), not
    /// the nimber (null in --json): the search asks whether the nimber is
    /// 0, which takes less work. A Cram board that is its own image under
    /// half a turn with its two central cells free (an empty board odd one
    /// way and even the other) is won at once by symmetry.
    #[arg(long, conflicts_with = "proof")]
    outcome: bool,
    /// Misère play: the player who makes the last move loses (a player
    /// who cannot move wins). Prints who wins (WIN or LOSE, and a winning
    /// move with --hint), not the nimber (null in --json, with a key
    /// "misere": true): misère sums are not decided by nimbers, and the
    /// whole position is searched where the components do not decide it.
    /// A position without a move is a WIN with no move to make.
    /// The search consults no precomputed table and runs on one thread:
    /// --proof (a certificate of the normal-play nimber), --online and
    /// --threads are refused.
    #[arg(long)]
    pub(crate) misere: bool,
    /// Threads of the search (default, and at most: one per CPU the
    /// process may run on).
    #[arg(long, value_name = "T", value_parser = number::<u32>(1, 1024))]
    threads: Option<u32>,
    /// The most memory the transposition table may take, in bytes or with
    /// a unit (K, M, G, T: powers of 1024); when it is full, the entries
    /// that cost least to compute again are replaced. Default: a quarter
    /// of the machine's memory.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    memory: Option<u64>,
    /// Also write a certificate of the nimber into FILE, which `grundy
    /// proof check FILE` confirms from the rules alone. FILE is written
    /// whole or not at all (a temporary file renamed).
    #[arg(long, value_name = "FILE")]
    proof: Option<PathBuf>,
    /// Use no precomputed table: compute every component by the search
    /// (Cram consults its endgame table of small components otherwise;
    /// the other games have none). The answer is the same.
    #[arg(long)]
    pub(crate) online: bool,
    /// Write what the search has learnt of its costliest components to
    /// FILE every --checkpoint-every, once more when it ends, and when it
    /// is stopped by Ctrl-C, SIGTERM or SIGHUP (then exit status 128 + the
    /// signal's number; a second signal stops it at once). FILE is
    /// replaced whole each time (a temporary file renamed); --resume FILE
    /// goes on from it.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// With --checkpoint: how often (e.g. 30s, 10m, 2h 30m).
    #[arg(long, value_name = "DURATION", requires = "checkpoint",
          default_value = super::octal::DEFAULT_CHECKPOINT_EVERY,
          value_parser = super::octal::parse_duration)]
    checkpoint_every: Duration,
    /// Go on from a checkpoint of the same game (--checkpoint): what it
    /// says is used as hints that choose what the search tries first, and
    /// every answer is proven again, so a file made wrong slows the search
    /// and never changes its answer.
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
    /// With --resume: trust the checkpoint's facts instead of proving them
    /// again, for a file you made yourself with --checkpoint (its checksum
    /// guards against damage, not against a file made wrong).
    #[arg(long, requires = "resume")]
    trust_resume: bool,
}

/// The components a checkpoint keeps: those whose computation expanded at
/// least this many positions (the others are quick to find again).
const CHECKPOINT_MIN_WORK: u64 = 16;

/// The largest checkpoint read by --resume: 16 GiB.
const MAX_CHECKPOINT: u64 = 16 << 30;

impl SearchArgs {
    fn options(&self) -> Options {
        let memory = self.memory.unwrap_or_else(default_table_memory);
        // More threads than CPUs only take turns on the same cores, and
        // the searches they share wait on each other (5x6 on 2 CPUs took
        // 100 times as long with 1024 threads): at most one per CPU.
        Options {
            memory: usize::try_from(memory).unwrap_or(usize::MAX),
            threads: super::threads::capped(self.threads),
        }
    }
}

/// How a game subcommand shows a move in `--json`'s `hint` (the text
/// output shows it as certificates do: [`ProofGame::show_move`]).
pub(crate) trait ShowMove<G: ProofGame> {
    /// The move for `--json`'s `hint`.
    fn json(&self, game: &G, mv: &G::Move) -> serde_json::Value;

    /// A move known to win `position` without search (Cram's symmetry);
    /// by default none.
    fn known_win(&self, _game: &G, _position: &G::Position) -> Option<G::Move> {
        None
    }
}

/// The answer as `--json` prints it.
#[derive(Serialize)]
struct Answer {
    game: String,
    /// `None` with `--outcome` and `--misere`.
    nimber: Option<Nimber>,
    /// `true` with `--misere` (the outcome is the misère one); absent
    /// otherwise.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    misere: bool,
    outcome: &'static str,
    hint: Option<serde_json::Value>,
    positions: usize,
    expanded: u64,
    seconds: f64,
}

/// Solves the start of `game` with the options `args`, prints the answer
/// and writes the certificate.
pub(crate) fn solve<G: ProofGame>(
    game: &G,
    args: &SearchArgs,
    show: &impl ShowMove<G>,
) -> Result<ExitCode> {
    // The options without a meaning in misère play, refused in the words
    // of `grundy octal --misere`.
    let refused = [
        (
            args.proof.is_some(),
            "--proof writes a certificate of the normal-play nimber",
        ),
        (args.online, "--online skips the normal-play endgame table"),
        (
            args.threads.is_some(),
            "--threads: the misère search runs on one thread",
        ),
    ];
    if let Some((_, why)) = refused.iter().find(|(given, _)| args.misere && *given) {
        return Ok(bad_input(format!("{why}; it cannot be used with --misere")));
    }
    if args.misere && (args.checkpoint.is_some() || args.resume.is_some()) {
        return Ok(bad_input(
            "--checkpoint and --resume keep the normal-play search's table; they cannot be \
             used with --misere",
        ));
    }
    // The certificate's and the checkpoint's files are checked before any
    // work.
    let proof_file = args.proof.as_deref().map(destination).transpose()?;
    let checkpoint_file = args.checkpoint.as_deref().map(destination).transpose()?;
    let mut solver = Solver::with_options(game, args.options());
    // The facts resumed as hints: kept in the checkpoints written, so that
    // a run stopped again loses nothing it resumed from.
    let mut carried = Vec::new();
    if let Some(path) = &args.resume {
        let bytes = read_named(Some(path), MAX_CHECKPOINT, None)?;
        let facts = match sg_search::checkpoint::decode(game, &bytes) {
            Ok(facts) => facts,
            Err(e) => {
                return Ok(bad_input(format!(
                    "--resume {}: {e}",
                    sg_text::shown_path(path)
                )));
            }
        };
        if args.trust_resume {
            solver.learn(facts);
        } else {
            if checkpoint_file.is_some() {
                carried.clone_from(&facts);
            }
            solver = solver.with_hints(facts);
        }
    }
    let root = game.root();
    let begin = Instant::now();
    let checkpoints = checkpoint_file.as_ref().map(|file| Checkpoints {
        file,
        every: args.checkpoint_every,
        carried: &carried,
    });
    let search = with_checkpoints(&solver, game, checkpoints, || {
        with_progress(&solver, "searching", || {
            if args.misere {
                // Cram's symmetry is a normal-play strategy: not asked here.
                let win = solver.misere_outcome(&root)? == Outcome::Win;
                let hint = match args.hint && win {
                    true => solver.misere_winning_move(&root)?,
                    false => None,
                };
                return Ok((None, win, hint));
            }
            if args.outcome {
                if let Some(mv) = show.known_win(game, &root) {
                    return Ok((None, true, args.hint.then_some(mv)));
                }
                let win = solver.outcome(&root, 0)? == Outcome::Win;
                let hint = match args.hint && win {
                    true => solver.winning_move(&root)?,
                    false => None,
                };
                return Ok((None, win, hint));
            }
            let nimber = solver.nimber(&root)?;
            let hint = match (args.hint, nimber) {
                (true, 1..) => solver.winning_move(&root)?,
                _ => None,
            };
            Ok::<_, sg_search::SearchError>((Some(nimber), nimber != 0, hint))
        })
    })?;
    let (nimber, win, hint) = match search {
        Ok(found) => found,
        Err(Stopped { signal, written }) => {
            let path = args
                .checkpoint
                .as_deref()
                .expect("stopped only with --checkpoint");
            // The command to go on, the path as a shell reads it; a path
            // that cannot be shown whole on a line is named FILE.
            let (word, note) = match sg_text::shell_word(path) {
                Some(word) => (word, ""),
                None => ("FILE".to_owned(), " (FILE being the file written)"),
            };
            print_error(format_args!(
                "stopped by {}: {written} facts written to {}; go on with the same command and \
                 --resume {word}{note}",
                super::shared::signal_name(signal),
                sg_text::shown_path(path),
            ));
            return Ok(super::shared::signal_exit(signal));
        }
    };
    let seconds = begin.elapsed().as_secs_f64();
    let outcome = if win { "WIN" } else { "LOSE" };
    let mut out = Vec::new();
    if args.json {
        let answer = Answer {
            game: game.describe(),
            nimber,
            misere: args.misere,
            outcome,
            hint: hint.as_ref().map(|mv| show.json(game, mv)),
            positions: solver.positions(),
            expanded: solver.expanded(),
            seconds,
        };
        write_json_line(&mut out, &answer);
    } else {
        if let Some(nimber) = nimber {
            writeln!(out, "nimber {nimber}")?;
        }
        writeln!(out, "{outcome}")?;
        if let Some(mv) = &hint {
            writeln!(out, "move {}", game.show_move(mv))?;
        }
    }
    // The answer first (the proof may take a while), but a standard output
    // that fails (closed by its reader, or full) does not stop the proof
    // the user asked for: it is written, then the failure is reported.
    // With --trust-resume the answer may rest on facts nobody proved: the
    // proof comes first, and a contradiction it meets among them ends the
    // run before any answer is printed.
    let make_proof = || with_progress(&solver, "writing the proof", || prove(&solver, GENERATOR));
    let mut proved = match (&proof_file, args.trust_resume) {
        (Some(_), true) => Some(make_proof()?),
        _ => None,
    };
    let mut stdout = std::io::stdout().lock();
    let printed = stdout
        .write_all(&out)
        .and_then(|()| stdout.flush())
        .context("cannot write the answer");
    drop(stdout);
    if let Some(file) = proof_file {
        let proof = match proved.take() {
            Some(proof) => proof,
            None => make_proof()?,
        };
        file.write(|out| {
            out.write_all(&proof.bytes)
                .with_context(|| format!("cannot write {}", sg_text::shown_path(file.path())))
        })?;
    }
    printed?;
    Ok(ExitCode::SUCCESS)
}

/// Where and how often a search writes its checkpoints, and the facts
/// resumed as hints that they keep.
struct Checkpoints<'a, P> {
    file: &'a sg_files::safe_write::Destination,
    every: Duration,
    carried: &'a [(P, sg_search::Fact)],
}

/// A search stopped by a signal, its last checkpoint written.
struct Stopped {
    signal: i32,
    written: usize,
}

/// Writes the checkpoint of what `solver` knows now, with the `carried`
/// facts of positions it knows nothing of (hints resumed, not proven
/// again yet: a later run takes them as hints again): how many facts.
fn write_checkpoint<G: ProofGame>(
    solver: &Solver<'_, G>,
    game: &G,
    file: &sg_files::safe_write::Destination,
    carried: &[(G::Position, sg_search::Fact)],
) -> Result<usize> {
    let mut facts: Vec<_> = solver
        .facts(CHECKPOINT_MIN_WORK)
        .into_iter()
        .map(|(position, fact, _)| (position, fact))
        .collect();
    if !carried.is_empty() {
        let known: std::collections::HashSet<&G::Position> = facts.iter().map(|(p, _)| p).collect();
        let kept: Vec<_> = carried
            .iter()
            .filter(|(p, _)| !known.contains(p))
            .cloned()
            .collect();
        facts.extend(kept);
    }
    let bytes = sg_search::checkpoint::encode(game, &facts, GENERATOR);
    file.write(|out| {
        out.write_all(&bytes)
            .with_context(|| format!("cannot write {}", sg_text::shown_path(file.path())))
    })?;
    Ok(facts.len())
}

/// Runs `work` (the search), writing `checkpoints` if given: every
/// `every` (a line on standard error for each when it is not a terminal,
/// for the logs of runs in the background), once more at the end, and on
/// `SIGINT`, `SIGTERM` or `SIGHUP`, which stop the search
/// ([`Solver::stop`]): then `Err` with the signal, once the last checkpoint
/// is written.
fn with_checkpoints<G: ProofGame, T>(
    solver: &Solver<'_, G>,
    game: &G,
    checkpoints: Option<Checkpoints<'_, G::Position>>,
    work: impl FnOnce() -> Result<T, sg_search::SearchError>,
) -> Result<Result<T, Stopped>> {
    let Some(checkpoints) = checkpoints else {
        return Ok(Ok(work()?));
    };
    let stop = sg_files::signals::StopSignals::catch();
    let done = AtomicBool::new(false);
    let log = !std::io::stderr().is_terminal();
    let result = std::thread::scope(|scope| {
        scope.spawn(|| {
            let start = Instant::now();
            let mut written = Instant::now();
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(50));
                if stop.caught().is_some() {
                    solver.stop();
                    return;
                }
                if written.elapsed() < checkpoints.every {
                    continue;
                }
                match write_checkpoint(solver, game, checkpoints.file, checkpoints.carried) {
                    // Never a panic (`2>/dev/full`): the search goes on.
                    Ok(count) if log => print_error(format_args!(
                        "checkpoint: {count} facts written to {} after {}",
                        sg_text::shown_path(checkpoints.file.path()),
                        humantime::format_duration(Duration::from_secs(start.elapsed().as_secs())),
                    )),
                    Ok(_) => {}
                    Err(e) => print_error(format_args!(
                        "warning: checkpoint not written (the search goes on): {e:#}"
                    )),
                }
                written = Instant::now();
            }
        });
        let result = work();
        done.store(true, Ordering::Relaxed);
        result
    });
    let written = write_checkpoint(solver, game, checkpoints.file, checkpoints.carried)?;
    match (result, stop.caught()) {
        (Err(sg_search::SearchError::Stopped), Some(signal)) => {
            Ok(Err(Stopped { signal, written }))
        }
        (result, _) => Ok(Ok(result?)),
    }
}

/// Runs `work`, with a progress line on standard error when it is a
/// terminal and the work lasts more than [`QUIET`]: positions expanded
/// per second, and how full the table is.
fn with_progress<G: ProofGame, T>(
    solver: &Solver<'_, G>,
    what: &'static str,
    work: impl FnOnce() -> T,
) -> T {
    if !std::io::stderr().is_terminal() {
        return with_progress_log(solver, what, work);
    }
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let start = Instant::now();
            let first = solver.stats();
            let mut bar: Option<ProgressBar> = None;
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                if start.elapsed() < QUIET {
                    continue;
                }
                let bar = bar.get_or_insert_with(|| {
                    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                    bar.set_style(
                        ProgressStyle::with_template("[{elapsed_precise}] {msg}")
                            .expect("the template is valid"),
                    );
                    bar
                });
                bar.set_message(progress_line(
                    what,
                    &first,
                    &solver.stats(),
                    start.elapsed(),
                ));
            }
            if let Some(bar) = bar {
                bar.finish_and_clear();
            }
        });
        let result = work();
        done.store(true, Ordering::Relaxed);
        result
    })
}

/// Runs `work` with a line on standard error now and then
/// ([`super::shared::ProgressLog`]): for a standard error that is not a
/// terminal.
fn with_progress_log<G: ProofGame, T>(
    solver: &Solver<'_, G>,
    what: &'static str,
    work: impl FnOnce() -> T,
) -> T {
    // The line's thread wakes when a line may be due, or at once when the
    // work ends (the sender dropped): no wait added to a short search.
    let (done, ended) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let start = Instant::now();
            let first = solver.stats();
            let mut log = super::shared::ProgressLog::new();
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                ended.recv_timeout(Duration::from_millis(500))
            {
                log.tick(|| progress_line(what, &first, &solver.stats(), start.elapsed()));
            }
        });
        let result = work();
        drop(done);
        result
    })
}

/// `searching: 1.2M positions expanded, 340k/s; table 1.5 GiB of 4.0 GiB
/// (37%)`.
fn progress_line(what: &str, first: &Stats, now: &Stats, elapsed: Duration) -> String {
    let expanded = now.expanded.saturating_sub(first.expanded);
    let rate = expanded as f64 / elapsed.as_secs_f64().max(1e-3);
    let fill = 100.0 * now.table_bytes as f64 / now.table_budget.max(1) as f64;
    format!(
        "{what}: {} positions expanded, {}/s; table {} of {} ({fill:.0}%)",
        count(expanded as f64),
        count(rate),
        bytes(now.table_bytes as f64),
        bytes(now.table_budget as f64),
    )
}

/// `1234567` as `1.2M`.
fn count(n: f64) -> String {
    match n {
        n if n >= 1e9 => format!("{:.1}G", n / 1e9),
        n if n >= 1e6 => format!("{:.1}M", n / 1e6),
        n if n >= 1e3 => format!("{:.0}k", n / 1e3),
        n => format!("{n:.0}"),
    }
}

/// Bytes in MiB, or GiB from 1 GiB.
fn bytes(n: f64) -> String {
    const GIB: f64 = (1u64 << 30) as f64;
    const MIB: f64 = (1u64 << 20) as f64;
    if n >= GIB {
        format!("{:.1} GiB", n / GIB)
    } else {
        format!("{:.0} MiB", n / MIB)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_line_says_speed_and_fill() {
        let first = Stats::default();
        let now = Stats {
            expanded: 2_500_000,
            positions: 1_000_000,
            table_bytes: 3 << 29,
            table_budget: 4 << 30,
        };
        assert_eq!(
            progress_line("searching", &first, &now, Duration::from_secs(2)),
            "searching: 2.5M positions expanded, 1.2M/s; table 1.5 GiB of 4.0 GiB (38%)"
        );
    }
}
