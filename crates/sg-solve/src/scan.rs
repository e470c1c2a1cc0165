//! A fast tokenizer for judge inputs: whitespace-separated non-negative
//! integers in one byte buffer, with line and column positions for errors.
//!
//! Any mix of spaces, tabs, CR, LF, vertical tabs and form feeds separates
//! tokens; line structure is not significant. Nothing is allocated per token;
//! positions are only turned into a line and column when an error is built.
//!
//! Tried and dropped (slower, or no gain, on the judge inputs): the 8-byte
//! load without the mask of token starts (each token's start found from
//! the previous token's length: the loads form a chain); the choice among
//! 1-2, 3-4 and up to 7 digits as a branch per token (one- and two-digit
//! numbers come mixed, and it mispredicts); the scanner's state kept in
//! registers (more spills elsewhere); the byte after a number taken from
//! the loaded word, or read from the input again; a prefetch 4 KiB ahead;
//! for CPUs without VBMI2, a decoder in SSE2 (slower with the same reader,
//! and would need a second reader of blocks to gain). The AVX2 decoder
//! that replaced it does not compress places (which needed VBMI2) nor
//! use `pdep`/`pext` (microcoded on AMD before Zen 3): it computes the
//! value ending at every byte and packs those at the numbers' ends.

use crate::error::{InputError, InputErrorKind};

mod blocks;

pub use blocks::SIMD_VARIABLE;

/// The decoder the scanners of this process use, as [`SIMD_VARIABLE`]
/// names it (`avx512`, `avx2` or `portable`): the best the CPU has, at most
/// what the variable allows.
pub fn decoder_used() -> &'static str {
    blocks::decoder().name()
}

/// Reads non-negative integers from a byte buffer.
#[derive(Debug, Clone)]
pub struct Scanner<'a> {
    buf: &'a [u8],
    /// Where the byte-by-byte path goes on: just after the last token read
    /// (and, after a short number, after its separator).
    pos: usize,
    /// Byte offset of the last token returned (for errors about its value).
    last: usize,
    /// The token starts of the current 64-byte block not read yet, bit `i`
    /// for byte `block_start + i`.
    starts: u64,
    block_start: usize,
    /// Where the next block starts, unless `pos` is further (0 after the
    /// byte-by-byte path, which may stop anywhere).
    block_end: usize,
    /// How many token starts of the current block have been read.
    taken: usize,
    /// Bit `k`: the `k`-th token of the current block is decoded in
    /// `decoded[k]` (a number of 1 to 4 digits ending in the block); the
    /// others are read one at a time.
    ready: u64,
    /// The values of the current block's tokens, decoded all at once.
    decoded: [u32; BLOCK],
    /// How blocks are decoded at once, if at all (the CPU has the
    /// instructions).
    decoder: blocks::Decoder,
}

/// Bytes classified at a time.
const BLOCK: usize = 64;

/// The separators, one bit each: space, `\t`, `\n`, vertical tab, form
/// feed, `\r` (all below 64).
const SPACE_BITS: u64 = 1 << b' ' | 1 << b'\t' | 1 << b'\n' | 1 << 0x0b | 1 << 0x0c | 1 << b'\r';

#[inline(always)]
fn is_space(b: u8) -> bool {
    b < 64 && SPACE_BITS >> b & 1 == 1
}

/// Every byte of `word` with `ASCII_ZERO` XORed in, and each byte's top
/// bit set in the mask where that byte is not a digit. A carry out of a
/// non-digit byte can only mark bytes after it, so the lowest mark is exact.
#[inline(always)]
fn digits_of(word: u64) -> (u64, u64) {
    const ASCII_ZERO: u64 = 0x3030_3030_3030_3030;
    let t = word ^ ASCII_ZERO;
    let not_digit = (t.wrapping_add(0x7676_7676_7676_7676) | t) & 0x8080_8080_8080_8080;
    (t, not_digit)
}

/// The number whose decimal digits (values 0-9, the most significant
/// first, in memory order) fill the eight bytes of `digits` (Lemire's
/// SWAR conversion; leading zero bytes are leading zeros).
#[inline(always)]
fn eight_digits(digits: u64) -> u64 {
    let v = (digits & 0x0F0F_0F0F_0F0F_0F0F).wrapping_mul(2561) >> 8;
    let v = (v & 0x00FF_00FF_00FF_00FF).wrapping_mul(6_553_601) >> 16;
    (v & 0x0000_FFFF_0000_FFFF).wrapping_mul(42_949_672_960_001) >> 32
}

/// [`eight_digits`] for at most four digits (values 0-9, the most
/// significant first) in the low four bytes of `digits`, the bytes above
/// zero: one multiplication fewer on the path every short token takes.
#[inline(always)]
fn four_digits(digits: u64) -> u64 {
    let v = (digits & 0x0F0F_0F0F).wrapping_mul(2561) >> 8;
    (v & 0x00FF_00FF).wrapping_mul(6_553_601) >> 16 & 0xFFFF
}

impl<'a> Scanner<'a> {
    /// A scanner at the start of `buf`.
    pub fn new(buf: &'a [u8]) -> Self {
        Self {
            buf,
            pos: 0,
            last: 0,
            starts: 0,
            block_start: 0,
            block_end: 0,
            taken: 0,
            ready: 0,
            decoded: [0; BLOCK],
            decoder: blocks::decoder(),
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
    ///
    /// The fast path: blocks of 64 bytes are classified at once into a mask
    /// of token starts (a digit not after a digit), provided the block holds
    /// only digits and separators; each start then gives its number from one
    /// 8-byte load without a branch per byte (`short_number_at`),
    /// and the next start comes from the mask, not from this token's length.
    /// Where the CPU can (AVX-512 VBMI2 or AVX2), a classified block's
    /// numbers of 1 to 4 digits are all decoded at once when it is classified (the private
    /// `scan::blocks::decode`), and handed out from there.
    /// Everything else (blocks with other bytes, numbers of 8 digits or
    /// more, the last bytes of the input) goes byte by byte from where the
    /// fast path stopped, so errors and their positions are the same.
    #[inline(always)]
    pub fn next_opt(&mut self, expected: &'static str) -> Result<Option<u64>, InputError> {
        self.next_opt_sized::<false>(expected)
    }

    /// [`Self::next_opt`], with `SMALL`: numbers of one or two digits are
    /// converted without a branch on which of the two they are (see
    /// [`Self::next_small`]).
    #[inline(always)]
    fn next_opt_sized<const SMALL: bool>(
        &mut self,
        expected: &'static str,
    ) -> Result<Option<u64>, InputError> {
        loop {
            if self.starts != 0 {
                let start = self.block_start + self.starts.trailing_zeros() as usize;
                self.starts &= self.starts - 1;
                let k = self.taken;
                self.taken += 1;
                if self.ready >> k & 1 != 0 {
                    // `pos` is left behind: `resume_at` finds the place.
                    self.last = start;
                    return Ok(Some(u64::from(self.decoded[k % BLOCK])));
                }
                if let Some(v) = self.short_number_at::<SMALL>(start) {
                    return Ok(Some(v));
                }
                self.pos = start;
                self.starts = 0;
                self.block_end = 0;
                return self.next_opt_bytewise(expected);
            }
            if !self.next_block() {
                self.pos = self.resume_at();
                return self.next_opt_bytewise(expected);
            }
        }
    }

    /// Classifies the next block; false if it is too close to the end of
    /// the input (a token start in it must have 8 bytes to load) or holds a
    /// byte that is neither a digit nor a separator.
    #[inline(always)]
    fn next_block(&mut self) -> bool {
        let base = self.pos.max(self.block_end);
        let Some(block) = self.buf.get(base..base + BLOCK + 8) else {
            return false;
        };
        let block: &[u8; BLOCK] = block[..BLOCK].try_into().expect("BLOCK bytes");
        let (digits, spaces) = blocks::classify(block);
        if digits | spaces != u64::MAX {
            return false;
        }
        // No token runs into the block from before it: every start of the
        // last block was read, and reading a number moves `pos` past its
        // last digit (a decoded number ends in its block), so `base` is at
        // a separator or after one.
        self.starts = digits & !(digits << 1);
        self.block_start = base;
        self.block_end = base + BLOCK;
        self.taken = 0;
        // SAFETY: `decoder` is what `blocks::decoder` returned.
        self.ready = unsafe {
            blocks::decode(
                self.decoder,
                block,
                self.buf[base + BLOCK],
                digits,
                &mut self.decoded,
            )
        };
        true
    }

    /// Where the byte-by-byte path goes on from: `pos`, unless numbers
    /// decoded with their block were read since it was set (they do not
    /// move it): then the next token start of the block, or the block's
    /// end (the bytes after its last number being separators).
    fn resume_at(&self) -> usize {
        if self.starts != 0 {
            self.block_start + self.starts.trailing_zeros() as usize
        } else {
            self.pos.max(self.block_end)
        }
    }

    /// The number of 1 to 7 digits that starts at `start`, followed by a
    /// separator, from one 8-byte load; `None` for anything else.
    #[inline(always)]
    fn short_number_at<const SMALL: bool>(&mut self, start: usize) -> Option<u64> {
        let chunk: [u8; 8] = self.buf.get(start..start + 8)?.try_into().ok()?;
        let (digits, not_digit) = digits_of(u64::from_le_bytes(chunk));
        let len = (not_digit.trailing_zeros() / 8) as usize;
        // The byte after the digits is a separator when it lies in the
        // block (classified: digits and separators only); only a number
        // that reaches the block's end needs the byte itself checked.
        if len == 0 || len == 8 || (start + len >= self.block_end && !is_space(chunk[len])) {
            return None;
        }
        self.last = start;
        self.pos = start + len + 1;
        if SMALL && len <= 2 {
            // The first digit, plus nine times it and the second when
            // there are two (selected by a mask, not a branch: ones and
            // twos come mixed).
            let (first, second) = (digits & 0xF, digits >> 8 & 0xF);
            let two = ((len >> 1) as u64).wrapping_neg();
            return Some(first + ((first * 9 + second) & two));
        }
        // Judge inputs are mostly numbers of 1-4 digits: this branch is
        // predicted, and saves a multiplication on the token's latency.
        if len <= 4 {
            Some(four_digits(digits << (32 - 8 * len) & 0xFFFF_FFFF))
        } else {
            Some(eight_digits(digits << (64 - 8 * len)))
        }
    }

    #[inline(never)]
    fn next_opt_bytewise(&mut self, expected: &'static str) -> Result<Option<u64>, InputError> {
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
    #[inline(always)]
    pub fn next(&mut self, expected: &'static str) -> Result<u64, InputError> {
        self.next_sized::<false>(expected)
    }

    #[inline(always)]
    fn next_sized<const SMALL: bool>(&mut self, expected: &'static str) -> Result<u64, InputError> {
        match self.next_opt_sized::<SMALL>(expected)? {
            Some(v) => Ok(v),
            None => Err(self.error_at(self.pos, InputErrorKind::UnexpectedEnd { expected })),
        }
    }

    /// [`Self::next`] for inputs made mostly of numbers of one and two
    /// digits, mixed (HDU 5724's columns and counts): the same result,
    /// faster on those, a little slower on longer ones.
    #[inline(always)]
    pub fn next_small(&mut self, expected: &'static str) -> Result<u64, InputError> {
        self.next_sized::<true>(expected)
    }

    /// The next integer, which must be at most `max` (a number too large
    /// for 64 bits is reported with that limit too).
    #[inline]
    pub fn next_at_most(&mut self, expected: &'static str, max: u64) -> Result<u64, InputError> {
        let v = self.next(expected).map_err(|e| at_most(e, max))?;
        self.check_at_most(v, expected, max)
    }

    /// [`Self::next_opt`] for an integer that must be at most `max`.
    #[inline(always)]
    pub fn next_opt_at_most(
        &mut self,
        expected: &'static str,
        max: u64,
    ) -> Result<Option<u64>, InputError> {
        match self.next_opt(expected).map_err(|e| at_most(e, max))? {
            Some(v) => self.check_at_most(v, expected, max).map(Some),
            None => Ok(None),
        }
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
    #[inline(always)]
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

    /// Where the next token starts, after the last one read (a number:
    /// its digits, then whitespace, are skipped byte by byte from
    /// [`Self::last_offset`]); the input's length if only whitespace is left.
    pub fn next_token_start(&self) -> usize {
        let rest = &self.buf[self.last..];
        let digits = rest.iter().position(|b| !b.is_ascii_digit());
        let after = digits.map_or(self.buf.len(), |n| self.last + n);
        self.buf[after..]
            .iter()
            .position(|&b| !is_space(b))
            .map_or(self.buf.len(), |n| after + n)
    }

    /// Fails if anything but whitespace is left.
    pub fn expect_end(&mut self, after: &'static str) -> Result<(), InputError> {
        self.pos = self.resume_at();
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
        crate::error::escape_bytes(&self.buf[start..end], crate::error::QUOTED_BYTES)
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

/// `e` with the limit `max` if it is a number too large for a lower limit:
/// the scanner reports a number beyond 64 bits as one above `u64::MAX`,
/// which is not the limit of a token whose limit is lower. For the error
/// of reading such a token (`sc.next(..).map_err(|e| at_most(e, max))`).
#[cold]
pub fn at_most(mut e: InputError, max: u64) -> InputError {
    if let InputErrorKind::NumberTooLarge { max: limit, .. } = &mut e.kind {
        *limit = (*limit).min(max);
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Tokens by their definition: split on the six separators; each token
    /// must be all digits and fit in u64. Returns the numbers before the
    /// first bad token and that token's error message.
    fn reference_tokens(buf: &[u8]) -> (Vec<u64>, Option<String>) {
        let sep = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r');
        let mut values = vec![];
        let mut i = 0;
        loop {
            while i < buf.len() && sep(buf[i]) {
                i += 1;
            }
            if i == buf.len() {
                return (values, None);
            }
            let start = i;
            while i < buf.len() && !sep(buf[i]) {
                i += 1;
            }
            let token = &buf[start..i];
            let line = 1 + buf[..start].iter().filter(|&&b| b == b'\n').count();
            let column = start
                - buf[..start]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |p| p + 1)
                + 1;
            let at = format!("line {line}, column {column}: ");
            if !token.iter().all(u8::is_ascii_digit) {
                // The token as error messages show it (escaped, cut at 40
                // bytes; `escape_bytes` has its own tests).
                let text = crate::error::escape_bytes(token, crate::error::QUOTED_BYTES);
                return (values, Some(format!("{at}expected n, found `{text}`")));
            }
            match std::str::from_utf8(token).unwrap().parse::<u64>() {
                Ok(v) => values.push(v),
                Err(_) => return (values, Some(format!("{at}n must be at most {}", u64::MAX))),
            }
        }
    }

    /// A scanner of `buf` whose blocks are decoded by `decoder` at most
    /// (1 + its rank; the CPU's best, for any higher value).
    fn scanner_with(buf: &[u8], decoder: u8) -> Scanner<'_> {
        blocks::FORCE.store(decoder, std::sync::atomic::Ordering::Relaxed);
        let s = Scanner::new(buf);
        blocks::FORCE.store(0, std::sync::atomic::Ordering::Relaxed);
        s
    }

    /// The decoders as [`scanner_with`] takes them: portable, AVX2, AVX-512.
    const DECODERS: [u8; 3] = [1, 2, 3];

    /// [`scanned_tokens_once`] with blocks decoded by every decoder the CPU
    /// has, and by none, which must agree.
    fn scanned_tokens(buf: &[u8], small: bool) -> (Vec<u64>, Option<String>) {
        let [portable, rest @ ..] =
            DECODERS.map(|d| scanned_tokens_once(scanner_with(buf, d), small));
        for (tokens, decoder) in rest.iter().zip(&DECODERS[1..]) {
            assert_eq!(tokens, &portable, "decoder {decoder} differs");
        }
        portable
    }

    /// The tokens by [`Scanner::next_opt`], and, with `small`, by the
    /// conversion of [`Scanner::next_small`].
    fn scanned_tokens_once(mut s: Scanner<'_>, small: bool) -> (Vec<u64>, Option<String>) {
        let mut values = vec![];
        loop {
            let next = if small {
                s.next_opt_sized::<true>("n")
            } else {
                s.next_opt("n")
            };
            match next {
                Ok(Some(v)) => values.push(v),
                Ok(None) => return (values, None),
                Err(e) => return (values, Some(e.to_string())),
            }
        }
    }

    fn judge_like_bytes() -> impl Strategy<Value = Vec<u8>> {
        bytes_with_any(18)
    }

    /// Digits and separators, and any byte once in `one_in` bytes or so.
    fn bytes_with_any(one_in: u32) -> impl Strategy<Value = Vec<u8>> {
        let byte = prop_oneof![
            10 * one_in / 18 => b'0'..=b'9',
            4 * one_in / 18 => Just(b' '),
            2 * one_in / 18 => Just(b'\n'),
            one_in / 18 => proptest::sample::select(vec![b'\t', b'\r', 0x0b, 0x0c]),
            1 => any::<u8>(),
        ];
        proptest::collection::vec(byte, 0..400)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5000))]

        #[test]
        fn matches_the_definition_on_arbitrary_bytes(
            buf in prop_oneof![judge_like_bytes(), bytes_with_any(400)],
        ) {
            for small in [false, true] {
                prop_assert_eq!(scanned_tokens(&buf, small), reference_tokens(&buf));
            }
        }

        #[test]
        fn reads_numbers_of_every_length(
            numbers in proptest::collection::vec((any::<u64>(), 0u32..20, 0usize..6), 0..40)
        ) {
            // Numbers of 1 to 20 digits (and leading zeros) between runs of
            // separators of any length.
            let mut buf = Vec::new();
            for (v, digits, gap) in numbers {
                let v = v % 10u64.saturating_pow(digits).max(1);
                buf.extend(format!("{v:0width$}", width = (digits % 4) as usize).bytes());
                buf.extend(std::iter::repeat_n(b" \n\r\t"[gap % 4], gap + 1));
            }
            for small in [false, true] {
                prop_assert_eq!(scanned_tokens(&buf, small), reference_tokens(&buf));
            }
            prop_assert!(reference_tokens(&buf).1.is_none());
        }
    }

    /// Where each token starts and where the input should have ended, by
    /// the definition: the start of every token, good or bad.
    fn reference_starts(buf: &[u8]) -> Vec<usize> {
        let sep = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r');
        (0..buf.len())
            .filter(|&i| !sep(buf[i]) && (i == 0 || sep(buf[i - 1])))
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// After each number read, `last_offset` is its start, and
        /// `expect_end` fails exactly at the next token, if any: the
        /// decoded blocks leave the position behind, and must find it.
        #[test]
        fn offsets_and_the_end_match_the_definition(
            buf in prop_oneof![judge_like_bytes(), bytes_with_any(400)],
            stop in 0usize..200,
        ) {
            let starts = reference_starts(&buf);
            let (good, _) = reference_tokens(&buf);
            for decoder in DECODERS {
                let mut s = scanner_with(&buf, decoder);
                let stop = stop.min(good.len());
                for &start in &starts[..stop] {
                    s.next("n").unwrap();
                    prop_assert_eq!(s.last_offset(), start);
                }
                let end = s.expect_end("n");
                match starts.get(stop) {
                    None => prop_assert!(end.is_ok()),
                    Some(&at) => {
                        let e = end.unwrap_err();
                        let want = s.error_at(at, InputErrorKind::UnexpectedEnd { expected: "n" });
                        prop_assert_eq!((e.line, e.column), (want.line, want.column));
                    }
                }
            }
        }
    }

    #[test]
    fn a_bad_byte_just_after_a_number_at_any_place_around_the_blocks() {
        // The fast path checks the byte after a number only when it lies
        // beyond the classified block: numbers ending on every byte around
        // the first two block ends, followed by a byte that is neither a
        // digit nor a separator, then by good tokens.
        for pad in 0..140 {
            for len in 1..=8 {
                for bad in [b'x', b'-', 0x80, 0] {
                    let mut buf = vec![b' '; pad];
                    buf.extend(std::iter::repeat_n(b'7', len));
                    buf.push(bad);
                    buf.extend(b" 5 ".repeat(60));
                    for small in [false, true] {
                        assert_eq!(
                            scanned_tokens(&buf, small),
                            reference_tokens(&buf),
                            "pad {pad}, {len} digits, then {bad:#x}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn every_number_of_up_to_four_digits_after_any_separator_both_ways() {
        // The short path of 1-4 digits, with and without leading zeros,
        // followed by each separator, in a block of the fast path.
        for v in 0..10_000u64 {
            for width in 1..=4 {
                let text = format!("{v:0width$}");
                if text.len() > 4 {
                    continue;
                }
                for sep in [b' ', b'\n', b'\t', b'\r'] {
                    let mut buf = text.clone().into_bytes();
                    buf.push(sep);
                    buf.resize(BLOCK + 8, b' ');
                    assert_eq!(Scanner::new(&buf).next("n").unwrap(), v, "{text:?}");
                    assert_eq!(Scanner::new(&buf).next_small("n").unwrap(), v, "{text:?}");
                }
            }
        }
    }

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
