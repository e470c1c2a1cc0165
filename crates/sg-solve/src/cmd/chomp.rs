//! `grundy chomp`: the nimber of a Chomp position, who wins, a winning
//! move, and a certificate of the nimber.

use super::search::{SearchArgs, ShowMove, solve};
use super::shared::bad_input;
use anyhow::Result;
use serde_json::json;
use sg_search::bits::Bits;
use sg_search::games::chomp::{Bite, Chomp, fits_u64};
use sg_solve::boards::{CHOMP_MAX_ROWS as MAX_ROWS, chomp_rows};
use std::process::ExitCode;

/// Chomp: the nimber, who wins, and a winning move.
#[derive(clap::Args, Debug)]
#[command(long_about = "Chomp: the nimber, who wins, and a winning move.\n\n\
    A bar of chocolate whose cell (0, 0), top left, is poisoned. Players in turn take a \
    cell (r, c) other than (0, 0) with every cell (r', c') such that r' >= r and c' >= c; \
    the player who cannot move (only the poisoned cell is left) loses. ROWS is a \
    rectangle RxC (R rows of C cells) or the row lengths from the top, L1,L2,..., \
    non-increasing, each at least 1 (the first row holds the poisoned cell). The rows \
    and the columns together at most 127.\n\n\
    Prints `nimber N`, then WIN or LOSE (for the player to move), then with --hint \
    `move (r,c)`, the cell to take (0-based row and column). With --misere, who wins \
    in misère play (the player who makes the last bite loses), without the nimber. \
    With --json: \
    {\"game\":\"chomp 3x4\",\"nimber\":9,\"outcome\":\"WIN\",\"hint\":[1,2],\
    \"positions\":17,\"expanded\":24,\"seconds\":0.0}.\n\n\
    Examples:\n  grundy chomp 6x7 --hint\n  grundy chomp 5,4,4,2 --json\n  \
    grundy chomp 7x7 --misere --hint\n  \
    grundy chomp 8x8 --proof chomp-8x8.proof && grundy proof check chomp-8x8.proof")]
pub(crate) struct Args {
    /// RxC, a rectangle, or L1,L2,..., the row lengths from the top.
    #[arg(value_name = "ROWS")]
    rows: String,
    #[command(flatten)]
    search: SearchArgs,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    let rows = match chomp_rows(&args.rows, MAX_ROWS) {
        Ok(rows) => rows,
        Err(message) => return Ok(bad_input(message)),
    };
    if fits_u64(rows.len() as u64, u64::from(rows[0])) {
        run_on::<u64>(&rows, &args.search)
    } else {
        run_on::<u128>(&rows, &args.search)
    }
}

fn run_on<B: Bits>(rows: &[u32], search: &SearchArgs) -> Result<ExitCode> {
    match Chomp::<B>::from_rows(rows) {
        Ok(game) => solve(&game, search, &Bites),
        Err(e) => Ok(bad_input(e)),
    }
}

/// A move is the cell taken: `[r,c]` in JSON.
struct Bites;

impl<B: Bits> ShowMove<Chomp<B>> for Bites {
    fn json(&self, _: &Chomp<B>, bite: &Bite) -> serde_json::Value {
        json!([bite.row, bite.col])
    }
}
