//! Generalized Sprague-Grundy values of game graphs that may have cycles.
//!
//! On a graph with cycles a play may go on forever (a draw), and ordinary
//! Grundy values need not exist. C. A. B. Smith (1966, "Graphs and composite
//! games") extended them; A. S. Fraenkel and Y. Yesha (1986, "The
//! generalized Sprague-Grundy function and its invariance under certain
//! mappings") gave the labelling algorithm implemented here. Every node gets
//! either a finite value or `inf(K)`, where `K` is the set of the finite
//! values of its followers (see [`GsgValues::k_set`]).
//!
//! # The labelling
//! For stages `m = 0, 1, 2, ...`, while unlabelled nodes remain:
//! 1. as long as there is an unlabelled node `u` such that no follower of
//!    `u` is labelled `m`, and every follower of `u` that is unlabelled or
//!    labelled infinite has a follower labelled `m`: label `u` with `m`;
//! 2. then label infinite every unlabelled node with no follower labelled `m`.
//!
//! Every label gets the next number of a counter ([`GsgValues::order`]): the
//! value is unique, the counter depends on the order of step 1, which here
//! is: the nodes that cannot reach a cycle, in the order they were peeled,
//! then a FIFO work queue seeded in node order; so it is deterministic.
//!
//! # Complexity
//! A node still unlabelled at stage `m` has followers labelled `0..m`, so
//! there are at most `Δ + 2` stages (`Δ` the largest out-degree). Each stage
//! costs O(V + E): per-node counters of "followers that are unlabelled or
//! infinite and have no follower labelled `m` yet", decremented through the
//! predecessor lists ([`Graph::reversed`]) when a node gains a follower
//! labelled `m`, and a queue of the nodes whose counter reached zero. In all
//! O((Δ + 2)(V + E)) time and O(V + E) memory, without recursion.
//!
//! Nodes that cannot reach a cycle need no rounds: their values are their
//! ordinary Grundy values, found first in O(V + E) by peeling sinks
//! (`crate::peel`). Each stage `m` starts by labelling those of value `m`,
//! each after its followers (a valid order of step 1, see the code), and
//! only the nodes that reach a cycle are scanned per stage. So the cost is
//! O(V + E + s (V' + E')), with `V'`, `E'` the part that reaches a cycle
//! and `s` the number of stages it needs: a DAG costs O(V + E).
//!
//! # Sums of tokens
//! A position is a multiset of tokens on nodes; a move moves one token along
//! one edge; whoever cannot move loses, and infinite play is a draw. With `x`
//! the XOR of the finite values ([`GsgValues::outcome`]):
//! - all values finite: the player to move wins iff `x != 0`, else loses;
//! - exactly one token on `inf(K)`: a first-player win iff `x ∈ K`, else a draw;
//! - two or more tokens on infinite values: a draw.
//!
//! # Winning moves that end the game
//! On a cyclic graph, moving to a losing position is not enough: the loser
//! might undo moves forever. [`GsgValues::winning_move`] therefore always
//! moves a token to the *earliest labelled* follower of the wanted value,
//! and (with all values finite) moves the token whose node was labelled
//! *last* among those that can win. Two facts about the labelling, for a
//! node `u` labelled `m < inf` with counter `c(u)`:
//!
//! - (F1) for every `j < m`, `u` has a follower labelled `j`, with a counter
//!   below `c(u)`: `u` was not labelled infinite at the end of stage `j`, so
//!   it had a follower labelled `j` then, and all of stage `j` came before
//!   stage `m`. (Likewise, any node of finite value below `m` has a counter
//!   below `c(u)`.)
//! - (F2) every follower `v` of `u` whose value is above `m` or infinite has
//!   a follower `w` labelled `m` with `c(w) < c(u)`: when `u` was labelled,
//!   `v` was unlabelled or infinite (labels above `m` come later), so step 1
//!   required such a `w` then. Also, no follower of `u` is ever labelled `m`:
//!   an unlabelled follower already had a follower labelled `m`, which
//!   forbids the label `m` forever. So the finite values satisfy the mex rule.
//!
//! Let the winner play as [`GsgValues::winning_move`] does and look at the
//! multiset `M` of the counters of the tokens after each of the winner's
//! moves (all tokens are then on finite values with XOR 0). The loser moves
//! a token from `u` (value `h`) to `v`:
//! - if `v` is finite, its value is not `h` (F2), so the XOR is `x != 0`;
//!   if `v` is infinite it has a follower of value `h` (F2), so `h ∈ K(v)`
//!   while the other tokens XOR to `h`: a first-player win again. So the
//!   winner always has a winning move, and the loser is the one who ends up
//!   unable to move, provided play ends.
//! - Play ends because `M` strictly decreases, in the multiset order, at
//!   every move of the winner (a well-founded order on multisets of `k`
//!   naturals). Any move of a finite token to a lower value lowers its
//!   counter (F1). If the loser moved down, `M` already went down and the
//!   winner lowers it again. If the loser moved up (higher or infinite
//!   value), undoing it by moving the same token to a follower of value `h`
//!   labelled before `u` is possible (F2): that would give `M - c(u) + c'`
//!   with `c' < c(u)`, below the old `M`. With one infinite token that is the
//!   only kind of winning move, and choosing the earliest labelled follower
//!   only lowers `c'`. With all tokens finite, any winning move replaces some
//!   counter `a` by a smaller `b`; between two candidates with `a_i < a_j`,
//!   `{a_i, b_j} < {a_j, b_i}` because `a_j` is the largest of the four and
//!   only on the right, so moving the token with the largest counter gives
//!   the smallest multiset, which is no larger than the undoing move's.
//!
//! The test suite checks outcomes against an independent retrograde
//! analysis, and plays the hints against every reply of the opponent.

use crate::graph::Graph;
use crate::peel::AcyclicPart;
use std::collections::VecDeque;

/// The stored label of an infinite node.
const INFINITE: u32 = u32::MAX;
/// Not labelled yet (only during the labelling).
const UNLABELLED: u32 = u32::MAX - 1;

/// The generalized Sprague-Grundy value of one node, without its set `K`
/// (see [`GsgValues::k_set`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GValue {
    /// A finite value: the node behaves like a Nim heap of this size.
    Finite(u32),
    /// `inf(K)`: from here the player to move can at least draw.
    Infinite,
}

pub use sg_nimber::Outcome;

/// A move of one token along one edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// Index of the moved token in the position's token list.
    pub token: usize,
    /// The node the token leaves.
    pub from: u32,
    /// The node the token moves to (a follower of `from`).
    pub to: u32,
}

/// The generalized Sprague-Grundy values of every node of a [`Graph`], with
/// the order in which the labelling found them.
#[derive(Debug, Clone)]
pub struct GsgValues<'g> {
    graph: &'g Graph,
    /// Finite value, or [`INFINITE`].
    values: Vec<u32>,
    /// The counter: the rank of each node in the labelling order.
    order: Vec<u32>,
}

/// Labels every node of `graph` with its generalized Sprague-Grundy value,
/// in O((Δ + 2)(V + E)) time (see the [module documentation](self)).
pub fn generalized_grundy(graph: &Graph) -> GsgValues<'_> {
    let n = graph.node_count();
    // Nodes that cannot reach a cycle get their (ordinary Grundy) values in
    // O(V + E); the rounds below only scan the nodes that reach a cycle.
    let acyclic = AcyclicPart::of(graph, UNLABELLED);
    let mut values = acyclic.values;
    // Only the predecessors that reach a cycle are ever looked up (a node's
    // predecessors are marked when it is labelled, to rule out its value
    // for them): none on a DAG.
    let preds = if acyclic.cyclic_count == 0 {
        Graph::from_csr(vec![0; n + 1], vec![]).expect("an empty graph")
    } else {
        graph.reversed_from(|u| values[u as usize] == UNLABELLED)
    };
    let mut order = vec![0u32; n];
    // `covered[v] == stamp` means `v` has a follower labelled in this stage.
    let mut covered = vec![0u32; n];
    // For an unlabelled node: its followers that are unlabelled or infinite
    // and not covered yet, counted with edge multiplicity.
    let mut pending = vec![0u32; n];
    let mut unlabelled: Vec<u32> = (0..n as u32)
        .filter(|&u| values[u as usize] == UNLABELLED)
        .collect();
    let mut acyclic_left = acyclic.by_value.iter().copied().peekable();
    let mut queue = VecDeque::new();
    let mut counter = 0u32;
    let mut m = 0u32;
    while !unlabelled.is_empty() || acyclic_left.peek().is_some() {
        let stamp = m + 1;
        // Step 1 first labels the acyclic nodes of value `m`, each after its
        // followers: each is eligible then (its followers of higher value
        // have a follower of value `m` among the earlier ones), so this is
        // one valid order of step 1. Their values were set already.
        while let Some(u) = acyclic_left.next_if(|&u| values[u as usize] == m) {
            order[u as usize] = counter;
            counter += 1;
            for &p in preds.successors(u) {
                covered[p as usize] = stamp;
            }
        }
        for &u in &unlabelled {
            pending[u as usize] = graph
                .successors(u)
                .iter()
                .filter(|&&v| {
                    matches!(values[v as usize], UNLABELLED | INFINITE)
                        && covered[v as usize] != stamp
                })
                .count() as u32;
            if pending[u as usize] == 0 {
                queue.push_back(u);
            }
        }
        while let Some(u) = queue.pop_front() {
            if values[u as usize] != UNLABELLED || covered[u as usize] == stamp {
                continue;
            }
            values[u as usize] = m;
            order[u as usize] = counter;
            counter += 1;
            for &p in preds.successors(u) {
                if covered[p as usize] == stamp {
                    continue;
                }
                covered[p as usize] = stamp;
                if !matches!(values[p as usize], UNLABELLED | INFINITE) {
                    continue;
                }
                // `p` now has a follower labelled `m`: one fewer pending
                // follower for each of its unlabelled predecessors.
                for &q in preds.successors(p) {
                    let q = q as usize;
                    if values[q] == UNLABELLED && covered[q] != stamp {
                        pending[q] -= 1;
                        if pending[q] == 0 {
                            queue.push_back(q as u32);
                        }
                    }
                }
            }
        }
        unlabelled.retain(|&u| {
            if values[u as usize] != UNLABELLED {
                return false;
            }
            if covered[u as usize] == stamp {
                return true;
            }
            values[u as usize] = INFINITE;
            order[u as usize] = counter;
            counter += 1;
            false
        });
        m += 1;
    }
    GsgValues {
        graph,
        values,
        order,
    }
}

impl<'g> GsgValues<'g> {
    /// The graph these values belong to.
    pub fn graph(&self) -> &'g Graph {
        self.graph
    }

    /// The value of `node`. Panics if `node` is out of range.
    #[inline]
    pub fn value(&self, node: u32) -> GValue {
        match self.values[node as usize] {
            INFINITE => GValue::Infinite,
            g => GValue::Finite(g),
        }
    }

    /// The value of `node` if it is finite.
    #[inline]
    pub fn finite(&self, node: u32) -> Option<u32> {
        match self.values[node as usize] {
            INFINITE => None,
            g => Some(g),
        }
    }

    /// The counter of `node`: its rank (from 0) in the order in which the
    /// labelling labelled the nodes, infinite ones included. A node of finite
    /// value `g` comes after every node of finite value below `g`.
    #[inline]
    pub fn order(&self, node: u32) -> u32 {
        self.order[node as usize]
    }

    /// The set `K` of `node`: the finite values of its followers, sorted and
    /// without repeats. For an infinite node this is the `K` of `inf(K)`;
    /// for a finite node of value `g` it contains `0..g` and not `g`.
    pub fn k_set(&self, node: u32) -> Vec<u32> {
        let mut k: Vec<u32> = self
            .graph
            .successors(node)
            .iter()
            .filter_map(|&v| self.finite(v))
            .collect();
        k.sort_unstable();
        k.dedup();
        k
    }

    /// The earliest labelled follower of `node` with finite value `g`.
    fn earliest_follower(&self, node: u32, g: u32) -> Option<u32> {
        self.graph
            .successors(node)
            .iter()
            .copied()
            .filter(|&v| self.values[v as usize] == g)
            .min_by_key(|&v| self.order[v as usize])
    }

    /// The XOR of the finite values of `tokens` and the indices of the first
    /// two tokens on infinite values.
    fn summarize(&self, tokens: &[u32]) -> (u32, Option<usize>, Option<usize>) {
        let mut x = 0;
        let (mut first, mut second) = (None, None);
        for (i, &t) in tokens.iter().enumerate() {
            match self.values[t as usize] {
                INFINITE if first.is_none() => first = Some(i),
                INFINITE => {
                    second = Some(i);
                    break;
                }
                g => x ^= g,
            }
        }
        (x, first, second)
    }

    /// The outcome, for the player to move, of the sum of one token on each
    /// node of `tokens` (nodes may repeat). Panics if a node is out of range.
    pub fn outcome(&self, tokens: &[u32]) -> Outcome {
        match self.summarize(tokens) {
            (_, Some(_), Some(_)) => Outcome::Draw,
            (x, Some(i), None) => {
                if self.earliest_follower(tokens[i], x).is_some() {
                    Outcome::Win
                } else {
                    Outcome::Draw
                }
            }
            (0, None, _) => Outcome::Lose,
            (_, None, _) => Outcome::Win,
        }
    }

    /// A winning move from the sum `tokens` if the player to move wins, such
    /// that always playing these moves ends the game (with a win) whatever
    /// the opponent does; `None` on a loss or a draw. See the [module
    /// documentation](self) for the rule and the proof that play ends.
    /// Panics if a node is out of range.
    pub fn winning_move(&self, tokens: &[u32]) -> Option<Move> {
        let (x, first, second) = self.summarize(tokens);
        if let Some(i) = first {
            if second.is_some() {
                return None;
            }
            let from = tokens[i];
            let to = self.earliest_follower(from, x)?;
            return Some(Move { token: i, from, to });
        }
        if x == 0 {
            return None;
        }
        // The tokens whose value has the top bit of `x` can move to `g ^ x`;
        // take the one whose node was labelled last.
        let top = 1u32 << (31 - x.leading_zeros());
        let (token, &from) = tokens
            .iter()
            .enumerate()
            .filter(|&(_, &t)| self.values[t as usize] & top != 0)
            .max_by_key(|&(i, &t)| (self.order[t as usize], std::cmp::Reverse(i)))?;
        let g = self.values[from as usize];
        let to = self
            .earliest_follower(from, g ^ x)
            .expect("a node of finite value g has followers of every value below g");
        Some(Move { token, from, to })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::grundy_values;
    use proptest::prelude::*;
    use rand_xoshiro::SplitMix64;
    use rand_xoshiro::rand_core::{Rng, SeedableRng};
    use std::collections::HashMap;

    fn graph_of(n: usize, edges: &[(u32, u32)]) -> Graph {
        let s: Vec<u32> = edges.iter().map(|e| e.0).collect();
        let t: Vec<u32> = edges.iter().map(|e| e.1).collect();
        Graph::from_edges(n, &s, &t).unwrap()
    }

    /// The labelling by its definition, with repeated full scans.
    fn labels_by_definition(g: &Graph) -> Vec<u32> {
        let n = g.node_count() as u32;
        let mut val = vec![UNLABELLED; n as usize];
        let mut m = 0;
        while val.contains(&UNLABELLED) {
            let has_m = |val: &[u32], v: u32| g.successors(v).iter().any(|&w| val[w as usize] == m);
            loop {
                let pick = (0..n).find(|&u| {
                    val[u as usize] == UNLABELLED
                        && !has_m(&val, u)
                        && g.successors(u).iter().all(|&v| {
                            !matches!(val[v as usize], UNLABELLED | INFINITE) || has_m(&val, v)
                        })
                });
                match pick {
                    Some(u) => val[u as usize] = m,
                    None => break,
                }
            }
            let snapshot = val.clone();
            for u in 0..n {
                if snapshot[u as usize] == UNLABELLED && !has_m(&snapshot, u) {
                    val[u as usize] = INFINITE;
                }
            }
            m += 1;
        }
        val
    }

    /// Win/lose/draw of every position of `k` tokens by backward induction
    /// on the product graph, independent of the values. Positions are
    /// sorted token lists.
    fn retrograde(g: &Graph, k: usize) -> HashMap<Vec<u32>, Outcome> {
        let n = g.node_count() as u32;
        let mut positions: Vec<Vec<u32>> = vec![vec![]];
        for _ in 0..k {
            positions = positions
                .into_iter()
                .flat_map(|p| {
                    let lo = p.last().copied().unwrap_or(0);
                    (lo..n).map(move |v| {
                        let mut q = p.clone();
                        q.push(v);
                        q
                    })
                })
                .collect();
        }
        let mut result: HashMap<Vec<u32>, Outcome> = HashMap::new();
        loop {
            let mut changed = false;
            for p in &positions {
                if result.contains_key(p) {
                    continue;
                }
                let mut all_win = true;
                let mut some_lose = false;
                for q in successors_of(g, p) {
                    match result.get(&q) {
                        Some(Outcome::Lose) => some_lose = true,
                        Some(Outcome::Win) => {}
                        _ => all_win = false,
                    }
                }
                if some_lose {
                    result.insert(p.clone(), Outcome::Win);
                    changed = true;
                } else if all_win {
                    result.insert(p.clone(), Outcome::Lose);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for p in positions {
            result.entry(p).or_insert(Outcome::Draw);
        }
        result
    }

    /// The positions one move away from the sorted position `p`, sorted.
    fn successors_of(g: &Graph, p: &[u32]) -> Vec<Vec<u32>> {
        let mut out = vec![];
        for i in 0..p.len() {
            for &w in g.successors(p[i]) {
                let mut q = p.to_vec();
                q[i] = w;
                q.sort_unstable();
                out.push(q);
            }
        }
        out
    }

    /// Plays the hints from every winning position against every reply and
    /// checks that every play ends with the opponent unable to move: a DFS
    /// over the positions the opponent must move from, where meeting a
    /// position already on the stack means the opponent can force a repeat.
    fn hints_always_win(gsg: &GsgValues<'_>, starts: &[Vec<u32>]) -> Result<(), String> {
        #[derive(Clone, Copy, PartialEq)]
        enum Mark {
            OnStack,
            Done,
        }
        let g = gsg.graph();
        let mut marks: HashMap<Vec<u32>, Mark> = HashMap::new();
        let apply = |p: &[u32]| -> Result<Vec<u32>, String> {
            let mv = gsg
                .winning_move(p)
                .ok_or_else(|| format!("no hint in the won position {p:?}"))?;
            if p[mv.token] != mv.from || !g.successors(mv.from).contains(&mv.to) {
                return Err(format!("illegal hint {mv:?} in {p:?}"));
            }
            let mut q = p.to_vec();
            q[mv.token] = mv.to;
            q.sort_unstable();
            Ok(q)
        };
        for start in starts {
            let first = apply(start)?;
            if marks.contains_key(&first) {
                continue;
            }
            // Frames: an opponent position and its remaining replies.
            let mut stack = vec![(first.clone(), successors_of(g, &first))];
            marks.insert(first, Mark::OnStack);
            while let Some((pos, replies)) = stack.last_mut() {
                let Some(reply) = replies.pop() else {
                    marks.insert(pos.clone(), Mark::Done);
                    stack.pop();
                    continue;
                };
                let next = apply(&reply)?;
                match marks.get(&next) {
                    Some(Mark::OnStack) => {
                        return Err(format!("the opponent can force a repeat of {next:?}"));
                    }
                    Some(Mark::Done) => {}
                    None => {
                        marks.insert(next.clone(), Mark::OnStack);
                        let replies = successors_of(g, &next);
                        stack.push((next, replies));
                    }
                }
            }
        }
        Ok(())
    }

    /// The facts (F1) and (F2) of the module documentation, and the mex rule.
    fn check_counter_facts(gsg: &GsgValues<'_>) -> Result<(), String> {
        let g = gsg.graph();
        for u in 0..g.node_count() as u32 {
            let Some(m) = gsg.finite(u) else { continue };
            let c = gsg.order(u);
            for j in 0..m {
                let ok = g
                    .successors(u)
                    .iter()
                    .any(|&w| gsg.finite(w) == Some(j) && gsg.order(w) < c);
                if !ok {
                    return Err(format!("F1 fails at {u} for {j}"));
                }
            }
            for &v in g.successors(u) {
                match gsg.finite(v) {
                    Some(h) if h == m => return Err(format!("{u} and its follower {v} share {m}")),
                    Some(h) if h < m => {}
                    _ => {
                        let ok = g
                            .successors(v)
                            .iter()
                            .any(|&w| gsg.finite(w) == Some(m) && gsg.order(w) < c);
                        if !ok {
                            return Err(format!("F2 fails at {u} -> {v}"));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn small_graph() -> impl Strategy<Value = (usize, Vec<(u32, u32)>)> {
        (1usize..=7).prop_flat_map(|n| {
            (
                Just(n),
                proptest::collection::vec((0..n as u32, 0..n as u32), 0..=16),
            )
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn sums_match_retrograde_analysis((n, edges) in small_graph()) {
            let g = graph_of(n, &edges);
            let gsg = generalized_grundy(&g);
            let by_def = labels_by_definition(&g);
            prop_assert_eq!(&gsg.values, &by_def);
            check_counter_facts(&gsg).map_err(TestCaseError::fail)?;
            let mut wins = vec![];
            for k in 1..=3 {
                let truth = retrograde(&g, k);
                for (p, &expected) in &truth {
                    prop_assert_eq!(gsg.outcome(p), expected, "position {:?}", p);
                    // The order of the tokens does not matter.
                    let rev: Vec<u32> = p.iter().rev().copied().collect();
                    prop_assert_eq!(gsg.outcome(&rev), expected);
                    match gsg.winning_move(&rev) {
                        Some(mv) => {
                            prop_assert_eq!(expected, Outcome::Win);
                            let mut q = rev.clone();
                            prop_assert_eq!(q[mv.token], mv.from);
                            prop_assert!(g.successors(mv.from).contains(&mv.to));
                            q[mv.token] = mv.to;
                            q.sort_unstable();
                            prop_assert_eq!(truth[&q], Outcome::Lose, "hint {:?} from {:?}", mv, p);
                        }
                        None => prop_assert_ne!(expected, Outcome::Win),
                    }
                    if expected == Outcome::Win {
                        wins.push(p.clone());
                    }
                }
            }
            hints_always_win(&gsg, &wins).map_err(TestCaseError::fail)?;
        }

        #[test]
        fn mostly_acyclic_graphs_match_the_definition(
            lists in proptest::collection::vec(proptest::collection::vec(any::<u32>(), 0..5), 1..30),
            back in proptest::collection::vec(any::<(u32, u32)>(), 0..3),
        ) {
            // Edges down to lower ids, plus a few arbitrary ones that may
            // close cycles: a large part that cannot reach a cycle, peeled
            // first, beside and below a part that can.
            let n = lists.len() as u32;
            let mut edges = vec![];
            for (u, l) in lists.iter().enumerate() {
                for &x in l {
                    if u > 0 {
                        edges.push((u as u32, x % u as u32));
                    }
                }
            }
            edges.extend(back.iter().map(|&(a, b)| (a % n, b % n)));
            let g = graph_of(n as usize, &edges);
            let gsg = generalized_grundy(&g);
            prop_assert_eq!(&gsg.values, &labels_by_definition(&g));
            check_counter_facts(&gsg).map_err(TestCaseError::fail)?;
            let mut wins = vec![];
            for k in 1..=2 {
                for (p, &expected) in &retrograde(&g, k) {
                    prop_assert_eq!(gsg.outcome(p), expected, "position {:?}", p);
                    if expected == Outcome::Win {
                        wins.push(p.clone());
                    }
                }
            }
            hints_always_win(&gsg, &wins).map_err(TestCaseError::fail)?;
        }

        #[test]
        fn acyclic_values_are_grundy_values(
            lists in proptest::collection::vec(proptest::collection::vec(any::<u32>(), 0..5), 1..40)
        ) {
            let mut edges = vec![];
            for (u, l) in lists.iter().enumerate() {
                for &x in l {
                    if u > 0 {
                        edges.push((u as u32, x % u as u32));
                    }
                }
            }
            let g = graph_of(lists.len(), &edges);
            let plain = grundy_values(&g).unwrap();
            let gsg = generalized_grundy(&g);
            for v in 0..g.node_count() as u32 {
                prop_assert_eq!(gsg.value(v), GValue::Finite(plain[v as usize]));
            }
        }
    }

    #[test]
    fn small_examples() {
        // A two-cycle with no way out: both inf({}), every sum draws.
        let g = graph_of(2, &[(0, 1), (1, 0)]);
        let v = generalized_grundy(&g);
        assert_eq!(v.value(0), GValue::Infinite);
        assert_eq!(v.k_set(0), Vec::<u32>::new());
        assert_eq!(v.outcome(&[0]), Outcome::Draw);
        assert_eq!(v.winning_move(&[0]), None);

        // 0 terminal; 1 <-> 2 with an exit 1 -> 0; 3 -> 2 -> ... -> 1.
        // Moving from 1 to 2 would let the opponent undo it forever.
        let g = graph_of(4, &[(1, 2), (1, 0), (2, 1), (3, 2)]);
        let v = generalized_grundy(&g);
        let vals: Vec<GValue> = (0..4).map(|u| v.value(u)).collect();
        use GValue::Finite;
        assert_eq!(vals, [Finite(0), Finite(1), Finite(0), Finite(1)]);
        assert_eq!(
            v.winning_move(&[1]),
            Some(Move {
                token: 0,
                from: 1,
                to: 0
            })
        );
        assert_eq!(v.outcome(&[2]), Outcome::Lose);
        assert_eq!(v.outcome(&[1, 3]), Outcome::Lose);

        // A self-loop with an exit to a terminal: inf({0}), a win by moving
        // to the terminal; two of them draw; with a token of value 1, draw.
        let g = graph_of(4, &[(0, 0), (0, 1), (2, 1)]);
        let v = generalized_grundy(&g);
        assert_eq!(v.value(0), GValue::Infinite);
        assert_eq!(v.k_set(0), vec![0]);
        assert_eq!(v.k_set(2), vec![0]);
        assert_eq!(v.outcome(&[0]), Outcome::Win);
        assert_eq!(v.outcome(&[0, 0]), Outcome::Draw);
        assert_eq!(v.outcome(&[0, 2]), Outcome::Draw);
        assert_eq!(v.outcome(&[3, 0, 3]), Outcome::Win);
        assert_eq!(
            v.winning_move(&[3, 0, 3]),
            Some(Move {
                token: 1,
                from: 0,
                to: 1
            })
        );
        assert_eq!(v.outcome(&[]), Outcome::Lose);
    }

    /// Node 0 terminal, 1 <-> 2 with the exit 1 -> 0, and the chain
    /// `v -> v - 1` for `v >= 3`: a million-node chain ending in a cycle.
    #[test]
    fn million_node_chain_into_a_cycle() {
        let n = 1_000_000u32;
        let mut edges = vec![(1, 0), (1, 2), (2, 1)];
        edges.extend((3..n).map(|v| (v, v - 1)));
        let g = graph_of(n as usize, &edges);
        let v = generalized_grundy(&g);
        assert_eq!(v.finite(0), Some(0));
        assert_eq!(v.finite(1), Some(1));
        for u in 2..n {
            assert_eq!(v.finite(u), Some(u % 2), "node {u}");
        }
        // Follow the hints from the top against the only replies there are.
        let mut pos = [n - 1];
        let mut moves = 0u32;
        while let Some(mv) = v.winning_move(&pos) {
            pos[0] = mv.to;
            moves += 1;
            match g.successors(pos[0]) {
                [] => break,
                [only] => pos[0] = *only,
                _ => panic!("no choices expected at {}", pos[0]),
            }
            moves += 1;
        }
        assert_eq!(g.successors(pos[0]), &[] as &[u32]);
        assert_eq!(moves % 2, 1, "the hinting player made the last move");

        // The whole chain closed into one big cycle: everything draws.
        let mut edges: Vec<(u32, u32)> = (1..n).map(|v| (v, v - 1)).collect();
        edges.push((0, n - 1));
        let g = graph_of(n as usize, &edges);
        let v = generalized_grundy(&g);
        assert!((0..n).all(|u| v.value(u) == GValue::Infinite));
        assert_eq!(v.outcome(&[n / 2]), Outcome::Draw);
    }

    /// A deterministic pseudo-random cyclic graph: 10^6 nodes, 5 * 10^6 edges.
    /// Run with `cargo test --release -p sg-core -- --ignored --nocapture`.
    #[test]
    #[ignore = "timing run"]
    fn million_node_random_cyclic_graph() {
        let n = 1_000_000u32;
        let mut rng = SplitMix64::seed_from_u64(0x9E37_79B9_7F4A_7C15);
        let mut next = move || rng.next_u64();
        let mut s = Vec::with_capacity(5 * n as usize);
        let mut t = Vec::with_capacity(5 * n as usize);
        for _ in 0..5 * n {
            s.push((next() % n as u64) as u32);
            t.push((next() % n as u64) as u32);
        }
        let g = Graph::from_edges(n as usize, &s, &t).unwrap();
        let start = std::time::Instant::now();
        let v = generalized_grundy(&g);
        let elapsed = start.elapsed();
        let inf = (0..n).filter(|&u| v.value(u) == GValue::Infinite).count();
        let max = (0..n).filter_map(|u| v.finite(u)).max();
        eprintln!("labelled in {elapsed:?}: {inf} infinite, largest finite value {max:?}");
        check_counter_facts(&v).unwrap();
    }
}
