//! The tokenizer on any bytes: every integer read or a located error whose
//! message is safe to print (no control character), never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sg_solve::scan::{Scanner, parse_all};

fuzz_target!(|data: &[u8]| {
    let mut sc = Scanner::new(data);
    let mut count = 0u64;
    loop {
        match sc.next_opt("an integer") {
            Ok(Some(_)) => count += 1,
            Ok(None) => {
                assert!(sc.expect_end("the integers").is_ok());
                break;
            }
            Err(e) => {
                let text = e.to_string();
                assert!(!text.chars().any(char::is_control), "{text:?}");
                assert!(e.line >= 1 && e.column >= 1);
                break;
            }
        }
    }
    if let Ok((n, _)) = parse_all(data) {
        assert_eq!(n, count);
    }
});
