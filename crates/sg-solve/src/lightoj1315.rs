//! LightOJ 1315 "Game of Hyper Knights": `Case k: Alice` if the first
//! player wins, else `Case k: Bob`.
//!
//! Input: `T`, then `T` test cases, each `n` and `n` lines `x y` (a
//! knight's square). The game is the sum of the knights; a square's value
//! comes from a caller-supplied evaluator (on-demand computation or a
//! precomputed table), which may refuse squares too far out. Squares must
//! have `x, y < 2^63`; a hint may land one step beyond (`2^63`), and is
//! answered.

use crate::answer::{CaseAnswer, KnightMove};
use crate::error::{InputError, InputErrorKind};
use crate::scan::{Scanner, at_most};
use sg_core::knight::{KnightError, MoveSet};
use sg_core::sum::try_component_to_move;

/// Options of the solver.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// After `Alice`, print a winning move ` K X Y`: knight `K` (1-based)
    /// moves to `(X, Y)`.
    pub hint: bool,
    /// One JSON object per test case instead of the judge's lines (see
    /// [`crate::answer`]).
    pub json: bool,
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
            let below_2_63 = |e| at_most(e, (1 << 63) - 1);
            let x = sc.next("a knight's x").map_err(below_2_63)?;
            let x_at = sc.last_offset();
            let y = sc.next("a knight's y").map_err(below_2_63)?;
            if x >> 63 != 0 || y >> 63 != 0 {
                let e = KnightError::OutOfRange { x, y };
                return Err(sc.error_at(x_at, e.into()));
            }
            sum ^= value(x, y).map_err(|e| sc.error_at(x_at, e.into()))?;
            if opts.hint {
                knights.push((x, y));
            }
        }
        let hint = if opts.hint && sum != 0 {
            // The whole answer is made before any of it is written.
            let (knight, (x, y)) = winning_move(&knights, sum, moves, &mut value)
                .map_err(|e| sc.error_at(sc.last_offset(), e))?;
            Some(KnightMove { knight, x, y })
        } else {
            None
        };
        let answer = CaseAnswer {
            case,
            answer: if sum != 0 { "Alice" } else { "Bob" },
            value: u32::from(sum),
            hint,
        };
        answer.write(out, opts.json, true);
    }
    sc.expect_end("the last test case")
}

/// A winning move `(knight, square)`: the 1-based knight index and its new
/// square, given knights whose values XOR to `sum != 0`. A move may land
/// one step beyond the input's range (a coordinate of 2^63): `value` must
/// answer every square one move away from an input square. Values that
/// break the mex recurrence give an error, not a panic.
pub fn winning_move(
    knights: &[(u64, u64)],
    sum: u8,
    moves: &MoveSet,
    value: &mut impl FnMut(u64, u64) -> Result<u8, KnightError>,
) -> Result<(usize, (u64, u64)), InputErrorKind> {
    let inconsistent = InputErrorKind::Inconsistent {
        what: "no knight can move to a losing sum",
    };
    let (index, target) = try_component_to_move(knights.iter().map(|&(x, y)| value(x, y)), sum)?
        .ok_or(inconsistent.clone())?;
    let (x, y) = knights[index];
    for to in moves.moves_from(x, y) {
        if value(to.0, to.1)? == target {
            return Ok((index + 1, to));
        }
    }
    Err(inconsistent)
}
