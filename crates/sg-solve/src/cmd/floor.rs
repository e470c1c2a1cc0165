//! `grundy floor`: the benchmark floor, parsing every integer of the input.

use super::shared::InputArg;
use anyhow::Result;
use sg_solve::scan;
use std::io::Write;
use std::process::ExitCode;

/// Benchmark floor: read FILE and parse every integer in it, nothing else.
///
/// Prints the count and the wrapping sum of the integers. Every solver is
/// measured against this on the same bytes (see README, Performance).
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    #[command(flatten)]
    input: InputArg,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    args.input.answer(|input, out| {
        scan::parse_all(input).map(|(count, sum)| {
            writeln!(out, "{count} {sum}").expect("writing to a Vec cannot fail");
        })
    })
}
