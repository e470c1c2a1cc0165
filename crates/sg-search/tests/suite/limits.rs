//! The solver on games at its limits: a game a million moves deep (the
//! search's stack is its own, on the heap), a game whose moves form a
//! cycle (a clear error, never a hang), and a transposition table far too
//! small for the game (answers unchanged).

use sg_search::{Game, Options, SearchError, Solver};

/// A heap from which a move takes one or two tokens (nimbers 0, 1, 2, 0,
/// 1, 2, ...; misère losses are the heaps of 1 modulo 3): a heap of `n` is
/// `n` moves deep.
pub(crate) struct TakeOneOrTwo;

impl Game for TakeOneOrTwo {
    type Position = u64;
    type Move = u64;

    fn moves(&self, heap: &u64, moves: &mut Vec<u64>) {
        moves.extend((1..=2).filter(|&take| take <= *heap));
    }

    fn play(&self, heap: &u64, take: &u64) -> u64 {
        heap - take
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
    let n = 1_000_000;
    assert_eq!(solver.nimber(&n).unwrap(), (n % 3) as u32);
    assert_eq!(solver.winning_move(&n).unwrap(), Some(1));
}

/// A game on a ring of `len` positions: from `i` the move goes to
/// `(i + 1) % len`, so play never ends.
pub(crate) struct Ring {
    pub(crate) len: u32,
}

impl Game for Ring {
    type Position = u32;
    type Move = ();

    fn moves(&self, _: &u32, moves: &mut Vec<()>) {
        moves.push(());
    }

    fn play(&self, at: &u32, (): &()) -> u32 {
        (at + 1) % self.len
    }
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
            match solver.nimber(&0) {
                Err(SearchError::Cycle { position }) => {
                    assert!(position.parse::<u32>().is_ok_and(|p| p < len), "{position}");
                }
                other => panic!("ring of {len}: expected a cycle error, got {other:?}"),
            }
        }
    }
}

#[test]
fn a_tiny_table_gives_the_same_nimbers() {
    let tiny = Solver::with_options(
        &TakeOneOrTwo,
        Options {
            memory: 256,
            threads: 1,
        },
    );
    for n in 0..300u64 {
        assert_eq!(tiny.nimber(&n).unwrap(), (n % 3) as u32, "heap {n}");
    }
    assert!(tiny.table_bytes() <= 256);
}
