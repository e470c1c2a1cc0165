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

use crate::answer::{QueryAnswer, TokenMove, write_json_line};
use crate::error::{InputError, InputErrorKind};
use crate::scan::Scanner;
use serde::Serialize;
use sg_core::gsg::{GValue, GsgValues, Move, Outcome, generalized_grundy};
use sg_core::{EdgeCounter, Graph};
use std::io::Write;
use std::ops::ControlFlow;

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
    solve_streaming(input, out, opts, &mut |_| ControlFlow::Continue(()))
}

/// Output of at least this many bytes is handed to the `flush` of
/// [`solve_streaming`] as it grows (with [`Options::values`], whose output
/// is one line per declared node, however few the input's bytes).
pub const FLUSH_AT: usize = 1 << 20;

/// [`solve`], handing the output to `flush` whenever it reaches
/// [`FLUSH_AT`] bytes, so that memory stays bounded by the input whatever
/// the output's size. `flush` takes what it wants out of the buffer (say,
/// writes it and clears it); [`ControlFlow::Break`] stops the solver, which
/// then returns `Ok(())` at once (the caller knows why it stopped).
///
/// Memory is O(input bytes) for every input: the edges and tokens are
/// stored as they are read, and a graph with more declared nodes than the
/// input has bytes is built on the nodes that appear in its edges only
/// (the others have no moves: value 0).
pub fn solve_streaming(
    input: &[u8],
    out: &mut Vec<u8>,
    opts: Options,
    flush: &mut dyn FnMut(&mut Vec<u8>) -> ControlFlow<()>,
) -> Result<(), InputError> {
    solve_with(input, out, opts, flush, input.len())
}

/// [`solve_streaming`], renumbering the nodes when more than `dense_max`
/// are declared.
fn solve_with(
    input: &[u8],
    out: &mut Vec<u8>,
    opts: Options,
    flush: &mut dyn FnMut(&mut Vec<u8>) -> ControlFlow<()>,
    dense_max: usize,
) -> Result<(), InputError> {
    let mut sc = Scanner::new(input);
    let n = sc.next_at_most("the number of nodes n", Graph::MAX_NODES as u64)? as usize;
    let m = sc.next_at_most("the number of edges m", Graph::MAX_EDGES as u64)?;
    // Every edge takes at least 4 bytes of input ("u v" and a separator):
    // reserve for all of them, but never more than the input can hold.
    let edges_max = (m as usize).min(input.len() / 4);
    let (graph, nodes) = if n <= dense_max {
        // Out-degrees counted as the edges are read: edges listed by
        // source need no pass over them afterwards, others one.
        let mut edges = EdgeCounter::new(n).expect("n was checked against MAX_NODES");
        edges.reserve(edges_max);
        for _ in 0..m {
            let source = sc.next_node("the source node of an edge", n)?;
            edges.push(source, sc.next_node("the target node of an edge", n)?);
        }
        (edges.into_graph(), Nodes::identity(n))
    } else {
        let mut sources: Vec<u32> = Vec::with_capacity(edges_max);
        let mut targets: Vec<u32> = Vec::with_capacity(edges_max);
        for _ in 0..m {
            sources.push(sc.next_node("the source node of an edge", n)?);
            targets.push(sc.next_node("the target node of an edge", n)?);
        }
        let nodes = Nodes::new(n, dense_max, &mut sources, &mut targets);
        let graph = Graph::from_edge_lists(nodes.graph_nodes(), sources, targets)
            .expect("edges were validated while reading");
        (graph, nodes)
    };
    let values = generalized_grundy(&graph);
    if opts.values && write_values(&values, &nodes, out, opts.json, flush).is_break() {
        return Ok(());
    }
    const COUNT: &str = "the number of tokens k of a query";
    // The tokens on nodes with moves, in the graph's numbering, and their
    // indices in the query (tokens on nodes without moves add nothing).
    let mut tokens: Vec<u32> = Vec::new();
    let mut indices: Vec<usize> = Vec::new();
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
        indices.clear();
        for index in 0..k {
            let node = sc.next_node("a token's node", n)?;
            if let Some(v) = nodes.in_graph(node) {
                tokens.push(v);
                indices.push(index as usize);
            }
        }
        if !opts.values {
            write_answer(&values, &nodes, &tokens, &indices, out, opts);
        }
    }
    Ok(())
}

/// How the input's nodes `0..n` map to the graph's: the identity, or, when
/// more nodes are declared than the input has bytes (or than a caller's
/// bound), the nodes that appear in an edge, in increasing order (every
/// other node has no moves and no predecessor: its value is 0 and it never
/// moves). Memory is then bounded by the edges, never by the declared `n`.
#[derive(Debug, Clone)]
pub struct Nodes {
    declared: usize,
    /// `None`: the identity. Else the sorted input nodes of the graph's nodes.
    appearing: Option<Vec<u32>>,
}

impl Nodes {
    /// The numbering for `n` declared nodes and these edges, which it
    /// renumbers in place if `n > dense_max`.
    pub fn new(n: usize, dense_max: usize, sources: &mut [u32], targets: &mut [u32]) -> Self {
        if n <= dense_max {
            return Self::identity(n);
        }
        let mut appearing: Vec<u32> = sources.iter().chain(targets.iter()).copied().collect();
        appearing.sort_unstable();
        appearing.dedup();
        for v in sources.iter_mut().chain(targets.iter_mut()) {
            *v = appearing.partition_point(|&a| a < *v) as u32;
        }
        Self {
            declared: n,
            appearing: Some(appearing),
        }
    }

    /// The input's own numbering of `n` nodes.
    pub fn identity(n: usize) -> Self {
        Self {
            declared: n,
            appearing: None,
        }
    }

    /// The nodes declared, `n`.
    pub fn declared(&self) -> usize {
        self.declared
    }

    /// Nodes of the graph to build.
    pub fn graph_nodes(&self) -> usize {
        self.appearing.as_ref().map_or(self.declared, Vec::len)
    }

    /// The graph's node for input node `v`, `None` if it is not in the graph.
    pub fn in_graph(&self, v: u32) -> Option<u32> {
        match &self.appearing {
            None => Some(v),
            Some(a) => a.binary_search(&v).ok().map(|i| i as u32),
        }
    }

    /// The input node of the graph's node `v`.
    pub fn input_node(&self, v: u32) -> u32 {
        self.appearing.as_ref().map_or(v, |a| a[v as usize])
    }
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

fn write_answer(
    values: &GsgValues<'_>,
    nodes: &Nodes,
    tokens: &[u32],
    indices: &[usize],
    out: &mut Vec<u8>,
    opts: Options,
) {
    let outcome = values.outcome(tokens);
    let word = match outcome {
        Outcome::Win => "WIN",
        Outcome::Lose => "LOSE",
        Outcome::Draw => "DRAW",
    };
    // In the input's numbering.
    let hint: Option<Move> = if opts.hint && outcome == Outcome::Win {
        let mv = values
            .winning_move(tokens)
            .expect("a won position has a winning move");
        Some(Move {
            token: indices[mv.token],
            from: nodes.input_node(mv.from),
            to: nodes.input_node(mv.to),
        })
    } else {
        None
    };
    if opts.json {
        let answer = QueryAnswer {
            outcome: word,
            value: None,
            hint: hint.map(|mv| TokenMove {
                token: mv.token,
                from: mv.from,
                to: mv.to,
            }),
        };
        write_json_line(out, &answer);
    } else {
        out.extend_from_slice(word.as_bytes());
        if let Some(mv) = hint {
            write!(out, " {} {}", mv.from, mv.to).expect("writing to a Vec cannot fail");
        }
        out.push(b'\n');
    }
}

/// One line per input node: its value, or `inf{K}` (`K` comma-separated);
/// `flush` is called whenever `out` reaches [`FLUSH_AT`] bytes.
fn write_values(
    values: &GsgValues<'_>,
    nodes: &Nodes,
    out: &mut Vec<u8>,
    json: bool,
    flush: &mut dyn FnMut(&mut Vec<u8>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let mut next_in_graph = 0u32;
    for node in 0..nodes.declared as u32 {
        // Input nodes come in increasing order, as do the graph's nodes.
        if next_in_graph < values.graph().node_count() as u32
            && nodes.input_node(next_in_graph) == node
        {
            let value = values.value(next_in_graph);
            write_value(values, node, (value, next_in_graph), out, json);
            next_in_graph += 1;
        } else if !json {
            // Not in the graph: no moves, value 0 (the common case when
            // many more nodes are declared than the edges touch).
            out.extend_from_slice(b"0\n");
        } else {
            write_value(values, node, (GValue::Finite(0), u32::MAX), out, json);
        }
        if out.len() >= FLUSH_AT {
            flush(out)?;
        }
    }
    ControlFlow::Continue(())
}

/// The line of input node `node`, whose value is `value.0` (with `value.1`
/// its node in the graph, for its set K).
fn write_value(
    values: &GsgValues<'_>,
    node: u32,
    (value, graph_node): (GValue, u32),
    out: &mut Vec<u8>,
    json: bool,
) {
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
                k: Some(values.k_set(graph_node)),
            },
        };
        serde_json::to_writer(&mut *out, &line).expect("writing JSON to a Vec cannot fail");
    } else {
        match value {
            GValue::Finite(g) => write!(out, "{g}"),
            GValue::Infinite => {
                let k: Vec<String> = values
                    .k_set(graph_node)
                    .iter()
                    .map(u32::to_string)
                    .collect();
                write!(out, "inf{{{}}}", k.join(","))
            }
        }
        .expect("writing to a Vec cannot fail");
    }
    out.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn run(input: &str, opts: Options, dense_max: usize) -> (String, Result<(), InputError>) {
        let mut out = Vec::new();
        let keep = &mut |_: &mut Vec<u8>| ControlFlow::Continue(());
        let r = solve_with(input.as_bytes(), &mut out, opts, keep, dense_max);
        (String::from_utf8(out).unwrap(), r)
    }

    proptest! {
        /// Renumbering the nodes that appear in edges answers exactly as the
        /// graph on all declared nodes: outcomes, hints and values.
        #[test]
        fn renumbering_changes_nothing(
            n in 1u32..40,
            edges in proptest::collection::vec((0u32..40, 0u32..40), 0..30),
            queries in proptest::collection::vec(proptest::collection::vec(0u32..40, 1..4), 0..10),
            hint: bool, values: bool, json: bool,
        ) {
            let mut input = format!("{n} {}\n", edges.len());
            for (u, v) in &edges {
                input += &format!("{} {}\n", u % n, v % n);
            }
            for q in &queries {
                input += &q.len().to_string();
                for t in q {
                    input += &format!(" {}", t % n);
                }
                input += "\n";
            }
            let opts = Options { hint: hint && !values, values, json };
            prop_assert_eq!(run(&input, opts, usize::MAX), run(&input, opts, 0));
        }
    }

    #[test]
    fn flush_receives_large_output_and_can_stop() {
        let input = b"1000000 1\n0 1\n";
        let opts = Options {
            values: true,
            ..Options::default()
        };
        let mut flushed = 0;
        let mut out = Vec::new();
        let mut flush = |out: &mut Vec<u8>| {
            flushed += out.len();
            out.clear();
            ControlFlow::Break(())
        };
        solve_streaming(input, &mut out, opts, &mut flush).unwrap();
        assert!(flushed >= FLUSH_AT && out.is_empty(), "{flushed}");
    }
}
