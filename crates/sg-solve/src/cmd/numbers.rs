//! Numbers on the command line, written as the judge inputs write them:
//! decimal digits only (no sign, no `+`, no spaces, no `_`), within the
//! option's range. One parser for every numeric option and argument of
//! `grundy`, so that `--to +5` is refused like `knight +5 3`: a usage
//! error (exit status 2) saying what is expected.

pub(crate) use sg_solve::numbers::{digits, number};

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
