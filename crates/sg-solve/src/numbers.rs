//! Numbers written as the judge inputs write them: decimal digits only (no
//! sign, no `+`, no spaces, no `_`). The command line's options and
//! arguments (`grundy`'s `cmd::numbers`, and `cargo xtask`'s, through
//! [`number`]) and `--subtract` lists ([`crate::octal::args`]) read their
//! numbers with [`digits`]; sizes in bytes (`--memory 512M`) with
//! [`parse_size`].

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

/// Parses a size in bytes (`--max-input`, `--memory`): a number of bytes,
/// optionally followed by `K`, `M`, `G` or `T` (powers of 1024, with or
/// without `iB`).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let digit_count = text.bytes().take_while(u8::is_ascii_digit).count();
    let (number, unit) = text.split_at(digit_count);
    let number =
        digits(number).map_err(|why| format!("{why}: expected a number of bytes, e.g. 512M"))?;
    let shift = match unit {
        "" => 0,
        "K" | "KiB" => 10,
        "M" | "MiB" => 20,
        "G" | "GiB" => 30,
        "T" | "TiB" => 40,
        _ => {
            let unit = crate::error::quote(unit);
            return Err(format!("unknown unit {unit} (use K, M, G or T)"));
        }
    };
    number
        .checked_mul(1 << shift)
        .filter(|&n| n > 0)
        .ok_or_else(|| "the size must be between 1 byte and 2^64 - 1 bytes".to_owned())
}
