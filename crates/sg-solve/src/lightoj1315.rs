//! LightOJ 1315 "Game of Hyper Knights": `Case k: Alice` if the first
//! player wins, else `Case k: Bob`.
//!
//! Input: `T`, then `T` test cases, each `n` and `n` lines `x y` (a
//! knight's square). The game is the sum of the knights; a square's value
//! comes from a caller-supplied evaluator (on-demand computation or a
//! precomputed table), which may refuse squares too far out.

use crate::error::InputError;
use crate::scan::Scanner;
use sg_core::knight::{KnightError, MoveSet};
use sg_core::sum::try_component_to_move;
use std::io::Write;

/// Options of the solver.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// After `Alice`, print a winning move ` K X Y`: knight `K` (1-based)
    /// moves to `(X, Y)`.
    pub hint: bool,
}

/// Solves every test case, with `value(x, y)` giving a square's Grundy
/// value. On an error, `out` holds the answers of the complete cases before.
pub fn solve(
    input: &[u8],
    out: &mut Vec<u8>,
    opts: Options,
    moves: &MoveSet,
    mut value: impl FnMut(u64, u64) -> Result<u8, KnightError>,
) -> Result<(), InputError> {
    let mut sc = Scanner::new(input);
    let cases = sc.next("the number of test cases T")?;
    let mut knights: Vec<(u64, u64)> = Vec::new();
    for case in 1..=cases {
        let n = sc.next("the number of knights n")?;
        let mut sum = 0u8;
        knights.clear();
        for _ in 0..n {
            let x = sc.next("a knight's x")?;
            let x_at = sc.last_offset();
            let y = sc.next("a knight's y")?;
            sum ^= value(x, y).map_err(|e| sc.error_at(x_at, e.into()))?;
            if opts.hint {
                knights.push((x, y));
            }
        }
        write!(out, "Case {case}: ").expect("writing to a Vec cannot fail");
        if sum == 0 {
            out.extend_from_slice(b"Bob\n");
        } else if opts.hint {
            let (k, (x, y)) = winning_move(&knights, sum, moves, &mut value)
                .map_err(|e| sc.error_at(sc.last_offset(), e.into()))?;
            writeln!(out, "Alice {k} {x} {y}").expect("writing to a Vec cannot fail");
        } else {
            out.extend_from_slice(b"Alice\n");
        }
    }
    sc.expect_end("the last test case")
}

/// A winning move `(knight, square)`: the 1-based knight index and its new
/// square, given knights whose values XOR to `sum != 0`.
pub fn winning_move(
    knights: &[(u64, u64)],
    sum: u8,
    moves: &MoveSet,
    value: &mut impl FnMut(u64, u64) -> Result<u8, KnightError>,
) -> Result<(usize, (u64, u64)), KnightError> {
    let (index, target) = try_component_to_move(knights.iter().map(|&(x, y)| value(x, y)), sum)?
        .expect("a nonzero XOR has a knight with its top bit");
    let (x, y) = knights[index];
    for to in moves.moves_from(x, y) {
        if value(to.0, to.1)? == target {
            return Ok((index + 1, to));
        }
    }
    unreachable!("mex: every smaller value has a follower")
}
