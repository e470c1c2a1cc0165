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

use super::octal::run::{
    Checkpoints, Ended, Refused, Request, Resume, Run, RunError, bad_input,
};
use super::shared::{destination, print_error};
use anyhow::{Context, Result, bail};
use sg_octal::{Rules, Sequence};
use sg_tables::format::{Game, Metadata, encode};
use sg_tables::octal::CatalogueEntry;
use sg_tables::octal_runs::{encode_octal_runs, octal_runs_count, run_entry};
use sg_files::safe_write::Destination;
use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The generator named in the tables written.
const GENERATOR: &str = concat!("grundy ", env!("CARGO_PKG_VERSION"));

/// The most games one sweep names (2^20: `0.ddddddd` names 8^7 = 2^21,
/// `0.hhhhh` exactly 2^20). Listing them takes about 100 MB and a second,
/// in every task of a sharded sweep.
const MAX_GAMES: usize = 1 << 20;

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
    let bad = || format!("expected K/M with 0 <= K < M, e.g. 3/16, not {}", sg_text::quote(text));
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

/// How often the summary is rewritten while games end (it is written
/// whole, through a temporary file: after every game, a sweep of
/// thousands of quick games wrote gigabytes); a stopped or finished sweep
/// writes it at once.
const SUMMARY_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// A game's lock, or why there is none.
enum Claim {
    /// Held until dropped.
    Held(#[allow(dead_code)] File),
    /// Another sweep holds it.
    Busy,
}

impl Sweep<'_> {
    /// Every game: those another sweep of the same folder is computing
    /// last, once that sweep is done with them (their runs are then
    /// done, or go on from its checkpoint), or not at all with
    /// `--leave-busy`.
    fn all(mut self, games: &[Rules]) -> Result<ExitCode> {
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

    /// The lock of a game's run, waited for if `wait`. On a file system
    /// without locks (some network ones) the sweep goes on without, once
    /// warned.
    fn claim(&mut self, rules: &Rules, wait: bool) -> Result<Claim> {
        let path = self.locks.join(format!("{}.lock", name(rules)));
        let file = open_lock(&path)?;
        let locked = if wait {
            file.lock().map_err(std::fs::TryLockError::Error)
        } else {
            file.try_lock()
        };
        match locked {
            Ok(()) => Ok(Claim::Held(file)),
            Err(std::fs::TryLockError::WouldBlock) => Ok(Claim::Busy),
            Err(std::fs::TryLockError::Error(error)) if unsupported(&error) => {
                if !self.unlocked_warned {
                    self.unlocked_warned = true;
                    print_error(format_args!(
                        "sweep: warning: cannot lock {} ({error}): two sweeps of this folder \
                         at once would compute the same games twice",
                        sg_text::shown_path(&path)
                    ));
                }
                Ok(Claim::Held(file))
            }
            Err(std::fs::TryLockError::Error(error)) => Err(error)
                .with_context(|| format!("cannot lock {}", sg_text::shown_path(&path))),
        }
    }

    /// Writes the summary file whole: the lines of the games this sweep
    /// has done, and those other sweeps of the folder wrote there (read
    /// and rewritten under the lock `DIR/locks/summary.lock`, so that
    /// sweeps of one folder at once lose none of each other's lines).
    fn write_summary(&mut self) -> Result<()> {
        let path = self.locks.join("summary.lock");
        let lock = open_lock(&path)?;
        match lock.lock() {
            Ok(()) => {}
            Err(error) if unsupported(&error) => {}
            Err(error) => {
                return Err(error)
                    .with_context(|| format!("cannot lock {}", sg_text::shown_path(&path)));
            }
        }
        let mut lines: BTreeMap<String, String> = previous_lines(&self.summary_path)
            .into_iter()
            .collect();
        for line in &self.lines {
            let code = line.split('\t').next().unwrap_or_default();
            lines.insert(code.to_owned(), line.clone());
        }
        let text = summary_text(&lines);
        self.summary_written = Instant::now();
        self.summary.write(|out| out.write_all(text.as_bytes()).map_err(Into::into))
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
                            super::shared::signal_name(signal),
                            sg_text::shown_path(&path),
                        ));
                        return Ok(Some(super::shared::signal_exit(signal)));
                    }
                    Ok(Ended::StoppedChecking { signal, .. }) => {
                        self.write_summary()?;
                        print_error(format_args!(
                            "sweep: stopped by {} in {code} while checking the values of {}; \
                             the same command goes on from there",
                            super::shared::signal_name(signal),
                            sg_text::shown_path(&path),
                        ));
                        return Ok(Some(super::shared::signal_exit(signal)));
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

/// The lock file `path` (an empty file, made if absent), opened to lock;
/// anything but a regular file there (a FIFO, a folder, a link) is refused.
fn open_lock(path: &Path) -> Result<File> {
    if let Ok(meta) = std::fs::symlink_metadata(path)
        && !meta.is_file()
    {
        bail!(
            "{}: not a regular file; remove it (sweeps make it anew)",
            sg_text::shown_path(path)
        );
    }
    File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open {}", sg_text::shown_path(path)))
}

/// Whether a lock failed because the file system has none (`ENOSYS`,
/// `EOPNOTSUPP`; `ENOLCK`, 37 on Linux: NFS without its lock daemon).
fn unsupported(error: &std::io::Error) -> bool {
    error.kind() == std::io::ErrorKind::Unsupported
        || (cfg!(target_os = "linux") && error.raw_os_error() == Some(37))
}

/// How a game found done is said.
const DONE_BEFORE: &str = "done before";

/// The most a summary file read back may hold (a line a game: a sweep
/// of a million games writes about 100 MB).
const SUMMARY_LIMIT: u64 = 1 << 30;

/// The lines of the summary file `path` by code (none if it is absent,
/// unreadable, or not a regular file of at most [`SUMMARY_LIMIT`] bytes:
/// the summary is for people, the runs are the record; a FIFO or a device
/// there is never read).
fn previous_lines(path: &Path) -> HashMap<String, String> {
    let regular = std::fs::symlink_metadata(path)
        .is_ok_and(|meta| meta.is_file() && meta.len() <= SUMMARY_LIMIT);
    // Read as lossy text: a byte that is not UTF-8 (an editor's Latin-1
    // comment) must not lose the other games' lines.
    let Some(bytes) = regular.then(|| std::fs::read(path).ok()).flatten() else {
        return HashMap::new();
    };
    let text = String::from_utf8_lossy(&bytes);
    text.lines()
        .skip(1)
        .filter_map(|line| Some((line.split_once('\t')?.0.to_owned(), line.to_owned())))
        .collect()
}

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
    let table = sg_tables::read_file(path)
        .with_context(|| format!("{shown}: not a run of this sweep; remove it to compute the game anew"))?;
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

/// The header of a summary file.
const SUMMARY_HEADER: &str =
    "code\theaps computed\tpreperiod\tperiod\tcertified\tlargest value\tseconds\tmachine";

/// A game's line of the summary.
fn summary_line(entry: &CatalogueEntry, seconds: f64, machine: &str) -> String {
    let (pre, per) = entry.period.map_or(("-".to_owned(), "-".to_owned()), |p| {
        (p.preperiod.to_string(), p.period.to_string())
    });
    format!(
        "{}\t{}\t{pre}\t{per}\t{}\t{}\t{seconds:.3}\t{machine}",
        name(&entry.rules),
        entry.computed,
        if entry.period.is_some() { "yes" } else { "no" },
        entry.max_value
    )
}

/// A summary's lines, header first, by code.
fn summary_text(lines: &BTreeMap<String, String>) -> String {
    let mut text = format!("{SUMMARY_HEADER}\n");
    for line in lines.values() {
        text.push_str(line);
        text.push('\n');
    }
    text
}

/// The machine's name, for the summary (`/proc/sys/kernel/hostname`, or
/// `HOSTNAME`; tabs and line breaks escaped).
fn machine() -> String {
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "unknown".to_owned());
    sg_text::escape_line(name.trim()).replace('\t', " ")
}

/// The games SPECs name, sorted by code, each once; a message for a SPEC
/// that names none.
fn games_of(specs: &[String]) -> Result<Vec<Rules>, String> {
    let mut codes: Vec<String> = Vec::new();
    for spec in specs {
        if let Some(path) = spec.strip_prefix('@') {
            let text = read_spec_file(path)?;
            for (n, line) in text.lines().enumerate() {
                let line = line.split('#').next().unwrap_or("").trim();
                if line.is_empty() {
                    continue;
                }
                expand(line, &mut codes).map_err(|e| {
                    format!("{}, line {}: {e}", sg_text::shown_path(Path::new(path)), n + 1)
                })?;
            }
        } else {
            expand(spec, &mut codes)?;
        }
        if codes.len() > MAX_GAMES {
            return Err(format!("more than {MAX_GAMES} games in one sweep"));
        }
    }
    if codes.is_empty() {
        return Err(format!(
            "{}: no game named (the files of codes hold none)",
            specs.iter().map(|s| sg_text::quote(s)).collect::<Vec<_>>().join(" ")
        ));
    }
    let mut games: Vec<(String, Rules)> = codes
        .iter()
        .map(|code| {
            let rules = Rules::parse(code).map_err(|e| format!("{}: {e}", sg_text::quote(code)))?;
            Ok((rules.to_string(), rules))
        })
        .collect::<Result<_, String>>()?;
    games.sort_by(|a, b| a.0.cmp(&b.0));
    games.dedup_by(|a, b| a.0 == b.0);
    Ok(games.into_iter().map(|(_, rules)| rules).collect())
}

/// The text of the file of codes `@path`: a regular file (a FIFO or a
/// device is refused, never read and waited on).
fn read_spec_file(path: &str) -> Result<String, String> {
    if path.is_empty() {
        return Err("@ names no file: write @FILE, a file of codes".to_owned());
    }
    let shown = sg_text::shown_path(Path::new(path));
    let meta = std::fs::metadata(path).map_err(|e| format!("@{shown}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("@{shown}: not a regular file"));
    }
    std::fs::read_to_string(path).map_err(|e| format!("@{shown}: {e}"))
}

/// The name of a game in a sweep's files and lines: its canonical code
/// with the hexadecimal digits in capitals (`4.0D`, `0.F1`), so that a
/// name read back as a spec is that game, never a pattern (in a spec,
/// `d` and `h` are a pattern's places).
pub(crate) fn name(rules: &Rules) -> String {
    let code = rules.to_string();
    match code.split_once('.') {
        Some((whole, digits)) if digits.bytes().all(|b| b.is_ascii_hexdigit()) => {
            format!("{whole}.{}", digits.to_ascii_uppercase())
        }
        _ => code,
    }
}

/// Appends the codes of a code, a name or a pattern.
fn expand(spec: &str, codes: &mut Vec<String>) -> Result<(), String> {
    let places = spec.bytes().filter(|b| matches!(b, b'd' | b'h')).count();
    // A word without a point is a game's name (`dawsons-kayles`,
    // `grundys-game`), never a pattern: a pattern has a point.
    if places == 0 || !spec.contains('.') {
        codes.push(spec.to_owned());
        return Ok(());
    }
    let Some((whole, _)) = spec.split_once('.') else {
        return Err(format!(
            "{}: a pattern is a code with `d` or `h` for its digits, e.g. 0.ddd",
            sg_text::quote(spec)
        ));
    };
    if whole.bytes().any(|b| matches!(b, b'd' | b'h')) {
        return Err(format!(
            "{}: the digit before the point is 0 or 4, not a pattern",
            sg_text::quote(spec)
        ));
    }
    let radix: Vec<u32> = spec
        .bytes()
        .filter_map(|b| match b {
            b'd' => Some(8),
            b'h' => Some(16),
            _ => None,
        })
        .collect();
    let total = radix
        .iter()
        .try_fold(1u64, |n, &r| n.checked_mul(u64::from(r)))
        .filter(|&n| n <= MAX_GAMES as u64)
        .ok_or_else(|| {
            format!(
                "{}: names {} games, more than {MAX_GAMES}",
                sg_text::quote(spec),
                match radix.iter().try_fold(1u64, |n, &r| n.checked_mul(u64::from(r))) {
                    Some(n) => n.to_string(),
                    None => "2^64 or more".to_owned(),
                }
            )
        })?;
    for mut index in 0..total {
        let mut digits = vec![0u32; radix.len()];
        for (slot, &r) in digits.iter_mut().zip(&radix).rev() {
            *slot = (index % u64::from(r)) as u32;
            index /= u64::from(r);
        }
        let mut next = digits.into_iter();
        let code: String = spec
            .chars()
            .map(|c| match c {
                'd' | 'h' => std::char::from_digit(next.next().expect("a digit a place"), 16)
                    .expect("a digit")
                    .to_ascii_uppercase(),
                c => c,
            })
            .collect();
        codes.push(code);
    }
    Ok(())
}

/// `grundy sweep merge`: every run of the folders checked, their results
/// written as one table; a file that is not a valid run is refused with
/// its name, and nothing is written.
fn merge(args: MergeArgs) -> Result<ExitCode> {
    let out = destination(&args.out)?;
    if let Some(parent) = args.out.parent().map(|p| if p.as_os_str().is_empty() { Path::new(".") } else { p })
        && let Ok(parent) = parent.canonicalize()
    {
        for dir in &args.dirs {
            if dir.join("runs").canonicalize().is_ok_and(|runs| runs == parent) {
                bail!(
                    "--out {}: in the runs folder of {}, which holds runs only: write the \
                     table elsewhere",
                    sg_text::shown_path(&args.out),
                    sg_text::shown_path(dir)
                );
            }
        }
    }
    super::threads::start_global_pool(args.threads)?;
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in &args.dirs {
        let runs = dir.join("runs");
        let listing = std::fs::read_dir(&runs).with_context(|| {
            format!("cannot read the runs of {}", sg_text::shown_path(dir))
        })?;
        let mut here: Vec<PathBuf> = listing
            .map(|e| e.map(|e| e.path()))
            .collect::<std::io::Result<_>>()
            .with_context(|| format!("cannot read {}", sg_text::shown_path(&runs)))?;
        here.retain(|p| p.extension().is_some_and(|e| e == "sgt"));
        here.sort();
        files.extend(here);
    }
    let mut entries: Vec<CatalogueEntry> = Vec::new();
    for path in &files {
        let shown = sg_text::shown_path(path);
        let table = sg_tables::read_file(path).with_context(|| format!("{shown}: refused"))?;
        let sequence = table
            .table()
            .octal_sequence()
            .with_context(|| format!("{shown}: refused: not a run of a sweep"))?;
        let rules = sequence.rules().clone();
        let named = path.file_stem().and_then(|s| s.to_str());
        if named != Some(name(&rules).as_str()) {
            bail!("{shown}: refused: it holds the game {rules}, which its name does not say");
        }
        let values = sequence.values().to_vec();
        sg_octal::check_values(&rules, &values, &mut |_| {})
            .with_context(|| format!("{shown}: refused: its values are not those of {rules}"))?;
        let entry = run_entry(&rules, values)
            .with_context(|| format!("{shown}: refused"))?;
        entries.push(entry);
    }
    if entries.is_empty() {
        bail!("no runs to merge in the folders given");
    }
    // One record a game: of two runs of one game (two sweeps), the one
    // that went further.
    entries.sort_by(|a, b| {
        (a.rules.to_string(), a.period.is_some(), a.computed)
            .cmp(&(b.rules.to_string(), b.period.is_some(), b.computed))
    });
    let payload = encode_octal_runs(&entries);
    let metadata = Metadata {
        game: Game::OctalRuns {
            games: octal_runs_count(&entries),
            len: payload.len() as u64,
        },
        generator: GENERATOR.to_owned(),
    };
    let bytes = encode(&metadata, &payload)?;
    out.write(|w| {
        w.write_all(&bytes)
            .with_context(|| format!("cannot write {}", sg_text::shown_path(&args.out)))
    })?;
    print_error(format_args!(
        "merged {} runs of {} games into {}",
        files.len(),
        octal_runs_count(&entries),
        sg_text::shown_path(&args.out)
    ));
    Ok(ExitCode::SUCCESS)
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
