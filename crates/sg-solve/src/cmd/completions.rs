//! `grundy completions SHELL`: the shell completion script, from the same
//! clap definition that parses the command line.

use super::shared::print_answers;
use anyhow::Result;
use clap::CommandFactory;
use std::process::ExitCode;

/// Print a completion script for SHELL (bash, elvish, fish, powershell, zsh).
#[derive(clap::Args, Debug)]
#[command(
    long_about = "Print a completion script for SHELL (bash, elvish, fish, \
    powershell or zsh) to standard output.\n\n\
    Examples:\n  \
    grundy completions bash > ~/.local/share/bash-completion/completions/grundy\n  \
    grundy completions zsh > ~/.zfunc/_grundy\n  \
    grundy completions fish > ~/.config/fish/completions/grundy.fish"
)]
pub(crate) struct Args {
    /// The shell.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    let mut script = Vec::new();
    clap_complete::generate(
        args.shell,
        &mut crate::Cli::command(),
        "grundy",
        &mut script,
    );
    print_answers(&script, Ok(()))
}
