//! The part of a graph that cannot reach a cycle, with its ordinary Grundy
//! values, in O(V + E).
//!
//! A node that cannot reach a cycle has an ordinary Grundy value, and that
//! value is also its generalized Sprague-Grundy value (all its followers
//! are of the same kind). They are found by peeling sinks (Kahn's algorithm
//! run backwards): a node whose followers are all peeled is peeled next,
//! with the mex of their values. Nodes never peeled reach a cycle.
//! [`crate::gsg`] runs its labelling, which costs a round per value, only
//! on those.

use crate::graph::Graph;
use crate::mex::Mex;

/// The nodes that cannot reach a cycle and their values.
#[derive(Debug)]
pub(crate) struct AcyclicPart {
    /// Value of each node, or `unreached` for nodes that reach a cycle.
    pub(crate) values: Vec<u32>,
    /// The peeled nodes sorted by value and, within one value, in the
    /// order they were peeled (every node after all of its followers).
    pub(crate) by_value: Vec<u32>,
}

impl AcyclicPart {
    /// Peels `graph`, whose predecessor lists are `preds`; nodes that reach
    /// a cycle get the value `unreached`.
    pub(crate) fn of(graph: &Graph, preds: &Graph, unreached: u32) -> Self {
        let n = graph.node_count();
        let offsets = graph.offsets();
        let mut unpeeled_followers: Vec<u32> = offsets.windows(2).map(|w| w[1] - w[0]).collect();
        let mut peeled: Vec<u32> = (0..n as u32)
            .filter(|&v| unpeeled_followers[v as usize] == 0)
            .collect();
        let mut values = vec![unreached; n];
        let mut mex = Mex::new();
        let mut largest = 0u32;
        let mut next = 0;
        while let Some(&u) = peeled.get(next) {
            next += 1;
            let succ = graph.successors(u);
            let g = mex.mex(succ.len(), succ.iter().map(|&w| values[w as usize]));
            values[u as usize] = g;
            largest = largest.max(g);
            for &p in preds.successors(u) {
                let left = &mut unpeeled_followers[p as usize];
                *left -= 1;
                if *left == 0 {
                    peeled.push(p);
                }
            }
        }
        // A stable counting sort of the peeled nodes by value.
        let mut start = vec![0usize; largest as usize + 2];
        for &u in &peeled {
            start[values[u as usize] as usize + 1] += 1;
        }
        for g in 1..start.len() {
            start[g] += start[g - 1];
        }
        let mut by_value = vec![0u32; peeled.len()];
        for &u in &peeled {
            let slot = &mut start[values[u as usize] as usize];
            by_value[*slot] = u;
            *slot += 1;
        }
        Self { values, by_value }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::grundy_values;

    #[test]
    fn peels_exactly_the_nodes_that_cannot_reach_a_cycle() {
        // 0 <- 1 <- 2 -> 3 <-> 4, and 5 -> 0: nodes 2, 3, 4 reach the cycle.
        let s = [1, 2, 2, 3, 4, 5];
        let t = [0, 1, 3, 4, 3, 0];
        let g = Graph::from_edges(6, &s, &t).unwrap();
        let part = AcyclicPart::of(&g, &g.reversed(), u32::MAX);
        assert_eq!(part.values, [0, 1, u32::MAX, u32::MAX, u32::MAX, 1]);
        assert_eq!(part.by_value, [0, 1, 5]);
    }

    #[test]
    fn on_a_dag_gives_the_grundy_values() {
        let n = 5000u32;
        let (s, t) = sg_bench::random_dag_edges(n as usize, 40_000, &mut sg_bench::SplitMix64::new(3));
        let g = Graph::from_edges(n as usize, &s, &t).unwrap();
        let part = AcyclicPart::of(&g, &g.reversed(), u32::MAX);
        assert_eq!(part.values, grundy_values(&g).unwrap());
        // Sorted by value, every node after its followers.
        let mut rank = vec![0usize; n as usize];
        for (i, &u) in part.by_value.iter().enumerate() {
            rank[u as usize] = i;
        }
        assert_eq!(part.by_value.len(), n as usize);
        for w in part.by_value.windows(2) {
            assert!(part.values[w[0] as usize] <= part.values[w[1] as usize]);
        }
        for u in 0..n {
            for &v in g.successors(u) {
                assert_ne!(part.values[u as usize], part.values[v as usize]);
                if part.values[v as usize] > part.values[u as usize] {
                    // A follower of higher value has one of u's value,
                    // placed before u.
                    assert!(g.successors(v).iter().any(|&w| {
                        part.values[w as usize] == part.values[u as usize]
                            && rank[w as usize] < rank[u as usize]
                    }));
                }
            }
        }
    }
}
