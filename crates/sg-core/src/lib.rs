//! The Sprague-Grundy engine of `grundy` and the games it knows, with no I/O.
//!
//! - [`mex`]: the minimum excludant of a small set, without allocating per call.
//! - [`graph`]: explicit game graphs in compressed sparse row form and their
//!   Grundy values, computed iteratively and on demand.
//! - [`row`]: the row game of HDU 5724 ("a piece jumps right over a block"),
//!   by its definition and by its closed form (staircase Nim).
//! - [`knight`]: the hyper knight of LightOJ 1315 (and any move set that
//!   lowers `x + y`), by its definition.

pub mod graph;
pub mod knight;
pub mod mex;
pub mod row;

pub use graph::{CycleError, Graph, GraphError, Grundy};
pub use mex::Mex;
