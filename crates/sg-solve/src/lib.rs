//! Judge-format parsers and solvers behind the `grundy` command.
//!
//! For: turning a judge's input bytes into its exact output, with clear
//! errors, using values from `sg-core` and tables from `sg-tables` (through
//! [`values`]). Not for: game theory itself (`sg-core`), table files'
//! format (`sg-tables`), or the command line, whose subcommands live in the
//! binary (`src/main.rs` and `src/cmd/`).
//!
//! Each solver reads a whole input buffer with [`scan::Scanner`] (no
//! allocation per token), appends its answers to one output buffer, and on
//! bad input returns an [`error::InputError`] with the line and column,
//! leaving the answers of the complete test cases before it in the buffer.

pub mod answer;
pub mod boards;
pub mod error;
pub mod graph;
pub mod hdu1524;
pub mod hdu5724;
pub mod heatmap;
pub mod knight_moves;
pub mod knight_source;
pub mod lightoj1315;
pub mod machine;
pub mod numbers;
pub mod octal;
pub mod row_args;
pub mod scan;
pub mod tables;
pub mod uva11927;
pub mod values;

pub use error::{InputError, InputErrorKind};
