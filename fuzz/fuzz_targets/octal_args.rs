//! The arguments that name a game of `grundy octal` (a code, a `--subtract`
//! list) on any text: never a panic; a refusal is a message that prints
//! safely (no control character once escaped as `grundy` prints it) and
//! stays short however long the text; a code that parses is printed in a
//! canonical form that parses to the same game; a subtraction list is the
//! set of its elements (by a parse written here). Each game accepted is
//! then computed by the engine and by the definition on its first heaps
//! (the same values), and those values pass `check_values`, which finds a
//! changed one at its heap.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sg_octal::{OctalError, Rules, Sequence, check_values, grundy_by_definition};
use sg_text::escape_line;
use sg_solve::octal::args::{parse_code, parse_subtraction};

/// Heaps computed for each game accepted.
const HEAPS: usize = 48;

/// A refusal as `grundy` prints it: short, no control character.
fn check_message(message: &str) {
    let printed = escape_line(message);
    assert!(printed.len() <= 400, "{} bytes: {printed}", printed.len());
    assert!(
        !printed.chars().any(|c| c.is_control() && c != '\n'),
        "{printed:?}"
    );
}

/// The engine against the definition, and the check of stored values.
fn check_game(rules: &Rules, seed: usize) {
    let defined = grundy_by_definition(rules, HEAPS).unwrap();
    let mut sequence = Sequence::new(rules.clone());
    sequence.extend_to(HEAPS as u64, &mut |_| {}).unwrap();
    for (heap, &g) in defined.iter().enumerate() {
        assert_eq!(sequence.value(heap as u64), Some(g), "{rules} heap {heap}");
    }
    assert_eq!(
        check_values(rules, &defined, &mut |_| {}),
        Ok(()),
        "{rules}"
    );
    let mut wrong = defined.clone();
    let heap = seed % wrong.len();
    wrong[heap] ^= 1 + (seed as u16 >> 8);
    match check_values(rules, &wrong, &mut |_| {}) {
        Err(OctalError::WrongValue {
            heap: h, expected, ..
        }) => {
            assert_eq!(
                (h, expected),
                (heap as u64, u64::from(defined[heap])),
                "{rules}"
            );
        }
        other => panic!("{rules}: heap {heap} changed: {other:?}"),
    }
}

/// The elements of a `--subtract` list by the grammar (comma-separated,
/// spaces around them, digits only), without the set's own limits.
fn elements(text: &str) -> Option<Vec<u64>> {
    text.split(',')
        .map(|item| {
            let item = item.trim();
            let digits = !item.is_empty() && item.bytes().all(|b| b.is_ascii_digit());
            digits.then(|| item.parse().ok()).flatten()
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    // The command line gives text (clap refuses other bytes).
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let seed = data
        .iter()
        .fold(7usize, |h, &b| h.wrapping_mul(31) ^ usize::from(b));
    match parse_code(text) {
        Ok(rules) => {
            let canonical = rules.to_string();
            assert_eq!(parse_code(&canonical).as_ref(), Ok(&rules), "{canonical}");
            assert_eq!(Rules::parse(text).as_ref(), Ok(&rules));
            check_game(&rules, seed);
        }
        Err(message) => {
            check_message(&message);
            // Refused: not a code, or a code without a digit after the
            // point and without moves.
            if let Ok(rules) = Rules::parse(text) {
                assert!(!rules.has_moves() && text.trim().ends_with('.'), "{text:?}");
            }
        }
    }
    match parse_subtraction(text) {
        Ok(rules) => {
            let set = elements(text).expect("a list that parses has digit elements");
            assert_eq!(Rules::subtraction(&set).as_ref(), Ok(&rules));
            check_game(&rules, seed);
        }
        Err(message) => {
            check_message(&message);
            if let Some(set) = elements(text) {
                assert!(Rules::subtraction(&set).is_err(), "{text:?}");
            }
        }
    }
});
