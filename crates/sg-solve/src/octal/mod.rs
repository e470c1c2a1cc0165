//! What every front end of the octal engine shares beyond the engine
//! itself (`grundy octal` and `grundy sweep`, and the Python module): the
//! game as the command line names it ([`args`]), the answers beyond the
//! values ([`answers`]), and the one-screen summary of a run
//! ([`summary`]).

pub mod answers;
pub mod args;
pub mod summary;
