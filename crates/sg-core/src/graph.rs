//! Explicit game graphs and their Sprague-Grundy values.
//!
//! A [`Graph`] is stored in compressed sparse row (CSR) form: the successors
//! of node `v` are `targets[offsets[v]..offsets[v + 1]]`. Node ids are `u32`.
//!
//! [`Grundy`] computes values on demand with an explicit stack (never by
//! recursion, so a chain of millions of nodes is fine): asking for one node
//! computes exactly the nodes it reaches, each once, in O(V + E) in total.
//! A cycle met on the way is reported with the nodes of one cycle.

use crate::hugepages::filled_vec;
use crate::mex::Mex;
use std::fmt;

mod build;
mod counted;
pub(crate) mod search;
mod walkers;

pub use counted::EdgeCounter;

use search::{Frame, Look, Visitor, frame_value, search};

/// Why a graph could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GraphError {
    /// An edge names a node that does not exist.
    #[error("node {node} is out of range (the graph has {node_count} nodes)")]
    NodeOutOfRange {
        /// The offending node id.
        node: u64,
        /// Number of nodes in the graph.
        node_count: usize,
    },
    /// More nodes or edges than fit in `u32` ids and offsets.
    #[error("graph too large: {what} exceeds {limit}")]
    TooLarge {
        /// "nodes" or "edges".
        what: &'static str,
        /// The largest supported count.
        limit: u64,
    },
    /// CSR offsets that are not monotone or do not match the targets.
    #[error("malformed CSR offsets")]
    MalformedOffsets,
}

/// A directed graph of moves, in compressed sparse row form.
#[derive(Clone, PartialEq, Eq)]
pub struct Graph {
    offsets: Vec<u32>,
    targets: Vec<u32>,
}

impl fmt::Debug for Graph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Graph")
            .field("nodes", &self.node_count())
            .field("edges", &self.edge_count())
            .finish()
    }
}

impl Graph {
    /// The largest number of nodes (ids are `u32`, one value is reserved).
    pub const MAX_NODES: usize = (u32::MAX - 2) as usize;
    /// The largest number of edges (offsets are `u32`).
    pub const MAX_EDGES: usize = u32::MAX as usize;

    /// Builds a graph from CSR arrays: `offsets` has one entry per node plus
    /// one, starts at 0, never decreases and ends at `targets.len()`.
    pub fn from_csr(offsets: Vec<u32>, targets: Vec<u32>) -> Result<Self, GraphError> {
        let node_count = offsets
            .len()
            .checked_sub(1)
            .ok_or(GraphError::MalformedOffsets)?;
        check_sizes(node_count, targets.len())?;
        if offsets[0] != 0
            || offsets[node_count] as usize != targets.len()
            || offsets.windows(2).any(|w| w[0] > w[1])
        {
            return Err(GraphError::MalformedOffsets);
        }
        if let Some(&bad) = targets.iter().find(|&&t| t as usize >= node_count) {
            return Err(GraphError::NodeOutOfRange {
                node: bad.into(),
                node_count,
            });
        }
        Ok(Self { offsets, targets })
    }

    /// Builds a graph on `node_count` nodes from edges `sources[i] -> targets[i]`
    /// (a counting sort: O(V + E), successors keep their input order).
    pub fn from_edges(
        node_count: usize,
        sources: &[u32],
        targets: &[u32],
    ) -> Result<Self, GraphError> {
        assert_eq!(sources.len(), targets.len(), "one target per source");
        check_sizes(node_count, sources.len())?;
        if sources.len() >= PARTITION_THRESHOLD && node_count >= PARTITION_MIN_NODES {
            let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(2));
            if let Some(graph) = build::partitioned(node_count, sources, targets, threads) {
                return Ok(graph);
            }
        }
        let mut sorted = true;
        let mut previous = 0;
        for (&s, &t) in sources.iter().zip(targets) {
            if s.max(t) as usize >= node_count {
                return Err(GraphError::NodeOutOfRange {
                    node: s.max(t).into(),
                    node_count,
                });
            }
            sorted &= previous <= s;
            previous = s;
        }
        if sorted {
            // Edges listed by source (a common way to write a graph): the
            // targets are already in CSR order.
            return Ok(Self::sorted_csr(node_count, sources, targets.to_vec()));
        }
        Ok(Self::counting_sort(
            node_count,
            sources.iter().copied().zip(targets.iter().copied()),
        ))
    }

    /// [`Graph::from_edges`] taking the edge lists: when the sources never
    /// decrease, the targets are the CSR targets as they are (no copy).
    pub fn from_edge_lists(
        node_count: usize,
        sources: Vec<u32>,
        targets: Vec<u32>,
    ) -> Result<Self, GraphError> {
        assert_eq!(sources.len(), targets.len(), "one target per source");
        if !sources.is_sorted() {
            return Self::from_edges(node_count, &sources, &targets);
        }
        check_sizes(node_count, sources.len())?;
        if let Some(&bad) = sources
            .iter()
            .chain(&targets)
            .find(|&&v| v as usize >= node_count)
        {
            return Err(GraphError::NodeOutOfRange {
                node: bad.into(),
                node_count,
            });
        }
        Ok(Self::sorted_csr(node_count, &sources, targets))
    }

    /// CSR from edges in range whose sources never decrease: the targets
    /// are in CSR order already, the offsets come from counting.
    fn sorted_csr(node_count: usize, sources: &[u32], targets: Vec<u32>) -> Self {
        let mut offsets = filled_vec(node_count + 1, 0u32);
        for &s in sources {
            offsets[s as usize + 1] += 1;
        }
        for v in 1..offsets.len() {
            offsets[v] += offsets[v - 1];
        }
        Self { offsets, targets }
    }

    /// CSR from edges already checked to be in range, by a stable counting
    /// sort with one offsets array: node `s` is counted at index `s + 2`,
    /// prefix sums are taken, and edges are scattered through index `s + 1`,
    /// which leaves `offsets[s + 1]` at the end of `s`'s successors, i.e. the
    /// start of `s + 1`'s.
    fn counting_sort<I>(node_count: usize, edges: I) -> Self
    where
        I: Iterator<Item = (u32, u32)> + Clone,
    {
        let mut offsets = filled_vec(node_count + 2, 0u32);
        let mut edge_count = 0usize;
        for (s, _) in edges.clone() {
            offsets[s as usize + 2] += 1;
            edge_count += 1;
        }
        Self::scatter(offsets, edge_count, edges)
    }

    /// The second half of [`Graph::counting_sort`]: from the out-degree of
    /// each node `s` at index `s + 2` of `offsets` (`node_count + 2`
    /// entries), takes prefix sums and scatters the `edge_count` edges,
    /// whose sources have exactly these counts.
    fn scatter(
        mut offsets: Vec<u32>,
        edge_count: usize,
        edges: impl Iterator<Item = (u32, u32)>,
    ) -> Self {
        for v in 2..offsets.len() {
            offsets[v] += offsets[v - 1];
        }
        let mut sorted = filled_vec(edge_count, 0u32);
        for (s, t) in edges {
            let slot = &mut offsets[s as usize + 1];
            sorted[*slot as usize] = t;
            *slot += 1;
        }
        offsets.pop();
        Self {
            offsets,
            targets: sorted,
        }
    }

    /// Number of nodes.
    #[inline]
    pub fn node_count(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Number of edges (moves).
    #[inline]
    pub fn edge_count(&self) -> usize {
        self.targets.len()
    }

    /// The nodes reachable from `node` in one move, in input order.
    #[inline]
    pub fn successors(&self, node: u32) -> &[u32] {
        let v = node as usize;
        &self.targets[self.offsets[v] as usize..self.offsets[v + 1] as usize]
    }

    /// The graph with every edge reversed (predecessor lists).
    pub fn reversed(&self) -> Self {
        self.reversed_from(|_| true)
    }

    /// The graph of the reversed edges whose source `u` has `keep(u)`: the
    /// predecessor lists restricted to those sources.
    pub fn reversed_from(&self, keep: impl Fn(u32) -> bool) -> Self {
        let n = self.node_count();
        let kept = || (0..n as u32).filter(|&u| keep(u));
        let mut offsets = vec![0u32; n + 1];
        for u in kept() {
            for &t in self.successors(u) {
                offsets[t as usize + 1] += 1;
            }
        }
        for v in 0..n {
            offsets[v + 1] += offsets[v];
        }
        let mut fill = offsets.clone();
        let mut sources = vec![0u32; offsets[n] as usize];
        for u in kept() {
            for &t in self.successors(u) {
                let slot = &mut fill[t as usize];
                sources[*slot as usize] = u;
                *slot += 1;
            }
        }
        Self {
            offsets,
            targets: sources,
        }
    }
}

impl Graph {
    /// The CSR offsets (`node_count() + 1` entries).
    pub(crate) fn offsets(&self) -> &[u32] {
        &self.offsets
    }

    /// The CSR targets (`edge_count()` entries).
    pub(crate) fn targets(&self) -> &[u32] {
        &self.targets
    }
}

fn check_sizes(node_count: usize, edge_count: usize) -> Result<(), GraphError> {
    if node_count > Graph::MAX_NODES {
        return Err(GraphError::TooLarge {
            what: "nodes",
            limit: Graph::MAX_NODES as u64,
        });
    }
    if edge_count > Graph::MAX_EDGES {
        return Err(GraphError::TooLarge {
            what: "edges",
            limit: Graph::MAX_EDGES as u64,
        });
    }
    Ok(())
}

/// A cycle found in a graph that must be acyclic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("graph has a cycle: {}", display_cycle(.nodes))]
pub struct CycleError {
    /// The nodes of one cycle in move order; the first node is repeated at
    /// the end (`[3, 5, 3]` is the cycle `3 -> 5 -> 3`).
    pub nodes: Vec<u32>,
}

fn display_cycle(nodes: &[u32]) -> String {
    let parts: Vec<String> = nodes.iter().map(u32::to_string).collect();
    parts.join(" -> ")
}

/// From this many edges on, [`Graph::from_edges`] partitions before sorting
/// (see `build.rs`).
const PARTITION_THRESHOLD: usize = 1 << 20;
/// Below this many nodes the offsets stay in cache: no partitioning.
const PARTITION_MIN_NODES: usize = 1 << 16;

const UNKNOWN: u32 = u32::MAX;
const ON_STACK: u32 = u32::MAX - 1;

/// On-demand Grundy values of an acyclic [`Graph`].
///
/// Values are cached: each node is computed at most once, and only when a
/// query reaches it. After a [`CycleError`] the cache stays valid (the nodes
/// on the failed path are forgotten), so other queries may still succeed.
#[derive(Debug)]
pub struct Grundy<'g> {
    graph: &'g Graph,
    values: Vec<u32>,
    stack: Vec<Frame>,
    mex: Mex,
}

impl<'g> Grundy<'g> {
    /// An engine with nothing computed yet.
    pub fn new(graph: &'g Graph) -> Self {
        Self {
            graph,
            values: filled_vec(graph.node_count(), UNKNOWN),
            stack: Vec::new(),
            mex: Mex::new(),
        }
    }

    /// The graph this engine evaluates.
    pub fn graph(&self) -> &'g Graph {
        self.graph
    }

    /// The value of `node` if it has been computed already.
    #[inline]
    pub fn known(&self, node: u32) -> Option<u32> {
        let v = self.values[node as usize];
        (v < ON_STACK).then_some(v)
    }

    /// The Grundy value of `node`, computing it (and everything it reaches)
    /// if needed. Panics if `node` is out of range.
    #[inline]
    pub fn value(&mut self, node: u32) -> Result<u32, CycleError> {
        let v = self.values[node as usize];
        if v < ON_STACK {
            return Ok(v);
        }
        self.compute(node)
    }

    #[cold]
    fn compute(&mut self, root: u32) -> Result<u32, CycleError> {
        /// The plain engine's states: [`UNKNOWN`], [`ON_STACK`] or a value.
        struct Values<'a> {
            graph: &'a Graph,
            values: &'a mut [u32],
            mex: &'a mut Mex,
        }
        impl Visitor for Values<'_> {
            #[inline(always)]
            fn look(&mut self, w: u32) -> Look {
                match self.values[w as usize] {
                    UNKNOWN => {
                        self.values[w as usize] = ON_STACK;
                        Look::Descend
                    }
                    ON_STACK => Look::Stop,
                    g => Look::Value(g),
                }
            }
            #[inline(always)]
            fn finish(&mut self, frame: &Frame, _early: bool) {
                let values = &*self.values;
                let g = frame_value(self.graph, frame, self.mex, |w| values[w as usize]);
                self.values[frame.node as usize] = g;
            }
        }
        self.values[root as usize] = ON_STACK;
        let mut visitor = Values {
            graph: self.graph,
            values: &mut self.values,
            mex: &mut self.mex,
        };
        if let Some(w) = search(self.graph, &mut self.stack, root, &mut visitor) {
            let stack = &mut self.stack;
            let from = stack
                .iter()
                .rposition(|f| f.node == w)
                .expect("an ON_STACK node is on the stack");
            let mut nodes: Vec<u32> = stack[from..].iter().map(|f| f.node).collect();
            nodes.push(w);
            for f in stack.drain(..) {
                self.values[f.node as usize] = UNKNOWN;
            }
            return Err(CycleError { nodes });
        }
        Ok(self.values[root as usize])
    }

    /// Computes every node's value and returns them all, indexed by node.
    pub fn into_values(mut self) -> Result<Vec<u32>, CycleError> {
        for v in 0..self.graph.node_count() as u32 {
            if self.values[v as usize] == UNKNOWN {
                match self.value_from_known_successors(v) {
                    Some(g) => self.values[v as usize] = g,
                    None => {
                        self.compute(v)?;
                    }
                }
            }
        }
        Ok(self.values)
    }

    /// The value of `node` if all its successors are known and it has fewer
    /// than 64 of them: then no stack is needed. Nodes listed in an order
    /// close to a topological one (chains, most judge inputs) take this
    /// path.
    #[inline]
    fn value_from_known_successors(&self, node: u32) -> Option<u32> {
        let succ = self.graph.successors(node);
        if succ.len() >= 64 {
            return None;
        }
        let mut seen = 0u64;
        for &w in succ {
            let g = self.values[w as usize];
            if g >= ON_STACK {
                return None;
            }
            if g < 64 {
                seen |= 1 << g;
            }
        }
        Some((!seen).trailing_zeros())
    }
}

/// Whether nearly all edges of a sample of nodes spread over the graph go
/// the same way between ids (all to lower ids, or all to higher ones), as in
/// chains and inputs listed in a topological order. The plain engine then
/// runs through memory in order (and, on lower ids, finds every node's
/// successors known without a search), where walkers would mostly wait for
/// each other on the long paths such graphs have.
fn ids_look_ordered(graph: &Graph) -> bool {
    const SAMPLE: usize = 4096;
    let n = graph.node_count();
    let (mut down, mut up) = (0usize, 0usize);
    for i in 0..SAMPLE {
        let v = (i * n / SAMPLE) as u32;
        for &w in graph.successors(v) {
            if w < v {
                down += 1;
            } else {
                up += 1;
            }
        }
    }
    let total = down + up;
    down.max(up) * 100 >= total * 99
}

/// From this many nodes on, [`grundy_values`] runs the interleaved walkers.
const WALKERS_MIN_NODES: usize = 1 << 16;

/// The Grundy value of every node of an acyclic graph.
///
/// Large graphs whose ids are not nearly in a topological order (see
/// `ids_look_ordered`) go through several interleaved depth-first walkers
/// on up to two threads with byte values (see `walkers.rs`); on a cycle, or a value
/// too large for a byte, they hand over to the plain engine ([`Grundy`]),
/// which reports the cycle with its nodes.
pub fn grundy_values(graph: &Graph) -> Result<Vec<u32>, CycleError> {
    if graph.node_count() >= WALKERS_MIN_NODES && !ids_look_ordered(graph) {
        let threads =
            std::thread::available_parallelism().map_or(1, |n| n.get().min(walkers::MAX_THREADS));
        if let Some(bytes) = walkers::byte_values(graph, threads) {
            return Ok(bytes.into_iter().map(u32::from).collect());
        }
    }
    Grundy::new(graph).into_values()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rand_xoshiro::SplitMix64;
    use rand_xoshiro::rand_core::{Rng, SeedableRng};

    /// The definition, by plain recursion: fine for the small graphs here.
    fn grundy_by_definition(adj: &[Vec<u32>], v: u32) -> u32 {
        let succ: Vec<u32> = adj[v as usize]
            .iter()
            .map(|&w| grundy_by_definition(adj, w))
            .collect();
        (0..).find(|m| !succ.contains(m)).unwrap()
    }

    fn graph_of(adj: &[Vec<u32>]) -> Graph {
        let (mut s, mut t) = (vec![], vec![]);
        for (u, list) in adj.iter().enumerate() {
            for &w in list {
                s.push(u as u32);
                t.push(w);
            }
        }
        Graph::from_edges(adj.len(), &s, &t).unwrap()
    }

    /// Random DAG: edges only go from a higher id to a lower one.
    fn dag() -> impl Strategy<Value = Vec<Vec<u32>>> {
        (1usize..12).prop_flat_map(|n| {
            proptest::collection::vec(proptest::collection::vec(any::<u32>(), 0..5), n).prop_map(
                |lists| {
                    lists
                        .into_iter()
                        .enumerate()
                        .map(|(u, l)| {
                            if u == 0 {
                                vec![]
                            } else {
                                l.into_iter().map(|x| x % u as u32).collect()
                            }
                        })
                        .collect()
                },
            )
        })
    }

    proptest! {
        #[test]
        fn matches_definition(adj in dag(), order in any::<u64>()) {
            let g = graph_of(&adj);
            let mut engine = Grundy::new(&g);
            // Query in a scrambled order, to exercise the cache.
            let n = adj.len() as u64;
            for k in 0..n {
                let v = ((k * 7 + order) % n) as u32;
                prop_assert_eq!(engine.value(v).unwrap(), grundy_by_definition(&adj, v));
            }
        }

        #[test]
        fn cycles_are_reported(adj in dag(), back in any::<(u32, u32)>()) {
            // Add an edge from a low node up to a node that reaches it, if any.
            let mut adj = adj;
            let n = adj.len() as u32;
            let (a, b) = (back.0 % n, back.1 % n);
            adj[a as usize].push(b.max(a));
            let g = graph_of(&adj);
            let reaches_cycle = |v: u32| -> bool {
                // Depth-first search for a path to a repeated node (brute force).
                fn dfs(adj: &[Vec<u32>], v: u32, path: &mut Vec<u32>) -> bool {
                    if path.contains(&v) { return true; }
                    path.push(v);
                    let r = adj[v as usize].iter().any(|&w| dfs(adj, w, path));
                    path.pop();
                    r
                }
                dfs(&adj, v, &mut vec![])
            };
            let mut engine = Grundy::new(&g);
            for v in 0..n {
                match engine.value(v) {
                    Ok(_) => prop_assert!(!reaches_cycle(v)),
                    Err(e) => {
                        prop_assert!(reaches_cycle(v));
                        let c = &e.nodes;
                        prop_assert!(c.len() >= 2);
                        prop_assert_eq!(c.first(), c.last());
                        for w in c.windows(2) {
                            prop_assert!(adj[w[0] as usize].contains(&w[1]));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn cycle_message() {
        let g = graph_of(&[vec![], vec![], vec![], vec![5], vec![], vec![3]]);
        let e = grundy_values(&g).unwrap_err();
        assert_eq!(e.to_string(), "graph has a cycle: 3 -> 5 -> 3");
        let g = graph_of(&[vec![0]]);
        assert_eq!(
            grundy_values(&g).unwrap_err().to_string(),
            "graph has a cycle: 0 -> 0"
        );
    }

    #[test]
    fn on_demand_touches_only_reachable_nodes() {
        // 0 <- 1 <- 2 and a separate 3 -> 4.
        let g = graph_of(&[vec![], vec![0], vec![1], vec![4], vec![]]);
        let mut e = Grundy::new(&g);
        assert_eq!(e.value(1), Ok(1));
        assert_eq!(e.known(0), Some(0));
        assert_eq!(e.known(2), None);
        assert_eq!(e.known(3), None);
        assert_eq!(e.known(4), None);
    }

    #[test]
    fn million_node_chain() {
        // v -> v - 1: values alternate 0, 1, 0, 1, ...
        let n = 1_000_000u32;
        let sources: Vec<u32> = (1..n).collect();
        let targets: Vec<u32> = (0..n - 1).collect();
        let g = Graph::from_edges(n as usize, &sources, &targets).unwrap();
        let mut e = Grundy::new(&g);
        assert_eq!(e.value(n - 1), Ok((n - 1) % 2));
        let all = grundy_values(&g).unwrap();
        assert!(all.iter().enumerate().all(|(v, &x)| x == v as u32 % 2));
        // A chain closed into a cycle is reported, not looped on.
        let mut t2 = targets.clone();
        let mut s2 = sources.clone();
        s2.push(0);
        t2.push(n - 1);
        let g = Graph::from_edges(n as usize, &s2, &t2).unwrap();
        let e = grundy_values(&g).unwrap_err();
        assert_eq!(e.nodes.len(), n as usize + 1);
    }

    #[test]
    fn million_node_random_dag() {
        // Deterministic pseudo-random DAG: each node points to up to 3 lower ids.
        let n = 1_000_000u32;
        let mut rng = SplitMix64::seed_from_u64(0x9E37_79B9_7F4A_7C15);
        let mut next = move || rng.next_u64();
        let (mut s, mut t) = (vec![], vec![]);
        for v in 1..n {
            for _ in 0..3 {
                s.push(v);
                t.push((next() % v as u64) as u32);
            }
        }
        let g = Graph::from_edges(n as usize, &s, &t).unwrap();
        let values = grundy_values(&g).unwrap();
        // Check the mex property at every node, independently of the engine.
        for v in 0..n {
            let succ: Vec<u32> = g
                .successors(v)
                .iter()
                .map(|&w| values[w as usize])
                .collect();
            let m = (0..).find(|m| !succ.contains(m)).unwrap();
            assert_eq!(values[v as usize], m);
        }
    }

    #[test]
    fn partitioned_build_keeps_every_edge_in_input_order() {
        // Above the partition threshold: compare with adjacency lists.
        let n = 70_000u32;
        let m = PARTITION_THRESHOLD + 12_345;
        let mut rng = SplitMix64::seed_from_u64(7);
        // Lemire's multiply-shift: a number in 0..n.
        let mut next = move || ((u128::from(rng.next_u64()) * u128::from(n)) >> 64) as u32;
        let (mut s, mut t) = (Vec::with_capacity(m), Vec::with_capacity(m));
        let mut adj = vec![Vec::new(); n as usize];
        for _ in 0..m {
            let (a, b) = (next(), next());
            s.push(a);
            t.push(b);
            adj[a as usize].push(b);
        }
        let g = Graph::from_edges(n as usize, &s, &t).unwrap();
        assert_eq!(g.edge_count(), m);
        for v in 0..n {
            assert_eq!(g.successors(v), adj[v as usize].as_slice());
        }
    }

    #[test]
    fn edges_sorted_by_source_and_small_node_counts_build_the_same_graph() {
        // The sorted fast path, the plain counting sort (few nodes, many
        // edges) and adjacency lists agree.
        let n = 3000u32;
        let m = PARTITION_THRESHOLD + 5;
        let mut rng = crate::testing::SplitMix64::new(11);
        let mut s: Vec<u32> = (0..m).map(|_| rng.below(n.into()) as u32).collect();
        let t: Vec<u32> = (0..m).map(|_| rng.below(n.into()) as u32).collect();
        for sort_sources in [false, true] {
            if sort_sources {
                s.sort_unstable();
            }
            let adj = crate::testing::adjacency(n as usize, &s, &t);
            let g = Graph::from_edges(n as usize, &s, &t).unwrap();
            for v in 0..n {
                assert_eq!(g.successors(v), adj[v as usize].as_slice());
            }
        }
        let g = Graph::from_edges(4, &[0, 0, 2], &[1, 3, 3]).unwrap();
        assert_eq!(g.offsets(), [0, 2, 2, 3, 3]);
        let lists = Graph::from_edge_lists(4, vec![0, 0, 2], vec![1, 3, 3]).unwrap();
        assert_eq!(lists, g);
        let unsorted = Graph::from_edge_lists(4, vec![2, 0, 0], vec![3, 1, 3]).unwrap();
        assert_eq!(unsorted, g);
        assert!(Graph::from_edge_lists(2, vec![0, 1], vec![1, 2]).is_err());
        assert_eq!(Graph::from_edges(3, &[], &[]).unwrap().offsets(), [0; 4]);
    }

    #[test]
    fn cycles_in_large_unordered_graphs_are_reported_with_their_nodes() {
        // Large and not in id order: the walkers run, give up, and the plain
        // engine reports the cycle.
        let n = 100_000usize;
        let (mut s, mut t) =
            crate::testing::random_dag_edges(n, 5 * n, &mut crate::testing::SplitMix64::new(4));
        // Close a cycle: an edge back from a target to its source.
        s.push(t[7]);
        t.push(s[7]);
        let g = Graph::from_edges(n, &s, &t).unwrap();
        assert!(!ids_look_ordered(&g));
        let e = grundy_values(&g).unwrap_err();
        assert!(e.nodes.len() >= 3);
        assert_eq!(e.nodes.first(), e.nodes.last());
        for w in e.nodes.windows(2) {
            assert!(g.successors(w[0]).contains(&w[1]));
        }
    }

    #[test]
    fn ordered_ids_are_told_from_random_ones() {
        let n = 100_000u32;
        let down = Graph::from_edges(n as usize, &Vec::from_iter(1..n), &Vec::from_iter(0..n - 1));
        let up = Graph::from_edges(n as usize, &Vec::from_iter(0..n - 1), &Vec::from_iter(1..n));
        assert!(ids_look_ordered(&down.unwrap()));
        assert!(ids_look_ordered(&up.unwrap()));
        let (s, t) = crate::testing::random_dag_edges(
            n as usize,
            5 * n as usize,
            &mut crate::testing::SplitMix64::new(2),
        );
        let random = Graph::from_edges(n as usize, &s, &t).unwrap();
        assert!(!ids_look_ordered(&random));
    }

    #[test]
    fn from_edges_rejects_out_of_range() {
        assert_eq!(
            Graph::from_edges(2, &[0], &[2]),
            Err(GraphError::NodeOutOfRange {
                node: 2,
                node_count: 2
            })
        );
        assert!(Graph::from_csr(vec![0, 2], vec![0]).is_err());
        assert!(Graph::from_csr(vec![0, 1], vec![1]).is_err());
    }

    #[test]
    fn reversed_is_predecessors() {
        let g = graph_of(&[vec![1, 2], vec![2], vec![]]);
        let r = g.reversed();
        assert_eq!(r.successors(0), &[] as &[u32]);
        assert_eq!(r.successors(1), &[0]);
        assert_eq!(r.successors(2), &[0, 1]);
        let r = g.reversed_from(|u| u != 0);
        assert_eq!(r.successors(1), &[] as &[u32]);
        assert_eq!(r.successors(2), &[1]);
        assert_eq!(r.edge_count(), 1);
    }
}
