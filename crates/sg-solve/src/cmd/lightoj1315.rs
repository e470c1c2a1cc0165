//! `grundy lightoj1315` (`hyper-knight`): LightOJ 1315, hyper knights.

use super::shared::{InputArg, TableArgs};
use anyhow::Result;
use sg_solve::lightoj1315;
use sg_tables::format::TableKind;
use std::process::ExitCode;

/// LightOJ 1315 "Game of Hyper Knights": `Case k: Alice` or `Case k: Bob`.
#[derive(clap::Args, Debug)]
#[command(
    visible_alias = "hyper-knight",
    mut_arg("online", |a| a.help(
        "Use no table and no stored description: squares computed on demand, \
         anti-diagonal by anti-diagonal, up to x + y = 32767")),
    long_about = "LightOJ 1315 \"Game of Hyper Knights\": `Case k: Alice` or `Case k: Bob`.\n\n\
        A hyper knight on (x, y) moves by (-3,-1), (-2,1), (-2,-1), (-1,-2), (-1,-3) \
        or (1,-2) and must stay on x, y >= 0.\n\n\
        Input:\n  \
          T                      number of test cases\n  \
          n                      per case: number of knights\n  \
          x y                    n lines: a knight's square\n\n\
        Output: `Case k: Alice` if the first player wins, else `Case k: Bob`.\n\
        With --hint: `Case k: Alice K X Y`, move knight K (1-based) to (X, Y).\n\
        With --json: one JSON object per test case, \
        {\"case\":1,\"answer\":\"Alice\",\"value\":1,\"move\":{\"knight\":1,\"x\":0,\"y\":4}} \
        (value: the XOR of the knights' Grundy values; move: with --hint).\n\n\
        Example:\n  printf '1\\n1\\n3 5\\n' | grundy lightoj1315   # Case 1: Alice"
)]
pub(crate) struct Args {
    #[command(flatten)]
    input: InputArg,
    /// After Alice, print a winning move: `Case k: Alice K X Y`.
    #[arg(long)]
    hint: bool,
    /// One JSON object per test case: case, answer, value (the XOR), move (with --hint).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    tables: TableArgs,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    let source = args.tables.open(TableKind::Knight)?;
    let mut values = source.knight_values()?;
    let moves = values.moves().clone();
    let opts = lightoj1315::Options {
        hint: args.hint,
        json: args.json,
    };
    args.input.answer(|input, out| {
        lightoj1315::solve(input, out, opts, &moves, |x, y| values.value(x, y))
    })
}
