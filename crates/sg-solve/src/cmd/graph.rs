//! `grundy graph` (`cyclic`): tokens on a directed graph that may have cycles.

use super::shared::InputArg;
use anyhow::Result;
use sg_solve::graph;
use std::process::ExitCode;

/// Tokens on a directed graph that may have cycles: WIN, LOSE or DRAW per query.
#[derive(clap::Args, Debug)]
#[command(
    visible_alias = "cyclic",
    long_about = "Tokens on a directed graph that may have cycles: WIN, LOSE or DRAW per query.\n\n\
        A move moves one token along one edge; whoever cannot move loses; a play that \
        never ends is a draw. Answers come from generalized Sprague-Grundy values \
        (Smith; Fraenkel and Yesha): a finite value, or inf{K} with K the finite values \
        of the node's followers.\n\n\
        Input:\n  \
          n m                    nodes 0..n-1 and m edges\n  \
          u v                    m lines: a move from u to v (repeats and self-loops allowed)\n  \
          k t_1 .. t_k           queries to the end of the input: k >= 1 tokens on nodes t_j\n\n\
        Output: one line per query, WIN or LOSE for the player to move, or DRAW.\n\
        With --hint: `WIN FROM TO`, move a token from node FROM to TO; always playing the \
        hinted moves wins in finitely many moves, whatever the opponent does.\n\
        With --values: one line per node instead, its value or `inf{0,2}` (`inf{}` when K \
        is empty).\n\
        With --json: the same as JSON lines, {\"outcome\":\"WIN\",\"move\":{\"token\":0,\
        \"from\":3,\"to\":5}} or {\"node\":1,\"value\":\"inf\",\"k\":[0,2]}.\n\n\
        Example:\n  printf '2 3\\n0 1\\n1 0\\n1 1\\n1 0\\n' | grundy graph   # DRAW"
)]
pub(crate) struct Args {
    #[command(flatten)]
    input: InputArg,
    /// After WIN, print a winning move: `WIN FROM TO`.
    #[arg(long, conflicts_with = "values")]
    hint: bool,
    /// Print each node's value instead of answering the queries.
    #[arg(long)]
    values: bool,
    /// One JSON object per answer (or per node with --values) instead of text.
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    let opts = graph::Options {
        hint: args.hint,
        values: args.values,
        json: args.json,
    };
    args.input
        .answer_streaming(|input, out, flush| graph::solve_streaming(input, out, opts, flush))
}
