//! `grundy`: answers impartial-game judge problems with Sprague-Grundy
//! theory. This file only parses the command line and dispatches; each
//! subcommand lives in its own module under `cmd/`.

mod cmd;
mod input;

use clap::Parser;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "grundy",
    version,
    about = "Solve impartial combinatorial games exactly with the Sprague-Grundy theory",
    long_about = "Solve impartial combinatorial games exactly with the Sprague-Grundy theory.\n\n\
        Each judge subcommand reads the judge's input format from FILE (or standard input \
        when FILE is absent or `-`) and writes exactly the judge's output. Whitespace is free: \
        any mix of spaces, tabs, blank lines and CRLF is accepted.\n\n\
        On bad input the answers of the complete test cases before the error are printed, \
        then one line `error: line L, column C: ...` goes to standard error and the exit \
        status is 2."
)]
struct Cli {
    #[command(subcommand)]
    command: cmd::Command,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command.run() {
        Ok(code) => code,
        Err(e) => {
            // Causes may quote file names: escaped like input bytes.
            eprintln!("error: {}", sg_solve::error::escape_text(&format!("{e:#}")));
            cmd::exit_status(&e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
