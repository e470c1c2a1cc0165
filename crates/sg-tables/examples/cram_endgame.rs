//! Solves Cram boards with and without an endgame table (the compiled-in
//! one, of every component of at most 14 cells, or the table file given
//! with `--table FILE`) and prints, for each, the nimber, the positions the
//! search expanded (deterministic on one thread), the entries of its
//! transposition table and the time:
//!
//! ```text
//! cargo run --release -p sg-tables --features timing-examples --example cram_endgame -- 4x7 5x6 5x7 4x8/0,0
//! cargo xtask gen --out /tmp/k15 --cram-cells 15
//! cargo run --release -p sg-tables --features timing-examples --example cram_endgame -- --table /tmp/k15/cram-endgame.sgt 5x7
//! ```
//!
//! `--with-only` skips the solve without the table (to time a process
//! that loads a table and solves once, with `/usr/bin/time`).
//!
//! A board is `RxC`, optionally followed by `/r,c` for a blocked cell
//! (0-based), several separated by `/`.

use sg_search::bits::Bits;
use sg_search::games::cram::{Cram, CramEndgame, fits_u64};
use sg_search::{Options, Solver};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

fn main() -> ExitCode {
    let mut boards: Vec<String> = std::env::args().skip(1).collect();
    let mut table: Arc<dyn CramEndgame> = Arc::new(sg_tables::embedded_cram_endgame());
    let mut with_only = false;
    while let Some(flag) = boards.first().filter(|a| a.starts_with("--")).cloned() {
        boards.remove(0);
        match flag.as_str() {
            "--with-only" => with_only = true,
            "--table" if !boards.is_empty() => {
                let path = boards.remove(0);
                match sg_tables::read_cram_endgame(&path) {
                    Ok(read) => table = Arc::new(read),
                    Err(e) => {
                        eprintln!("{path}: {e}");
                        return ExitCode::from(2);
                    }
                }
            }
            _ => {
                eprintln!("unknown option {flag:?} (or --table without a file)");
                return ExitCode::from(2);
            }
        }
    }
    if boards.is_empty() {
        eprintln!("usage: cram_endgame [--table FILE] [--with-only] RxC[/r,c...] ...");
        return ExitCode::from(2);
    }
    for board in &boards {
        let Some((rows, cols, blocked)) = parse(board) else {
            eprintln!("not a board: {board:?} (expected RxC, then /r,c for each blocked cell)");
            return ExitCode::from(2);
        };
        let solved = if fits_u64(rows, cols) {
            Cram::<u64>::with_blocked(rows, cols, &blocked)
                .map(|c| report(board, c, &table, with_only))
        } else {
            Cram::<u128>::with_blocked(rows, cols, &blocked)
                .map(|c| report(board, c, &table, with_only))
        };
        if let Err(e) = solved {
            eprintln!("{board}: {e}");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}

/// Solves `plain` without (unless `with_only`) and with the table, and
/// prints what it took.
fn report<B: Bits>(board: &str, plain: Cram<B>, table: &Arc<dyn CramEndgame>, with_only: bool) {
    let without = (!with_only).then(|| ("without the table", plain.clone()));
    let with = ("with the table", plain.with_endgame(table.clone()));
    for (label, cram) in without.into_iter().chain([with]) {
        let options = Options {
            memory: 1 << 30,
            threads: 1,
        };
        let solver = Solver::with_options(&cram, options);
        let start = Instant::now();
        let nimber = solver.nimber(&cram.start()).expect("Cram has no cycle");
        let seconds = start.elapsed().as_secs_f64();
        let stats = solver.stats();
        println!(
            "{board} {label}: nimber {nimber}, {} positions expanded, {} entries, {seconds:.3} s, \
             {} components the table did not hold",
            stats.expanded,
            stats.positions,
            cram.endgame_misses()
        );
    }
}

/// Rows, columns and blocked cells `(row, column)`.
type Board = (u32, u32, Vec<(u32, u32)>);

/// `RxC` and the blocked cells `/r,c` after it.
fn parse(board: &str) -> Option<Board> {
    let mut parts = board.split('/');
    let (rows, cols) = parts.next()?.split_once('x')?;
    let blocked = parts
        .map(|cell| {
            let (r, c) = cell.split_once(',')?;
            Some((r.parse().ok()?, c.parse().ok()?))
        })
        .collect::<Option<Vec<_>>>()?;
    Some((rows.parse().ok()?, cols.parse().ok()?, blocked))
}
