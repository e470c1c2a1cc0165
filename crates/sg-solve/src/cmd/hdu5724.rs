//! `grundy hdu5724` (`row-jump`): HDU 5724, pieces that jump right in rows.

use super::numbers::number;
use super::shared::{InputArg, TableArgs};
use anyhow::Result;
use sg_core::row::MAX_WIDTH;
use sg_solve::hdu5724;
use sg_tables::format::TableKind;
use std::process::ExitCode;

/// HDU 5724 "Chess": pieces jump right over blocks; YES if Alice wins.
#[derive(clap::Args, Debug)]
#[command(
    visible_alias = "row-jump",
    mut_arg("online", |a| a.help("Use no table: each row's value by the closed form (staircase Nim)")),
    long_about = "HDU 5724 \"Chess\": pieces jump right over blocks; YES if Alice wins.\n\n\
        Input:\n  \
          T                      number of test cases\n  \
          n                      per case: number of rows\n  \
          m p_1 .. p_m           n lines: the columns (1..=W, distinct) of a row's pieces\n\n\
        Output: one line per test case, YES if the first player wins, else NO.\n\
        With --hint: `YES ROW FROM TO`, in row ROW (1-based within the case) move the \
        piece on column FROM to column TO.\n\
        With --json: one JSON object per test case, \
        {\"case\":1,\"answer\":\"YES\",\"value\":1,\"move\":{\"row\":1,\"from\":19,\"to\":20}} \
        (value: the XOR of the rows' Grundy values; move: with --hint).\n\n\
        Example:\n  printf '1\\n1\\n1 19\\n' | grundy hdu5724   # YES"
)]
pub(crate) struct Args {
    #[command(flatten)]
    input: InputArg,
    /// After YES, print a winning move: `YES ROW FROM TO`.
    #[arg(long)]
    hint: bool,
    /// One JSON object per test case: case, answer, value (the XOR), move (with --hint).
    #[arg(long)]
    json: bool,
    /// Board width W (columns 1..=W), 1 to 64.
    #[arg(long, default_value_t = 20, value_parser = number::<u32>(1, MAX_WIDTH.into()))]
    width: u32,
    #[command(flatten)]
    tables: TableArgs,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    let source = args.tables.open(TableKind::Row)?;
    let values = source.row_values()?;
    let opts = hdu5724::Options {
        width: args.width,
        hint: args.hint,
        json: args.json,
        threads: hdu5724::Threads::Auto,
    };
    args.input
        .answer(|input, out| hdu5724::solve(input, out, opts, |mask| values.value(mask)))
}
