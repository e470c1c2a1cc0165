//! The integration tests of `sg-search`, one test binary with a module per
//! subject (one link instead of one per file).

mod checkpoints;
mod games;
mod limits;
mod many_moves;
mod misere;
mod readme;
