//! `grundy sweep`: many take-and-break games, each run to a heap bound into
//! a folder of its own results, resumable and shardable (a Slurm job array
//! gives each task its shard); `grundy sweep merge` checks the runs of any
//! number of such folders and writes one table of them (kind "octal
//! runs"), which `grundy octal --tables DIR` answers from.
//!
//! Each game is a run of `grundy octal CODE --out DIR/runs/CODE.sgt`: the
//! same engine, checkpoints and checks. A sweep run again skips the games
//! done (their period certified, or computed to the bound), resumes those
//! checkpointed (their stored values checked first, as `--resume` checks
//! them), and computes the others; a signal stops it with the game in
//! progress checkpointed, so that the next run goes on from there.

use super::octal::run::bad_input;
use super::shared::{destination, print_error};
use anyhow::{Context, Result};
use sg_files::safe_write::Destination;
use sg_octal::Rules;
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

mod game;
mod lock;
mod merge;
mod specs;
mod summary;
use merge::merge;
use specs::games_of;
use summary::{machine, previous_lines};

/// Many take-and-break games, each computed to heap N into DIR.
#[derive(clap::Args, Debug)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    long_about = "Many take-and-break games, each computed to heap N into DIR, resumable \
    and in shards.\n\n\
    SPEC names games: a code (0.77, 4.3c) or a classic game's name (kayles, \
    dawsons-kayles, grundys-game: see grundy octal); a pattern, where each `d` is any octal digit \
    and each `h` any hexadecimal digit (0.ddd: the 512 codes 0.000 to 0.777; 4.hh: 256); \
    or @FILE, a file of codes and patterns, one a line (blank lines and lines from `#` \
    are skipped). Write the hexadecimal digit 13 as D (0.1D is one game, 0.1d eight). \
    Codes that name the same game (0.70 and 0.7) are one game; the games are sorted by \
    code, and named with their hexadecimal digits in capitals (runs/4.0D.sgt).\n\n\
    Each game is computed as `grundy octal CODE --to N --out DIR/runs/CODE.sgt` computes \
    it: until its period is certified or heap N, with a checkpoint every \
    --checkpoint-every. Run again, the sweep skips the games done, resumes the others \
    from their checkpoints (their values checked first, as --resume checks them) and \
    computes the rest: Ctrl-C, SIGTERM or SIGHUP stops it with the game in progress \
    checkpointed (exit status 128 + the signal's number), and the next run goes on from \
    there. With --shard K/M (0 <= K < M) it takes the games K, K + M, K + 2M, ... of the \
    sorted list: M runs with K = 0 to M - 1 (a Slurm job array, SLURM_ARRAY_TASK_ID as \
    K) share the sweep; cluster/sweep.sbatch is such a job.\n\n\
    Sweeps of one folder at once compute each game once: a sweep locks DIR/locks/CODE.lock \
    while it works on the game, passes over the games another sweep holds, and comes back \
    to them at the end, waiting until the other is done with them (--leave-busy: leaves \
    them to it). So two sweeps of one folder, without --shard, share its games as they go.\n\n\
    Each game's line goes to standard error as it ends, and DIR/summary.tsv (with \
    --shard, DIR/summary-K-of-M.tsv) holds one line a game of what the runs found: code, \
    heaps computed, preperiod, period, certified, largest value, seconds, machine.\n\n\
    `grundy sweep merge DIR... --out FILE` checks every run of the folders (each value \
    computed anew from those below it) and writes their results as one table, which \
    `grundy octal CODE --tables DIR` answers from.\n\n\
    Examples:\n  grundy sweep 0.dd --to 65536 --out sweep\n  \
    grundy sweep 0.dddd --to 1000000 --out sweep --shard 3/16\n  \
    grundy sweep merge sweep --out sweep/catalogue.sgt"
)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: Option<SweepCommand>,
    /// The games: codes, patterns (`d` any octal digit, `h` any
    /// hexadecimal one), or @FILE of them.
    #[arg(value_name = "SPEC", required = true)]
    specs: Vec<String>,
    /// The largest heap to compute each game to (its period certified
    /// sooner ends it).
    #[arg(long, value_name = "N", required = true)]
    to: Option<u64>,
    /// The folder of the runs (made if absent).
    #[arg(long, value_name = "DIR", required = true)]
    out: Option<PathBuf>,
    /// Only the games K, K + M, K + 2M, ... of the sorted list (0 <= K < M).
    #[arg(long, value_name = "K/M", value_parser = parse_shard)]
    shard: Option<(u64, u64)>,
    /// Worker threads of each game's run (default: one per CPU).
    #[arg(long, value_name = "T", value_parser = super::numbers::number::<u32>(1, 1024))]
    threads: Option<u32>,
    /// How often a game in progress is checkpointed (e.g. 30s, 10m).
    #[arg(long, value_name = "DURATION",
          default_value = super::octal::DEFAULT_CHECKPOINT_EVERY,
          value_parser = super::octal::parse_duration)]
    checkpoint_every: Duration,
    /// Resume checkpoints without checking their values (files you made
    /// with this sweep; `merge` checks them all anyway).
    #[arg(long)]
    trust_resume: bool,
    /// Leave the games another sweep of the folder is computing to it,
    /// instead of waiting at the end for it to be done with them (sweeps
    /// of one folder sharing its games, one a Slurm task).
    #[arg(long)]
    leave_busy: bool,
}

#[derive(clap::Subcommand, Debug)]
enum SweepCommand {
    /// Checks the runs of sweep folders and writes their results as one
    /// table (kind "octal runs").
    Merge(MergeArgs),
}

#[derive(clap::Args, Debug)]
struct MergeArgs {
    /// Folders written by `grundy sweep --out DIR` (any number of shards).
    #[arg(value_name = "DIR", required = true)]
    dirs: Vec<PathBuf>,
    /// The table to write (a new file, or a regular file replaced whole).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Worker threads of the checks (default: one per CPU).
    #[arg(long, value_name = "T", value_parser = super::numbers::number::<u32>(1, 1024))]
    threads: Option<u32>,
}

/// `K/M` with `0 <= K < M`.
fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let bad = || {
        format!(
            "expected K/M with 0 <= K < M, e.g. 3/16, not {}",
            sg_text::quote(text)
        )
    };
    let (k, m) = text.split_once('/').ok_or_else(bad)?;
    let number = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u64>().ok())
            .flatten()
    };
    match (number(k), number(m)) {
        (Some(k), Some(m)) if k < m => Ok((k, m)),
        _ => Err(bad()),
    }
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    if let Some(SweepCommand::Merge(merge_args)) = args.command {
        return merge(merge_args);
    }
    let (Some(to), Some(dir)) = (args.to, args.out.as_deref()) else {
        unreachable!("clap requires --to and --out without a subcommand");
    };
    let games = match games_of(&args.specs) {
        Ok(games) => games,
        Err(message) => return Ok(bad_input(message)),
    };
    if to > sg_octal::MAX_COMPUTED_HEAP {
        // As `grundy octal` says it, before any folder is made.
        let error = sg_octal::OctalError::TooManyHeaps { heap: to };
        return Ok(bad_input(format!("--to {to}: {error}")));
    }
    let (k, m) = args.shard.unwrap_or((0, 1));
    let named = games.len();
    let mine: Vec<Rules> = games
        .into_iter()
        .enumerate()
        .filter(|(i, _)| *i as u64 % m == k)
        .map(|(_, rules)| rules)
        .collect();
    if mine.is_empty() {
        print_error(format_args!(
            "sweep: shard {k}/{m} has no game (the sweep names {named}); its summary is empty"
        ));
    }
    let runs = dir.join("runs");
    std::fs::create_dir_all(&runs)
        .with_context(|| format!("cannot make the folder {}", sg_text::shown_path(&runs)))?;
    let summary_path = match args.shard {
        Some((k, m)) => dir.join(format!("summary-{k}-of-{m}.tsv")),
        None => dir.join("summary.tsv"),
    };
    super::threads::start_global_pool(args.threads)?;
    let locks = dir.join("locks");
    std::fs::create_dir_all(&locks)
        .with_context(|| format!("cannot make the folder {}", sg_text::shown_path(&locks)))?;
    // The summary's destination first: a FIFO, a device or a link there is
    // refused before anything reads it.
    let summary = destination(&summary_path)?;
    let sweep = Sweep {
        runs,
        locks,
        to,
        args: &args,
        machine: machine(),
        previous: previous_lines(&summary_path),
        summary,
        summary_path,
        count: mine.len(),
        lines: Vec::new(),
        unlocked_warned: false,
        summary_written: Instant::now(),
    };
    sweep.all(&mine)
}

/// One sweep's state while it goes through its games.
struct Sweep<'a> {
    /// `DIR/runs`.
    runs: PathBuf,
    /// `DIR/locks`: a file a game, locked by the sweep computing it.
    locks: PathBuf,
    to: u64,
    args: &'a Args,
    machine: String,
    summary: Destination,
    summary_path: PathBuf,
    /// The lines of the summary an earlier sweep wrote, by code: a game
    /// found done keeps its line (the seconds and machine of its run).
    previous: HashMap<String, String>,
    /// The games of this sweep (or shard).
    count: usize,
    /// The summary's lines so far.
    lines: Vec<String>,
    /// Whether the warning that the folder cannot be locked was shown.
    unlocked_warned: bool,
    /// When the summary was last written.
    summary_written: Instant,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_name_their_codes_once_sorted() {
        let games = games_of(&["0.dd".to_owned(), "0.7".to_owned()]).unwrap();
        assert_eq!(games.len(), 64);
        let codes: Vec<String> = games.iter().map(Rules::to_string).collect();
        assert!(codes.windows(2).all(|w| w[0] < w[1]));
        assert!(codes.contains(&"0.7".to_owned()) && codes.contains(&"0.77".to_owned()));
        // 0.70 is 0.7: one game.
        assert_eq!(games_of(&["0.7d".to_owned()]).unwrap().len(), 8);
        assert_eq!(games_of(&["4.h".to_owned()]).unwrap().len(), 16);
        assert!(games_of(&["d.7".to_owned()]).is_err());
        assert!(games_of(&["0.hhhhhhhhh".to_owned()]).is_err());
        assert!(games_of(&["0.g".to_owned()]).is_err());
    }

    #[test]
    fn shards_are_k_of_m() {
        assert_eq!(parse_shard("3/16"), Ok((3, 16)));
        assert_eq!(parse_shard("0/1"), Ok((0, 1)));
        for bad in ["16/16", "1/0", "a/2", "-1/2", "1", "1/2/3", " 1/2"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }
}
