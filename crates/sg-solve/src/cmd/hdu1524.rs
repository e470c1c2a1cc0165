//! `grundy hdu1524` (`chess-dag`): HDU 1524, tokens on a DAG.

use super::shared::InputArg;
use anyhow::Result;
use sg_solve::hdu1524;
use std::process::ExitCode;

/// HDU 1524 "A Chess Game": tokens on a DAG, WIN or LOSE per query.
#[derive(clap::Args, Debug)]
#[command(
    visible_alias = "chess-dag",
    long_about = "HDU 1524 \"A Chess Game\": tokens on a DAG, WIN or LOSE per query.\n\n\
        Input, test cases to the end of the input:\n  \
          N                      number of positions (0..N-1)\n  \
          X_i t_1 .. t_X         N lines: the moves from position i\n  \
          M p_1 .. p_M           query lines: M tokens on positions p_j\n  \
          0                      ends the test case (so does the end of the input)\n\n\
        Output: one line per query, WIN if the player to move wins, else LOSE.\n\
        With --hint: `WIN FROM TO`, move a token from position FROM to TO.\n\
        With --json: one JSON object per query, \
        {\"outcome\":\"WIN\",\"value\":1,\"move\":{\"token\":1,\"from\":1,\"to\":2}} \
        (value: the XOR of the tokens' Grundy values; move: with --hint).\n\n\
        Example:\n  printf '3\\n1 1\\n1 2\\n0\\n1 0\\n2 0 1\\n0\\n' | grundy hdu1524   # LOSE, WIN"
)]
pub(crate) struct Args {
    #[command(flatten)]
    input: InputArg,
    /// After WIN, print a winning move: `WIN FROM TO`.
    #[arg(long)]
    hint: bool,
    /// One JSON object per query: outcome, value (the XOR), move (with --hint).
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    let opts = hdu1524::Options {
        hint: args.hint,
        json: args.json,
    };
    args.input
        .answer(|input, out| hdu1524::solve(input, out, opts))
}
