//! The trait a user implements to have a game solved: its positions, its
//! moves and, optionally, how a position splits into independent
//! components, its canonical form under the game's symmetries and the
//! nimbers of small positions known without search.

use std::fmt::Debug;
use std::hash::Hash;

/// A nimber (Grundy value): [`sg_nimber::Nimber`], the one type every crate
/// of `grundy` answers with. Nimbers are bounded by the number of moves of
/// a position; one that does not fit is reported as
/// [`SearchError::NimberOverflow`](crate::SearchError::NimberOverflow).
pub use sg_nimber::Nimber;

/// A component as the solver sees it (see [`Game::reduce`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reduced<P> {
    /// Its nimber, known without search.
    Known(Nimber),
    /// Its canonical form.
    Canonical(P),
}

/// An impartial game under the normal play convention: both players have
/// the same moves, and the player who cannot move loses.
///
/// Only [`moves`](Game::moves) and [`play`](Game::play) are required. The
/// others have defaults that are always correct and make the search
/// faster when a game overrides them:
///
/// - [`split`](Game::split): the independent components of a position (a
///   disjunctive sum: a move is made in exactly one of them). The solver
///   then works with the components' nimbers, which is what makes large
///   positions tractable.
/// - [`canonical`](Game::canonical): one representative of all the
///   positions that are the same game (mirror images, translations,
///   relabellings), so that they share one entry of the transposition
///   table. It must return a position *isomorphic* to its argument (the
///   same game tree); returning the argument is always correct.
/// - [`known_nimber`](Game::known_nimber): the nimber of a component when
///   it is known without search (a closed form, a table of small
///   positions).
/// - [`size`](Game::size): how large a component is (cells, vertices):
///   the solver computes the nimbers of the smaller components of a sum
///   first and searches the largest one together with a nim heap.
///
/// The moves must not form a cycle (every play of the game ends): the
/// solver reports a cycle it meets as [`SearchError::Cycle`](crate::SearchError::Cycle).
///
/// # Example
///
/// Kayles on a row of pins: a move knocks down one pin or two adjacent
/// pins, which may split the row in two.
///
/// ```
/// use sg_search::{Game, Solver};
///
/// struct Kayles;
///
/// impl Game for Kayles {
///     /// A sorted list of row lengths.
///     type Position = Vec<u32>;
///     /// (row, first pin, pins knocked down).
///     type Move = (usize, u32, u32);
///
///     fn moves(&self, rows: &Vec<u32>, moves: &mut Vec<(usize, u32, u32)>) {
///         for (i, &n) in rows.iter().enumerate() {
///             for take in 1..=2 {
///                 for first in 0..(n + 1).saturating_sub(take) {
///                     moves.push((i, first, take));
///                 }
///             }
///         }
///     }
///
///     fn play(&self, rows: &Vec<u32>, &(i, first, take): &(usize, u32, u32)) -> Vec<u32> {
///         let mut next = rows.clone();
///         let n = next.swap_remove(i);
///         next.extend([first, n - first - take].into_iter().filter(|&r| r > 0));
///         next.sort_unstable();
///         next
///     }
///
///     fn split(&self, rows: &Vec<u32>, components: &mut Vec<Vec<u32>>) {
///         components.extend(rows.iter().map(|&n| vec![n]));
///     }
/// }
///
/// let solver = Solver::new(&Kayles);
/// let nimbers: Vec<u32> = (0..12).map(|n| solver.nimber(&vec![n]).unwrap()).collect();
/// assert_eq!(nimbers, [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
/// ```
pub trait Game: Sync {
    /// A position. Keep it compact (it is the key of the transposition
    /// table, whose memory bound counts `size_of::<Position>()` per entry
    /// and cannot see memory a position owns on the heap). `Default` fills
    /// the table's empty slots; any value will do.
    type Position: Clone + Eq + Hash + Debug + Default + Send + Sync;
    /// A move, as a player would name it (returned by
    /// [`Solver::winning_move`](crate::Solver::winning_move)).
    type Move: Clone + Eq + Hash + Debug + Send + Sync;

    /// Appends the moves of `position` to `moves`.
    fn moves(&self, position: &Self::Position, moves: &mut Vec<Self::Move>);

    /// The position after `mv`, one of the moves of `position`.
    fn play(&self, position: &Self::Position, mv: &Self::Move) -> Self::Position;

    /// Appends the independent components of `position` to `components`:
    /// positions whose disjunctive sum is `position`. Components without
    /// a move may be left out. The default: the position itself.
    fn split(&self, position: &Self::Position, components: &mut Vec<Self::Position>) {
        components.push(position.clone());
    }

    /// A canonical representative of `component`: the same for all
    /// positions that are the same game under the game's symmetries, and
    /// isomorphic to `component`. The default: `component` itself.
    fn canonical(&self, component: &Self::Position) -> Self::Position {
        component.clone()
    }

    /// The nimber of `component` when it is known without search (e.g. a
    /// position with at most one move). The default: unknown.
    fn known_nimber(&self, _component: &Self::Position) -> Option<Nimber> {
        None
    }

    /// What the solver asks of each component of a position: its nimber
    /// when [`known_nimber`](Game::known_nimber) knows it, else its
    /// [`canonical`](Game::canonical) form. A game whose two share work
    /// (both look at the shape) may answer both at once; the answer must
    /// be the same.
    fn reduce(&self, component: &Self::Position) -> Reduced<Self::Position> {
        match self.known_nimber(component) {
            Some(n) => Reduced::Known(n),
            None => Reduced::Canonical(self.canonical(component)),
        }
    }

    /// A key of the class of `component` (a canonical form whose nimber
    /// the game does not know), where classes are wider than canonical
    /// forms: components of one key must have the same nimber (the same
    /// game up to isomorphism, or a game proven equal). The solver keeps
    /// what it learns of each key in a table of its own, and looks there
    /// before it searches a component, so that the search of one member
    /// of a class answers for all. It asks only about the components it
    /// would otherwise search, so a key may cost more than a canonical
    /// form. The default: none (only canonical forms are shared).
    fn class_key(&self, _component: &Self::Position) -> Option<u128> {
        None
    }

    /// How large `component` is (cells, vertices, tokens): smaller
    /// components are solved first. The default: 0 for all.
    fn size(&self, _component: &Self::Position) -> u64 {
        0
    }
}
