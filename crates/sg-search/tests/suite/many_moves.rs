//! Games of many moves and large nimbers against a plain memoised mex
//! written here (no search, no table): Nim heaps, the subtraction games
//! `{1..k}`, and random games whose positions have many options, some of
//! which split into sums (their nimbers by the XOR of the parts', and on
//! small games by the mex over whole positions too), with the moves listed
//! in either order, on the default table, a tiny one and two threads.
//! Then the sizes that once took minutes (a Nim heap of 500, `{1..300}`
//! from 900): the positions the search expands stay a small multiple of
//! the distinct positions (a count, not a time, so that the test does not
//! depend on the machine). And the limits with large nimbers: a game
//! 300,000 moves deep, a cycle, and a position of 100,000 options whose
//! nimbers are known at once.

use std::collections::HashMap;

use proptest::prelude::*;
use sg_search::{Game, Nimber, Options, SearchError, Solver};

/// A heap; a move leaves `max(0, n - k)..n` (Nim when `k` is `None`),
/// listed from the smallest heap left (`down`: from the largest).
struct Heap {
    k: Option<u32>,
    down: bool,
}

impl Game for Heap {
    type Position = u32;
    type Move = u32;

    fn moves(&self, &heap: &u32, moves: &mut Vec<u32>) {
        let lowest = self.k.map_or(0, |k| heap.saturating_sub(k));
        let start = moves.len();
        moves.extend(lowest..heap);
        if self.down {
            moves[start..].reverse();
        }
    }

    fn play(&self, _: &u32, &left: &u32) -> u32 {
        left
    }
}

/// A game on the nodes of a DAG: a position is a sum of nodes (sorted),
/// and a move replaces one node by one of its options, a sum of at most
/// two nodes below it (so that a move may split a component in two, or
/// end it).
struct Dag {
    /// Per node, its options.
    options: Vec<Vec<Vec<u16>>>,
}

impl Game for Dag {
    type Position = Vec<u16>;
    /// (which node of the sum, which of its options).
    type Move = (u16, u16);

    fn moves(&self, nodes: &Vec<u16>, moves: &mut Vec<(u16, u16)>) {
        for (i, &node) in nodes.iter().enumerate() {
            let count = self.options[usize::from(node)].len();
            moves.extend((0..count).map(|o| (i as u16, o as u16)));
        }
    }

    fn play(&self, nodes: &Vec<u16>, &(i, o): &(u16, u16)) -> Vec<u16> {
        let mut next = nodes.clone();
        let node = next.swap_remove(usize::from(i));
        next.extend(&self.options[usize::from(node)][usize::from(o)]);
        next.sort_unstable();
        next
    }

    fn split(&self, nodes: &Vec<u16>, components: &mut Vec<Vec<u16>>) {
        components.extend(nodes.iter().map(|&node| vec![node]));
    }

    fn size(&self, nodes: &Vec<u16>) -> u64 {
        nodes.iter().map(|&node| u64::from(node)).sum()
    }
}

/// The game of the nodes `0..n`: node `i` has each node below it as an
/// option with probability `dense` percent (so many options and large
/// nimbers), and with probability `splits` percent an option to each of a
/// few random pairs of nodes below it; the options in a random order.
fn random_dag(n: usize, dense: u64, splits: u64, seed: u64) -> Dag {
    let mut state = seed;
    // SplitMix64.
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let options = (0..n)
        .map(|i| {
            let mut options: Vec<Vec<u16>> = Vec::new();
            for j in 0..i {
                if next() % 100 < dense {
                    options.push(vec![j as u16]);
                }
                if next() % 100 < splits {
                    let (a, b) = (next() as usize % i, next() as usize % i);
                    options.push(vec![a.min(b) as u16, a.max(b) as u16]);
                }
            }
            if next() % 4 == 0 {
                options.push(Vec::new());
            }
            // Fisher-Yates.
            for k in (1..options.len()).rev() {
                options.swap(k, next() as usize % (k + 1));
            }
            options
        })
        .collect();
    Dag { options }
}

/// The nimber of `start` by the definition: the mex of the nimbers of the
/// positions its moves lead to, memoised, on an explicit stack (a heap
/// of 900 is 900 moves deep). Only `moves` and `play` are used.
fn mex_by_definition<G: Game>(
    game: &G,
    start: &G::Position,
    memo: &mut HashMap<G::Position, Nimber>,
) -> Nimber {
    let mut stack = vec![start.clone()];
    let mut moves = Vec::new();
    while let Some(position) = stack.last().cloned() {
        if memo.contains_key(&position) {
            stack.pop();
            continue;
        }
        moves.clear();
        game.moves(&position, &mut moves);
        let options: Vec<G::Position> = moves.iter().map(|mv| game.play(&position, mv)).collect();
        let unknown: Vec<G::Position> = options
            .iter()
            .filter(|o| !memo.contains_key(*o))
            .cloned()
            .collect();
        if unknown.is_empty() {
            let mut seen = vec![false; options.len() + 1];
            for option in &options {
                if let Some(s) = seen.get_mut(memo[option] as usize) {
                    *s = true;
                }
            }
            let mex = seen.iter().position(|&s| !s).expect("a value is missing");
            memo.insert(position, mex as Nimber);
            stack.pop();
        } else {
            stack.extend(unknown);
        }
    }
    memo[start]
}

/// The options a check runs with: the default, two threads, and a table
/// of a few kilobytes (about 250 entries) for games of at most
/// [`TINY_POSITIONS`] positions: on larger games of large nimbers, a table
/// that holds almost nothing makes the search exponential.
fn all_options(positions: usize) -> Vec<Options> {
    let mut all = vec![
        Options::default(),
        Options {
            memory: 64 << 20,
            threads: 2,
        },
    ];
    if positions <= TINY_POSITIONS {
        all.push(Options {
            memory: 4 << 10,
            threads: 1,
        });
    }
    all
}

/// The most positions of a game checked with a tiny table.
const TINY_POSITIONS: usize = 100;

/// The solver's nimbers of `positions`, asked in turn of one solver, are
/// `expected`'s.
fn check_with<G: Game>(
    game: &G,
    size: usize,
    positions: &[G::Position],
    mut expected: impl FnMut(&G::Position) -> Nimber,
) -> Result<(), TestCaseError> {
    for options in all_options(size) {
        let solver = Solver::with_options(game, options);
        for position in positions {
            let nimber = solver.nimber(position);
            prop_assert_eq!(
                nimber,
                Ok(expected(position)),
                "{:?} with {:?}",
                position,
                options
            );
        }
    }
    Ok(())
}

/// The solver's nimbers of `positions` of a game of `size` positions
/// equal the definition's.
fn check<G: Game>(game: &G, size: usize, positions: &[G::Position]) -> Result<(), TestCaseError> {
    let mut memo = HashMap::new();
    check_with(game, size, positions, |p| {
        mex_by_definition(game, p, &mut memo)
    })
}

/// The nimbers of the nodes of `dag`: the mex, over a node's options, of
/// the XOR of the nimbers of their nodes (the nimber of a sum), node by
/// node from the first (options lie below).
fn node_nimbers(dag: &Dag) -> Vec<Nimber> {
    let mut nimbers: Vec<Nimber> = Vec::new();
    for options in &dag.options {
        let mut seen = vec![false; options.len() + 1];
        for option in options {
            let x = option.iter().fold(0, |x, &n| x ^ nimbers[usize::from(n)]);
            if let Some(s) = seen.get_mut(x as usize) {
                *s = true;
            }
        }
        nimbers.push(seen.iter().position(|&s| !s).expect("a value is missing") as Nimber);
    }
    nimbers
}

#[test]
fn nim_heaps_match_the_definition() {
    for down in [false, true] {
        let nim = Heap { k: None, down };
        // Each heap on a fresh solver, and every heap on one solver.
        for n in [0, 1, 7, 8, 9, 40, 99, 150] {
            check(&nim, n as usize + 1, &[n]).unwrap();
        }
        check(&nim, 121, &(0..=120).rev().collect::<Vec<u32>>()).unwrap();
    }
}

#[test]
fn subtraction_games_match_the_definition() {
    for down in [false, true] {
        for k in [1, 2, 7, 8, 9, 30, 100] {
            let game = Heap { k: Some(k), down };
            check(&game, 3 * k as usize + 2, &[3 * k, 3 * k + 1, 5 * k / 2]).unwrap();
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_games_of_many_moves_match_the_definition(
        n in 1usize..=90,
        dense in 0u64..=100,
        splits in 0u64..=6,
        seed in any::<u64>(),
        sums in proptest::collection::vec(proptest::collection::vec(0u16..90, 0..=3), 1..=4),
    ) {
        let dag = random_dag(n, dense, splits, seed);
        let mut positions: Vec<Vec<u16>> = (0..n as u16).rev().map(|i| vec![i]).collect();
        positions.extend(sums.into_iter().map(|mut sum| {
            sum.iter_mut().for_each(|node| *node %= n as u16);
            sum.sort_unstable();
            sum
        }));
        let nimbers = node_nimbers(&dag);
        let sum = |p: &Vec<u16>| p.iter().fold(0, |x, &n| x ^ nimbers[usize::from(n)]);
        check_with(&dag, n, &positions, sum)?;
        // The largest node alone on a fresh solver too (a solver that
        // answered the smaller nodes first finds them in its table).
        let top = vec![(n - 1) as u16];
        prop_assert_eq!(Solver::new(&dag).nimber(&top), Ok(sum(&top)));
        // Small games against the definition on whole positions (sums
        // included, without the theorem that adds their nimbers).
        if n <= 12 {
            check(&dag, n, &positions)?;
        }
    }
}

/// The positions a solver expands for the nimber of `start`, on a fresh
/// solver.
fn expanded<G: Game>(game: &G, start: G::Position) -> (Nimber, u64) {
    let solver = Solver::new(game);
    let nimber = solver.nimber(&start).unwrap();
    (nimber, solver.expanded())
}

#[test]
fn a_nim_heap_of_500_expands_a_small_multiple_of_its_positions() {
    for down in [false, true] {
        let (nimber, expanded) = expanded(&Heap { k: None, down }, 500);
        assert_eq!(nimber, 500);
        // 501 distinct positions; the search once expanded 3,458,073 (in
        // two minutes), and 125,251 with the moves listed from the top
        // before the mex for large nimbers.
        assert!(expanded <= 12 * 501, "down {down}: {expanded} expanded");
    }
}

#[test]
fn a_subtraction_game_from_900_expands_a_small_multiple_of_its_positions() {
    for down in [false, true] {
        let (nimber, expanded) = expanded(&Heap { k: Some(300), down }, 900);
        assert_eq!(nimber, 900 % 301);
        // 901 distinct positions; the search once expanded 2,736,982.
        assert!(expanded <= 12 * 901, "down {down}: {expanded} expanded");
    }
}

#[test]
fn a_game_of_large_nimbers_300_000_moves_deep_is_solved() {
    let game = Heap {
        k: Some(16),
        down: true,
    };
    let solver = Solver::with_options(
        &game,
        Options {
            memory: 64 << 20,
            threads: 1,
        },
    );
    let n = 300_000;
    assert_eq!(solver.nimber(&n).unwrap(), n % 17);
    assert_eq!(solver.winning_move(&n).unwrap(), Some(n - n % 17));
}

/// Positions `0..=len`: from `i`, a move to every position below it, and
/// from 0 a move to `len`: every position is on a cycle.
struct DenseRing {
    len: u32,
}

impl Game for DenseRing {
    type Position = u32;
    type Move = u32;

    fn moves(&self, &at: &u32, moves: &mut Vec<u32>) {
        if at == 0 {
            moves.push(self.len);
        }
        moves.extend(0..at);
    }

    fn play(&self, _: &u32, &to: &u32) -> u32 {
        to
    }
}

#[test]
fn a_cycle_among_large_nimbers_is_an_error() {
    for threads in [1, 2] {
        let ring = DenseRing { len: 40 };
        let solver = Solver::with_options(
            &ring,
            Options {
                memory: 1 << 20,
                threads,
            },
        );
        for start in [40, 20, 0] {
            match solver.nimber(&start) {
                Err(SearchError::Cycle { .. }) => {}
                other => panic!("from {start}: expected a cycle error, got {other:?}"),
            }
        }
    }
}

/// Nim whose heaps below `known` have their nimbers known without search
/// (the heap itself), listed from the largest heap left.
struct KnownNim {
    known: u32,
}

impl Game for KnownNim {
    type Position = u32;
    type Move = u32;

    fn moves(&self, &heap: &u32, moves: &mut Vec<u32>) {
        moves.extend((0..heap).rev());
    }

    fn play(&self, _: &u32, &left: &u32) -> u32 {
        left
    }

    fn known_nimber(&self, &heap: &u32) -> Option<Nimber> {
        (heap < self.known).then_some(heap)
    }
}

#[test]
fn a_position_of_100_000_options_of_known_nimbers_is_solved() {
    let n = 100_000;
    let game = KnownNim { known: n };
    let solver = Solver::new(&game);
    assert_eq!(solver.nimber(&n), Ok(n));
    assert_eq!(solver.expanded(), 1);
}
