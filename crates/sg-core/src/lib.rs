//! The Sprague-Grundy engine of `grundy` and the games it knows, with no I/O.
//!
//! For: computing Grundy values (by definition, by closed form, by
//! certified description), outcomes and winning moves. Not for: reading
//! judge inputs (`sg-solve`), storing or loading precomputed tables
//! (`sg-tables`), or anything that touches files, threads or the terminal.
//!
//! - [`mex`]: the minimum excludant of a small set, without allocating per call.
//! - [`graph`]: explicit game graphs in compressed sparse row form and their
//!   Grundy values, computed iteratively and on demand.
//! - [`gsg`]: generalized Sprague-Grundy values of graphs with cycles
//!   (finite or `inf(K)`), outcomes of sums of tokens and winning moves
//!   that end the game.
//! - [`row`]: the row game of HDU 5724 ("a piece jumps right over a block"),
//!   by its definition and by its closed form (staircase Nim).
//! - [`row_halves`]: row values of up to 20 cells from two small tables
//!   built at compile time.
//! - [`knight`]: the hyper knight of LightOJ 1315 (and any move set that
//!   lowers `x + y`), by its definition.
//! - [`knight_pattern`]: certified finite descriptions of knight values on
//!   the unbounded board, found by search and answered in O(1).
//! - [`octal`]: octal and hexadecimal take-and-break games, Grundy's game
//!   and subtraction games: Grundy sequences by the sparse-space method and
//!   certified periods.
//! - [`sum`]: sums of independent games: which component to move, and to
//!   which value.

pub mod graph;
pub mod gsg;
mod hugepages;
pub mod knight;
pub mod knight_pattern;
pub mod mex;
pub mod octal;
mod peel;
pub mod row;
pub mod row_halves;
pub mod sum;

pub use graph::{CycleError, EdgeCounter, Graph, GraphError, Grundy};
pub use gsg::{GValue, GsgValues, Outcome, generalized_grundy};
pub use mex::Mex;
