//! The table generators (feature `generate`): the payloads of the row and
//! knight tables, computed from the games' definitions in `sg-core`, in
//! parallel on the current rayon pool.
//!
//! - [`row_table`]: the Grundy value of every row of `width` cells, by
//!   layers of rows that never lead to one another, cut into tiles run as
//!   a wavefront (see [`row`]).
//! - [`knight_table`]: the Grundy value of every square of `N x N`, by tiles
//!   of a wavefront run as a dataflow (see [`knight`]).
//!
//! - [`octal_catalogue`]: every octal game `0.d1d2d3` and `4.d1d2d3`, the
//!   games in parallel (see [`octal`]).
//! - [`cram_endgame`]: the nimber of every Cram component (polyomino) of
//!   at most `K` cells, the enumeration and each size in parallel (see
//!   [`cram`]).
//!
//! All give the same bytes whatever the number of threads: every value is
//! the mex of values computed before it, never a race. They report their
//! progress through a [`Progress`] (`&NoProgress` for none), so that the
//! library needs no progress bar crate; `cargo xtask gen` draws one.
//! Run them inside `pool.install(...)` to choose the threads.

mod cells;
pub mod cram;
pub mod knight;
pub mod octal;
pub mod row;
mod wavefront;

pub use cram::cram_endgame;
pub use knight::knight_table;
pub use octal::octal_catalogue;
pub use row::row_table;

/// Where a generator reports its progress, from any of its threads.
pub trait Progress: Sync {
    /// The generation starts and will take `steps` steps in all.
    fn start(&self, steps: u64) {
        let _ = steps;
    }

    /// `steps` more steps are done.
    fn advance(&self, steps: u64) {
        let _ = steps;
    }
}

/// No progress report.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoProgress;

impl Progress for NoProgress {}

/// Why a generator refused its parameters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// The side of the knight table is 0 or above [`knight::MAX_SIZE`].
    #[error("knight size {size} is not in 1..={max}")]
    KnightSize {
        /// The side asked for.
        size: u64,
        /// The largest side supported.
        max: u64,
    },
    /// A step that raises `2x + y` or `x + 2y`: the region the generator
    /// computes would not be closed under moves.
    #[error("step ({dx}, {dy}) raises 2x + y or x + 2y: the generator does not support it")]
    UnsupportedStep {
        /// Step along x.
        dx: i32,
        /// Step along y.
        dy: i32,
    },
}
