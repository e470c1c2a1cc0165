//! Building a [`Graph`] from edges whose out-degrees are counted while the
//! edges are read ([`EdgeCounter`]): the counting sort of [`Graph::from_edges`] then needs
//! one pass over the edges (the scatter) instead of three (range check,
//! count, scatter). For parsers that read many small graphs (UVA 11927:
//! 200 graphs of 10,000 edges), where that is most of the building.

use super::{Graph, GraphError, check_sizes};
use crate::hugepages::filled_vec;

/// The edges of a graph being read, with the out-degree of each node
/// counted as they come (see the module doc).
#[derive(Debug, Clone)]
pub struct EdgeCounter {
    node_count: u32,
    /// The count of node `s` at index `s + 2` (the layout of the scatter).
    counts: Vec<u32>,
    /// The sources, kept only once they are not in order: while they never
    /// decrease, the counts say what they are.
    sources: Vec<u32>,
    targets: Vec<u32>,
    /// Whether the sources so far never decrease (then the targets are in
    /// CSR order already and `sources` is empty).
    sorted: bool,
    last_source: u32,
}

impl EdgeCounter {
    /// No edges yet, on `node_count` nodes (allocates `node_count + 2`
    /// counters).
    pub fn new(node_count: usize) -> Result<Self, GraphError> {
        check_sizes(node_count, 0)?;
        Ok(Self {
            node_count: node_count as u32,
            counts: filled_vec(node_count + 2, 0u32),
            sources: Vec::new(),
            targets: Vec::new(),
            sorted: true,
            last_source: 0,
        })
    }

    /// Makes room for `additional` more edges.
    pub fn reserve(&mut self, additional: usize) {
        if !self.sorted {
            self.sources.reserve(additional);
        }
        self.targets.reserve(additional);
    }

    /// Adds the edge `source -> target`. Panics if either is not a node or
    /// there are already [`Graph::MAX_EDGES`] edges.
    #[inline(always)]
    pub fn push(&mut self, source: u32, target: u32) {
        assert!(
            source < self.node_count && target < self.node_count,
            "edge out of range"
        );
        assert!(self.targets.len() < Graph::MAX_EDGES, "too many edges");
        if self.sorted {
            if source < self.last_source {
                self.keep_sources();
                self.sources.push(source);
            }
            self.last_source = source;
        } else {
            self.sources.push(source);
        }
        self.counts[source as usize + 2] += 1;
        self.targets.push(target);
    }

    /// The first source out of order: the sources so far, in order, are
    /// written out from their counts, and every later one is kept.
    #[cold]
    fn keep_sources(&mut self) {
        self.sorted = false;
        self.sources.reserve(self.targets.capacity());
        for (node, &count) in self.counts[2..].iter().enumerate() {
            let node = node as u32;
            self.sources
                .extend(std::iter::repeat_n(node, count as usize));
        }
    }

    /// The graph of the edges pushed, successors in input order: what
    /// [`Graph::from_edges`] gives on them. Edges listed by source need no
    /// pass over them at all: their targets are the graph's.
    pub fn into_graph(self) -> Graph {
        if self.sorted {
            let mut offsets = self.counts;
            for v in 2..offsets.len() {
                offsets[v] += offsets[v - 1];
            }
            // offsets[v + 1] is now where node v's successors start.
            offsets.remove(0);
            return Graph {
                offsets,
                targets: self.targets,
            };
        }
        let edges = self
            .sources
            .iter()
            .copied()
            .zip(self.targets.iter().copied());
        Graph::scatter(self.counts, self.targets.len(), edges)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn same_graph_as_from_edges(
            n in 1usize..40,
            edges in proptest::collection::vec((0u32..40, 0u32..40), 0..200),
        ) {
            let (sources, targets): (Vec<u32>, Vec<u32>) = edges
                .into_iter()
                .map(|(s, t)| (s % n as u32, t % n as u32))
                .unzip();
            let mut counter = EdgeCounter::new(n).unwrap();
            counter.reserve(sources.len() / 2);
            for (&s, &t) in sources.iter().zip(&targets) {
                counter.push(s, t);
            }
            prop_assert_eq!(counter.into_graph(), Graph::from_edges(n, &sources, &targets).unwrap());
        }

        #[test]
        fn edges_listed_by_source_give_the_same_graph(
            n in 1usize..40,
            mut edges in proptest::collection::vec((0u32..40, 0u32..40), 0..200),
        ) {
            for e in &mut edges {
                *e = (e.0 % n as u32, e.1 % n as u32);
            }
            edges.sort_by_key(|e| e.0);
            let mut counter = EdgeCounter::new(n).unwrap();
            for &(s, t) in &edges {
                counter.push(s, t);
            }
            let (sources, targets): (Vec<u32>, Vec<u32>) = edges.into_iter().unzip();
            prop_assert_eq!(counter.into_graph(), Graph::from_edges(n, &sources, &targets).unwrap());
        }
    }

    #[test]
    #[should_panic(expected = "edge out of range")]
    fn an_edge_out_of_range_panics() {
        EdgeCounter::new(3).unwrap().push(0, 3);
    }

    #[test]
    fn sources_out_of_order_after_a_sorted_prefix() {
        let (sources, targets) = ([0, 0, 1, 3, 3, 2, 0, 3], [1, 2, 3, 0, 1, 1, 3, 2]);
        let mut counter = EdgeCounter::new(4).unwrap();
        counter.reserve(3);
        for (&s, &t) in sources.iter().zip(&targets) {
            counter.push(s, t);
        }
        assert!(!counter.sorted);
        assert_eq!(counter.sources, sources);
        assert_eq!(
            counter.into_graph(),
            Graph::from_edges(4, &sources, &targets).unwrap()
        );
    }

    #[test]
    fn no_nodes_no_edges() {
        let graph = EdgeCounter::new(0).unwrap().into_graph();
        assert_eq!((graph.node_count(), graph.edge_count()), (0, 0));
        assert!(EdgeCounter::new(Graph::MAX_NODES + 1).is_err());
    }
}
