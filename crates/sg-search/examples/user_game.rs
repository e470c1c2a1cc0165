//! A game of your own through the `Game` trait: Kayles, a row of pins
//! where a move knocks down one pin or two adjacent pins (which may split
//! the row in two). Prints G(0) to G(N), one per line:
//!
//! ```text
//! cargo run --release -p sg-search --example user_game -- 100
//! ```
use sg_search::{Game, Solver};

/// Kayles. A position is a list of rows (their numbers of pins), sorted.
pub(crate) struct Kayles;

impl Game for Kayles {
    type Position = Vec<u32>;
    /// (row, first pin knocked down, how many: 1 or 2).
    type Move = (usize, u32, u32);

    fn moves(&self, rows: &Vec<u32>, moves: &mut Vec<Self::Move>) {
        for (row, &pins) in rows.iter().enumerate() {
            for count in 1..=2.min(pins) {
                for first in 0..=pins - count {
                    moves.push((row, first, count));
                }
            }
        }
    }

    fn play(&self, rows: &Vec<u32>, &(row, first, count): &Self::Move) -> Vec<u32> {
        let mut next = rows.clone();
        let pins = next.swap_remove(row);
        let (left, right) = (first, pins - first - count);
        next.extend([left, right].into_iter().filter(|&r| r > 0));
        next.sort_unstable();
        next
    }

    /// Each row is a game of its own.
    fn split(&self, rows: &Vec<u32>, components: &mut Vec<Vec<u32>>) {
        components.extend(rows.iter().map(|&pins| vec![pins]));
    }

    /// How large a position is: its pins (the solver solves small
    /// components first).
    fn size(&self, rows: &Vec<u32>) -> u64 {
        rows.iter().map(|&pins| u64::from(pins)).sum()
    }
}

#[allow(dead_code)] // The tests include this file for `Kayles` alone.
fn main() {
    let arg = std::env::args().nth(1).unwrap_or_default();
    let Ok(n) = arg.parse::<u32>() else {
        eprintln!("error: expected the largest row N, a whole number, got {arg:?}");
        eprintln!("usage: user_game N");
        std::process::exit(2);
    };
    let solver = Solver::new(&Kayles);
    for pins in 0..=n {
        match solver.nimber(&vec![pins]) {
            Ok(g) => println!("{g}"),
            Err(error) => {
                eprintln!("error: {error}");
                std::process::exit(1);
            }
        }
    }
}
