//! Numbers written as the judge inputs write them: decimal digits only (no
//! sign, no `+`, no spaces, no `_`). The command line's options and
//! arguments (`grundy`'s `cmd::numbers`, and `cargo xtask`'s, through
//! [`number`]) and `--subtract` lists ([`crate::octal_args`]) read their
//! numbers with [`digits`].

/// `text` as a number of decimal digits only, fitting in 64 bits.
pub fn digits(text: &str) -> Result<u64, String> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err("expected a non-negative integer (digits only)".to_owned());
    }
    text.parse()
        .map_err(|_| "does not fit in 64 bits".to_owned())
}

/// For clap's `value_parser`: a number of [`digits`] from `min` to `max`,
/// as a `T` (which holds every number of that range).
pub fn number<T>(
    min: u64,
    max: u64,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64>,
{
    move |text| {
        let value = digits(text)?;
        let out_of_range = || match min {
            0 => format!("must be at most {max}"),
            _ => format!("must be from {min} to {max}"),
        };
        if !(min..=max).contains(&value) {
            return Err(out_of_range());
        }
        T::try_from(value).map_err(|_| out_of_range())
    }
}
