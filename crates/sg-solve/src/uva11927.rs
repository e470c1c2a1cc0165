//! UVA 11927 "Games Are Important": stones on DAG nodes, `First` or
//! `Second` per test case.
//!
//! Input, repeated until a line `0 0` (or the end of the input): `n m`, then
//! `m` lines `u v` (a move from `u` to `v`), then `n` stone counts. Only the
//! parity of each count matters: two stones on one node cancel in the XOR.
//! The graph must be acyclic; it is checked whole. Memory is O(input
//! bytes): the graph's nodes are allocated only once the input is known to
//! be long enough to hold a stone count for each.

use crate::answer::{CaseAnswer, NoMove};
use crate::error::InputError;
use crate::scan::Scanner;
use sg_core::{EdgeCounter, Graph, graph::grundy_values};

/// Options of the solver.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// One JSON object per test case instead of the judge's lines (see
    /// [`crate::answer`]).
    pub json: bool,
}

/// Solves every test case of `input`, appending answers to `out`. On an
/// error, `out` holds the answers of every test case completed before it.
pub fn solve(input: &[u8], out: &mut Vec<u8>, opts: Options) -> Result<(), InputError> {
    let mut sc = Scanner::new(input);
    let mut case = 0;
    let mut sources: Vec<u32> = Vec::new();
    let mut targets: Vec<u32> = Vec::new();
    while let Some(n) = sc.next_opt("the number of nodes n")? {
        let case_start = sc.last_offset();
        let n = sc.check_at_most(n, "the number of nodes n", Graph::MAX_NODES as u64)? as usize;
        let m = sc.next_at_most("the number of edges m", Graph::MAX_EDGES as u64)?;
        if n == 0 && m == 0 {
            break;
        }
        sources.clear();
        targets.clear();
        // Nothing is allocated for the n nodes before the input is known to
        // hold their n stone counts (at least 2n - 1 bytes after the edges):
        // a huge n with a short input is the error of the missing counts.
        let room_for_counts = |sc: &Scanner<'_>| {
            (n as u64 * 2).saturating_sub(1) <= (input.len() - sc.last_offset()) as u64
        };
        let graph = if room_for_counts(&sc) {
            // The out-degrees are counted as the edges are read: building
            // the graph is then one pass over them.
            let mut edges = EdgeCounter::new(n).expect("n was checked against MAX_NODES");
            // An edge takes at least 4 bytes of input (`u v` and a space).
            edges.reserve((m as usize).min((input.len() - sc.last_offset()) / 4));
            for _ in 0..m {
                let source = sc.next_node("the source node of an edge", n)?;
                edges.push(source, sc.next_node("the target node of an edge", n)?);
            }
            Ok(edges.into_graph())
        } else {
            for _ in 0..m {
                sources.push(sc.next_node("the source node of an edge", n)?);
                targets.push(sc.next_node("the target node of an edge", n)?);
            }
            if !room_for_counts(&sc) {
                for _ in 0..n {
                    sc.next("a stone count")?;
                }
            }
            Graph::from_edges(n, &sources, &targets)
        }
        .expect("edges were validated while reading");
        let values = grundy_values(&graph).map_err(|e| sc.error_at(case_start, e.into()))?;
        let mut sum = 0u32;
        for value in values {
            if sc.next("a stone count")? & 1 == 1 {
                sum ^= value;
            }
        }
        case += 1;
        let answer = CaseAnswer::<NoMove> {
            case,
            answer: if sum != 0 { "First" } else { "Second" },
            value: sum,
            hint: None,
        };
        answer.write(out, opts.json, false);
    }
    Ok(())
}
