//! `grundy man`: the manual page `grundy.1` (roff), generated from the same
//! clap definition that parses the command line, so it never goes stale.

use super::shared::print_answers;
use anyhow::{Context, Result};
use clap::CommandFactory;
use std::process::ExitCode;

/// Print the manual page grundy.1 (roff) to standard output.
#[derive(clap::Args, Debug)]
#[command(
    long_about = "Print the manual page grundy.1 (roff) to standard output: the \
    options and the subcommands with their descriptions.\n\n\
    Examples:\n  grundy man > grundy.1 && man -l grundy.1\n  \
    grundy man > ~/.local/share/man/man1/grundy.1"
)]
pub(crate) struct Args {}

pub(crate) fn run(_: Args) -> Result<ExitCode> {
    let mut page = Vec::new();
    clap_mangen::Man::new(crate::Cli::command())
        .render(&mut page)
        .context("cannot render the manual page")?;
    print_answers(&page, Ok(()))
}
