//! `grundy cram`: the nimber of a Cram board (empty, or drawn in a file),
//! who wins, a winning move, and a certificate of the nimber.

use super::search::{SearchArgs, ShowMove, solve};
use super::shared::{bad_input, print_error, read_named};
use anyhow::Result;
use serde_json::json;
use sg_search::bits::Bits;
use sg_search::games::cram::{Cells, Cram, CramEndgame, Domino, fits_u64};
use sg_solve::boards::{CramBoard, cram_board, cram_size};
use sg_tables::embedded_cram_endgame;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// The largest board file read: 1 MiB.
const MAX_BOARD_FILE: u64 = 1 << 20;

/// The nimber of a Cram board, who wins, and a winning move.
#[derive(clap::Args, Debug)]
#[command(
    long_about = "The nimber of a Cram board, who wins it, and a winning move.\n\n\
    Cram: players in turn place a domino on two free adjacent cells (in a row or a \
    column); the player who cannot place one loses. RxC is an empty board of R rows \
    and C columns; --board FILE reads one (`-` for standard input) drawn as rows of \
    `.` (free) and `#` (blocked): blank lines and trailing spaces are ignored, and \
    rows shorter than the longest are padded with blocked cells. One side of at most \
    8 cells, the other at most 16. The nimbers of components of at most 14 cells come \
    from the built-in endgame table (every polyomino, computed from the rules by \
    `cargo xtask gen`); --online computes them by the search instead.\n\n\
    Prints `nimber N`, then WIN or LOSE (for the player to move), then with --hint \
    `move (r1,c1)-(r2,c2)`, the two cells of a winning domino (0-based row and column); \
    with --outcome, WIN or LOSE without the nimber. With --misere, who wins in misère \
    play (the player who places the last domino loses), without the nimber. \
    With --json: {\"game\":\"cram 4x7\",\"nimber\":3,\"outcome\":\"WIN\",\
    \"hint\":[[0,1],[0,2]],\"positions\":11514,\"expanded\":13948,\"seconds\":0.03}.\n\n\
    Examples:\n  grundy cram 5x7\n  grundy cram 4x7 --hint --json\n  \
    grundy cram 5x5 --misere --hint\n  \
    grundy cram --board board.txt\n  grundy cram 5x6 --proof cram-5x6.proof && \
    grundy proof check cram-5x6.proof"
)]
pub(crate) struct Args {
    /// An empty board of R rows and C columns, e.g. 4x7.
    #[arg(
        value_name = "RxC",
        required_unless_present = "board",
        conflicts_with = "board"
    )]
    size: Option<String>,
    /// Read the board from FILE (`-` for standard input): rows of `.`
    /// (free) and `#` (blocked).
    #[arg(long, value_name = "FILE")]
    board: Option<PathBuf>,
    #[command(flatten)]
    search: SearchArgs,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    let board = match (&args.size, &args.board) {
        (Some(size), _) => cram_size(size),
        (None, Some(path)) => cram_board(&read_named(Some(path), MAX_BOARD_FILE, None)?),
        (None, None) => unreachable!("clap requires RxC or --board"),
    };
    let board = match board {
        Ok(board) => board,
        Err(e) => return Ok(bad_input(e)),
    };
    if fits_u64(board.rows, board.cols) {
        run_on::<u64>(&board, &args.search)
    } else {
        run_on::<u128>(&board, &args.search)
    }
}

fn run_on<B: Bits>(board: &CramBoard, search: &SearchArgs) -> Result<ExitCode> {
    match Cram::<B>::with_blocked(board.rows, board.cols, &board.blocked) {
        // The misère search asks no nimber of the endgame table.
        Ok(cram) if search.online || search.misere => solve(&cram, search, &Dominoes),
        Ok(cram) => {
            let endgame: Arc<dyn CramEndgame> = Arc::new(embedded_cram_endgame());
            let cram = cram.with_endgame(endgame);
            let code = solve(&cram, search, &Dominoes)?;
            warn_misses(cram.endgame_misses());
            Ok(code)
        }
        Err(e) => Ok(bad_input(e)),
    }
}

/// Says on standard error that the endgame table did not hold components
/// it should (`misses` of them): it and this build disagree on canonical
/// forms, so the search went on without it (the answer is still right).
fn warn_misses(misses: u64) {
    if misses > 0 {
        print_error(format_args!(
            "warning: the Cram endgame table did not hold {misses} component(s) of at most \
             {} cells (a table built with another canonical form?): they and every later \
             component were searched instead",
            embedded_cram_endgame().max_cells()
        ));
    }
}

/// Dominoes in JSON as `[[r1,c1],[r2,c2]]`.
struct Dominoes;

impl<B: Bits> ShowMove<Cram<B>> for Dominoes {
    fn json(&self, cram: &Cram<B>, mv: &Domino) -> serde_json::Value {
        let [(r1, c1), (r2, c2)] = cram.cells(*mv);
        json!([[r1, c1], [r2, c2]])
    }

    fn known_win(&self, cram: &Cram<B>, position: &Cells<B>) -> Option<Domino> {
        cram.symmetry_win(*position)
    }
}
