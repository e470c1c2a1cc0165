//! The part of a graph that cannot reach a cycle, with its ordinary Grundy
//! values, in O(V + E).
//!
//! A node that cannot reach a cycle has an ordinary Grundy value, and that
//! value is also its generalized Sprague-Grundy value (all its followers
//! are of the same kind). One iterative depth-first search finds them: a
//! node reaches a cycle iff one of its followers is on the search stack
//! (which closes a cycle through it) or was found to reach one; otherwise
//! all its followers are finished, with values, and it gets their mex.
//! [`crate::gsg`] runs its labelling, which costs a round per value, only on
//! the other nodes.

use crate::graph::Graph;
use crate::graph::search::{Frame, Look, Visitor, frame_value, search};
use crate::mex::Mex;

/// Not visited yet.
const NEW: u32 = u32::MAX;
/// On the search stack.
const ON_STACK: u32 = u32::MAX - 1;
/// Finished, and reaches a cycle.
const REACHES_CYCLE: u32 = u32::MAX - 2;

/// The nodes that cannot reach a cycle and their values.
#[derive(Debug)]
pub(crate) struct AcyclicPart {
    /// Value of each node, or the `unreached` of [`AcyclicPart::of`] for
    /// nodes that reach a cycle.
    pub(crate) values: Vec<u32>,
    /// The nodes that cannot reach a cycle sorted by value and, within one
    /// value, every node after all of its followers.
    pub(crate) by_value: Vec<u32>,
    /// How many nodes reach a cycle.
    pub(crate) cyclic_count: usize,
}

/// The search's states: [`NEW`], [`ON_STACK`], [`REACHES_CYCLE`] or a value.
struct Classify<'a> {
    graph: &'a Graph,
    values: Vec<u32>,
    /// The nodes that cannot reach a cycle, each after its followers.
    finished: Vec<u32>,
    largest: u32,
    mex: Mex,
}

impl Visitor for Classify<'_> {
    #[inline]
    fn look(&mut self, w: u32) -> Look {
        match self.values[w as usize] {
            NEW => {
                self.values[w as usize] = ON_STACK;
                Look::Descend
            }
            // The other followers are searched from the outer loop if
            // nothing else reaches them.
            ON_STACK | REACHES_CYCLE => Look::FinishNow,
            g => Look::Value(g),
        }
    }

    #[inline]
    fn finish(&mut self, frame: &Frame, reaches_cycle: bool) {
        let g = if reaches_cycle {
            REACHES_CYCLE
        } else {
            let values = &self.values;
            let g = frame_value(self.graph, frame, &mut self.mex, |w| values[w as usize]);
            self.largest = self.largest.max(g);
            self.finished.push(frame.node);
            g
        };
        self.values[frame.node as usize] = g;
    }
}

impl AcyclicPart {
    /// Searches `graph`; nodes that reach a cycle get the value `unreached`.
    pub(crate) fn of(graph: &Graph, unreached: u32) -> Self {
        let n = graph.node_count();
        let mut search_state = Classify {
            graph,
            values: vec![NEW; n],
            finished: Vec::with_capacity(n),
            largest: 0,
            mex: Mex::new(),
        };
        let mut stack = Vec::new();
        for root in 0..n as u32 {
            if search_state.values[root as usize] == NEW {
                search_state.values[root as usize] = ON_STACK;
                let stopped = search(graph, &mut stack, root, &mut search_state);
                debug_assert!(stopped.is_none(), "this search never stops early");
            }
        }
        let Classify {
            mut values,
            finished,
            largest,
            ..
        } = search_state;
        let cyclic_count = n - finished.len();
        for v in &mut values {
            if *v == REACHES_CYCLE {
                *v = unreached;
            }
        }
        // A stable counting sort of the finished nodes by value.
        let mut start = vec![0usize; largest as usize + 2];
        for &u in &finished {
            start[values[u as usize] as usize + 1] += 1;
        }
        for g in 1..start.len() {
            start[g] += start[g - 1];
        }
        let mut by_value = vec![0u32; finished.len()];
        for &u in &finished {
            let slot = &mut start[values[u as usize] as usize];
            by_value[*slot] = u;
            *slot += 1;
        }
        Self {
            values,
            by_value,
            cyclic_count,
        }
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
        let part = AcyclicPart::of(&g, u32::MAX);
        assert_eq!(part.values, [0, 1, u32::MAX, u32::MAX, u32::MAX, 1]);
        assert_eq!(part.by_value, [0, 1, 5]);
        assert_eq!(part.cyclic_count, 3);
        // A self-loop reaches a cycle; a chain into it too, searched from
        // its bottom first.
        let g = Graph::from_edges(4, &[0, 1, 2, 3], &[0, 0, 1, 2]).unwrap();
        assert_eq!(AcyclicPart::of(&g, 9).values, [9, 9, 9, 9]);
    }

    #[test]
    fn on_a_dag_gives_the_grundy_values() {
        let n = 5000u32;
        let (s, t) = crate::testing::random_dag_edges(
            n as usize,
            40_000,
            &mut crate::testing::SplitMix64::new(3),
        );
        let g = Graph::from_edges(n as usize, &s, &t).unwrap();
        let part = AcyclicPart::of(&g, u32::MAX);
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
