//! The Sprague-Grundy engine of `grundy` and the games it knows, with no I/O.
//!
//! For: computing Grundy values (by definition, by closed form, by
//! certified description), outcomes and winning moves. Not for: reading
//! judge inputs (`sg-solve`), storing or loading precomputed tables
//! (`sg-tables`), heap games (`sg-octal`), or anything that touches files,
//! the environment or the terminal. It has no `unsafe` vector code; its one
//! use of threads is internal: a graph of millions of edges is built and
//! solved on up to two scoped threads, joined before the call returns.
//!
//! - [`mex`]: the minimum excludant of a small set, without allocating per
//!   call (from `sg-nimber`, re-exported with [`Nimber`], [`Outcome`] and
//!   [`sum`]).
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
//! - [`sum`]: sums of independent games: which component to move, and to
//!   which value.
//!
//! The heap games (octal codes, Grundy's game, subtraction sets) and their
//! misère quotients are in `sg-octal`, which builds on this crate.
//!
//! # Example
//!
//! ```
//! use sg_core::graph::grundy_values;
//! use sg_core::knight::{MoveSet, TriangleTable};
//! use sg_core::row::{row_from_columns, row_grundy, row_winning_move};
//! use sg_core::{Graph, Outcome, generalized_grundy};
//!
//! // The row game (HDU 5724): pieces on columns 1 and 19 of a 20-cell row.
//! let row = row_from_columns(20, &[1, 19]).unwrap();
//! assert_eq!(row_grundy(row), 1); // not 0: the player to move wins
//! let win = row_winning_move(row).unwrap();
//! assert_eq!(row_grundy(win.row), 0);
//!
//! // The hyper knight (LightOJ 1315) on (2, 5), by the definition.
//! let mut knight = TriangleTable::new(MoveSet::hyper_knight(), 1000);
//! assert_eq!(knight.value(2, 5).unwrap(), 3);
//!
//! // Tokens on a DAG with the moves 0 -> 1, 1 -> 2, 0 -> 2.
//! let dag = Graph::from_edges(3, &[0, 1, 0], &[1, 2, 2]).unwrap();
//! assert_eq!(grundy_values(&dag).unwrap(), [2, 1, 0]);
//!
//! // A graph with cycles (0 <-> 1, 1 -> 2, 3 -> 3): win, lose or draw.
//! let graph = Graph::from_edges(4, &[0, 1, 1, 3], &[1, 0, 2, 3]).unwrap();
//! let values = generalized_grundy(&graph);
//! assert_eq!(values.outcome(&[0]), Outcome::Lose);
//! assert_eq!(values.outcome(&[1]), Outcome::Win);
//! assert_eq!(values.outcome(&[3]), Outcome::Draw);
//! ```

pub mod graph;
pub mod gsg;
mod hugepages;
pub mod knight;
pub mod knight_pattern;
mod peel;
pub mod row;
pub mod row_halves;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

pub use graph::{CycleError, EdgeCounter, Graph, GraphError, Grundy};
pub use gsg::{GValue, GsgValues, Outcome, generalized_grundy};
pub use sg_nimber::{Mex, Nimber, mex, sum};

/// The examples of the crate's README.md, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
