//! Errors in judge inputs: what is wrong and where (line and column).

use sg_core::CycleError;

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
    #[error("node {node} is out of range (nodes are 0..={})", .node_count.saturating_sub(1))]
    NodeOutOfRange {
        /// The index read.
        node: u64,
        /// Number of nodes.
        node_count: usize,
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
    /// A square too far out to evaluate.
    #[error("{0}")]
    Knight(#[from] sg_core::knight::KnightError),
    /// A graph that must be acyclic has a cycle.
    #[error("the graph of the test case starting here is not acyclic: {0}")]
    Cycle(#[from] CycleError),
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
