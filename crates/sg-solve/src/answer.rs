//! The answers of the solvers as JSON (`--json`): one JSON object per
//! answer, one per line, in shapes shared by the subcommands.
//!
//! - a query on tokens (`hdu1524`, `graph`):
//!   `{"outcome":"WIN","value":3,"move":{"token":0,"from":1,"to":2}}`,
//!   `value` the XOR of the tokens' Grundy values (`hdu1524` only: on a
//!   graph with cycles a value may be infinite);
//! - a test case (`uva11927`, `hdu5724`, `lightoj1315`):
//!   `{"case":1,"answer":"YES","value":1,"move":{...}}`, `answer` the
//!   judge's word and `value` the XOR of the case's Grundy values (0 when
//!   the player to move loses).
//!
//! `"move"` is there only when a hint was asked for and the position is won.

use serde::Serialize;
use std::fmt;
use std::io::Write;

/// Writes `value` as one line of JSON, its strings safe to show on a
/// terminal (see [`TerminalSafe`]).
pub fn write_json_line(out: &mut Vec<u8>, value: &impl Serialize) {
    let mut serializer = serde_json::Serializer::with_formatter(&mut *out, TerminalSafe);
    value
        .serialize(&mut serializer)
        .expect("writing JSON to a Vec cannot fail");
    out.push(b'\n');
}

/// serde_json's compact format, with more escaped in strings than JSON
/// requires (it requires only `"`, `\\` and the controls below U+0020):
/// DEL, the C1 controls (U+0080 to U+009F, e.g. `\u009b`, a terminal's
/// one-byte escape), the line and paragraph separators and the
/// bidirectional and zero-width marks (`\u202e`), as `\uXXXX`. The
/// strings mean the same to a JSON reader; a terminal shows them as text.
pub struct TerminalSafe;

impl serde_json::ser::Formatter for TerminalSafe {
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut start = 0;
        for (at, c) in fragment.char_indices() {
            let escaped = matches!(c, '\u{7f}'..='\u{9f}' | '\u{2028}' | '\u{2029}')
                || crate::error::is_invisible_format(c);
            if escaped {
                writer.write_all(&fragment.as_bytes()[start..at])?;
                // All of them are below U+10000: one \uXXXX each.
                write!(writer, "\\u{:04x}", u32::from(c))?;
                start = at + c.len_utf8();
            }
        }
        writer.write_all(&fragment.as_bytes()[start..])
    }
}

/// The answer to one query on tokens.
#[derive(Debug, Serialize)]
pub struct QueryAnswer {
    /// `WIN`, `LOSE` or `DRAW`, for the player to move.
    pub outcome: &'static str,
    /// The XOR of the tokens' Grundy values (`hdu1524`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<u32>,
    /// A winning move, if asked for and the position is won.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub hint: Option<TokenMove>,
}

/// A move of one token along one edge.
#[derive(Debug, Serialize)]
pub struct TokenMove {
    /// Index (0-based) of the moved token in the query.
    pub token: usize,
    /// The node or position it leaves.
    pub from: u32,
    /// The node or position it moves to.
    pub to: u32,
}

/// The answer to one test case; `M` is the shape of its winning move.
#[derive(Debug, Serialize)]
pub struct CaseAnswer<M> {
    /// The test case, from 1.
    pub case: u64,
    /// The judge's word (`First`, `YES`, `Alice`, ...).
    pub answer: &'static str,
    /// The XOR of the Grundy values of the case's components.
    pub value: u32,
    /// A winning move, if asked for and the position is won.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub hint: Option<M>,
}

impl<M: Serialize + fmt::Display> CaseAnswer<M> {
    /// Writes the answer: with `json`, one JSON line; otherwise the judge's
    /// line, `Case k: ` first if `numbered`, then the word and the move.
    pub fn write(&self, out: &mut Vec<u8>, json: bool, numbered: bool) {
        if json {
            return write_json_line(out, self);
        }
        if numbered {
            write!(out, "Case {}: ", self.case).expect("writing to a Vec cannot fail");
        }
        out.extend_from_slice(self.answer.as_bytes());
        if let Some(hint) = &self.hint {
            write!(out, " {hint}").expect("writing to a Vec cannot fail");
        }
        out.push(b'\n');
    }
}

/// HDU 5724: move the piece of row `row` (from 1) from column `from` to `to`.
#[derive(Debug, Serialize)]
pub struct RowMove {
    /// The row, from 1 within the case.
    pub row: usize,
    /// The piece's column before the move (from 1, left to right).
    pub from: u32,
    /// Its column after the move.
    pub to: u32,
}

/// LightOJ 1315: move knight `knight` (from 1) to `(x, y)`.
#[derive(Debug, Serialize)]
pub struct KnightMove {
    /// The knight, from 1 within the case.
    pub knight: usize,
    /// Its new x.
    pub x: u64,
    /// Its new y.
    pub y: u64,
}

impl fmt::Display for RowMove {
    /// As the judge's hint: `ROW FROM TO`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.row, self.from, self.to)
    }
}

impl fmt::Display for KnightMove {
    /// As the judge's hint: `K X Y`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.knight, self.x, self.y)
    }
}

/// The shape of a test case that has no move (`uva11927`).
#[derive(Debug, Serialize)]
pub enum NoMove {}

impl fmt::Display for NoMove {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {}
    }
}
