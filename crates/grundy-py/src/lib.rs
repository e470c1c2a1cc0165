//! The Python module `grundy._grundy`, re-exported by the package
//! `grundy` (`python/grundy/__init__.py`): a thin layer over the library
//! crates (`sg-core`, `sg-search`, `sg-tables`, and `sg-solve`'s library,
//! where the command's parsers and messages live), never over the
//! `grundy` command.
//!
//! One module per subject: `octal` (take-and-break games), `misere`
//! (their misère quotients), `knight` and
//! `row` (the two-dimensional games), `graph` (graphs with cycles),
//! `searched` (Cram, Node-Kayles, Chomp, certificates), `python_game`
//! (games defined in Python), `heatmap` (pictures); and what they share:
//! `args` (the arguments' rules), `edges` (graphs' edges), `errors` (the
//! exceptions), `run` and `progress` (long computations: the interpreter
//! released, Ctrl-C, progress reports), `stoppable` (built-in games a stop
//! interrupts).

mod args;
mod edges;
mod errors;
mod graph;
mod heatmap;
mod knight;
mod misere;
mod octal;
mod progress;
mod python_game;
mod row;
mod run;
mod searched;
mod stoppable;

use pyo3::prelude::*;

/// The Rust core of the Python package `grundy`.
#[pymodule(gil_used = true)]
mod _grundy {
    use pyo3::prelude::*;

    #[pymodule_export]
    use super::errors::{CycleError, ProofError};
    #[pymodule_export]
    use super::graph::{GraphGame, Loopy, NodeValues, TokenMove, graph};
    #[pymodule_export]
    use super::heatmap::{Heatmap, heatmap};
    #[pymodule_export]
    use super::knight::{knight, knight_grid};
    #[pymodule_export]
    use super::misere::{MisereQuotient, misere};
    #[pymodule_export]
    use super::octal::{HeapMove, OctalGame, octal, subtraction};
    #[pymodule_export]
    use super::python_game::{nimber, outcome, winning_move};
    #[pymodule_export]
    use super::row::{row, row_grid};
    #[pymodule_export]
    use super::searched::{CheckedProof, SearchResult, check_proof, chomp, cram, node_kayles};

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        // The interpreter handles SIGINT (KeyboardInterrupt): the files the
        // module writes never install a handler of their own.
        sg_files::signals::leave_signals_to_host();
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        Ok(())
    }
}
