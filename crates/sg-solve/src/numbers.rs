//! Numbers written as the judge inputs write them: decimal digits only (no
//! sign, no `+`, no spaces, no `_`). The command line's options and
//! arguments (`grundy`'s `cmd::numbers`) and `--subtract` lists
//! ([`crate::octal_args`]) read their numbers with [`digits`].

/// `text` as a number of decimal digits only, fitting in 64 bits.
pub fn digits(text: &str) -> Result<u64, String> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err("expected a non-negative integer (digits only)".to_owned());
    }
    text.parse()
        .map_err(|_| "does not fit in 64 bits".to_owned())
}
