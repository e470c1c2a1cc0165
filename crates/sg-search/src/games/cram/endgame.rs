//! Endgame databases for Cram: the nimbers of every component of at most
//! a few cells, computed in advance, which a [`Cram`](super::Cram) board
//! consults in [`known_nimber`](crate::Game::known_nimber) (see
//! [`Cram::with_endgame`](super::Cram::with_endgame)).
//!
//! This crate defines only the interface: the database of the workspace,
//! the nimbers of every polyomino of at most `K` cells computed from the
//! rules, lives in a table file of `sg-tables` (which implements
//! [`CramEndgame`] for it), so that the solver does not depend on the
//! table format.
//!
//! A database says when it does not hold a key (`None`). A board asks it
//! only about components it must hold (connected, at most
//! [`max_cells`](CramEndgame::max_cells) cells, in canonical form), so a
//! miss means that the database and the board disagree: the database was
//! built with another canonical form, or is not the one it claims to be.
//! The board then searches that component, and consults the database no
//! more (each of its other answers could be another shape's, with the
//! probability the database states for a key it does not hold); it counts
//! the misses ([`Cram::endgame_misses`](super::Cram::endgame_misses)), so
//! that a caller can warn. A database that holds what it claims costs one
//! relaxed atomic load a lookup for this.

use std::fmt::Debug;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::Shape;
use crate::bits::Bits;
use crate::game::Nimber;

/// Nimbers of Cram components known in advance: every connected set of at
/// most [`max_cells`](CramEndgame::max_cells) cells, keyed by its
/// canonical form.
pub trait CramEndgame: Send + Sync + Debug {
    /// Every connected set of cells of at most this many cells is in the
    /// database.
    fn max_cells(&self) -> u32;

    /// The nimber of the connected set of cells whose canonical form in
    /// lanes of 8 bits is `canonical`, a set of at most
    /// [`max_cells`](CramEndgame::max_cells) cells: bit `8 * row + column`
    /// of a `u128`, the form [`Game::canonical`](crate::Game::canonical)
    /// gives on a board of lanes of 8 bits, such as `Cram::<u128>::new(16,
    /// 8)` (a board of lanes of 16 bits translates its forms).
    ///
    /// `None` when the database does not hold the key: a database must
    /// not answer a key it does not hold with another key's nimber, except
    /// with a small probability it states (a database of fingerprints). A
    /// board treats a `None` about a component the database should hold
    /// as a sign that the two disagree (see the module documentation).
    fn nimber(&self, canonical: u128) -> Option<Nimber>;
}

impl<T: CramEndgame + ?Sized> CramEndgame for &T {
    fn max_cells(&self) -> u32 {
        (**self).max_cells()
    }

    fn nimber(&self, canonical: u128) -> Option<Nimber> {
        (**self).nimber(canonical)
    }
}

/// A database as a board holds it: its size limit read once, and the
/// components it did not hold, counted (shared by the board's clones).
#[derive(Clone, Debug)]
pub(super) struct Endgame {
    max_cells: u32,
    table: Arc<dyn CramEndgame>,
    misses: Arc<AtomicU64>,
}

impl Endgame {
    pub(super) fn new(table: Arc<dyn CramEndgame>) -> Self {
        Endgame {
            max_cells: table.max_cells(),
            table,
            misses: Arc::default(),
        }
    }

    /// The components of at most `max_cells` cells the database did not
    /// hold.
    pub(super) fn misses(&self) -> u64 {
        self.misses.load(Ordering::Relaxed)
    }

    #[cold]
    #[inline(never)]
    fn missed(&self) {
        self.misses.fetch_add(1, Ordering::Relaxed);
    }

    pub(super) fn table(&self) -> &Arc<dyn CramEndgame> {
        &self.table
    }

    /// Whether the database holds the sets of as many cells as `cells`.
    #[inline]
    pub(super) fn covers<B: Bits>(&self, cells: B) -> bool {
        cells.count_ones() <= self.max_cells
    }

    /// The nimber of the connected set of cells whose canonical form on a
    /// board of lanes of `stride` bits is `canonical`, one the database
    /// [`covers`](Self::covers); `None` when the database does not hold it
    /// (counted), or has missed a component before.
    #[inline]
    pub(super) fn nimber<B: Bits>(&self, canonical: B, stride: u32) -> Option<Nimber> {
        if self.misses.load(Ordering::Relaxed) != 0 {
            return None;
        }
        let found = self.table.nimber(key(canonical, stride));
        if found.is_none() {
            self.missed();
        }
        found
    }
}

/// The database's key of a canonical form on a board of lanes of `stride`
/// bits: the canonical form in lanes of 8 bits. With lanes of 8 bits it is
/// the same; with lanes of 16 (at most 8 of them), the shape is moved to
/// lanes of 8 bits, transposed if it is wider than 8, and its canonical
/// form taken there.
#[inline]
fn key<B: Bits>(canonical: B, stride: u32) -> u128 {
    if stride == 8 {
        return canonical.to_u128();
    }
    debug_assert_eq!(stride, 16);
    let (mut rows, mut columns, mut wide) = (0u128, 0u128, false);
    let mut rest = canonical;
    while rest != B::ZERO {
        let bit = rest.trailing_zeros();
        rest = rest.without_lowest();
        let (row, column) = (bit >> 4, bit & 15);
        wide |= column >= 8;
        rows |= 1 << (8 * row + column);
        columns |= 1 << (8 * column + row);
    }
    let shape = Shape::new(if wide { columns } else { rows }, 8);
    shape.canonical(shape.turned())
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::Game;
    use crate::games::cram::Cram;

    /// A database of sets of at most `max` cells that answers 7 and keeps
    /// what it was asked.
    #[derive(Debug)]
    struct Recording {
        max: u32,
        asked: Mutex<Vec<u128>>,
    }

    impl CramEndgame for Recording {
        fn max_cells(&self) -> u32 {
            self.max
        }

        fn nimber(&self, canonical: u128) -> Option<Nimber> {
            self.asked.lock().unwrap().push(canonical);
            Some(7)
        }
    }

    /// What `cram`'s `known_nimber` answers of the set `cells`, and the
    /// keys it asked `table`.
    fn ask<B: Bits>(
        cram: &Cram<B>,
        table: &Recording,
        cells: &[(u32, u32)],
    ) -> (Option<Nimber>, Vec<u128>) {
        table.asked.lock().unwrap().clear();
        let answer = cram.known_nimber(&cram.position(cells));
        (answer, table.asked.lock().unwrap().clone())
    }

    #[test]
    fn the_board_asks_about_small_connected_sets_by_canonical_form() {
        let table = Arc::new(Recording {
            max: 5,
            asked: Mutex::default(),
        });
        let cram = Cram::<u64>::new(8, 8).unwrap().with_endgame(table.clone());
        assert!(cram.endgame().is_some());
        // An L tetromino away from the corner: asked, by its canonical form.
        let l = [(3, 4), (4, 4), (5, 4), (5, 5)];
        let canonical = u128::from(cram.canonical(&cram.position(&l)).0);
        assert_eq!(ask(&cram, &table, &l), (Some(7), vec![canonical]));
        // Bits 7 and 8 are not neighbours: three cells at the end of row 0
        // and two at the start of row 1 (bits 5 to 9) are two sets.
        let apart = [(0, 5), (0, 6), (0, 7), (1, 0), (1, 1)];
        assert_eq!(ask(&cram, &table, &apart), (None, vec![]));
        // The rules that cost less come first: three cells, and a 2 x 2
        // square (a loss by symmetry).
        assert_eq!(
            ask(&cram, &table, &[(0, 0), (0, 1), (0, 2)]),
            (Some(1), vec![])
        );
        let square = [(0, 0), (0, 1), (1, 0), (1, 1)];
        assert_eq!(ask(&cram, &table, &square), (Some(0), vec![]));
        // Six cells: more than the database holds.
        let six = [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (1, 4)];
        assert_eq!(ask(&cram, &table, &six), (None, vec![]));
    }

    /// On a board of lanes of 16 bits, the key is still the canonical form
    /// in lanes of 8 bits: that of the same shape on a board of 16 x 8.
    #[test]
    fn long_boards_ask_in_lanes_of_8_bits() {
        let table = Arc::new(Recording {
            max: 14,
            asked: Mutex::default(),
        });
        let long = Cram::<u64>::new(4, 11).unwrap().with_endgame(table.clone());
        let tall = Cram::<u128>::new(16, 8).unwrap();
        let key = |cells: &[(u32, u32)]| tall.canonical(&tall.position(cells)).0;
        // An L tetromino, and a line of 9 cells (wider than 8: the key is
        // the line standing).
        let l = [(1, 9), (2, 9), (3, 9), (3, 10)];
        let same_l = [(0, 0), (1, 0), (2, 0), (2, 1)];
        assert_eq!(ask(&long, &table, &l), (Some(7), vec![key(&same_l)]));
        let line: Vec<(u32, u32)> = (1..10).map(|c| (2, c)).collect();
        let standing: Vec<(u32, u32)> = (0..9).map(|r| (r, 0)).collect();
        assert_eq!(ask(&long, &table, &line), (Some(7), vec![key(&standing)]));
        // A set in rows 0 and 1 that is two sets: (0, 10) and (1, 0) are
        // not neighbours.
        let apart = [(0, 8), (0, 9), (0, 10), (1, 0), (1, 1)];
        assert_eq!(ask(&long, &table, &apart), (None, vec![]));
    }

    /// A database of the right nimbers (searched on a board of 16 x 8,
    /// whose canonical forms are the keys) that does not hold the sets of
    /// `missing` cells, and counts what it was asked.
    #[derive(Debug)]
    struct Partial {
        missing: u32,
        board: Cram<u128>,
        asked: Mutex<u64>,
    }

    impl CramEndgame for Partial {
        fn max_cells(&self) -> u32 {
            8
        }

        fn nimber(&self, canonical: u128) -> Option<Nimber> {
            *self.asked.lock().unwrap() += 1;
            (canonical.count_ones() != self.missing).then(|| {
                crate::Solver::new(&self.board)
                    .nimber(&super::super::Cells(canonical))
                    .unwrap()
            })
        }
    }

    /// A database that misses a component: the board searches it, and
    /// asks the database nothing more; the answers are those of the
    /// search alone, and the miss is counted.
    #[test]
    fn a_component_not_held_is_searched_and_the_database_dropped() {
        let options = crate::Options {
            memory: 16 << 20,
            threads: 1,
        };
        let mut missed = 0;
        for (rows, cols) in [(3, 4), (4, 4), (3, 6), (2, 10), (4, 5), (3, 7)] {
            let plain = Cram::<u64>::new(rows, cols).unwrap();
            let expected = crate::Solver::with_options(&plain, options)
                .nimber(&plain.start())
                .unwrap();
            for missing in [5, 6, 9] {
                let table = Arc::new(Partial {
                    missing,
                    board: Cram::<u128>::new(16, 8).unwrap(),
                    asked: Mutex::default(),
                });
                let cram = plain.clone().with_endgame(table.clone());
                let solver = crate::Solver::with_options(&cram, options);
                assert_eq!(solver.nimber(&cram.start()).unwrap(), expected);
                let (asked, misses) = (*table.asked.lock().unwrap(), cram.endgame_misses());
                // Sets of 9 cells are beyond the database: never a miss.
                if missing > 8 {
                    assert_eq!(misses, 0, "{rows}x{cols}");
                } else {
                    // At most one miss on one thread: the first ends the
                    // lookups.
                    assert!(misses <= 1, "{rows}x{cols}, {missing}: {misses}");
                    missed += misses;
                    if misses == 1 {
                        let again = *table.asked.lock().unwrap();
                        assert_eq!(asked, again);
                    }
                }
            }
        }
        assert!(missed >= 4, "{missed}");
        assert_eq!(Cram::<u64>::new(4, 4).unwrap().endgame_misses(), 0);
    }

    /// A database that holds nothing: one miss, then the search alone.
    #[test]
    fn a_database_of_another_canonical_form_is_dropped_at_its_first_miss() {
        #[derive(Debug)]
        struct Nothing(Mutex<u64>);
        impl CramEndgame for Nothing {
            fn max_cells(&self) -> u32 {
                14
            }
            fn nimber(&self, _: u128) -> Option<Nimber> {
                *self.0.lock().unwrap() += 1;
                None
            }
        }
        let nothing = Arc::new(Nothing(Mutex::default()));
        let plain = Cram::<u64>::new(4, 5).unwrap();
        let expected = crate::Solver::new(&plain).nimber(&plain.start()).unwrap();
        let cram = plain.clone().with_endgame(nothing.clone());
        let solver = crate::Solver::with_options(
            &cram,
            crate::Options {
                memory: 16 << 20,
                threads: 1,
            },
        );
        assert_eq!(solver.nimber(&cram.start()).unwrap(), expected);
        assert_eq!((cram.endgame_misses(), *nothing.0.lock().unwrap()), (1, 1));
        // The clones share the count; a new database starts a new one.
        assert_eq!(cram.clone().endgame_misses(), 1);
        let fresh = Arc::new(Nothing(Mutex::default()));
        assert_eq!(plain.with_endgame(fresh).endgame_misses(), 0);
    }
}
