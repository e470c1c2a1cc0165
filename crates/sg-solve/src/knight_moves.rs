//! A knight's move set as the command line writes it (`grundy knight
//! --moves "-2,-1 -1,-2"`): steps `dx,dy` separated by white space, with
//! white space allowed around each comma (`"-2, -1  -1 ,-2"`).

use crate::error::quote;
use sg_core::knight::{KnightError, MoveSet};

/// Why a move set's text is refused: what, where, and the offending text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MovesError {
    /// Something other than what the grammar expects at `column`.
    #[error("column {column}: expected {expected}, found {found}")]
    Syntax {
        /// 1-based character position in the text.
        column: usize,
        /// What was expected there.
        expected: &'static str,
        /// The offending text, quoted (or `the end`).
        found: String,
    },
    /// A step that does not fit in 32 bits.
    #[error("column {column}: {} is out of range for a step", quote(.found))]
    OutOfRange {
        /// 1-based character position in the text.
        column: usize,
        /// The number as written.
        found: String,
    },
    /// No step at all.
    #[error("no step: expected dx,dy pairs such as \"-2,-1 -1,-2\"")]
    Empty,
    /// The steps do not make a valid move set.
    #[error(transparent)]
    MoveSet(#[from] KnightError),
}

/// A cursor over the text, keeping the character position for errors.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn column(&self) -> usize {
        self.text[..self.at].chars().count() + 1
    }

    fn skip_space(&mut self) {
        let rest = self.rest();
        self.at += rest.len() - rest.trim_start().len();
    }

    /// The offending text here: up to the next white space or comma.
    fn found(&self) -> String {
        let word: &str = self
            .rest()
            .split(|c: char| c.is_whitespace() || c == ',')
            .next()
            .unwrap_or("");
        match (word.is_empty(), self.rest().chars().next()) {
            (false, _) => quote(word),
            (true, Some(c)) => quote(&c.to_string()),
            (true, None) => "the end".to_owned(),
        }
    }

    fn error(&self, expected: &'static str) -> MovesError {
        MovesError::Syntax {
            column: self.column(),
            expected,
            found: self.found(),
        }
    }

    /// Decimal digits with an optional `-` (no `+`, as in judge inputs).
    fn integer(&mut self, expected: &'static str) -> Result<i32, MovesError> {
        let rest = self.rest();
        let sign = usize::from(rest.starts_with('-'));
        let digits = rest[sign..].bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return Err(self.error(expected));
        }
        let number = &rest[..sign + digits];
        let value = number.parse().map_err(|_| MovesError::OutOfRange {
            column: self.column(),
            found: number.to_owned(),
        })?;
        self.at += number.len();
        Ok(value)
    }
}

/// Parses `"dx,dy dx,dy ..."` into a move set (each step must lower
/// `x + y`: see [`MoveSet::new`]).
pub fn parse_moves(text: &str) -> Result<MoveSet, MovesError> {
    let mut cursor = Cursor { text, at: 0 };
    let mut steps = Vec::new();
    cursor.skip_space();
    while !cursor.rest().is_empty() {
        let dx = cursor.integer("a step dx,dy")?;
        cursor.skip_space();
        if !cursor.rest().starts_with(',') {
            return Err(cursor.error("a comma between dx and dy"));
        }
        cursor.at += 1;
        cursor.skip_space();
        let dy = cursor.integer("dy after the comma")?;
        steps.push((dx, dy));
        let before = cursor.at;
        cursor.skip_space();
        if cursor.at == before && !cursor.rest().is_empty() {
            return Err(cursor.error("white space between two steps"));
        }
    }
    if steps.is_empty() {
        return Err(MovesError::Empty);
    }
    Ok(MoveSet::new(&steps)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(text: &str) -> Vec<(i32, i32)> {
        parse_moves(text).unwrap().steps().to_vec()
    }

    #[test]
    fn spaces_around_commas_and_between_steps() {
        let want = vec![(-2, -1), (-1, -2)];
        for text in [
            "-2,-1 -1,-2",
            "-2, -1 -1, -2",
            "  -2 , -1\t-1 ,-2  ",
            "-2,\t-1\n-1,-2",
        ] {
            let mut got = steps(text);
            got.sort_unstable();
            assert_eq!(got, want, "{text:?}");
        }
    }

    #[test]
    fn errors_quote_the_offending_text() {
        let err = |text: &str| parse_moves(text).unwrap_err().to_string();
        assert_eq!(
            err("-2,-1 x,1"),
            "column 7: expected a step dx,dy, found \"x\""
        );
        assert_eq!(
            err("-2;-1"),
            "column 3: expected a comma between dx and dy, found \";-1\""
        );
        assert_eq!(
            err("-2,"),
            "column 4: expected dy after the comma, found the end"
        );
        assert_eq!(
            err("-2,-1-1,-2"),
            "column 6: expected white space between two steps, found \"-1\""
        );
        assert_eq!(
            err("-2,-1 é,1"),
            "column 7: expected a step dx,dy, found \"é\""
        );
        assert_eq!(
            err("-2,-99999999999"),
            "column 4: \"-99999999999\" is out of range for a step"
        );
        assert_eq!(
            err("+2,-1"),
            "column 1: expected a step dx,dy, found \"+2\""
        );
        assert_eq!(err("  "), MovesError::Empty.to_string());
        // A step that does not lower x + y is refused by the move set.
        assert!(matches!(parse_moves("1,1"), Err(MovesError::MoveSet(_))));
    }
}
