//! The tokenizer on any bytes, against the definition (split on the six
//! separators; each token all digits and at most `u64::MAX`): the same
//! numbers at the same offsets, then the end or an error at the first bad
//! token, located, whose message is safe to print (no control character);
//! never a panic. `expect_end` after any number of tokens fails exactly at
//! the next token.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sg_solve::scan::{Scanner, parse_all};

fn is_separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// `(start, value)` of each token, `None` for a bad one.
fn definition(data: &[u8]) -> Vec<(usize, Option<u64>)> {
    let mut tokens = vec![];
    let mut i = 0;
    while i < data.len() {
        if is_separator(data[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < data.len() && !is_separator(data[i]) {
            i += 1;
        }
        let token = &data[start..i];
        let value = token
            .iter()
            .all(u8::is_ascii_digit)
            .then(|| std::str::from_utf8(token).ok()?.parse::<u64>().ok())
            .flatten();
        tokens.push((start, value));
    }
    tokens
}

fuzz_target!(|data: &[u8]| {
    let tokens = definition(data);
    let mut sc = Scanner::new(data);
    let mut count = 0u64;
    for &(start, value) in &tokens {
        match (sc.next_opt("an integer"), value) {
            (Ok(Some(v)), Some(want)) => {
                assert_eq!(v, want, "token at {start}");
                assert_eq!(sc.last_offset(), start);
                count += 1;
            }
            (Err(e), None) => {
                let text = e.to_string();
                assert!(!text.chars().any(char::is_control), "{text:?}");
                let at = sc.error_at(start, e.kind.clone());
                assert_eq!((e.line, e.column), (at.line, at.column), "{text}");
                break;
            }
            (got, want) => panic!("token at {start}: got {got:?}, want {want:?}"),
        }
    }
    if tokens.iter().all(|t| t.1.is_some()) {
        assert!(matches!(sc.next_opt("an integer"), Ok(None)));
        assert!(sc.expect_end("the integers").is_ok());
    }
    // `expect_end` after the first `k` tokens (`k` from the first byte).
    let good = tokens.iter().take_while(|t| t.1.is_some()).count();
    let k = data.first().map_or(0, |&b| usize::from(b)).min(good);
    let mut sc = Scanner::new(data);
    for _ in 0..k {
        sc.next("an integer").unwrap();
    }
    match (sc.expect_end("k integers"), tokens.get(k)) {
        (Ok(()), None) => {}
        (Err(e), Some(&(start, _))) => {
            let at = sc.error_at(start, e.kind.clone());
            assert_eq!((e.line, e.column), (at.line, at.column));
        }
        (got, next) => panic!("expect_end after {k}: {got:?}, next token {next:?}"),
    }
    if let Ok((n, _)) = parse_all(data) {
        assert_eq!(n, count);
    }
});
