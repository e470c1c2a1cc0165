//! The escaping, the bounds and the shell quoting, on chosen and on
//! arbitrary text.

use super::*;
use proptest::prelude::*;
use std::os::unix::ffi::OsStrExt;

#[test]
fn escapes_what_a_terminal_would_act_on() {
    assert_eq!(escape_bytes(b"3\0\x1b[31m", 40), "3\\x00\\x1b[31m");
    assert_eq!(
        escape_bytes("a\u{202e}b\u{85}".as_bytes(), 40),
        "a\\u{202e}b\\u{85}"
    );
    assert_eq!(escape_bytes(b"\xff\xfe ok \\", 40), "\\xff\\xfe ok \\\\");
    assert_eq!(escape_bytes("é√x".as_bytes(), 40), "é√x");
    assert_eq!(escape_bytes(b"line\nbreak", 40), "line\\x0abreak");
    // Every bidirectional control (U+061C too) and the line and paragraph
    // separators.
    assert_eq!(
        escape_bytes("a\u{61c}b\u{2028}c\u{2029}".as_bytes(), 40),
        "a\\u{61c}b\\u{2028}c\\u{2029}"
    );
    assert_eq!(escape_bytes(b"", 40), "");
}

#[test]
fn cuts_after_the_bytes_promised_between_characters() {
    assert_eq!(
        escape_bytes(&[b'7'; 100], 40),
        format!("{}...", "7".repeat(40))
    );
    assert_eq!(escape_bytes(&[b'7'; 40], 40), "7".repeat(40));
    // 60 emoji of 4 bytes: 10 of them are 40 bytes.
    let emoji = "\u{1f600}".repeat(60);
    assert_eq!(quote(&emoji), format!("\"{}...\"", "\u{1f600}".repeat(10)));
    // A character that would cross the bound is left out whole.
    assert_eq!(escape_bytes("aé".as_bytes(), 2), "a...");
    assert_eq!(quote_bytes(b"\xff\xfe"), "\"\\xff\\xfe\"");
}

#[test]
fn paths_are_one_line_and_bounded() {
    assert_eq!(shown_path(Path::new("no\nsuch")), "no\\x0asuch");
    let exact = "p".repeat(PATH_BYTES);
    assert_eq!(shown_path(Path::new(&exact)), exact);
    let long = format!("/{}/{}", "é".repeat(200), "file.proof");
    let shown = shown_path(Path::new(&long));
    assert!(shown.ends_with("éé/file.proof"), "{shown}");
    assert!(shown.starts_with("/éé"), "{shown}");
    assert!(
        shown.len() <= PATH_HEAD_BYTES + 3 + PATH_TAIL_BYTES,
        "{shown}"
    );
}

#[test]
fn shell_words() {
    let word = |p: &str| shell_word(Path::new(p));
    assert_eq!(word("run.sgt").as_deref(), Some("run.sgt"));
    assert_eq!(
        word("/tmp/a-b_c,d=e:f@g%h+i").as_deref(),
        Some("/tmp/a-b_c,d=e:f@g%h+i")
    );
    assert_eq!(word("a b").as_deref(), Some("'a b'"));
    assert_eq!(
        word("a'b;rm -rf x.sgt").as_deref(),
        Some("'a'\\''b;rm -rf x.sgt'")
    );
    assert_eq!(word("-x.sgt").as_deref(), Some("./-x.sgt"));
    assert_eq!(word("$(reboot)").as_deref(), Some("'$(reboot)'"));
    assert_eq!(word("é.sgt").as_deref(), Some("'é.sgt'"));
    assert_eq!(word("new\nline"), None);
    assert_eq!(word("bidi\u{202e}"), None);
    assert_eq!(word(""), None);
    assert_eq!(word(&"x".repeat(PATH_BYTES + 1)), None);
}

/// What a POSIX shell makes of one word made of plain characters and
/// single-quoted strings (all [`shell_word`] writes), or `None` if the
/// word holds anything else.
fn shell_read(word: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = word.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => loop {
                match chars.next()? {
                    '\'' => break,
                    c => out.push(c),
                }
            },
            '\\' => out.push(chars.next()?),
            c if c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c) => out.push(c),
            _ => return None,
        }
    }
    Some(out)
}

proptest! {
    #[test]
    fn escaped_text_is_one_safe_line_within_the_bound(bytes in proptest::collection::vec(any::<u8>(), 0..200), max in 0usize..80) {
        let shown = escape_bytes(&bytes, max);
        prop_assert!(!shown.chars().any(needs_escape), "{shown:?}");
        // Each byte of the original is at most 4 bytes of escape
        // (`\xff`), or 10 for one character (`\u{202e}` of 3 bytes).
        prop_assert!(shown.len() <= 4 * max.min(bytes.len()) + 3);
        if bytes.len() <= max {
            prop_assert!(!shown.ends_with("...") || bytes.ends_with(b"..."));
        }
        let path = std::ffi::OsStr::from_bytes(&bytes);
        let shown = shown_path(Path::new(path));
        prop_assert!(!shown.chars().any(needs_escape), "{shown:?}");
    }

    #[test]
    fn a_shell_reads_back_the_path(text in "[ -~é\u{1f600}']{1,40}") {
        let word = shell_word(Path::new(&text)).unwrap();
        let read = shell_read(&word).unwrap();
        let expected = if text.starts_with('-') { format!("./{text}") } else { text.clone() };
        prop_assert_eq!(read, expected);
    }
}
