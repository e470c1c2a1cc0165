//! `grundy uva11927` (`stones`): UVA 11927, stones on the nodes of a DAG.

use super::shared::InputArg;
use anyhow::Result;
use sg_solve::uva11927;
use std::process::ExitCode;

/// UVA 11927 "Games Are Important": stones on DAG nodes, First or Second.
#[derive(clap::Args, Debug)]
#[command(
    visible_alias = "stones",
    long_about = "UVA 11927 \"Games Are Important\": stones on DAG nodes, First or Second.\n\n\
        Input, test cases until `0 0` (or the end of the input):\n  \
          n m                    nodes 0..n-1 and m edges\n  \
          u v                    m lines: a stone may move from u to v\n  \
          s_0 .. s_(n-1)         the number of stones on each node\n\n\
        Output: one line per test case, First if the first player wins, else Second.\n\
        With --json: one JSON object per test case, {\"case\":1,\"answer\":\"First\",\"value\":1} \
        (value: the XOR of the Grundy values of the stones).\n\n\
        Example:\n  printf '2 1\\n0 1\\n1 0\\n0 0\\n' | grundy uva11927   # First"
)]
pub(crate) struct Args {
    #[command(flatten)]
    input: InputArg,
    /// One JSON object per test case: case, answer, value (the XOR).
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    let opts = uva11927::Options {
        json: args.json,
        ..Default::default()
    };
    args.input
        .answer(|input, out| uva11927::solve(input, out, opts))
}
