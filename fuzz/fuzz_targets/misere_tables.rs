//! The misère quotient kind (9): the stored quotient of a small game, its
//! fields changed by the input (entries of the product table, bits of the
//! P-portion, heaps' elements, lengths cut) and stored under the name of
//! a game from a list, possibly another (a quotient relabelled: its heaps
//! may have no move by the new rules, or not generate it), encoded with its
//! checksums right so that the check of its content is reached; then read,
//! described and verified as `grundy tables info` and `tables verify` do.
//! Never a panic; and a file of the game's own quotient, unchanged, checks.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sg_octal::misere::{Limits, MisereQuotient, StoredQuotient};
use sg_octal::Rules;
use sg_tables::AlignedBytes;
use sg_tables::misere::encode_misere_quotient;
use std::sync::OnceLock;

/// The games a file may be named for.
const CODES: [&str; 8] = ["0.35", "0.77", "0.07", "0.26", "0.137", "0.6", "4.7", "0.54"];

/// The quotients of the first four games, to small heaps.
fn quotients() -> &'static [(&'static str, StoredQuotient)] {
    static STORED: OnceLock<Vec<(&'static str, StoredQuotient)>> = OnceLock::new();
    STORED.get_or_init(|| {
        [("0.35", 10), ("0.77", 14), ("0.07", 12), ("0.26", 9)]
            .into_iter()
            .map(|(code, to)| {
                let rules = Rules::parse(code).unwrap();
                let limits = Limits {
                    to,
                    ..Limits::default()
                };
                let quotient = MisereQuotient::compute(&rules, limits).unwrap();
                (code, quotient.stored())
            })
            .collect()
    })
}

fn verify(code: &str, stored: &StoredQuotient) -> Option<bool> {
    let bytes = encode_misere_quotient(code, "fuzz", stored).ok()?;
    let bytes = AlignedBytes::copy_from(&bytes);
    let mut out = Vec::new();
    let _ = sg_solve::tables::report("fuzz.sgt", &bytes, false, &mut out);
    sg_solve::tables::report("fuzz.sgt", &bytes, true, &mut out).ok()
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, edits)) = data.split_first() else {
        return;
    };
    let (own, stored) = &quotients()[usize::from(pick) % quotients().len()];
    let code = CODES[usize::from(pick >> 2) % CODES.len()];
    if edits.is_empty() && code == *own {
        assert_eq!(verify(code, stored), Some(true), "{code}");
        return;
    }
    let mut s = stored.clone();
    // Edits of four bytes: what to change, where (two bytes), to what.
    for edit in edits.chunks_exact(4) {
        let at = usize::from(u16::from_le_bytes([edit[1], edit[2]]));
        let value = u16::from(edit[3]);
        match edit[0] % 5 {
            0 if !s.table.is_empty() => {
                let i = at % s.table.len();
                s.table[i] = value % (s.order as u16 + 1);
            }
            1 if !s.p_portion.is_empty() => {
                let i = at % s.p_portion.len();
                s.p_portion[i] = !s.p_portion[i];
            }
            2 if !s.pretending.is_empty() => {
                let i = at % s.pretending.len();
                s.pretending[i] = value % (s.order as u16 + 1);
            }
            3 => s.pretending.truncate(at % (s.pretending.len() + 1)),
            4 => {
                let order = (at % 8).max(1);
                s.order = order;
                s.table.truncate(order * order);
                s.table.resize(order * order, 0);
                s.p_portion.resize(order, false);
                for x in s.table.iter_mut().chain(s.pretending.iter_mut()) {
                    *x %= order as u16;
                }
            }
            _ => {}
        }
    }
    let _ = verify(code, &s);
});
