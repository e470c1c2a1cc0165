//! `grundy floor`: the benchmark floor, parsing every integer of the input.

use super::shared::InputArg;
use anyhow::Result;
use sg_solve::answer::write_json_line;
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
    /// One JSON object: {"count":N,"sum":S}.
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    args.input.answer(|input, out| {
        scan::parse_all(input).map(|(count, sum)| {
            if args.json {
                write_json_line(out, &serde_json::json!({"count": count, "sum": sum}));
            } else {
                writeln!(out, "{count} {sum}").expect("writing to a Vec cannot fail");
            }
        })
    })
}
