//! HDU 5724 on two threads: the input is cut at a guessed case boundary
//! near its middle; a second thread solves the cases from there to the end
//! while the calling thread solves those before, and the second half's
//! answers are used only when they are exactly what one thread would write.
//!
//! Reading is nearly all of the work (a row's value is a table look-up),
//! so the only way to share it is to read the two halves at once. The cut
//! is a guess ([`guess_split`]: a line of one number followed by lines that
//! read as rows), checked exactly: the calling thread solves case after
//! case as on one thread, and if, after a complete case, the next token
//! starts exactly at the cut, the second thread read the rest of the input
//! without an error as exactly the number of cases still announced, then
//! its answers are those one thread would write from there (it reads the
//! same tokens the same way; a case's answer depends only on its tokens),
//! and the input ends there as one thread would require. Otherwise (the
//! cut inside a case, skipped over, a count that differs, an error in the
//! second half) the calling thread simply goes on alone from where it is,
//! so the output and any error (its message, line and column, and the
//! answers before it) are always those of one thread. Only plain output
//! comes this way: `--hint` and `--json` stay on one thread.
//!
//! Left to the scheduler, the second thread started on its parent's CPU
//! and stayed there for most of a judge-size input (no gain): the calling
//! thread now waits at a barrier until the second thread runs, and is then
//! placed on the idle CPU.

use super::{Options, solve_case, solve_cases};
use crate::error::InputError;
use crate::scan::Scanner;
use std::sync::Barrier;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::ScopedJoinHandle;

/// How many lines after a guessed case's `n` must read as rows.
const ROWS_CHECKED: u64 = 4;

/// What the second thread found from the cut: its answers and how many
/// cases they are, or `None` if it failed or was told to stop.
type SecondHalf = Option<(Vec<u8>, u64)>;

/// Solves on two threads (see the module's doc), cutting at `split`, or at
/// a guess near the middle if `None`; falls back to one thread where that
/// cannot give exactly its result. `Ok(true)` if the second thread's
/// answers were used.
pub(super) fn solve(
    input: &[u8],
    out: &mut Vec<u8>,
    opts: Options,
    split: Option<usize>,
    row_value: &(impl Fn(u64) -> u32 + Sync),
) -> Result<bool, InputError> {
    let Some(at) = split.or_else(|| guess_split(input)) else {
        let mut sc = Scanner::new(input);
        let cases = sc.next("the number of test cases T")?;
        return solve_cases(&mut sc, 1..=cases, out, opts, row_value).map(|()| false);
    };
    let abandoned = AtomicBool::new(false);
    // The calling thread waits until the second one runs: a new thread
    // starts on its parent's CPU, and left there it shares that CPU with
    // the calling thread until the scheduler moves one of them (about
    // 2.5 ms on `hdu5724-large`, half the run: no gain); woken by the
    // second thread, the calling thread is placed on an idle CPU
    // (`hdu5724-large` 5.8 -> 3.8 ms, 1.48 CPUs used instead of 1.0).
    let started = Barrier::new(2);
    std::thread::scope(|scope| {
        let second = std::thread::Builder::new()
            .name("hdu5724-second-half".into())
            .spawn_scoped(scope, || {
                started.wait();
                solve_second_half(input.get(at..)?, opts, row_value, &abandoned)
            })
            .ok();
        if second.is_some() {
            started.wait();
        }
        let mut sc = Scanner::new(input);
        let cases = sc.next("the number of test cases T")?;
        let first = match second {
            Some(second) => solve_first_half(&mut sc, cases, out, opts, row_value, at, second),
            None => Ok(Some(0)),
        };
        abandoned.store(true, Ordering::Relaxed);
        match first? {
            Some(done) => {
                solve_cases(&mut sc, done + 1..=cases, out, opts, row_value).map(|()| false)
            }
            None => Ok(true),
        }
    })
}

/// The calling thread's part: the cases from the start, until the next
/// token starts at the cut (then `None` if the second half's answers are
/// the rest of the output, written to `out`) or is past it: how many cases
/// were solved.
fn solve_first_half(
    sc: &mut Scanner<'_>,
    cases: u64,
    out: &mut Vec<u8>,
    opts: Options,
    row_value: &impl Fn(u64) -> u32,
    at: usize,
    second: ScopedJoinHandle<'_, SecondHalf>,
) -> Result<Option<u64>, InputError> {
    let mut done = 0;
    while done < cases {
        let next = sc.next_token_start();
        if next == at {
            if let Ok(Some((answers, solved))) = second.join()
                && solved == cases - done
            {
                out.extend_from_slice(&answers);
                return Ok(None);
            }
            break;
        }
        if next > at {
            break;
        }
        let n = sc.next("the number of rows n")?;
        solve_case(sc, done + 1, n, &mut Vec::new(), out, opts, row_value)?;
        done += 1;
    }
    Ok(Some(done))
}

/// Every case of `input` (which starts with a case's `n`) until its end:
/// the answers and how many cases; `None` at the first error or when
/// `abandoned` is set.
fn solve_second_half(
    input: &[u8],
    opts: Options,
    row_value: &impl Fn(u64) -> u32,
    abandoned: &AtomicBool,
) -> SecondHalf {
    let mut sc = Scanner::new(input);
    let mut out = Vec::new();
    let mut cases = 0;
    while let Some(n) = sc.next_opt("the number of rows n").ok()? {
        if abandoned.load(Ordering::Relaxed) {
            return None;
        }
        cases += 1;
        solve_case(
            &mut sc,
            cases,
            n,
            &mut Vec::new(),
            &mut out,
            opts,
            row_value,
        )
        .ok()?;
    }
    Some((out, cases))
}

/// A byte offset from the middle of `input` on that likely starts a case:
/// the start of a line holding one number `n > 0`, the next `min(n, 4)`
/// lines each holding `m` and `m` more numbers. Only a guess: the caller
/// checks. Nothing is allocated; the lines are read byte by byte (about a
/// case's worth, from the middle on).
pub(super) fn guess_split(input: &[u8]) -> Option<usize> {
    let mut at = input.len() / 2;
    loop {
        at += input.get(at..)?.iter().position(|&b| b == b'\n')? + 1;
        let mut lines = input[at..].split(|&b| b == b'\n');
        let n = match lines.next().and_then(line_numbers) {
            Some((n, 1)) if n > 0 => n,
            _ => continue,
        };
        let rows = lines.take(n.min(ROWS_CHECKED) as usize);
        let read = rows
            .map_while(line_numbers)
            .take_while(|&(m, count)| m == count - 1)
            .count();
        if read as u64 == n.min(ROWS_CHECKED) {
            return Some(at);
        }
    }
}

/// The first number of a line (up to 18 digits) and how many numbers it
/// holds; `None` if it holds none or anything but numbers and whitespace.
fn line_numbers(line: &[u8]) -> Option<(u64, u64)> {
    let mut words = line
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty());
    let first = words.next()?;
    if first.len() > 18 || !first.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let value = first.iter().fold(0, |v, &d| v * 10 + u64::from(d - b'0'));
    let mut count = 1;
    for word in words {
        if !word.iter().all(u8::is_ascii_digit) {
            return None;
        }
        count += 1;
    }
    Some((value, count))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sg_core::testing::SplitMix64;

    /// A valid input of `cases` cases of 1 to 8 rows, a line a row.
    fn valid_input(rng: &mut SplitMix64, cases: u64) -> String {
        let mut s = format!("{cases}\n");
        for _ in 0..cases {
            let n = 1 + rng.below(8);
            s.push_str(&format!("{n}\n"));
            for _ in 0..n {
                let mut columns: Vec<u64> = (1..=20).filter(|_| rng.below(3) == 0).collect();
                columns.insert(0, columns.len() as u64);
                let line: Vec<String> = columns.iter().map(u64::to_string).collect();
                s.push_str(&line.join(" "));
                s.push('\n');
            }
        }
        s
    }

    /// On inputs written a line a row, the guess is a case's start and the
    /// second thread's answers are used, the output that of one thread.
    #[test]
    fn the_guess_starts_a_case_and_the_second_half_is_used() {
        let mut rng = SplitMix64::new(5724);
        let mut used_count = 0;
        for _ in 0..200 {
            let cases = 2 + rng.below(40);
            let input = valid_input(&mut rng, cases);
            let opts = Options::default();
            let (mut one, mut two) = (Vec::new(), Vec::new());
            let row_value = sg_core::row::row_grundy;
            let mut sc = Scanner::new(input.as_bytes());
            sc.next("").unwrap();
            solve_cases(&mut sc, 1..=cases, &mut one, opts, &row_value).unwrap();
            let used = solve(input.as_bytes(), &mut two, opts, None, &row_value).unwrap();
            assert_eq!(one, two);
            // Only a middle in the last case leaves no case to start at.
            used_count += u32::from(used);
        }
        assert!(used_count > 180, "{used_count}");
    }
}
