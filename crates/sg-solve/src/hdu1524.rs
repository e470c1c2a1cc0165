//! HDU 1524 "A Chess Game": tokens on a DAG, `WIN` or `LOSE` per query.
//!
//! Input, repeated to the end: `N`, then `N` lines `X_i t_1 .. t_X` (the
//! moves from position `i`), then query lines `M p_1 .. p_M`, ended by a
//! line `0` (or by the end of the input). Each query is a sum of one-token
//! games: the first player wins iff the XOR of the tokens' Grundy values is
//! not zero. The whole graph of each test case must be acyclic; it is
//! checked (and evaluated) once, in O(N + edges), before its queries.

use crate::answer::{QueryAnswer, TokenMove, write_json_line};
use crate::error::{InputError, InputErrorKind};
use crate::scan::Scanner;
use sg_core::sum::component_to_move;
use sg_core::{Graph, graph::grundy_values};
use std::io::Write;

/// Options of the solver.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// After `WIN`, print a winning move ` FROM TO`.
    pub hint: bool,
    /// One JSON object per query instead of the judge's lines (see
    /// [`crate::answer`]).
    pub json: bool,
}

/// Solves every test case of `input`, appending answers to `out`. On an
/// error, `out` holds the answers of every query completed before it.
pub fn solve(input: &[u8], out: &mut Vec<u8>, opts: Options) -> Result<(), InputError> {
    let mut sc = Scanner::new(input);
    let mut tokens: Vec<u32> = Vec::new();
    while let Some(n) = sc.next_opt_at_most("the number of positions N", Graph::MAX_NODES as u64)? {
        let case_start = sc.last_offset();
        let n = n as usize;
        let mut offsets: Vec<u32> = Vec::new();
        let mut targets: Vec<u32> = Vec::new();
        // Every position takes at least two bytes of input ("0 "), so this
        // reserves no more than the input could fill, whatever N claims.
        offsets.reserve(n.min(input.len() / 2) + 1);
        offsets.push(0);
        for _ in 0..n {
            let x = sc.next_at_most("the number of out-positions X_i", Graph::MAX_EDGES as u64)?;
            for _ in 0..x {
                targets.push(sc.next_node("an out-position", n)?);
            }
            if targets.len() > Graph::MAX_EDGES {
                return Err(sc.error_at(
                    sc.last_offset(),
                    InputErrorKind::NumberTooLarge {
                        expected: "the number of edges",
                        max: Graph::MAX_EDGES as u64,
                    },
                ));
            }
            offsets.push(targets.len() as u32);
        }
        let graph = Graph::from_csr(offsets, targets)
            .expect("offsets and targets were validated while reading");
        let values = grundy_values(&graph).map_err(|e| sc.error_at(case_start, e.into()))?;
        loop {
            let m = match sc.next_opt("the number of chesses M (0 ends the test case)")? {
                None | Some(0) => break,
                Some(m) => m,
            };
            let mut sum = 0u32;
            tokens.clear();
            for _ in 0..m {
                let p = sc.next_node("a chess position", n)?;
                sum ^= values[p as usize];
                if opts.hint {
                    tokens.push(p);
                }
            }
            let hint = (opts.hint && sum != 0).then(|| winning_move(&graph, &values, &tokens, sum));
            if opts.json {
                let answer = QueryAnswer {
                    outcome: if sum == 0 { "LOSE" } else { "WIN" },
                    value: Some(sum),
                    hint: hint.map(|(token, from, to)| TokenMove { token, from, to }),
                };
                write_json_line(out, &answer);
            } else if sum == 0 {
                out.extend_from_slice(b"LOSE\n");
            } else if let Some((_, from, to)) = hint {
                writeln!(out, "WIN {from} {to}").expect("writing to a Vec cannot fail");
            } else {
                out.extend_from_slice(b"WIN\n");
            }
        }
    }
    Ok(())
}

/// A move `(token, from, to)` of one token (`token`, its index in
/// `tokens`) that leaves a position of XOR 0, given tokens whose values XOR
/// to `sum != 0`.
pub fn winning_move(graph: &Graph, values: &[u32], tokens: &[u32], sum: u32) -> (usize, u32, u32) {
    let (index, want) = component_to_move(tokens.iter().map(|&t| values[t as usize]), sum)
        .expect("a nonzero XOR has a token with its top bit");
    let from = tokens[index];
    let to = *graph
        .successors(from)
        .iter()
        .find(|&&w| values[w as usize] == want)
        .expect("mex: every smaller value has a follower");
    (index, from, to)
}
