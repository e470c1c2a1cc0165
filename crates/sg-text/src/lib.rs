//! Text that a message quotes, made safe to print: a token of an input,
//! an argument, a game's name read from a file, a path.
//!
//! Whatever its bytes, quoted text
//! - cannot act on a terminal: control characters (`\x1b`, a line break
//!   too: every message is one line), C1 controls, bidirectional and
//!   zero-width format characters (`\u{202e}`, as in "Trojan Source")
//!   and bytes that are not UTF-8 are written as escapes, and `\` as
//!   `\\`, so an escape in the text cannot pass for one of ours;
//! - is bounded: [`QUOTED_BYTES`] bytes of an input or argument,
//!   [`PATH_BYTES`] of a path (its start and its end, where the file's
//!   name is, when it is longer), counted in bytes of the original text
//!   and cut between whole characters.
//!
//! A path that a message suggests *running* (`grundy octal --resume
//! FILE ...`) is quoted for a POSIX shell by [`shell_word`], or not
//! offered at all when it cannot be shown whole on one line.

use std::borrow::Cow;
use std::fmt::Write;
use std::path::Path;

/// The most bytes of an input or an argument quoted in a message.
pub const QUOTED_BYTES: usize = 40;

/// The most bytes of a path shown in a message: a longer path is shown
/// as its first [`PATH_HEAD_BYTES`] bytes, `...`, and its last
/// [`PATH_TAIL_BYTES`] bytes.
pub const PATH_BYTES: usize = 160;

/// The start of a path longer than [`PATH_BYTES`] that is shown.
pub const PATH_HEAD_BYTES: usize = 60;

/// The end of a path longer than [`PATH_BYTES`] that is shown.
pub const PATH_TAIL_BYTES: usize = 96;

/// `bytes` made safe to print (see the module documentation), cut after
/// at most `max` bytes of the original (between whole characters), with
/// `...` appended when cut.
///
/// ```
/// assert_eq!(sg_text::escape_bytes(b"3\0\x1b[31m\xff", 40), "3\\x00\\x1b[31m\\xff");
/// assert_eq!(sg_text::escape_bytes("ééé".as_bytes(), 5), "éé...");
/// ```
pub fn escape_bytes(bytes: &[u8], max: usize) -> String {
    let mut out = String::new();
    let mut shown = 0;
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if shown + c.len_utf8() > max {
                out.push_str("...");
                return out;
            }
            shown += c.len_utf8();
            push_escaped(&mut out, c, true);
        }
        for &b in chunk.invalid() {
            if shown + 1 > max {
                out.push_str("...");
                return out;
            }
            shown += 1;
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out
}

/// `text` from the command line or an input, quoted for a message:
/// `"..."`, escaped as [`escape_bytes`] does and cut after
/// [`QUOTED_BYTES`] bytes.
pub fn quote(text: &str) -> String {
    quote_bytes(text.as_bytes())
}

/// Bytes (of an environment variable, an argument that is not UTF-8, a
/// file) quoted as [`quote`] does.
pub fn quote_bytes(bytes: &[u8]) -> String {
    format!("\"{}\"", escape_bytes(bytes, QUOTED_BYTES))
}

/// A path for a message: escaped as [`escape_bytes`] does (so it is on
/// one line), whole if it has at most [`PATH_BYTES`] bytes, else its
/// first [`PATH_HEAD_BYTES`] bytes, `...` and its last
/// [`PATH_TAIL_BYTES`] bytes.
///
/// ```
/// use std::path::Path;
/// assert_eq!(sg_text::shown_path(Path::new("data/row20.sgt")), "data/row20.sgt");
/// let long = format!("/{}/run.sgt", "d".repeat(300));
/// let shown = sg_text::shown_path(Path::new(&long));
/// assert!(shown.starts_with("/ddd") && shown.ends_with("ddd/run.sgt") && shown.contains("..."));
/// ```
pub fn shown_path(path: &Path) -> String {
    let bytes = path.as_os_str().as_encoded_bytes();
    if bytes.len() <= PATH_BYTES {
        return escape_bytes(bytes, usize::MAX);
    }
    let head = escape_bytes(bytes, PATH_HEAD_BYTES);
    let head = head.strip_suffix("...").unwrap_or(&head);
    // The tail from a character boundary: at most 3 bytes that continue
    // a UTF-8 sequence begun before it are skipped.
    let mut start = bytes.len() - PATH_TAIL_BYTES;
    let mut skipped = 0;
    while skipped < 3 && is_continuation(bytes[start]) {
        start += 1;
        skipped += 1;
    }
    format!("{head}...{}", escape_bytes(&bytes[start..], usize::MAX))
}

/// Whether `b` continues a UTF-8 sequence rather than starting one.
fn is_continuation(b: u8) -> bool {
    b & 0xc0 == 0x80
}

/// A whole message made one safe line: as [`escape_bytes`] does, without
/// a bound and leaving `\` as it is (a message may already hold escaped
/// text, which it leaves unchanged).
///
/// ```
/// assert_eq!(sg_text::escape_line("a\x1b[2J \\x1b\nb"), "a\\x1b[2J \\x1b\\x0ab");
/// ```
pub fn escape_line(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_escaped(&mut out, c, false);
    }
    Cow::Owned(out)
}

/// `text` with its control and invisible format characters escaped as
/// [`escape_line`] does, but its line breaks kept: for a report of
/// several lines (`grundy tables info`).
pub fn escape_lines(text: &str) -> String {
    text.split('\n')
        .map(escape_line)
        .collect::<Vec<_>>()
        .join("\n")
}

/// `path` as one word of a POSIX shell command that a message suggests
/// running: as it is when it has only characters no shell treats
/// specially (`./` put before a relative path that starts with `-`),
/// else in single quotes (a `'` in it as `'\''`). `None` when it cannot
/// be shown whole on one line, the way the shell must read it: a path
/// that is not UTF-8, holds a character [`escape_bytes`] escapes (a line
/// break, a control), or is longer than [`PATH_BYTES`]; the message then
/// describes the command instead of printing it.
pub fn shell_word(path: &Path) -> Option<String> {
    let text = path.to_str()?;
    if text.is_empty() || text.len() > PATH_BYTES || text.chars().any(needs_escape) {
        return None;
    }
    let plain = |c: char| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c);
    let text = if text.starts_with('-') {
        Cow::Owned(format!("./{text}"))
    } else {
        Cow::Borrowed(text)
    };
    if text.chars().all(plain) {
        return Some(text.into_owned());
    }
    Some(format!("'{}'", text.replace('\'', "'\\''")))
}

/// Whether a terminal would act on `c` (see [`push_escaped`]): a control,
/// an invisible format character, or the line and paragraph separators
/// (line breaks: every message is one line).
fn needs_escape(c: char) -> bool {
    c.is_control() || is_invisible_format(c) || matches!(c, '\u{2028}' | '\u{2029}')
}

/// Pushes `c`, or its escape if a terminal would act on it; `\` doubled
/// if `backslash`.
fn push_escaped(out: &mut String, c: char, backslash: bool) {
    if c.is_ascii_control() {
        let _ = write!(out, "\\x{:02x}", c as u32);
    } else if needs_escape(c) {
        let _ = write!(out, "\\u{{{:x}}}", c as u32);
    } else if c == '\\' && backslash {
        out.push_str("\\\\");
    } else {
        out.push(c);
    }
}

/// Format characters that change how text around them is shown (zero-width
/// characters and bidirectional controls, as in "Trojan Source": every
/// character of Unicode's `Bidi_Control`, the Arabic letter mark U+061C
/// too).
pub fn is_invisible_format(c: char) -> bool {
    matches!(c, '\u{61c}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{feff}')
}

#[cfg(all(test, unix))]
mod tests;

/// The examples of the crate's README.md, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
