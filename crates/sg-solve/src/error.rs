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

/// `bytes` of the input made safe to print in an error: printable text is
/// kept; control characters, bidirectional-text controls and bytes that
/// are not UTF-8 are escaped (`\\x1b`, `\\u{202e}`), as is `\\` itself; and
/// after `max` bytes of input the rest is cut and `...` appended. An input
/// can thus never send terminal escape sequences through an error message.
pub fn escape_bytes(bytes: &[u8], max: usize) -> String {
    let mut out = String::new();
    let mut shown = 0;
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if shown >= max {
                out.push_str("...");
                return out;
            }
            shown += c.len_utf8();
            if c == '\\' {
                out.push_str("\\\\");
            } else {
                push_escaped(&mut out, c);
            }
        }
        for &b in chunk.invalid() {
            if shown >= max {
                out.push_str("...");
                return out;
            }
            shown += 1;
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out
}

/// `text` with its control and invisible format characters escaped as in
/// [`escape_bytes`] (but line breaks kept, and `\\` and the length left as
/// they are): for whole messages that may quote a file name or a table's
/// metadata, and for text already escaped, which it leaves unchanged.
pub fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\n' {
            out.push(c);
        } else {
            push_escaped(&mut out, c);
        }
    }
    out
}

/// The most bytes of an input or an argument quoted in a message.
pub const QUOTED_BYTES: usize = 40;

/// `text` from the command line, quoted for a message: `"..."`, escaped
/// as [`escape_bytes`] does and cut after [`QUOTED_BYTES`] bytes.
pub fn quote(text: &str) -> String {
    format!("\"{}\"", escape_bytes(text.as_bytes(), QUOTED_BYTES))
}

/// A path for a message, escaped as [`escape_bytes`] does (any length).
pub fn escape_path(path: &std::path::Path) -> String {
    escape_bytes(path.as_os_str().as_encoded_bytes(), usize::MAX)
}

/// Pushes `c`, or its escape if a terminal would act on it.
fn push_escaped(out: &mut String, c: char) {
    if c.is_ascii_control() {
        let _ = write!(out, "\\x{:02x}", c as u32);
    } else if c.is_control() || is_invisible_format(c) {
        let _ = write!(out, "\\u{{{:x}}}", c as u32);
    } else {
        out.push(c);
    }
}

/// Format characters that change how text around them is shown (zero-width
/// characters and bidirectional controls, as in "Trojan Source").
pub(crate) fn is_invisible_format(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{feff}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_a_terminal_would_act_on() {
        assert_eq!(escape_bytes(b"3\0\x1b[31m", 40), "3\\x00\\x1b[31m");
        assert_eq!(
            escape_bytes("a\u{202e}b\u{85}".as_bytes(), 40),
            "a\\u{202e}b\\u{85}"
        );
        assert_eq!(escape_bytes(b"\xff\xfe ok \\", 40), "\\xff\\xfe ok \\\\");
        assert_eq!(escape_bytes("é√x".as_bytes(), 40), "é√x");
        assert_eq!(
            escape_bytes(&[b'7'; 100], 40),
            format!("{}...", "7".repeat(40))
        );
        // Cut at a character boundary, never inside one.
        assert_eq!(escape_bytes("ééé".as_bytes(), 3), "éé...");
        assert_eq!(escape_bytes(b"", 40), "");
        assert_eq!(escape_text("a\x1b[2J \\x1b ok\n"), "a\\x1b[2J \\x1b ok\n");
    }

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
