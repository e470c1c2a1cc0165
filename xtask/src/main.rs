//! `cargo xtask`: developer tasks of the grundy workspace.
//!
//! Not published and not needed to build or use `grundy`: the tables it
//! writes to `data/` are committed. It only drives the library's
//! generators (`sg_tables::generate`) and writes files.
//!
//! - `cargo xtask gen`: writes the tables of `data/` (see `gen`'s help),
//!   the octal catalogue and its listing `data/OCTAL.md` included, and the
//!   copies of the compiled-in tables in `crates/sg-tables/data/`.
//! - `cargo xtask gen --check`: fails when a committed table or copy is stale.
//! - `cargo xtask bench`: times the generators on 1 thread and on all.
//! - `cargo xtask inputs --out DIR`: writes the benchmark inputs.
//! - `cargo xtask outside-crate`: packages the library crates and builds a
//!   crate outside the workspace that depends on them.
//! - `cargo xtask results`: the catalogue of values settled with
//!   certificates (`data/results.tsv`, `docs/RESULTS.md`): `--verify`
//!   checks the certificates kept with both checkers, `--compute` computes
//!   the values again (see the module `results`).

#[cfg(test)]
mod doc_paths;
mod embedded_copy;
mod inputs;
mod manifest;
mod octal_md;
mod outside_crate;
mod progress;
mod resources;
mod results;
mod tables;

use anyhow::Result;
use clap::{Args, Parser, Subcommand};
use sg_solve::numbers::number;
use sg_tables::generate;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "cargo xtask",
    bin_name = "cargo xtask",
    about = "Developer tasks of the grundy workspace"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Generate the Grundy tables (by default the committed ones of data/).
    ///
    /// Without --out, writes data/row20.sgt, data/knight.sgt,
    /// data/knight-pattern.sgt, data/octal-catalogue.sgt (listed in
    /// data/OCTAL.md), data/cram-endgame.sgt, data/MANIFEST.md and the copies that
    /// sg-tables compiles in (crates/sg-tables/data/). Before each table,
    /// refuses to start when the memory it needs is not available
    /// (MemAvailable) or the output folder lacks the disk space.
    Gen(GenArgs),
    /// Time the generators on one thread and on all threads.
    Bench(BenchArgs),
    /// Write the benchmark inputs (judge limits and beyond) into a folder.
    Inputs {
        /// Output folder.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// Package the library crates (cargo package, verified, offline) and
    /// build and run a crate outside the workspace that depends on them, as
    /// a user's crate does.
    OutsideCrate {
        /// Keep the temporary crate (its folder is printed).
        #[arg(long)]
        keep: bool,
    },
    /// The catalogue of values settled with certificates (data/results.tsv,
    /// its table in docs/RESULTS.md).
    ///
    /// --verify (the default) checks every certificate kept in
    /// data/certificates/ with grundy's checker and the second checker
    /// (checker/grundy_proof_check.py): each must prove the catalogue's
    /// value and be the file the catalogue names (SHA-256, size, claims).
    /// --compute runs each row's command with the release build (one
    /// thread), measures its time and peak memory, and checks the
    /// certificate it writes with both checkers; with --write it records
    /// the figures, the kept certificates and the table of docs/RESULTS.md.
    Results(ResultsArgs),
    /// Runs one command and prints its time and peak memory (used by
    /// `results --compute`).
    #[command(hide = true)]
    ResultsRunOne {
        /// Kill the command after this many seconds.
        #[arg(long)]
        timeout: Option<u64>,
        /// The command and its arguments.
        #[arg(last = true, required = true)]
        command: Vec<String>,
    },
}

#[derive(Args)]
struct ResultsArgs {
    /// Check the kept certificates with both checkers (the default).
    #[arg(long)]
    verify: bool,
    /// Compute the values again and check the certificates written.
    #[arg(long)]
    compute: bool,
    /// With --compute: record the figures and the kept certificates; and
    /// write the table of docs/RESULTS.md from the catalogue (alone: only
    /// the table).
    #[arg(long)]
    write: bool,
    /// Only these rows (ids, comma-separated).
    #[arg(long, value_name = "ID", value_delimiter = ',')]
    only: Vec<String>,
    /// The grundy binary to run (default: the release build, built first).
    #[arg(long, value_name = "PATH")]
    grundy: Option<PathBuf>,
    /// The Python 3 that runs the second checker.
    #[arg(long, value_name = "PYTHON", default_value = "python3")]
    python: String,
    /// With --compute: a command still running after this many seconds is
    /// stopped, and its row fails.
    #[arg(long, value_name = "SECONDS", value_parser = number::<u64>(1, u64::MAX))]
    timeout: Option<u64>,
}

/// Which tables to make.
#[derive(Args, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sizes {
    #[arg(long, value_name = "W", default_value_t = Sizes::DEFAULT.row_width,
          help = format!("Cells of the row table (2^W entries, W from 1 to {})",
                         generate::row::MAX_WIDTH),
          value_parser = number::<u32>(1, u64::from(generate::row::MAX_WIDTH)))]
    row_width: u32,
    #[arg(long, value_name = "N", default_value_t = Sizes::DEFAULT.knight_size,
          help = format!("Side of the knight table (N^2 entries, N from 1 to {})",
                         generate::knight::MAX_SIZE),
          value_parser = number::<u64>(1, generate::knight::MAX_SIZE))]
    knight_size: u64,
    /// The largest heap of the octal catalogue computed for a game whose
    /// period is not certified sooner (recorded in the catalogue file; at
    /// most 2^20, the largest a catalogue file may state: see FORMAT.md).
    #[arg(long, value_name = "N", default_value_t = Sizes::DEFAULT.octal_limit,
          value_parser = number::<u64>(1, sg_tables::octal::MAX_CATALOGUE_LIMIT))]
    octal_limit: u64,
    /// K: the Cram endgame table holds every polyomino of at most K cells
    /// (recorded in the file).
    #[arg(long, value_name = "K", default_value_t = Sizes::DEFAULT.cram_cells,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(sg_tables::cram::MAX_CELLS)))]
    cram_cells: u32,
}

impl Sizes {
    /// The sizes of the committed tables of data/ (the defaults).
    pub(crate) const DEFAULT: Self = Self {
        row_width: 20,
        knight_size: 1024,
        octal_limit: tables::OCTAL_LIMIT,
        cram_cells: tables::CRAM_CELLS,
    };
}

#[derive(Args)]
struct GenArgs {
    /// Regenerate in memory and fail if a file in the output folder differs.
    #[arg(long)]
    check: bool,
    /// Output folder (default: data/ of the workspace).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    #[command(flatten)]
    sizes: Sizes,
    /// Worker threads, 1 to 256 (default: one per CPU).
    #[arg(long, value_parser = number::<usize>(1, tables::MAX_THREADS as u64))]
    threads: Option<usize>,
}

#[derive(Args)]
struct BenchArgs {
    #[command(flatten)]
    sizes: Sizes,
    /// Runs of each generator; the fastest is reported.
    #[arg(long, default_value_t = 5, value_parser = number::<u32>(1, u64::from(u32::MAX)))]
    runs: u32,
    /// Only this table.
    #[arg(long, value_enum)]
    only: Option<tables::Only>,
    /// Only this many threads, 1 to 256 (default: 1 thread, then one per CPU).
    #[arg(long, value_parser = number::<usize>(1, tables::MAX_THREADS as u64))]
    threads: Option<usize>,
    /// Also time the single-threaded computation of sg-core.
    #[arg(long)]
    sequential: bool,
}

/// Runs the task; an error is printed as one `error: ...` line with its
/// causes (never a backtrace, whatever `RUST_BACKTRACE` says), exit status 1.
fn main() -> ExitCode {
    match run(Cli::parse().command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(command: Command) -> Result<()> {
    match command {
        Command::Gen(args) => {
            // The copies inside sg-tables follow the committed tables only.
            let copies = args.out.is_none().then(embedded_copy::crate_data_dir);
            let out = args.out.clone().unwrap_or_else(tables::default_data_dir);
            let pool = tables::pool(args.threads)?;
            let mode = if args.check {
                tables::Mode::Check
            } else {
                tables::Mode::Write
            };
            let fix = tables::fix_command(args.out.as_deref(), args.sizes);
            tables::ensure_tables(&out, copies.as_deref(), args.sizes, &pool, mode, &fix)
        }
        Command::Bench(args) => tables::bench(
            args.sizes,
            args.runs,
            args.only,
            args.threads,
            args.sequential,
        ),
        Command::Inputs { out } => inputs::write_all(&out),
        Command::OutsideCrate { keep } => outside_crate::run(keep),
        Command::Results(args) => results::run(&results::Options {
            verify: args.verify || !(args.compute || args.write),
            compute: args.compute,
            write: args.write,
            only: args.only,
            grundy: args.grundy,
            python: args.python,
            timeout: args.timeout,
        }),
        Command::ResultsRunOne { timeout, command } => results::run_one(&command, timeout),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn numbers_are_digits_only_within_their_range() {
        let parse = |args: &[&str]| Cli::try_parse_from([&["xtask"][..], args].concat());
        for bad in [
            &["gen", "--row-width", "+5"][..],
            &["gen", "--knight-size", " 40"],
            &["gen", "--octal-limit", "1_000"],
            &["gen", "--threads", "+2"],
            &["gen", "--threads", "0"],
            &["gen", "--threads", "257"],
            &["gen", "--row-width", "29"],
            &["bench", "--runs", "+3"],
            &["bench", "--runs", "0"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        for good in [
            &["gen", "--row-width", "5", "--threads", "2"][..],
            &["gen", "--knight-size", "40", "--octal-limit", "1000"],
            &["bench", "--runs", "3", "--threads", "256"],
        ] {
            assert!(parse(good).is_ok(), "{good:?}");
        }
    }

    #[test]
    fn gen_help_says_cargo_xtask_and_shows_the_limits() {
        Cli::command().debug_assert();
        let mut cli = Cli::command();
        cli.build();
        let help = cli
            .find_subcommand_mut("gen")
            .expect("gen is a subcommand")
            .render_long_help()
            .to_string();
        assert!(help.contains("Usage: cargo xtask gen"), "{help}");
        let row = format!("W from 1 to {}", generate::row::MAX_WIDTH);
        let knight = format!("N from 1 to {}", generate::knight::MAX_SIZE);
        assert!(help.contains(&row) && help.contains(&knight), "{help}");
    }
}
