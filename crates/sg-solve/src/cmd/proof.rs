//! `grundy proof check FILE`: checks a certificate written by `--proof`
//! from the game's rules alone, with no search.

use super::shared::read_named;
use crate::input::{DEFAULT_MAX_INPUT, parse_size};
use anyhow::{Context, Result};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Check a certificate written by --proof.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    Check(CheckArgs),
}

/// Check a certificate from the rules alone.
#[derive(clap::Args, Debug)]
#[command(
    long_about = "Check a certificate written by --proof (grundy cram, node-kayles, \
    chomp) from the game's rules alone, without search: every claimed nimber is confirmed \
    by the moves of its position and the claims before it in the file; then the nimber of \
    the start position follows. Prints what is proved, e.g. `cram 4x7: nimber 3, 1965 \
    positions checked`, and exits with status 0; a certificate that does not check is an \
    error naming the first position that fails (exit status 1), and so is a file that is \
    not a well-formed certificate.\n\n\
    Examples:\n  grundy cram 5x6 --proof cram-5x6.proof\n  \
    grundy proof check cram-5x6.proof"
)]
struct CheckArgs {
    /// The certificate; standard input when `-`.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// The largest file accepted, in bytes or with a unit (K, M, G, T:
    /// powers of 1024). A regular file of 1 MiB or more is
    /// memory-mapped: it must not change while grundy runs.
    #[arg(long, value_name = "SIZE", default_value = DEFAULT_MAX_INPUT, value_parser = parse_size)]
    max_input: u64,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    let Command::Check(args) = args.command;
    let bytes = read_named(Some(&args.file), args.max_input, Some("--max-input"))?;
    let checked = sg_search::proof::check(&bytes)
        .with_context(|| format!("{} is not a valid proof", sg_text::shown_path(&args.file)))?;
    let mut stdout = std::io::stdout().lock();
    writeln!(
        stdout,
        "{}: nimber {}, {} positions checked",
        checked.game, checked.nimber, checked.claims
    )
    .and_then(|()| stdout.flush())
    .context("cannot write the answer")?;
    Ok(ExitCode::SUCCESS)
}
