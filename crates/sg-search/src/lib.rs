//! Solve impartial games you define: nimbers, outcomes and winning moves
//! by a search that splits positions into independent components.
//!
//! Implement [`Game`] (positions and moves; optionally how a position
//! splits into components, its canonical form and the nimbers of small
//! positions), then ask a [`Solver`]. Cram, Node-Kayles and Chomp are
//! built in ([`games`]).
//!
//! ```
//! use sg_search::games::cram::Cram;
//! use sg_search::Solver;
//!
//! let cram = Cram::<u64>::new(4, 5).unwrap();
//! let solver = Solver::new(&cram);
//! assert_eq!(solver.nimber(&cram.start()).unwrap(), 2);
//! ```

pub mod bits;
pub mod checkpoint;
pub mod game;
pub mod games;
pub mod proof;
mod solver;
mod table;

pub use game::{Game, Nimber, Reduced};
pub use solver::{Options, Solver, Stats};
pub use table::Fact;

/// The outcome of a position for the player to move: [`sg_nimber::Outcome`],
/// shared with the graphs' generalized values. The search answers
/// [`Outcome::Win`] or [`Outcome::Lose`], never [`Outcome::Draw`]: the games
/// it solves end (a game whose moves cycle is refused with
/// [`SearchError::Cycle`]).
pub use sg_nimber::Outcome;

/// Why a search failed.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum SearchError {
    /// The game's moves lead back to a position already being examined.
    #[error(
        "the moves of the game form a cycle through the position {}",
        sg_text::escape_bytes(.position.as_bytes(), sg_text::QUOTED_BYTES)
    )]
    Cycle {
        /// The position met twice, as its `Debug` form prints it (a
        /// message shows its first 40 bytes, escaped).
        position: String,
    },
    /// A nimber does not fit in a [`Nimber`].
    #[error("a nimber does not fit in 32 bits")]
    NimberOverflow,
    /// [`Solver::stop`] was called before the search answered (what it
    /// learnt stays in the solver: [`Solver::facts`]).
    #[error("the search was stopped before it answered")]
    Stopped,
}

/// The examples of the crate's README.md, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
