//! Take-and-break rules: Winning Ways codes (`0.77`, `.6`, `4.007`, `0.f`),
//! Grundy's game and finite subtraction sets, parsed into [`Rules`].
//!
//! A code `d0.d1d2...dk` gives, for each `i`, the digit `d_i` for taking
//! `i` tokens: bit 1 = may take the whole heap when it has exactly `i`
//! tokens, bit 2 = may take `i` and leave one nonempty heap, bit 4 = may
//! take `i` and leave two nonempty heaps, bit 8 = may take `i` and leave
//! three nonempty heaps. Digits are octal (`0`-`7`) or hexadecimal
//! (`8`-`f`, either case); `d0` is `0` or `4` (splitting a heap in two
//! without taking anything) and may be omitted (`.6` is `0.6`). Trailing
//! zero digits take nothing and are dropped from the canonical form.

use std::fmt;

/// The longest code the engine accepts: at most this many digits after the
/// point (so the largest take is at most this many tokens). Subtraction
/// sets are limited to elements of at most this size for the same reason.
pub const MAX_DIGITS: usize = 1024;

/// The name under which [`Rules::parse`] accepts Grundy's game.
pub const GRUNDYS_GAME: &str = "grundys-game";

/// The classic games [`Rules::parse`] accepts by name, with their codes
/// (Berlekamp, Conway and Guy, *Winning Ways*, chapter 4; Siegel,
/// *Combinatorial Game Theory*, AMS 2013, the table of octal games). A
/// name is read in any case, with `'` left out and a space or `_` for
/// `-` (`Dawson's Kayles`, `dawsons_kayles`).
pub const NAMED_GAMES: [(&str, &str); 7] = [
    ("kayles", "0.77"),
    ("dawsons-kayles", "0.07"),
    ("dawsons-chess", "0.137"),
    ("officers", "0.6"),
    ("treblecross", "0.007"),
    ("guiles", "0.15"),
    ("double-kayles", "0.7777"),
];

/// A name as [`NAMED_GAMES`] writes it: lower case, `'` left out, spaces
/// and `_` as `-`.
fn name_key(name: &str) -> String {
    name.chars()
        .filter(|&c| c != '\'' && c != '\u{2019}')
        .map(|c| match c {
            ' ' | '_' => '-',
            c => c.to_ascii_lowercase(),
        })
        .collect()
}

/// The known name closest to `key` (a few letters off), with its code.
fn closest_name(key: &str) -> Option<(&'static str, &'static str)> {
    NAMED_GAMES
        .iter()
        .copied()
        .chain([(GRUNDYS_GAME, GRUNDYS_GAME)])
        .map(|(name, code)| (strsim::damerau_levenshtein(key, name), name, code))
        .filter(|&(distance, name, _)| distance <= 2.max(name.len() / 4))
        .min_by_key(|&(distance, _, _)| distance)
        .map(|(_, name, code)| (name, code))
}

/// The message of [`CodeError::UnknownName`].
fn unknown_name_message(name: &str, closest: Option<(&str, &str)>) -> String {
    let names: Vec<String> = NAMED_GAMES
        .iter()
        .map(|(name, code)| format!("{name} ({code})"))
        .chain([GRUNDYS_GAME.to_owned()])
        .collect();
    let suggestion = match closest {
        Some((known, code)) if known == code => format!("; did you mean {known}?"),
        Some((known, code)) => format!("; did you mean {known}, the code {code}?"),
        None => String::new(),
    };
    // Quoted with its control characters escaped, cut short.
    let shown: String = name.chars().take(40).collect();
    let name = if shown.len() < name.len() {
        format!("{shown:?}...")
    } else {
        format!("{shown:?}")
    };
    format!(
        "no game is named {name}{suggestion} (a code is written d0.d1d2..., e.g. 0.77 or .6; \
         the names known: {})",
        names.join(", ")
    )
}

/// A parsed take-and-break game.
///
/// Either a Winning Ways code (octal or hexadecimal, including subtraction
/// sets, which are the codes whose digits are all `0` or `3`), or Grundy's
/// game (split one heap into two unequal nonempty heaps, nothing taken).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Rules {
    kind: Kind,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Kind {
    /// `digits[i]` is `d_i`, with no trailing zero digit after the point.
    Code(Vec<u8>),
    GrundysGame,
}

/// Why a code or subtraction set was rejected. Positions are byte offsets
/// into the text given to [`Rules::parse`], starting at 0.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    /// The text is empty (or only whitespace).
    #[error("empty code: expected a code such as 0.77, .6 or 4.007, or grundys-game")]
    Empty,
    /// A character that is not a digit of the code.
    #[error(
        "invalid character {ch:?} at byte {position}: a code is d0.d1d2... with digits 0-7 (octal) or 0-f (hexadecimal)"
    )]
    BadCharacter {
        /// The offending character.
        ch: char,
        /// Its byte offset.
        position: usize,
    },
    /// The code has no point. (The message does not repeat the code,
    /// which the caller quotes, cut short if need be.)
    #[error("no point: a code is written d0.d1d2..., e.g. 0.77 or .6")]
    NoPoint {
        /// The text given.
        code: String,
    },
    /// A second point.
    #[error("second point at byte {position}: a code has one point")]
    SecondPoint {
        /// Its byte offset.
        position: usize,
    },
    /// The digit before the point is not 0 or 4.
    #[error(
        "digit {ch:?} at byte {position} before the point must be 0 or 4 (4 = split a heap in two without taking)"
    )]
    BadFirstDigit {
        /// The offending character.
        ch: char,
        /// Its byte offset.
        position: usize,
    },
    /// More than one digit before the point.
    #[error(
        "character {ch:?} at byte {position}: only one digit (0 or 4) may stand before the point"
    )]
    LongIntegerPart {
        /// The offending character.
        ch: char,
        /// Its byte offset.
        position: usize,
    },
    /// More digits after the point than [`MAX_DIGITS`].
    #[error(
        "code too long for the engine: digit at byte {position} takes more than {max} tokens",
        max = MAX_DIGITS
    )]
    TooLong {
        /// The byte offset of the first digit beyond the limit.
        position: usize,
    },
    /// A word that is neither a code nor a name of [`NAMED_GAMES`]: the
    /// name given, and the known one closest to it.
    #[error("{}", unknown_name_message(name, *closest))]
    UnknownName {
        /// The word given.
        name: String,
        /// The known name closest to it, with its code, if one is close.
        closest: Option<(&'static str, &'static str)>,
    },
    /// Nim, which no finite code describes.
    #[error(
        "Nim (take any number of tokens from one heap) has no finite code: a heap of n tokens \
         has the value n, and a sum is lost when the heaps XOR to 0; a bounded take is a code of \
         3s (0.333 takes 1 to 3) or --subtract 1,2,3"
    )]
    Nim,
    /// A subtraction set with no element.
    #[error("empty subtraction set")]
    EmptySet,
    /// A subtraction set element of 0 (taking nothing is not a move).
    #[error("subtraction set element 0 at index {index}: elements must be at least 1")]
    ZeroElement {
        /// Its index in the set given.
        index: usize,
    },
    /// A subtraction set element beyond [`MAX_DIGITS`].
    #[error(
        "subtraction set element {value} at index {index} is too large for the engine (at most {max})",
        max = MAX_DIGITS
    )]
    ElementTooLarge {
        /// The element.
        value: u64,
        /// Its index in the set given.
        index: usize,
    },
}

impl Rules {
    /// Parses a Winning Ways code (`0.77`, `.6`, `4.007`, `0.3f`), the
    /// name `grundys-game` or a name of [`NAMED_GAMES`] (`kayles`).
    /// Surrounding whitespace is ignored.
    pub fn parse(code: &str) -> Result<Rules, CodeError> {
        let start = code.len() - code.trim_start().len();
        let text = code.trim();
        if text.is_empty() {
            return Err(CodeError::Empty);
        }
        // A word without a point that starts with a letter: a name.
        if !text.contains('.') && text.starts_with(|c: char| c.is_alphabetic()) {
            let key = name_key(text);
            if matches!(key.as_str(), GRUNDYS_GAME | "grundy" | "grundy-game") {
                return Ok(Rules::grundys_game());
            }
            if key == "nim" {
                return Err(CodeError::Nim);
            }
            return match NAMED_GAMES.iter().find(|(name, _)| *name == key) {
                Some((_, code)) => Rules::parse(code),
                None => Err(CodeError::UnknownName {
                    name: text.to_owned(),
                    closest: closest_name(&key),
                }),
            };
        }
        let Some(point) = text.find('.') else {
            if let Some((i, ch)) = text.char_indices().find(|&(_, c)| !c.is_ascii_hexdigit()) {
                return Err(CodeError::BadCharacter {
                    ch,
                    position: start + i,
                });
            }
            return Err(CodeError::NoPoint {
                code: text.to_string(),
            });
        };
        let mut digits = vec![0u8];
        for (i, ch) in text[..point].char_indices() {
            let position = start + i;
            if i > 0 {
                return Err(CodeError::LongIntegerPart { ch, position });
            }
            match ch {
                '0' => {}
                '4' => digits[0] = 4,
                c if c.is_ascii_hexdigit() => {
                    return Err(CodeError::BadFirstDigit { ch, position });
                }
                _ => return Err(CodeError::BadCharacter { ch, position }),
            }
        }
        for (i, ch) in text[point + 1..].char_indices() {
            let position = start + point + 1 + i;
            if ch == '.' {
                return Err(CodeError::SecondPoint { position });
            }
            let Some(d) = ch.to_digit(16) else {
                return Err(CodeError::BadCharacter { ch, position });
            };
            if digits.len() > MAX_DIGITS {
                return Err(CodeError::TooLong { position });
            }
            digits.push(d as u8);
        }
        Ok(Rules::from_digits(digits))
    }

    /// The subtraction game with this finite set: take `s` tokens from one
    /// heap for any `s` in the set. It is the code with digit 3 at each
    /// element (take exactly the heap, or leave one nonempty heap), and is
    /// shown as that code. Repeated elements are allowed.
    pub fn subtraction(set: &[u64]) -> Result<Rules, CodeError> {
        if set.is_empty() {
            return Err(CodeError::EmptySet);
        }
        let mut digits = vec![0u8];
        for (index, &value) in set.iter().enumerate() {
            if value == 0 {
                return Err(CodeError::ZeroElement { index });
            }
            if value > MAX_DIGITS as u64 {
                return Err(CodeError::ElementTooLarge { value, index });
            }
            let i = value as usize;
            if digits.len() <= i {
                digits.resize(i + 1, 0);
            }
            digits[i] = 3;
        }
        Ok(Rules::from_digits(digits))
    }

    /// Grundy's game: split one heap into two unequal nonempty heaps.
    pub fn grundys_game() -> Rules {
        Rules {
            kind: Kind::GrundysGame,
        }
    }

    /// The game with these digits (`digits[0]` before the point), for
    /// digits already validated.
    fn from_digits(mut digits: Vec<u8>) -> Rules {
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        Rules {
            kind: Kind::Code(digits),
        }
    }

    /// The digits `d0, d1, ..., dk` of the code (no trailing zero digit
    /// after the point), or `None` for Grundy's game.
    pub fn digits(&self) -> Option<&[u8]> {
        match &self.kind {
            Kind::Code(d) => Some(d),
            Kind::GrundysGame => None,
        }
    }

    /// Whether any move exists: false only for the codes whose digits are
    /// all 0 (`0.0`, and `0.` or `.`, which `grundy octal` refuses as
    /// typos), where every heap's value is 0.
    pub fn has_moves(&self) -> bool {
        match &self.kind {
            Kind::Code(d) => d.iter().any(|&x| x != 0),
            Kind::GrundysGame => true,
        }
    }

    /// Whether this is Grundy's game.
    pub fn is_grundys_game(&self) -> bool {
        matches!(self.kind, Kind::GrundysGame)
    }

    /// The largest number of tokens a move takes (`k`, the number of digits
    /// after the point); 0 for Grundy's game and for `4.` codes.
    pub fn max_take(&self) -> usize {
        self.digits().map_or(0, |d| d.len() - 1)
    }

    /// The largest number of heaps a move leaves: 1 for subtraction-like
    /// codes (only bits 1 and 2), 2 for octal codes with bit 4 and for
    /// Grundy's game, 3 for hexadecimal codes with bit 8 (0 if no move
    /// leaves a heap).
    pub fn max_parts(&self) -> u32 {
        match &self.kind {
            Kind::GrundysGame => 2,
            Kind::Code(d) => {
                let bits = d.iter().fold(0u8, |acc, &x| acc | x);
                match bits {
                    b if b & 8 != 0 => 3,
                    b if b & 4 != 0 => 2,
                    b if b & 2 != 0 => 1,
                    _ => 0,
                }
            }
        }
    }

    /// Whether the code uses a hexadecimal digit (`8`-`f`: moves leaving
    /// three heaps).
    pub fn is_hexadecimal(&self) -> bool {
        self.digits().is_some_and(|d| d.iter().any(|&x| x >= 8))
    }

    /// Whether the periodicity theorem applies (every finite code; not
    /// Grundy's game, whose splits into unequal heaps admit no such
    /// theorem), so that a period may be certified.
    pub fn has_periodicity_theorem(&self) -> bool {
        !self.is_grundys_game()
    }
}

impl fmt::Display for Rules {
    /// The canonical form: `grundys-game`, or the code with its digit
    /// before the point, lowercase hexadecimal digits and no trailing zero
    /// (`.60` prints as `0.6`; a code with no move prints as `0.0`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::GrundysGame => f.write_str(GRUNDYS_GAME),
            Kind::Code(d) => {
                write!(f, "{}.", d[0])?;
                if d.len() == 1 {
                    return f.write_str("0");
                }
                for &x in &d[1..] {
                    write!(f, "{x:x}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::str::FromStr for Rules {
    type Err = CodeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Rules::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_canonical_codes() {
        for (text, canonical) in [
            ("0.77", "0.77"),
            (".6", "0.6"),
            ("  .07 ", "0.07"),
            ("4.007", "4.007"),
            ("0.60", "0.6"),
            ("0.3F", "0.3f"),
            ("0.", "0.0"),
            (".", "0.0"),
            ("Grundys-Game", "grundys-game"),
        ] {
            let rules = Rules::parse(text).unwrap();
            assert_eq!(rules.to_string(), canonical, "{text}");
            assert_eq!(Rules::parse(canonical).unwrap(), rules);
        }
        let r = Rules::parse("0.137").unwrap();
        assert_eq!(r.digits(), Some(&[0, 1, 3, 7][..]));
        assert_eq!(
            (r.max_take(), r.max_parts(), r.is_hexadecimal()),
            (3, 2, false)
        );
        let h = Rules::parse("0.f").unwrap();
        assert_eq!((h.max_parts(), h.is_hexadecimal()), (3, true));
        assert_eq!(Rules::parse("0.33").unwrap().max_parts(), 1);
        assert!(!Rules::grundys_game().has_periodicity_theorem());
        for (code, moves) in [(".", false), ("0.", false), ("0.000", false), ("4.", true)] {
            assert_eq!(Rules::parse(code).unwrap().has_moves(), moves, "{code}");
        }
        assert!(Rules::grundys_game().has_moves());
        assert!(Rules::subtraction(&[3]).unwrap().has_moves());
    }

    #[test]
    fn subtraction_sets_are_codes_of_threes() {
        let r = Rules::subtraction(&[1, 3, 4, 3]).unwrap();
        assert_eq!(r.to_string(), "0.3033");
        assert_eq!(r, Rules::parse(".3033").unwrap());
        assert_eq!(Rules::subtraction(&[]), Err(CodeError::EmptySet));
        assert_eq!(
            Rules::subtraction(&[2, 0]),
            Err(CodeError::ZeroElement { index: 1 })
        );
        assert!(matches!(
            Rules::subtraction(&[MAX_DIGITS as u64 + 1]),
            Err(CodeError::ElementTooLarge { index: 0, .. })
        ));
    }

    #[test]
    fn classic_names_are_their_codes() {
        for (name, code) in NAMED_GAMES {
            assert_eq!(Rules::parse(name), Rules::parse(code), "{name}");
        }
        for (text, code) in [
            ("Kayles", "0.77"),
            (" Dawson's Kayles ", "0.07"),
            ("dawsons_chess", "0.137"),
            ("Dawson\u{2019}s Kayles", "0.07"),
            ("OFFICERS", "0.6"),
        ] {
            assert_eq!(Rules::parse(text), Rules::parse(code), "{text}");
        }
        for text in ["Grundy's game", "grundy", "GRUNDYS-GAME"] {
            assert!(Rules::parse(text).unwrap().is_grundys_game(), "{text}");
        }
        assert_eq!(Rules::parse("Nim"), Err(CodeError::Nim));
        // A close name is suggested with its code; a far one is not.
        assert_eq!(
            Rules::parse("kaylse"),
            Err(CodeError::UnknownName {
                name: "kaylse".into(),
                closest: Some(("kayles", "0.77")),
            })
        );
        let message = Rules::parse("dawson").unwrap_err().to_string();
        assert!(message.contains("no game is named \"dawson\""), "{message}");
        let message = Rules::parse("officer").unwrap_err().to_string();
        assert!(
            message.contains("did you mean officers, the code 0.6?"),
            "{message}"
        );
        let message = Rules::parse("chess").unwrap_err().to_string();
        assert!(!message.contains("did you mean"), "{message}");
        assert!(message.contains("kayles (0.77)"), "{message}");
        let message = Rules::parse(&"k\n".repeat(10_000)).unwrap_err().to_string();
        assert!(message.len() < 400 && !message.contains('\n'), "{message}");
        // Hexadecimal digits without a point that start with a letter are
        // read as a name too (no game has such a code).
        assert!(matches!(
            Rules::parse("fa"),
            Err(CodeError::UnknownName { .. })
        ));
    }

    #[test]
    fn bad_codes_name_the_character_and_its_offset() {
        let cases = [
            ("", CodeError::Empty),
            (
                "0.7g",
                CodeError::BadCharacter {
                    ch: 'g',
                    position: 3,
                },
            ),
            (
                "0.7-",
                CodeError::BadCharacter {
                    ch: '-',
                    position: 3,
                },
            ),
            ("077", CodeError::NoPoint { code: "077".into() }),
            (
                "0x7",
                CodeError::BadCharacter {
                    ch: 'x',
                    position: 1,
                },
            ),
            ("0.7.7", CodeError::SecondPoint { position: 3 }),
            (
                "1.7",
                CodeError::BadFirstDigit {
                    ch: '1',
                    position: 0,
                },
            ),
            (
                "04.7",
                CodeError::LongIntegerPart {
                    ch: '4',
                    position: 1,
                },
            ),
            (
                " x.7",
                CodeError::BadCharacter {
                    ch: 'x',
                    position: 1,
                },
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(Rules::parse(text), Err(expected), "{text:?}");
        }
        // 8 is a hexadecimal digit: a valid (hexadecimal) code.
        assert!(Rules::parse("0.78").unwrap().is_hexadecimal());
        let long = format!("0.{}", "7".repeat(MAX_DIGITS + 1));
        assert_eq!(
            Rules::parse(&long),
            Err(CodeError::TooLong {
                position: 2 + MAX_DIGITS
            })
        );
        assert!(Rules::parse(&format!("0.{}", "7".repeat(MAX_DIGITS))).is_ok());
        let message = Rules::parse("0.7z").unwrap_err().to_string();
        assert!(
            message.contains("'z'") && message.contains("byte 3"),
            "{message}"
        );
    }
}
