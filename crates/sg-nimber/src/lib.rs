//! The vocabulary every crate of `grundy` shares: what a value of an
//! impartial game is ([`Nimber`]), how it is computed from the values of
//! the options ([`mex`]), who wins ([`Outcome`]), and which component of a
//! sum to move ([`sum`]).
//!
//! For: the types and the few functions the engines (`sg-core`'s graphs,
//! rows and knights, `sg-octal`'s heap games, `sg-search`'s searched games)
//! all speak. Not for: any game or engine. It is a crate of its own, with
//! no dependency, so that those engines depend on it and not on one
//! another: an edit to the knights in `sg-core` does not rebuild the octal
//! engine.
//!
//! ```
//! use sg_nimber::{Mex, Outcome, sum::component_to_move};
//!
//! // A position whose options have the values 0, 1 and 3 has value 2.
//! assert_eq!(Mex::new().mex(3, [0, 1, 3]), 2);
//! // Nim with heaps 3, 4 and 5: move in the first heap, to 1.
//! assert_eq!(component_to_move([3u32, 4, 5], 3 ^ 4 ^ 5), Some((0, 1)));
//! assert_ne!(Outcome::Win, Outcome::Lose);
//! ```

pub mod mex;
pub mod sum;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

pub use mex::{Mex, Nimber};

/// The result of a position for the player to move, with perfect play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The player to move can force a win.
    Win,
    /// The player to move loses whatever they do.
    Lose,
    /// Neither player can force a win: play can go on forever (only in
    /// games whose moves can cycle: `sg-core`'s generalized values).
    Draw,
}

/// The examples of the crate's README.md, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
