//! A fast tokenizer for judge inputs: whitespace-separated non-negative
//! integers in one byte buffer, with line and column positions for errors.
//!
//! Any mix of spaces, tabs, CR, LF, vertical tabs and form feeds separates
//! tokens; line structure is not significant. Nothing is allocated per token;
//! positions are only turned into a line and column when an error is built.

use crate::error::{InputError, InputErrorKind};

/// Reads non-negative integers from a byte buffer.
#[derive(Debug, Clone)]
pub struct Scanner<'a> {
    buf: &'a [u8],
    pos: usize,
    /// Byte offset of the last token returned (for errors about its value).
    last: usize,
}

#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t' | 0x0b | 0x0c)
}

impl<'a> Scanner<'a> {
    /// A scanner at the start of `buf`.
    pub fn new(buf: &'a [u8]) -> Self {
        Self {
            buf,
            pos: 0,
            last: 0,
        }
    }

    #[inline]
    fn skip_space(&mut self) {
        while let Some(&b) = self.buf.get(self.pos) {
            if !is_space(b) {
                break;
            }
            self.pos += 1;
        }
    }

    /// The next integer, or `None` at the end of the input. `expected` names
    /// what the caller wants, for the error message when the token is not a
    /// number.
    #[inline]
    pub fn next_opt(&mut self, expected: &'static str) -> Result<Option<u64>, InputError> {
        self.skip_space();
        let start = self.pos;
        let mut value: u64 = 0;
        let mut overflow = false;
        while let Some(&b) = self.buf.get(self.pos) {
            let digit = b.wrapping_sub(b'0');
            if digit >= 10 {
                if is_space(b) {
                    break;
                }
                return Err(self.not_a_number(start, expected));
            }
            match value
                .checked_mul(10)
                .and_then(|v| v.checked_add(digit.into()))
            {
                Some(v) => value = v,
                None => overflow = true,
            }
            self.pos += 1;
        }
        self.last = start;
        if self.pos == start {
            return Ok(None);
        }
        if overflow {
            return Err(self.error_at(
                start,
                InputErrorKind::NumberTooLarge {
                    expected,
                    max: u64::MAX,
                },
            ));
        }
        Ok(Some(value))
    }

    /// The next integer; the end of input is an error.
    #[inline]
    pub fn next(&mut self, expected: &'static str) -> Result<u64, InputError> {
        match self.next_opt(expected)? {
            Some(v) => Ok(v),
            None => Err(self.error_at(self.pos, InputErrorKind::UnexpectedEnd { expected })),
        }
    }

    /// The next integer, which must be at most `max`.
    #[inline]
    pub fn next_at_most(&mut self, expected: &'static str, max: u64) -> Result<u64, InputError> {
        let v = self.next(expected)?;
        self.check_at_most(v, expected, max)
    }

    /// `value` (the last token read) if it is at most `max`, else an error
    /// at that token.
    #[inline]
    pub fn check_at_most(
        &self,
        value: u64,
        expected: &'static str,
        max: u64,
    ) -> Result<u64, InputError> {
        if value > max {
            return Err(self.error_at(self.last, InputErrorKind::NumberTooLarge { expected, max }));
        }
        Ok(value)
    }

    /// The next integer as a node id below `node_count`.
    #[inline]
    pub fn next_node(
        &mut self,
        expected: &'static str,
        node_count: usize,
    ) -> Result<u32, InputError> {
        let v = self.next(expected)?;
        if v >= node_count as u64 {
            return Err(self.error_at(
                self.last,
                InputErrorKind::NodeOutOfRange {
                    node: v,
                    node_count,
                },
            ));
        }
        Ok(v as u32)
    }

    /// Byte offset of the last token read.
    pub fn last_offset(&self) -> usize {
        self.last
    }

    /// Fails if anything but whitespace is left.
    pub fn expect_end(&mut self, after: &'static str) -> Result<(), InputError> {
        self.skip_space();
        if self.pos < self.buf.len() {
            let found = self.token_text(self.pos);
            return Err(self.error_at(self.pos, InputErrorKind::Trailing { found, after }));
        }
        Ok(())
    }

    fn token_text(&self, start: usize) -> String {
        let end = self.buf[start..]
            .iter()
            .position(|&b| is_space(b))
            .map_or(self.buf.len(), |n| start + n);
        crate::error::escape_bytes(&self.buf[start..end], 40)
    }

    #[cold]
    fn not_a_number(&self, start: usize, expected: &'static str) -> InputError {
        let found = self.token_text(start);
        self.error_at(start, InputErrorKind::NotANumber { expected, found })
    }

    /// An error located at byte `offset` of the input.
    #[cold]
    pub fn error_at(&self, offset: usize, kind: InputErrorKind) -> InputError {
        let before = &self.buf[..offset.min(self.buf.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        InputError {
            line,
            column: offset - line_start + 1,
            kind,
        }
    }
}

/// The floor of every solver: reads every integer of `buf` and nothing
/// else, returning how many there were and their wrapping sum (so the work
/// cannot be optimised away).
pub fn parse_all(buf: &[u8]) -> Result<(u64, u64), InputError> {
    let mut sc = Scanner::new(buf);
    let (mut count, mut sum) = (0u64, 0u64);
    while let Some(v) = sc.next_opt("an integer")? {
        count += 1;
        sum = sum.wrapping_add(v);
    }
    Ok((count, sum))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_numbers_across_any_whitespace() {
        let mut s = Scanner::new(b" 12\t3\r\n\n 45\x0b6");
        let mut got = vec![];
        while let Some(v) = s.next_opt("n").unwrap() {
            got.push(v);
        }
        assert_eq!(got, [12, 3, 45, 6]);
        assert!(s.next_opt("n").unwrap().is_none());
    }

    #[test]
    fn parse_all_counts_and_sums() {
        assert_eq!(parse_all(b" 1 2\n3\t4\r\n").unwrap(), (4, 10));
        assert!(parse_all(b"1 a").is_err());
    }

    #[test]
    fn errors_carry_line_and_column() {
        let mut s = Scanner::new(b"1 2\n3 x4\n");
        for _ in 0..3 {
            s.next("n").unwrap();
        }
        let e = s.next("a node").unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        assert_eq!(
            e.to_string(),
            "line 2, column 3: expected a node, found `x4`"
        );
        let mut s = Scanner::new(b"1\n");
        s.next("n").unwrap();
        let e = s.next("a count").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 1: expected a count, found the end of the input"
        );
        let mut s = Scanner::new(b"-3");
        assert!(matches!(
            s.next("n").unwrap_err().kind,
            InputErrorKind::NotANumber { .. }
        ));
        let mut s = Scanner::new(b"99999999999999999999999");
        assert!(matches!(
            s.next("n").unwrap_err().kind,
            InputErrorKind::NumberTooLarge { .. }
        ));
    }
}
