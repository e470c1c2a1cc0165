//! The game of `grundy octal` as the command line names it: a code (`0.77`,
//! `.6`, `4.007`), a name (`grundys-game`, `kayles`) or a subtraction set (`--subtract
//! 1,3,4`), parsed into [`Rules`], with the tool's messages: what is wrong,
//! where, and the offending text quoted once, escaped and cut short
//! ([`quote`]). In the library so that the fuzz targets reach it.

use crate::error::quote;
use crate::numbers::digits;
use sg_octal::{CodeError, Rules};

/// A code, as [`Rules::parse`] reads it, but for a code with no digit
/// after the point and no move (`.`, `0.`: almost certainly a typo for
/// `.6` or the like), refused. `0.0`, written out, is the game without
/// moves (the first of the catalogue) and is accepted.
pub fn parse_code(code: &str) -> Result<Rules, String> {
    match Rules::parse(code) {
        Ok(rules) if !rules.has_moves() && code.trim().ends_with('.') => Err(format!(
            "the code {} has no digit after the point, so it allows no move: \
             give its digits, e.g. 0.77 or .6 (0.0 is the game without moves)",
            quote(code.trim())
        )),
        Ok(rules) => Ok(rules),
        // A name: the message quotes it.
        Err(e @ (CodeError::UnknownName { .. } | CodeError::Nim)) => Err(e.to_string()),
        Err(e) => Err(format!("bad code {}: {e}", quote(code))),
    }
}

/// `--subtract 1,3,4` (spaces around the commas are fine): the subtraction
/// game of the set ([`Rules::subtraction`]). A bad element is named by its
/// index (the set is not repeated) and quoted.
pub fn parse_subtraction(text: &str) -> Result<Rules, String> {
    let mut set = Vec::new();
    for (index, item) in text.split(',').enumerate() {
        let item = item.trim();
        let value = digits(item).map_err(|why| {
            format!(
                "--subtract: element {index} ({}): {why}: expected e.g. 1,3,4",
                quote(item)
            )
        })?;
        set.push(value);
    }
    Rules::subtraction(&set).map_err(|e| format!("--subtract: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_sets() {
        assert_eq!(parse_code(" .6 ").unwrap().to_string(), "0.6");
        assert_eq!(parse_code("0.0").unwrap().to_string(), "0.0");
        assert!(parse_code("4.").unwrap().has_moves());
        for typo in [".", "0.", " 0. "] {
            assert!(
                parse_code(typo)
                    .unwrap_err()
                    .contains("no digit after the point")
            );
        }
        let long = "7".repeat(100_000);
        let e = parse_code(&long).unwrap_err();
        assert!(e.len() < 300, "{e}");
        assert_eq!(
            parse_subtraction("1, 3 ,4").unwrap(),
            Rules::subtraction(&[1, 3, 4]).unwrap()
        );
        let e = parse_subtraction("1,+3").unwrap_err();
        assert!(e.starts_with("--subtract: element 1 (\"+3\"): "), "{e}");
        let e = parse_subtraction(&format!("{},x", "1,".repeat(65_000))).unwrap_err();
        assert!(e.len() < 300, "{e}");
        assert!(
            parse_subtraction("0")
                .unwrap_err()
                .contains("element 0 at index 0")
        );
    }
}
