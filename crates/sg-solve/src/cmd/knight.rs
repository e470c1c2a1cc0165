//! `grundy knight`: the Grundy value of one knight anywhere, any move set.

use super::shared::print_answers;
use anyhow::{Context, Result};
use sg_core::knight::MoveSet;
use sg_core::knight_pattern::{KnightPattern, SearchOptions, search};
use std::io::Write;
use std::process::ExitCode;

/// The Grundy value of one knight on (X, Y), for any X, Y below 2^63.
#[derive(clap::Args, Debug)]
#[command(long_about = "The Grundy value of one knight on (X, Y), for any X, Y below 2^63.\n\n\
    The value comes from a finite description of the whole board (a block near the \
    origin, periodic layers along a few rays, periodic sectors between them) that is \
    certified before use: the mex recurrence is checked at finitely many squares that \
    stand for all of them. The hyper knight's description is compiled in; other move \
    sets are searched for on the spot.\n\n\
    Examples:\n  grundy knight 2 5\n  grundy knight 4611686018427387904 7\n  \
    grundy knight 10 20 --moves \"-2,-1 -1,-2 -2,1 1,-2\"")]
pub(crate) struct Args {
    /// The square's x.
    #[arg(value_parser = clap::value_parser!(u64).range(..1u64 << 63))]
    x: u64,
    /// The square's y.
    #[arg(value_parser = clap::value_parser!(u64).range(..1u64 << 63))]
    y: u64,
    /// The steps, `dx,dy` separated by spaces, each lowering x + y
    /// (default: the hyper knight).
    #[arg(long, value_name = "STEPS", allow_hyphen_values = true)]
    moves: Option<String>,
    /// Use no stored description: search for one and certify it now,
    /// even for the hyper knight.
    #[arg(long)]
    online: bool,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    let pattern = knight_pattern(args.moves.as_deref(), args.online)?;
    let mut out = Vec::new();
    writeln!(out, "{}", pattern.value(args.x, args.y)).expect("writing to a Vec cannot fail");
    print_answers(&out, Ok(()))
}

/// The certified description for `--moves` (the hyper knight when absent):
/// the compiled-in one, or one searched for now.
fn knight_pattern(moves: Option<&str>, online: bool) -> Result<KnightPattern> {
    let moves = match moves {
        None => MoveSet::hyper_knight(),
        Some(text) => parse_moves(text)?,
    };
    if !online && moves == MoveSet::hyper_knight() {
        return Ok(sg_tables::embedded_knight_pattern().clone());
    }
    let found = search(&moves, &SearchOptions::default())
        .with_context(|| format!("move set {:?}", moves.steps()))?;
    Ok(found.pattern)
}

/// Parses `"dx,dy dx,dy ..."` into a move set.
fn parse_moves(text: &str) -> Result<MoveSet> {
    let mut steps = Vec::new();
    for pair in text.split_whitespace() {
        let (dx, dy) = pair
            .split_once(',')
            .with_context(|| format!("--moves: expected dx,dy, found {pair:?}"))?;
        let parse = |s: &str| {
            s.trim()
                .parse::<i32>()
                .with_context(|| format!("--moves: {s:?} is not a step"))
        };
        steps.push((parse(dx)?, parse(dy)?));
    }
    MoveSet::new(&steps).context("--moves")
}
