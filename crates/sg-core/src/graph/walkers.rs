//! The values pass of [`grundy_values`](super::grundy_values) on large
//! graphs: several interleaved depth-first walkers per thread, on up to two
//! threads, with one byte per value.
//!
//! On a large random DAG the plain depth-first search waits for one cache
//! miss per edge (the successor's value) and per node (its offsets and
//! successor list). Here each thread runs [`WALKERS`] independent searches
//! that take turns: a walker that enters a node first prefetches its
//! offsets, on its next turn the successor list, on the next the values and
//! offsets of the successors, and only then reads them; meanwhile the other
//! walkers' loads are in flight. Nodes are claimed by compare-and-swap, so
//! walkers of both threads never compute a node twice; a walker that meets a
//! node on another walker's stack waits for it.
//!
//! Values are bytes: [`UNKNOWN`], the owner codes from [`FIRST_OWNER`] up,
//! and values below [`FIRST_OWNER`]. The pass gives up (returns `None`, and
//! the caller runs the plain engine, which reports cycles with their nodes
//! and has no limit on values) on a cycle: a walker meeting its own stack,
//! or walkers waiting on each other in a ring; and on a value that does not
//! fit. Giving up costs time, never correctness.
//!
//! The ring check is exact: a walker records the node it waits for; a
//! waiting walker follows those records (node, then the node's owner, then
//! the node that owner waits for ...) and, if it comes back to itself,
//! reads every node of the ring again. A node stays owned by one walker
//! until that walker finishes it, and a walker waiting for a node owned by
//! another stays waiting until the node is finished; so if every node of the
//! ring is still owned by the same walker at the second reading, then at the
//! end of the first all the walkers of the ring were waiting on each other
//! at once, and none of them can ever move again: their stacks and waits
//! close a cycle of the graph. The records and the ring check use
//! sequentially consistent accesses. Should the check ever fire on a
//! graph without a cycle, that only costs time (the plain engine then
//! computes the values); a real ring never changes, so it is always found.

use super::Graph;
use std::sync::atomic::{
    AtomicBool, AtomicU8, AtomicU32, AtomicUsize,
    Ordering::{Relaxed, Release, SeqCst},
};

/// Walkers taking turns on one thread.
pub(super) const WALKERS: usize = 8;
/// The most threads the pass uses.
pub(super) const MAX_THREADS: usize = 2;
/// The value byte of a node nobody has claimed.
const UNKNOWN: u8 = u8::MAX;
/// Walker `w` of thread `t` marks the nodes on its stack with
/// `FIRST_OWNER + t * WALKERS + w`; values must stay below this.
const FIRST_OWNER: u8 = UNKNOWN - (WALKERS * MAX_THREADS) as u8;
/// The number of owner codes.
const OWNERS: usize = WALKERS * MAX_THREADS;
/// Roots handed to a thread at a time.
const ROOT_CHUNK: usize = 4096;
/// A waiting walker looks for a ring of waits every this many turns.
const RING_CHECK_INTERVAL: u32 = 64;
/// In [`Shared::waiting_for`]: not waiting.
const NOT_WAITING: u32 = u32::MAX;

/// What all threads share.
struct Shared<'a> {
    offsets: &'a [u32],
    targets: &'a [u32],
    values: &'a [AtomicU8],
    /// The next root to hand out.
    next_root: AtomicUsize,
    /// For each owner code: the node its walker waits for, or
    /// [`NOT_WAITING`].
    waiting_for: [AtomicU32; OWNERS],
    /// Set by the first thread that gives up.
    abort: AtomicBool,
}

#[derive(Debug, Clone, Copy)]
struct Frame {
    node: u32,
    /// Index into the CSR targets of the next successor to read.
    cursor: u32,
    end: u32,
    /// 0: offsets prefetched; 1: successor list prefetched; 2: the
    /// successors' values prefetched, reading them.
    stage: u8,
    /// The successors' values below 64 seen so far, one bit each.
    seen: u64,
}

/// One depth-first search.
struct Walker {
    owner: u8,
    stack: Vec<Frame>,
    /// The node this walker's entry in [`Shared::waiting_for`] names.
    waiting: Option<u32>,
    /// Turns spent waiting for that node so far.
    waited: u32,
}

/// Why a walker gives up.
struct GiveUp;

/// What a walker did in one turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Turn {
    /// Some work.
    Moved,
    /// Nothing: it waits for a node on another walker's stack.
    Waited,
    /// Nothing: no root left.
    Idle,
}

/// A thread's current chunk of roots.
struct Roots {
    next: usize,
    end: usize,
}

#[inline(always)]
fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it reads nothing architecturally
    // and cannot fault, whatever the address; SSE is part of x86-64.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

impl Shared<'_> {
    #[inline]
    fn claim(&self, node: u32, owner: u8) -> bool {
        self.values[node as usize]
            .compare_exchange(UNKNOWN, owner, Relaxed, Relaxed)
            .is_ok()
    }

    /// Whether the walker `me` is in a ring of walkers that all wait for
    /// each other (see the module documentation).
    fn in_ring(&self, me: u8) -> bool {
        let mut ring = [(0u32, 0u8); OWNERS];
        let mut current = me;
        for len in 0..OWNERS {
            let node = self.waiting_for[usize::from(current - FIRST_OWNER)].load(SeqCst);
            if node == NOT_WAITING {
                return false;
            }
            let owner = self.values[node as usize].load(SeqCst);
            if !(FIRST_OWNER..UNKNOWN).contains(&owner) {
                return false;
            }
            ring[len] = (node, owner);
            if owner == me {
                return ring[..=len]
                    .iter()
                    .all(|&(node, owner)| self.values[node as usize].load(SeqCst) == owner);
            }
            current = owner;
        }
        false
    }
}

impl Roots {
    /// The next root of this thread, taking a new chunk when needed.
    fn next(&mut self, shared: &Shared<'_>) -> Option<u32> {
        if self.next == self.end {
            let n = shared.values.len();
            let start = shared.next_root.fetch_add(ROOT_CHUNK, Relaxed);
            if start >= n {
                return None;
            }
            self.next = start;
            self.end = (start + ROOT_CHUNK).min(n);
        }
        self.next += 1;
        Some((self.next - 1) as u32)
    }
}

impl Walker {
    fn enter(&mut self, shared: &Shared<'_>, node: u32) {
        prefetch(&shared.offsets[node as usize]);
        self.stack.push(Frame {
            node,
            cursor: 0,
            end: 0,
            stage: 0,
            seen: 0,
        });
    }

    /// One turn: a little work that ends with a load likely to miss the
    /// cache prefetched.
    #[inline]
    fn step(&mut self, shared: &Shared<'_>, roots: &mut Roots) -> Result<Turn, GiveUp> {
        let Some(top) = self.stack.last_mut() else {
            while let Some(root) = roots.next(shared) {
                if shared.values[root as usize].load(Relaxed) == UNKNOWN
                    && shared.claim(root, self.owner)
                {
                    self.enter(shared, root);
                    return Ok(Turn::Moved);
                }
            }
            return Ok(Turn::Idle);
        };
        let (offsets, targets, values) = (shared.offsets, shared.targets, shared.values);
        match top.stage {
            0 => {
                top.cursor = offsets[top.node as usize];
                top.end = offsets[top.node as usize + 1];
                top.stage = 1;
                if top.cursor < top.end {
                    prefetch(&targets[top.cursor as usize]);
                    prefetch(&targets[top.end as usize - 1]);
                }
                return Ok(Turn::Moved);
            }
            1 => {
                for &w in &targets[top.cursor as usize..top.end as usize] {
                    prefetch(&values[w as usize]);
                    prefetch(&offsets[w as usize]);
                }
                top.stage = 2;
                return Ok(Turn::Moved);
            }
            _ => {}
        }
        let entry = &shared.waiting_for[usize::from(self.owner - FIRST_OWNER)];
        while top.cursor < top.end {
            let w = targets[top.cursor as usize];
            let state = values[w as usize].load(Relaxed);
            if state < FIRST_OWNER {
                if state < 64 {
                    top.seen |= 1 << state;
                }
                top.cursor += 1;
            } else if state == UNKNOWN {
                // Descend (the cursor stays on w, read again on return);
                // if another walker claimed w first, look again next turn.
                if self.waiting.take().is_some() {
                    entry.store(NOT_WAITING, SeqCst);
                }
                if shared.claim(w, self.owner) {
                    self.enter(shared, w);
                }
                return Ok(Turn::Moved);
            } else if state == self.owner {
                return Err(GiveUp);
            } else {
                // Owned by another walker: wait for it, and look for a ring
                // of waits now and then (a real one never goes away).
                if self.waiting != Some(w) {
                    self.waiting = Some(w);
                    self.waited = 0;
                    entry.store(w, SeqCst);
                }
                self.waited += 1;
                if self.waited % RING_CHECK_INTERVAL == 1 && shared.in_ring(self.owner) {
                    return Err(GiveUp);
                }
                return Ok(Turn::Waited);
            }
        }
        if self.waiting.take().is_some() {
            entry.store(NOT_WAITING, SeqCst);
        }
        let node = top.node as usize;
        let start = offsets[node] as usize;
        let degree = top.end as usize - start;
        let value = if degree < 64 {
            (!top.seen).trailing_zeros()
        } else {
            let mut seen = vec![false; degree + 1];
            for &w in &targets[start..top.end as usize] {
                let g = usize::from(values[w as usize].load(Relaxed));
                if g <= degree {
                    seen[g] = true;
                }
            }
            seen.iter().position(|&s| !s).unwrap_or(degree + 1) as u32
        };
        if value >= u32::from(FIRST_OWNER) {
            return Err(GiveUp);
        }
        values[node].store(value as u8, Release);
        self.stack.pop();
        Ok(Turn::Moved)
    }
}

/// One thread's walkers, taking turns until no root is left.
fn run_thread(shared: &Shared<'_>, thread: usize) -> Result<(), GiveUp> {
    let mut walkers: [Walker; WALKERS] = std::array::from_fn(|w| Walker {
        owner: FIRST_OWNER + (thread * WALKERS + w) as u8,
        stack: Vec::new(),
        waiting: None,
        waited: 0,
    });
    let mut roots = Roots { next: 0, end: 0 };
    loop {
        if shared.abort.load(Relaxed) {
            return Err(GiveUp);
        }
        let (mut moved, mut waited) = (false, false);
        for walker in &mut walkers {
            match walker.step(shared, &mut roots)? {
                Turn::Moved => moved = true,
                Turn::Waited => waited = true,
                Turn::Idle => {}
            }
        }
        if !moved {
            if !waited {
                return Ok(());
            }
            // Every walker here waits for the other thread: let it run
            // (the machine may have fewer free cores than threads).
            std::thread::yield_now();
        }
    }
}

/// Every node's value as a byte, on `threads` threads (1 or 2); `None` if
/// the pass gives up (a cycle, or a value of [`FIRST_OWNER`] or more).
pub(super) fn byte_values(graph: &Graph, threads: usize) -> Option<Vec<u8>> {
    assert!((1..=MAX_THREADS).contains(&threads), "1 or 2 threads");
    let mut values = crate::hugepages::filled_vec(graph.node_count(), UNKNOWN);
    // SAFETY: AtomicU8 has the size and alignment of u8, and `values` is
    // borrowed mutably (so by nothing else) for as long as `atomic` lives.
    let atomic: &[AtomicU8] =
        unsafe { std::slice::from_raw_parts(values.as_mut_ptr().cast(), values.len()) };
    let shared = Shared {
        offsets: graph.offsets(),
        targets: graph.targets(),
        values: atomic,
        next_root: AtomicUsize::new(0),
        waiting_for: std::array::from_fn(|_| AtomicU32::new(NOT_WAITING)),
        abort: AtomicBool::new(false),
    };
    let run = |thread| {
        let result = run_thread(&shared, thread);
        if result.is_err() {
            shared.abort.store(true, Relaxed);
        }
        result.is_ok()
    };
    let ok = if threads == 1 {
        run(0)
    } else {
        std::thread::scope(|scope| {
            let helper = scope.spawn(|| run(1));
            let mine = run(0);
            let theirs = helper.join().expect("a walker thread panicked");
            mine && theirs
        })
    };
    ok.then_some(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Grundy;
    use crate::testing::{SplitMix64, random_dag_edges};
    use proptest::prelude::*;

    /// The plain engine's values as bytes, or `None` on a cycle or a value
    /// too large for the walkers.
    fn plain(graph: &Graph) -> Option<Vec<u8>> {
        let values = Grundy::new(graph).into_values().ok()?;
        values
            .into_iter()
            .map(|g| u8::try_from(g).ok().filter(|&g| g < FIRST_OWNER))
            .collect()
    }

    fn check_both_thread_counts(graph: &Graph) {
        let expected = plain(graph);
        for threads in 1..=MAX_THREADS {
            assert_eq!(byte_values(graph, threads), expected, "{threads} threads");
        }
    }

    proptest! {
        #[test]
        fn match_the_plain_engine_on_random_graphs(
            n in 1usize..80,
            edges in proptest::collection::vec(any::<(u32, u32)>(), 0..300),
            acyclic in any::<bool>(),
        ) {
            // Acyclic: edges from a higher id to a lower one. Otherwise
            // anything, so cycles (and rings of waiting walkers) occur.
            let (mut s, mut t) = (vec![], vec![]);
            for (a, b) in edges {
                let (a, b) = (a % n as u32, b % n as u32);
                if acyclic && a == b {
                    continue;
                }
                s.push(if acyclic { a.max(b) } else { a });
                t.push(if acyclic { a.min(b) } else { b });
            }
            let graph = Graph::from_edges(n, &s, &t).unwrap();
            let expected = plain(&graph);
            if acyclic {
                prop_assert!(expected.is_some());
            }
            for threads in 1..=MAX_THREADS {
                prop_assert_eq!(byte_values(&graph, threads), expected.clone());
            }
        }
    }

    #[test]
    fn large_random_dag() {
        let n = 300_000;
        let (s, t) = random_dag_edges(n, 5 * n, &mut SplitMix64::new(1));
        let graph = Graph::from_edges(n, &s, &t).unwrap();
        assert!(plain(&graph).is_some());
        check_both_thread_counts(&graph);
    }

    #[test]
    fn million_node_chains_both_ways() {
        // Down (each root finds its successor done) and up (the first root
        // is a million nodes deep), and with the chain closed into a cycle.
        let n = 1_000_000u32;
        let down = Graph::from_edges(n as usize, &Vec::from_iter(1..n), &Vec::from_iter(0..n - 1));
        let up = Graph::from_edges(n as usize, &Vec::from_iter(0..n - 1), &Vec::from_iter(1..n));
        for graph in [down.unwrap(), up.unwrap()] {
            check_both_thread_counts(&graph);
        }
        let mut s = Vec::from_iter(0..n - 1);
        let mut t = Vec::from_iter(1..n);
        s.push(n - 1);
        t.push(0);
        let cycle = Graph::from_edges(n as usize, &s, &t).unwrap();
        for threads in 1..=MAX_THREADS {
            assert_eq!(byte_values(&cycle, threads), None);
        }
    }

    #[test]
    fn wide_nodes_and_values_too_large_for_a_byte() {
        // Complete DAGs: node v has v moves and value v, so 100 nodes take
        // the mex path for 64 moves or more and 300 nodes do not fit.
        for n in [100u32, 300] {
            let (mut s, mut t) = (vec![], vec![]);
            for v in 0..n {
                for w in 0..v {
                    s.push(v);
                    t.push(w);
                }
            }
            let graph = Graph::from_edges(n as usize, &s, &t).unwrap();
            let expected = (n < u32::from(FIRST_OWNER)).then(|| (0..n as u8).collect());
            assert_eq!(plain(&graph), expected);
            check_both_thread_counts(&graph);
        }
    }
}
