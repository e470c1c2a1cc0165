//! Numbers on the command line, written as the judge inputs write them:
//! decimal digits only (no sign, no `+`, no spaces, no `_`), within the
//! option's range. One parser for every numeric option and argument of
//! `grundy`, so that `--to +5` is refused like `knight +5 3`: a usage
//! error (exit status 2) saying what is expected.

pub(crate) use sg_solve::numbers::digits;

/// For clap's `value_parser`: a number of [`digits`] from `min` to `max`,
/// as a `T` (which holds every number of that range).
pub(crate) fn number<T>(
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_only_within_the_range() {
        let threads = number::<u32>(1, 1024);
        assert_eq!(threads("2"), Ok(2));
        assert_eq!(threads("0002"), Ok(2));
        for bad in ["+2", "-2", " 2", "2 ", "", "2_0", "0x2", "²"] {
            assert!(threads(bad).unwrap_err().contains("digits only"), "{bad:?}");
        }
        assert_eq!(threads("0").unwrap_err(), "must be from 1 to 1024");
        assert_eq!(threads("1025").unwrap_err(), "must be from 1 to 1024");
        let any = number::<u64>(0, u64::MAX);
        assert_eq!(any("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(
            any("18446744073709551616").unwrap_err(),
            "does not fit in 64 bits"
        );
        assert_eq!(number::<u8>(0, 9)("10").unwrap_err(), "must be at most 9");
    }
}
