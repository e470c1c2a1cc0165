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
//! are solved on two threads (`pipeline`): one reads the next case while
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
    /// [`TWO_THREADS_MIN_BYTES`], its first case does not fill a quarter of it,
    /// and the machine has at least two CPUs; else one.
    #[default]
    Auto,
    /// One thread, whatever the input.
    One,
    /// Two threads, whatever the input (one if the second cannot be started).
    Two,
    /// [`Threads::Two`], the reader solving every batch of tiny cases
    /// itself, as it does when the solving thread is behind: for the tests
    /// of that path.
    #[doc(hidden)]
    TwoReaderSolving,
}

/// Inputs shorter than this are solved on one thread by [`Threads::Auto`]:
/// starting the second thread and handing cases over costs more than it
/// saves on them (see docs/JUDGE-SOLVERS.md).
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
        Threads::Two | Threads::TwoReaderSolving => true,
        Threads::Auto => {
            input.len() >= TWO_THREADS_MIN_BYTES
                && !first_case_fills_input(input)
                && std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2)
        }
    };
    let reader_solves = opts.threads == Threads::TwoReaderSolving;
    if two_threads && let Some(result) = pipeline::solve(input, out, opts.json, reader_solves) {
        return result;
    }
    solve_on_one_thread(input, out, opts.json)
}

/// Whether the first case takes at least a quarter of the input, by the
/// least its `n m` allow (4 bytes an edge, 2 a stone count): then there is
/// little to overlap, and two threads gained nothing (`uva11927-chain`, one
/// case of 1,000,000 nodes: 1.53x to 1.57x of C on one thread, 1.52x to
/// 1.64x on two).
fn first_case_fills_input(input: &[u8]) -> bool {
    let mut sc = Scanner::new(input);
    match (sc.next_opt(""), sc.next("")) {
        (Ok(Some(n)), Ok(m)) => {
            let least = m.saturating_mul(4).saturating_add(n.saturating_mul(2));
            least >= input.len() as u64 / 4
        }
        _ => false,
    }
}

/// The plain path: each case read, then solved, in turn.
fn solve_on_one_thread(input: &[u8], out: &mut Vec<u8>, json: bool) -> Result<(), InputError> {
    let mut sc = Scanner::new(input);
    let mut case = 0;
    while let Some(header) = read_header(&mut sc)? {
        let values = read_edges(&mut sc, input, &header)?.values(header.start, &sc)?;
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

/// The first line of a test case.
#[derive(Debug, Clone, Copy)]
struct Header {
    /// Byte offset of its `n` (where a cycle is reported).
    start: usize,
    /// `n`: how many nodes, and how many stone counts follow the edges.
    node_count: usize,
    /// `m`.
    edge_count: u64,
}

impl Header {
    /// Whether the input after the last token read can hold the stone
    /// counts (at least 2n - 1 bytes). Nothing is allocated for the n nodes
    /// before that is known: a huge n with a short input is the error of
    /// the missing counts.
    fn room_for_counts(&self, sc: &Scanner<'_>, input: &[u8]) -> bool {
        (self.node_count as u64 * 2).saturating_sub(1) <= (input.len() - sc.last_offset()) as u64
    }
}

/// Reads the next case's `n m`; `None` at `0 0` or the end of the input.
#[inline(always)]
fn read_header(sc: &mut Scanner<'_>) -> Result<Option<Header>, InputError> {
    let Some(n) = sc.next_opt_at_most("the number of nodes n", Graph::MAX_NODES as u64)? else {
        return Ok(None);
    };
    let start = sc.last_offset();
    let n = n as usize;
    let m = sc.next_at_most("the number of edges m", Graph::MAX_EDGES as u64)?;
    if n == 0 && m == 0 {
        return Ok(None);
    }
    Ok(Some(Header {
        start,
        node_count: n,
        edge_count: m,
    }))
}

/// Reads the `m` edges of `header`'s case, each node checked, into `push`.
#[inline(always)]
fn read_edge_list(
    sc: &mut Scanner<'_>,
    header: &Header,
    mut push: impl FnMut(u32, u32),
) -> Result<(), InputError> {
    let n = header.node_count;
    for _ in 0..header.edge_count {
        let source = sc.next_node("the source node of an edge", n)?;
        push(source, sc.next_node("the target node of an edge", n)?);
    }
    Ok(())
}

/// The edges of a case, counted as read or already a graph.
#[derive(Debug)]
enum Edges {
    Counted(EdgeCounter),
    Built(Graph),
}

impl Edges {
    /// Builds the graph and computes its Grundy values; a cycle is an error
    /// at the case's `start` (`sc` only locates it).
    #[inline(always)]
    fn values(self, start: usize, sc: &Scanner<'_>) -> Result<Vec<u32>, InputError> {
        let graph = match self {
            Edges::Counted(edges) => edges.into_graph(),
            Edges::Built(graph) => graph,
        };
        grundy_values(&graph).map_err(|e| sc.error_at(start, e.into()))
    }
}

/// Reads the edges of `header`'s case.
#[inline(always)]
fn read_edges(sc: &mut Scanner<'_>, input: &[u8], header: &Header) -> Result<Edges, InputError> {
    let n = header.node_count;
    if header.room_for_counts(sc, input) {
        // The out-degrees are counted as the edges are read: building
        // the graph is then one pass over them.
        let mut edges = EdgeCounter::new(n).expect("n was checked against MAX_NODES");
        // An edge takes at least 4 bytes of input (`u v` and a space).
        edges.reserve((header.edge_count as usize).min((input.len() - sc.last_offset()) / 4));
        read_edge_list(sc, header, |source, target| edges.push(source, target))?;
        return Ok(Edges::Counted(edges));
    }
    let (mut sources, mut targets) = (Vec::new(), Vec::new());
    read_edge_list(sc, header, |source, target| {
        sources.push(source);
        targets.push(target);
    })?;
    if !header.room_for_counts(sc, input) {
        for _ in 0..n {
            sc.next("a stone count")?;
        }
    }
    let graph =
        Graph::from_edges(n, &sources, &targets).expect("edges were validated while reading");
    Ok(Edges::Built(graph))
}

/// Appends the answer of case number `case` whose stones XOR to `sum`.
#[inline(always)]
fn write_answer(out: &mut Vec<u8>, case: u64, sum: u32, json: bool) {
    let answer = CaseAnswer::<NoMove> {
        case,
        answer: if sum != 0 { "First" } else { "Second" },
        value: sum,
        hint: None,
    };
    answer.write(out, json, false);
}
