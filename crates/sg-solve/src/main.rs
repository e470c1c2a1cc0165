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
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return cmd::usage_error(&e),
    };
    match cli.command.run() {
        Ok(code) => code,
        // The reader of the output has gone (`grundy ... | head -1`): it
        // wants no more, and no message.
        Err(e) if cmd::stdout_closed(&e) => ExitCode::SUCCESS,
        Err(e) => {
            cmd::print_error(format_args!("error: {e:#}"));
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
