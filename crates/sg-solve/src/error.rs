//! Errors in judge inputs: what is wrong and where (line and column).

use sg_core::CycleError;
use sg_core::knight::KnightError;
use std::fmt::Write;

/// A problem in the input, at a line and column (both 1-based; columns
/// count bytes).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct InputError {
    /// 1-based line.
    pub line: usize,
    /// 1-based byte column.
    pub column: usize,
    /// What is wrong.
    pub kind: InputErrorKind,
}

/// What is wrong with an input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputErrorKind {
    /// The input ended in the middle of a test case.
    #[error("expected {expected}, found the end of the input")]
    UnexpectedEnd {
        /// What was expected.
        expected: &'static str,
    },
    /// A token that is not a non-negative integer.
    #[error("expected {expected}, found `{found}`")]
    NotANumber {
        /// What was expected.
        expected: &'static str,
        /// The offending token (shortened).
        found: String,
    },
    /// A number above the largest accepted value.
    #[error("{expected} must be at most {max}")]
    NumberTooLarge {
        /// What was expected.
        expected: &'static str,
        /// The largest accepted value.
        max: u64,
    },
    /// A number below the smallest accepted value.
    #[error("{expected} must be at least {min}")]
    NumberTooSmall {
        /// What was expected.
        expected: &'static str,
        /// The smallest accepted value.
        min: u64,
    },
    /// A node index that is not below the number of nodes.
    #[error("node {node} is out of range ({})", node_range(*.node_count))]
    NodeOutOfRange {
        /// The index read.
        node: u64,
        /// Number of nodes.
        node_count: usize,
    },
    /// An edge from a node to itself, where the game has none.
    #[error("the edge joins node {node} to itself (a self-loop)")]
    SelfLoop {
        /// The node.
        node: u32,
    },
    /// A row position outside the board.
    #[error("position {position} is outside the row (positions are 1..={width})")]
    PositionOutOfRange {
        /// The position read.
        position: u64,
        /// The width of the board.
        width: u32,
    },
    /// The same position twice in one row.
    #[error("position {position} appears twice in this row")]
    RepeatedPosition {
        /// The repeated position.
        position: u64,
    },
    /// A square too far out to evaluate. (The underlying errors of this
    /// variant and the next are shown in the message, so they are not a
    /// `source()`: a chain of causes prints each once.)
    #[error("{0}")]
    Knight(sg_core::knight::KnightError),
    /// A graph that must be acyclic has a cycle: shown by its length and
    /// the nodes at each end when it is long.
    #[error(
        "the graph of the test case starting here is not acyclic: graph has a cycle{}",
        short_cycle(&.0.nodes)
    )]
    Cycle(CycleError),
    /// Values that break the mex recurrence, so that a winning move cannot
    /// be found (never from `grundy`'s verified tables and certified
    /// descriptions; possible with a caller's own values).
    #[error("the Grundy values are inconsistent: {what}")]
    Inconsistent {
        /// What could not be found.
        what: &'static str,
    },
    /// Data after the last test case.
    #[error("unexpected `{found}` after {after}")]
    Trailing {
        /// The first extra token.
        found: String,
        /// What came before it.
        after: &'static str,
    },
}

impl From<KnightError> for InputErrorKind {
    fn from(e: KnightError) -> Self {
        Self::Knight(e)
    }
}

impl From<CycleError> for InputErrorKind {
    fn from(e: CycleError) -> Self {
        Self::Cycle(e)
    }
}

/// The nodes a node index must be among.
fn node_range(node_count: usize) -> String {
    match node_count {
        0 => "the graph has no nodes".to_owned(),
        n => format!("nodes are 0..={}", n - 1),
    }
}

/// Nodes shown at each end of a long cycle.
const CYCLE_ENDS: usize = 5;

/// `: 1 -> 2 -> 1`, or for a cycle of more than `2 * CYCLE_ENDS` moves
/// `of 1000000 moves: 0 -> 1 -> .. -> 4 -> ... -> 999999 -> 0` (its first
/// and last nodes), so that the message stays one short line.
fn short_cycle(nodes: &[u32]) -> String {
    let moves = nodes.len().saturating_sub(1);
    let join = |nodes: &[u32]| {
        let parts: Vec<String> = nodes.iter().map(u32::to_string).collect();
        parts.join(" -> ")
    };
    if nodes.len() <= 2 * CYCLE_ENDS + 1 {
        return format!(": {}", join(nodes));
    }
    let mut out = String::new();
    let _ = write!(
        out,
        " of {moves} moves: {} -> ... -> {}",
        join(&nodes[..CYCLE_ENDS]),
        join(&nodes[nodes.len() - CYCLE_ENDS..])
    );
    out
}

/// What a message quotes (inputs, arguments, paths) is escaped and cut
/// by `sg-text`, for every crate of the workspace alike.
pub use sg_text::{QUOTED_BYTES, escape_bytes, is_invisible_format, quote};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_cycles_are_shortened() {
        assert_eq!(short_cycle(&[1, 2, 1]), ": 1 -> 2 -> 1");
        let long: Vec<u32> = (0..1_000_000).chain([0]).collect();
        assert_eq!(
            short_cycle(&long),
            " of 1000000 moves: 0 -> 1 -> 2 -> 3 -> 4 -> ... -> 999996 -> 999997 -> 999998 -> 999999 -> 0"
        );
    }
}
