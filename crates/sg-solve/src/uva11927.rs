//! UVA 11927 "Games Are Important": stones on DAG nodes, `First` or
//! `Second` per test case.
//!
//! Input, repeated until a line `0 0` (or the end of the input): `n m`, then
//! `m` lines `u v` (a move from `u` to `v`), then `n` stone counts. Only the
//! parity of each count matters: two stones on one node cancel in the XOR.
//! The graph must be acyclic; it is checked whole. Memory is O(input
//! bytes): the graph's nodes are allocated only once the input is known to
//! be long enough to hold a stone count for each.
//!
//! The test cases are independent, so on a large input with two CPUs they
//! are solved on two threads ([`pipeline`]): one reads the next case while
//! the other builds the graph of the case before and computes its values.
//! The output, the errors and the answers printed before an error are the
//! same either way.

mod pipeline;

use crate::answer::{CaseAnswer, NoMove};
use crate::error::InputError;
use crate::scan::Scanner;
use sg_core::{EdgeCounter, Graph, graph::grundy_values};

/// How many threads [`solve`] uses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Threads {
    /// Two (one reading, one computing) when the input has at least
    /// [`TWO_THREADS_MIN_BYTES`] and the machine at least two CPUs; else one.
    #[default]
    Auto,
    /// One thread, whatever the input.
    One,
    /// Two threads, whatever the input (one if the second cannot be started).
    Two,
}

/// Inputs shorter than this are solved on one thread by [`Threads::Auto`]:
/// starting the second thread and handing cases over costs more than it
/// saves on them (see README, Performance).
pub const TWO_THREADS_MIN_BYTES: usize = 1 << 20;

/// Options of the solver.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// One JSON object per test case instead of the judge's lines (see
    /// [`crate::answer`]).
    pub json: bool,
    /// One thread or two; the output is the same.
    pub threads: Threads,
}

/// Solves every test case of `input`, appending answers to `out`. On an
/// error, `out` holds the answers of every test case completed before it.
pub fn solve(input: &[u8], out: &mut Vec<u8>, opts: Options) -> Result<(), InputError> {
    let two_threads = match opts.threads {
        Threads::One => false,
        Threads::Two => true,
        Threads::Auto => {
            input.len() >= TWO_THREADS_MIN_BYTES
                && std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2)
        }
    };
    if two_threads && let Some(result) = pipeline::solve(input, out, opts.json) {
        return result;
    }
    solve_on_one_thread(input, out, opts.json)
}

/// The plain path: each case read, then solved, in turn.
fn solve_on_one_thread(input: &[u8], out: &mut Vec<u8>, json: bool) -> Result<(), InputError> {
    let mut sc = Scanner::new(input);
    let mut case = 0;
    while let Some(pending) = read_graph(&mut sc, input)? {
        let values = pending.values(&sc)?;
        let mut sum = 0u32;
        for value in values {
            if sc.next("a stone count")? & 1 == 1 {
                sum ^= value;
            }
        }
        case += 1;
        write_answer(out, case, sum, json);
    }
    Ok(())
}

/// A test case whose edges are read, its stone counts not yet.
#[derive(Debug)]
struct PendingCase {
    /// Byte offset of its `n` (where a cycle is reported).
    start: usize,
    /// Its `n`: how many stone counts follow.
    node_count: usize,
    edges: Edges,
}

/// The edges of a case, counted as read or already a graph.
#[derive(Debug)]
enum Edges {
    Counted(EdgeCounter),
    Built(Graph),
}

impl PendingCase {
    /// Builds the graph and computes its Grundy values; a cycle is an error
    /// at the case's start (`sc` only locates it).
    fn values(self, sc: &Scanner<'_>) -> Result<Vec<u32>, InputError> {
        let graph = match self.edges {
            Edges::Counted(edges) => edges.into_graph(),
            Edges::Built(graph) => graph,
        };
        grundy_values(&graph).map_err(|e| sc.error_at(self.start, e.into()))
    }
}

/// Reads the next case's header and edges; `None` at `0 0` or the end of
/// the input.
fn read_graph(sc: &mut Scanner<'_>, input: &[u8]) -> Result<Option<PendingCase>, InputError> {
    let Some(n) = sc.next_opt("the number of nodes n")? else {
        return Ok(None);
    };
    let start = sc.last_offset();
    let n = sc.check_at_most(n, "the number of nodes n", Graph::MAX_NODES as u64)? as usize;
    let m = sc.next_at_most("the number of edges m", Graph::MAX_EDGES as u64)?;
    if n == 0 && m == 0 {
        return Ok(None);
    }
    // Nothing is allocated for the n nodes before the input is known to
    // hold their n stone counts (at least 2n - 1 bytes after the edges):
    // a huge n with a short input is the error of the missing counts.
    let room_for_counts = |sc: &Scanner<'_>| {
        (n as u64 * 2).saturating_sub(1) <= (input.len() - sc.last_offset()) as u64
    };
    let edges = if room_for_counts(sc) {
        // The out-degrees are counted as the edges are read: building
        // the graph is then one pass over them.
        let mut edges = EdgeCounter::new(n).expect("n was checked against MAX_NODES");
        // An edge takes at least 4 bytes of input (`u v` and a space).
        edges.reserve((m as usize).min((input.len() - sc.last_offset()) / 4));
        for _ in 0..m {
            let source = sc.next_node("the source node of an edge", n)?;
            edges.push(source, sc.next_node("the target node of an edge", n)?);
        }
        Edges::Counted(edges)
    } else {
        let (mut sources, mut targets) = (Vec::new(), Vec::new());
        for _ in 0..m {
            sources.push(sc.next_node("the source node of an edge", n)?);
            targets.push(sc.next_node("the target node of an edge", n)?);
        }
        if !room_for_counts(sc) {
            for _ in 0..n {
                sc.next("a stone count")?;
            }
        }
        Edges::Built(
            Graph::from_edges(n, &sources, &targets).expect("edges were validated while reading"),
        )
    };
    Ok(Some(PendingCase {
        start,
        node_count: n,
        edges,
    }))
}

/// Appends the answer of case number `case` whose stones XOR to `sum`.
fn write_answer(out: &mut Vec<u8>, case: u64, sum: u32, json: bool) {
    let answer = CaseAnswer::<NoMove> {
        case,
        answer: if sum != 0 { "First" } else { "Second" },
        value: sum,
        hint: None,
    };
    answer.write(out, json, false);
}
