//! The misère search against the definition: the solver's misère
//! outcomes and winning moves on random small Cram boards, Node-Kayles
//! graphs, Chomp diagrams and games of the tests' own (Nim, Kayles, random
//! games) equal those of a plain memoised search of the whole position (a
//! position is a loss when it has a move and every move leads to a win;
//! no split, no canonical form, no type), with the default table, a tiny
//! one and two threads; misère Nim against Bouton's rule; a game a million
//! moves deep, and a cycle.

use std::collections::HashMap;

use proptest::prelude::*;
use sg_search::games::chomp::Chomp;
use sg_search::games::cram::Cram;
use sg_search::games::node_kayles::{NodeKayles, Vertices};
use sg_search::{Game, Options, Outcome, SearchError, Solver};

use crate::games::{cells_of_mask, random_edges, subset, user_game};
use crate::limits::{Ring, TakeOneOrTwo};

/// Whether `position` is a misère loss for the player to move, by the
/// definition, memoised in `memo`. Only `moves` and `play` are used (the
/// positions are small: the recursion is as deep as the longest play).
fn loses<G: Game>(game: &G, position: &G::Position, memo: &mut HashMap<G::Position, bool>) -> bool {
    if let Some(&lose) = memo.get(position) {
        return lose;
    }
    let mut moves = Vec::new();
    game.moves(position, &mut moves);
    // No move: the player to move wins.
    let lose = !moves.is_empty()
        && moves
            .iter()
            .all(|mv| !loses(game, &game.play(position, mv), memo));
    memo.insert(position.clone(), lose);
    lose
}

/// The solver's misère outcome of `position` is the definition's, and its
/// winning move is one of the moves, to a misère loss, exactly when the
/// position is a win.
fn check<G: Game>(
    solver: &Solver<'_, G>,
    position: &G::Position,
    memo: &mut HashMap<G::Position, bool>,
) -> Result<(), TestCaseError> {
    let game = solver.game();
    let lose = loses(game, position, memo);
    let expected = if lose { Outcome::Lose } else { Outcome::Win };
    prop_assert_eq!(
        solver.misere_outcome(position).unwrap(),
        expected,
        "{:?}",
        position
    );
    let mut moves = Vec::new();
    game.moves(position, &mut moves);
    match solver.misere_winning_move(position).unwrap() {
        Some(mv) => {
            prop_assert!(!lose, "a move from {:?}, a loss", position);
            prop_assert!(moves.contains(&mv), "{:?} is not a move", mv);
            let next = game.play(position, &mv);
            prop_assert!(loses(game, &next, memo), "{:?} after {:?}", next, mv);
        }
        // A win without a winning move: only a position without a move.
        None => prop_assert!(
            lose || moves.is_empty(),
            "no winning move from {:?}",
            position
        ),
    }
    Ok(())
}

/// The options a test case runs with: the default (0), a small table (1:
/// 64 KiB, which the larger cases fill, so that entries are replaced) or
/// two threads (2). Much smaller tables hold too little for the search to
/// stay quick (see the misère module's documentation).
fn options(pick: u8) -> Options {
    match pick {
        0 => Options::default(),
        1 => Options {
            memory: 64 << 10,
            ..Options::default()
        },
        _ => Options {
            threads: 2,
            ..Options::default()
        },
    }
}

/// Nim: heaps, sorted; a move takes from one heap.
struct Nim;

impl Game for Nim {
    type Position = Vec<u32>;
    type Move = (usize, u32);

    fn moves(&self, heaps: &Vec<u32>, moves: &mut Vec<(usize, u32)>) {
        for (i, &h) in heaps.iter().enumerate() {
            moves.extend((0..h).map(|left| (i, left)));
        }
    }

    fn play(&self, heaps: &Vec<u32>, &(i, left): &(usize, u32)) -> Vec<u32> {
        let mut next = heaps.clone();
        next[i] = left;
        next.retain(|&h| h > 0);
        next.sort_unstable();
        next
    }

    fn split(&self, heaps: &Vec<u32>, components: &mut Vec<Vec<u32>>) {
        components.extend(heaps.iter().map(|&h| vec![h]));
    }
}

/// Bouton's rule for misère Nim: the player to move loses when every heap
/// is at most 1 and their number is odd, or some heap is larger and the
/// XOR of the heaps is 0.
fn misere_nim_loses(heaps: &[u32]) -> bool {
    let x = heaps.iter().fold(0, |x, &h| x ^ h);
    if heaps.iter().all(|&h| h <= 1) {
        x == 1
    } else {
        x == 0
    }
}

/// A random game of heaps: a heap of `i` (of `0..len`) moves to up to
/// `width` options drawn by `seed`, each a sum of up to three heaps whose
/// sizes total less than `i` (so that a sum of heaps of total `n` has at
/// most as many followers as `n` has partitions); a heap may have no move.
/// A position of the game is a sorted list of heaps.
struct Random {
    options: Vec<Vec<Vec<u32>>>,
}

impl Random {
    fn new(len: u32, width: u32, seed: u64) -> Self {
        let mut state = seed | 1;
        let mut next = move |below: u32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % u64::from(below.max(1))) as u32
        };
        let options = (0..len)
            .map(|i| {
                let count = if i == 0 { 0 } else { next(width + 1) };
                (0..count)
                    .map(|_| {
                        let mut left = next(i);
                        let mut parts = Vec::new();
                        for _ in 0..next(3) {
                            let part = next(left + 1);
                            parts.push(part);
                            left -= part;
                        }
                        parts.push(left);
                        parts
                    })
                    .collect()
            })
            .collect();
        Random { options }
    }
}

impl Game for Random {
    type Position = Vec<u32>;
    type Move = (usize, usize);

    fn moves(&self, sum: &Vec<u32>, moves: &mut Vec<(usize, usize)>) {
        for (i, &g) in sum.iter().enumerate() {
            moves.extend((0..self.options[g as usize].len()).map(|o| (i, o)));
        }
    }

    fn play(&self, sum: &Vec<u32>, &(i, o): &(usize, usize)) -> Vec<u32> {
        let mut next = sum.clone();
        let g = next.swap_remove(i);
        next.extend(&self.options[g as usize][o]);
        next.sort_unstable();
        next
    }

    fn split(&self, sum: &Vec<u32>, components: &mut Vec<Vec<u32>>) {
        components.extend(sum.iter().map(|&g| vec![g]));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn cram_matches_the_definition(
        rows in 1u32..=4, cols in 1u32..=5, blocked in any::<u32>(), pick in 0u8..3
    ) {
        let blocked = cells_of_mask(rows, cols, u64::from(blocked));
        let cram = Cram::<u64>::with_blocked(rows, cols, &blocked).unwrap();
        let solver = Solver::with_options(&cram, options(pick));
        check(&solver, &cram.start(), &mut HashMap::new())?;
    }

    #[test]
    fn node_kayles_matches_the_definition(
        n in 0u32..=13,
        pairs in proptest::collection::vec((0u32..16, 0u32..16), 0..30),
        mask in any::<u128>(),
        pick in 0u8..3,
    ) {
        let edges = random_edges(n, &pairs, false);
        let game = NodeKayles::<u64>::new(n, &edges).unwrap();
        let solver = Solver::with_options(&game, options(pick));
        let mut memo = HashMap::new();
        check(&solver, &game.start(), &mut memo)?;
        check(&solver, &Vertices(subset(n, mask)), &mut memo)?;
    }

    #[test]
    fn node_kayles_grids_match_the_definition(
        rows in 1u32..=4, cols in 1u32..=5, mask in any::<u128>(), pick in 0u8..3
    ) {
        let game = NodeKayles::<u64>::grid(rows, cols).unwrap();
        let solver = Solver::with_options(&game, options(pick));
        let mut memo = HashMap::new();
        check(&solver, &game.start(), &mut memo)?;
        check(&solver, &Vertices(subset(rows * cols, mask)), &mut memo)?;
    }

    #[test]
    fn chomp_matches_the_definition(
        rows in proptest::collection::vec(1u32..=7, 1..=6), pick in 0u8..3
    ) {
        let mut rows = rows;
        rows.sort_unstable_by(|a, b| b.cmp(a));
        let game = Chomp::<u64>::from_rows(&rows).unwrap();
        let solver = Solver::with_options(&game, options(pick));
        check(&solver, &game.start(), &mut HashMap::new())?;
    }

    #[test]
    fn random_games_match_the_definition(
        seed in any::<u64>(), sum in proptest::collection::vec(0u32..16, 0..4), pick in 0u8..3
    ) {
        let game = Random::new(16, 4, seed);
        let solver = Solver::with_options(&game, options(pick));
        let mut sum = sum;
        sum.sort_unstable();
        check(&solver, &sum, &mut HashMap::new())?;
    }

    #[test]
    fn kayles_matches_the_definition(
        rows in proptest::collection::vec(0u32..=9, 0..=3), pick in 0u8..3
    ) {
        let mut rows: Vec<u32> = rows.into_iter().filter(|&r| r > 0).collect();
        rows.sort_unstable();
        let solver = Solver::with_options(&user_game::Kayles, options(pick));
        check(&solver, &rows, &mut HashMap::new())?;
    }

    #[test]
    fn misere_nim_follows_boutons_rule(
        heaps in proptest::collection::vec(0u32..=12, 0..=5), pick in 0u8..3
    ) {
        let mut heaps: Vec<u32> = heaps.into_iter().filter(|&h| h > 0).collect();
        heaps.sort_unstable();
        let solver = Solver::with_options(&Nim, options(pick));
        let expected = if misere_nim_loses(&heaps) { Outcome::Lose } else { Outcome::Win };
        prop_assert_eq!(solver.misere_outcome(&heaps).unwrap(), expected);
        if let Some(mv) = solver.misere_winning_move(&heaps).unwrap() {
            prop_assert!(misere_nim_loses(&Nim.play(&heaps, &mv)));
        } else {
            prop_assert!(expected == Outcome::Lose || heaps.is_empty());
        }
    }
}

#[test]
fn a_game_a_million_moves_deep_is_solved() {
    let solver = Solver::with_options(
        &TakeOneOrTwo,
        Options {
            memory: 64 << 20,
            threads: 1,
        },
    );
    for n in [1_000_000u64, 1_000_001] {
        let expected = if n % 3 == 1 {
            Outcome::Lose
        } else {
            Outcome::Win
        };
        assert_eq!(solver.misere_outcome(&n).unwrap(), expected, "heap {n}");
    }
    // 1,000,000 = 1 modulo 3: lost. 1,000,001: take 1.
    assert_eq!(solver.misere_winning_move(&1_000_001).unwrap(), Some(1));
    assert_eq!(solver.misere_winning_move(&1_000_000).unwrap(), None);
}

#[test]
fn a_cycle_is_an_error_naming_a_position() {
    for len in [1, 2, 1000] {
        for threads in [1, 2] {
            let ring = Ring { len };
            let solver = Solver::with_options(
                &ring,
                Options {
                    memory: 1 << 20,
                    threads,
                },
            );
            for result in [
                solver.misere_outcome(&0).map(|_| ()),
                solver.misere_winning_move(&0).map(|_| ()),
            ] {
                match result {
                    Err(SearchError::Cycle { position }) => {
                        assert!(position.parse::<u32>().is_ok_and(|p| p < len), "{position}");
                    }
                    other => panic!("ring of {len}: expected a cycle error, got {other:?}"),
                }
            }
        }
    }
}
