//! The `graph` subcommand: tokens on a directed graph that may have cycles,
//! `WIN`, `LOSE` or `DRAW` per query.
//!
//! Input: `n m`, then `m` lines `u v` (a move from `u` to `v`, nodes
//! `0..n`; duplicate edges and self-loops are allowed), then queries
//! `k t_1 .. t_k` (`k >= 1` tokens, on nodes that may repeat) to the end of
//! the input. A query is delimited by its count `k`, not by line breaks.
//!
//! A query is a sum of one-token games: a move moves one token along one
//! edge, whoever cannot move loses, and a play that never ends is a draw.
//! The generalized Sprague-Grundy values of the whole graph are computed once
//! ([`sg_core::gsg`], O((Δ + 2)(n + m))); then each query costs O(k), plus
//! the degree of the moved node for a hint. With [`Options::hint`], a win
//! comes with a move that the winner can keep following until the game ends
//! (moving to a losing position is not enough on a cyclic graph: see
//! [`GsgValues::winning_move`]).

use crate::error::{InputError, InputErrorKind};
use crate::scan::Scanner;
use serde::Serialize;
use sg_core::Graph;
use sg_core::gsg::{GValue, GsgValues, Move, Outcome, generalized_grundy};
use std::io::Write;

/// Options of the solver.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// After `WIN`, print a winning move ` FROM TO`.
    pub hint: bool,
    /// Print every node's value instead of answering the queries (which are
    /// still read and checked).
    pub values: bool,
    /// Print JSON lines instead of plain text.
    pub json: bool,
}

/// Solves the input, appending answers to `out`. On an error, `out` holds
/// the answers of every query completed before it (or, with
/// [`Options::values`], the values once the graph was read).
pub fn solve(input: &[u8], out: &mut Vec<u8>, opts: Options) -> Result<(), InputError> {
    let mut sc = Scanner::new(input);
    let n = sc.next_at_most("the number of nodes n", Graph::MAX_NODES as u64)? as usize;
    let m = sc.next_at_most("the number of edges m", Graph::MAX_EDGES as u64)?;
    // Every edge takes at least 4 bytes of input ("u v" and a separator):
    // reserve for all of them, but never more than the input can hold.
    let edges_max = (m as usize).min(input.len() / 4);
    let mut sources: Vec<u32> = Vec::with_capacity(edges_max);
    let mut targets: Vec<u32> = Vec::with_capacity(edges_max);
    for _ in 0..m {
        sources.push(sc.next_node("the source node of an edge", n)?);
        targets.push(sc.next_node("the target node of an edge", n)?);
    }
    let graph =
        Graph::from_edge_lists(n, sources, targets).expect("edges were validated while reading");
    let values = generalized_grundy(&graph);
    if opts.values {
        write_values(&values, out, opts.json);
    }
    const COUNT: &str = "the number of tokens k of a query";
    let mut tokens: Vec<u32> = Vec::new();
    while let Some(k) = sc.next_opt(COUNT)? {
        if k == 0 {
            return Err(sc.error_at(
                sc.last_offset(),
                InputErrorKind::NumberTooSmall {
                    expected: COUNT,
                    min: 1,
                },
            ));
        }
        tokens.clear();
        for _ in 0..k {
            tokens.push(sc.next_node("a token's node", n)?);
        }
        if !opts.values {
            write_answer(&values, &tokens, out, opts);
        }
    }
    Ok(())
}

/// One query's answer as a JSON line.
#[derive(Serialize)]
struct JsonAnswer {
    outcome: &'static str,
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    hint: Option<JsonMove>,
}

#[derive(Serialize)]
struct JsonMove {
    token: usize,
    from: u32,
    to: u32,
}

/// One node's value as a JSON line: a number, or `"inf"` with `k`.
#[derive(Serialize)]
struct JsonValue {
    node: u32,
    value: JsonNumberOrInf,
    #[serde(skip_serializing_if = "Option::is_none")]
    k: Option<Vec<u32>>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum JsonNumberOrInf {
    Finite(u32),
    Infinite(&'static str),
}

fn write_answer(values: &GsgValues<'_>, tokens: &[u32], out: &mut Vec<u8>, opts: Options) {
    let outcome = values.outcome(tokens);
    let word = match outcome {
        Outcome::Win => "WIN",
        Outcome::Lose => "LOSE",
        Outcome::Draw => "DRAW",
    };
    let hint: Option<Move> = if opts.hint && outcome == Outcome::Win {
        Some(
            values
                .winning_move(tokens)
                .expect("a won position has a winning move"),
        )
    } else {
        None
    };
    if opts.json {
        let answer = JsonAnswer {
            outcome: word,
            hint: hint.map(|mv| JsonMove {
                token: mv.token,
                from: mv.from,
                to: mv.to,
            }),
        };
        serde_json::to_writer(&mut *out, &answer).expect("writing JSON to a Vec cannot fail");
        out.push(b'\n');
    } else {
        out.extend_from_slice(word.as_bytes());
        if let Some(mv) = hint {
            write!(out, " {} {}", mv.from, mv.to).expect("writing to a Vec cannot fail");
        }
        out.push(b'\n');
    }
}

/// One line per node: its value, or `inf{K}` (`K` comma-separated).
fn write_values(values: &GsgValues<'_>, out: &mut Vec<u8>, json: bool) {
    for node in 0..values.graph().node_count() as u32 {
        let value = values.value(node);
        if json {
            let line = match value {
                GValue::Finite(g) => JsonValue {
                    node,
                    value: JsonNumberOrInf::Finite(g),
                    k: None,
                },
                GValue::Infinite => JsonValue {
                    node,
                    value: JsonNumberOrInf::Infinite("inf"),
                    k: Some(values.k_set(node)),
                },
            };
            serde_json::to_writer(&mut *out, &line).expect("writing JSON to a Vec cannot fail");
        } else {
            match value {
                GValue::Finite(g) => write!(out, "{g}"),
                GValue::Infinite => {
                    let k: Vec<String> = values.k_set(node).iter().map(u32::to_string).collect();
                    write!(out, "inf{{{}}}", k.join(","))
                }
            }
            .expect("writing to a Vec cannot fail");
        }
        out.push(b'\n');
    }
}
