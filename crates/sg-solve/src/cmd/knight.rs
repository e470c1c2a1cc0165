//! `grundy knight`: the Grundy value of one knight anywhere, any move set.

use super::shared::{parse_digits, print_answers};
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
    /// The square's x (digits only, below 2^63).
    #[arg(value_parser = parse_coordinate)]
    x: u64,
    /// The square's y (digits only, below 2^63).
    #[arg(value_parser = parse_coordinate)]
    y: u64,
    /// The steps, `dx,dy` separated by spaces, each lowering x + y
    /// (default: the hyper knight).
    #[arg(long, value_name = "STEPS", allow_hyphen_values = true, value_parser = parse_moves)]
    moves: Option<MoveSet>,
    /// Use no stored description: search for one and certify it now,
    /// even for the hyper knight.
    #[arg(long)]
    online: bool,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    let pattern = knight_pattern(args.moves, args.online)?;
    let mut out = Vec::new();
    writeln!(out, "{}", pattern.value(args.x, args.y)).expect("writing to a Vec cannot fail");
    print_answers(&out, Ok(()))
}

/// The certified description for `--moves` (the hyper knight when absent):
/// the compiled-in one, or one searched for now.
fn knight_pattern(moves: Option<MoveSet>, online: bool) -> Result<KnightPattern> {
    let moves = moves.unwrap_or_else(MoveSet::hyper_knight);
    if !online && moves == MoveSet::hyper_knight() {
        return Ok(sg_tables::embedded_knight_pattern().clone());
    }
    let found = search(&moves, &SearchOptions::default())
        .with_context(|| format!("move set {:?}", moves.steps()))?;
    Ok(found.pattern)
}

/// A coordinate as the judge inputs write it: decimal digits only (no
/// sign, no `+`), below 2^63. A usage error otherwise (exit status 2).
fn parse_coordinate(text: &str) -> Result<u64, String> {
    match parse_digits(text)? {
        v if v >> 63 == 0 => Ok(v),
        _ => Err("must be below 2^63 = 9223372036854775808".to_owned()),
    }
}

/// One step of `--moves`: decimal digits with an optional `-` (no `+`).
fn parse_step(text: &str) -> Result<i32, String> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{text:?} is not a step (digits with an optional -)"));
    }
    text.parse()
        .map_err(|_| format!("{text:?} does not fit in 32 bits"))
}

/// Parses `"dx,dy dx,dy ..."` into a move set (a usage error otherwise,
/// exit status 2).
fn parse_moves(text: &str) -> Result<MoveSet, String> {
    let mut steps = Vec::new();
    for pair in text.split_whitespace() {
        let (dx, dy) = pair
            .split_once(',')
            .ok_or_else(|| format!("expected dx,dy, found {pair:?}"))?;
        steps.push((parse_step(dx)?, parse_step(dy)?));
    }
    MoveSet::new(&steps).map_err(|e| e.to_string())
}
