//! What `grundy octal` answers beyond the values, shared with every front
//! end of the engine (the command, the Python module): the compiled-in
//! catalogue's answer for a game, checked before use; a winning move as a
//! player would say it; and the message for a heap whose value is not
//! known.

use sg_octal::{HeapMove, MAX_COMPUTED_HEAP, Rules};
use sg_tables::octal::CatalogueEntry;

/// What the compiled-in catalogue has for a game.
#[derive(Debug)]
pub enum Catalogued {
    /// The game is solved there, and a run to the heap asked for would
    /// reach the same certificate: its record and its values, every one
    /// computed anew and the period certified again.
    Found {
        /// The record of the game.
        entry: CatalogueEntry,
        /// `G(0..entry.computed)`.
        values: Vec<u16>,
    },
    /// Not there (or not solved, or a run to the heap asked for would stop
    /// before the certificate): compute.
    Absent,
    /// The entry fails its check (a corrupt build): compute, and say so.
    FailedCheck,
}

/// The catalogue's answer for `rules` computed to heap `to`. The entry is
/// not taken on trust: every value is computed anew and its period
/// certified again ([`CatalogueEntry::verify`], the check of `grundy
/// tables verify`; a few milliseconds).
pub fn from_catalogue(rules: &Rules, to: u64) -> Catalogued {
    let catalogue = sg_tables::embedded_octal_catalogue();
    let Some(entry) = catalogue.get(rules) else {
        return Catalogued::Absent;
    };
    if entry.computed > to.saturating_add(1) {
        return Catalogued::Absent;
    }
    let Some(values) = entry.all_values() else {
        return Catalogued::Absent;
    };
    if entry.verify(catalogue.limit()).is_err() {
        return Catalogued::FailedCheck;
    }
    Catalogued::Found {
        entry: entry.clone(),
        values,
    }
}

/// Why `G(heap)` is not known for `rules`, whose values were computed to
/// heap `last_computed` without a certified period, and what to do:
/// compute to the heap (`raise(heap)` says how, e.g. `raise --to to
/// 5000`), unless the heap is beyond what any run computes.
pub fn unknown_value(
    rules: &Rules,
    last_computed: u64,
    heap: u64,
    raise: impl Fn(u64) -> String,
) -> String {
    let remedy = if heap <= MAX_COMPUTED_HEAP {
        raise(heap)
    } else {
        format!("heaps beyond {MAX_COMPUTED_HEAP} are answered only through a certified period")
    };
    format!(
        "G({heap}) is not known: no period of {rules} is certified up to heap {last_computed}, \
         the last heap computed; {remedy}"
    )
}

/// A winning move as a player would say it: which heap (counted from the
/// first, with its size), then what to do with it:
/// - `in the second heap (1 token), take the token` (or `take all 3`);
/// - `in the second heap (5 tokens), take 1 and leave 4`;
/// - `in the third heap (30 tokens), take 3 and split the rest into 2 and
///   25` (or `into 3, 5 and 10`);
/// - `in the first heap (10 tokens), split it into 3 and 7` (no token
///   taken: `d0 = 4`, Grundy's game).
pub fn say_move(m: &HeapMove, size: u64) -> String {
    let parts = match m.leaves.as_slice() {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => {
            let rest: Vec<String> = rest.iter().map(u64::to_string).collect();
            format!("{} and {last}", rest.join(", "))
        }
    };
    let action = match (m.take, m.leaves.len()) {
        (1, 0) if size == 1 => "take the token".to_owned(),
        (_, 0) => format!("take all {size}"),
        (0, _) => format!("split it into {parts}"),
        (take, 1) => format!("take {take} and leave {parts}"),
        (take, _) => format!("take {take} and split the rest into {parts}"),
    };
    let tokens = if size == 1 { "token" } else { "tokens" };
    format!(
        "in the {} heap ({size} {tokens}), {action}",
        ordinal(m.heap + 1)
    )
}

/// `n` as an ordinal: `first` to `tenth` in words, then `11th`, `21st`,
/// `22nd`, `23rd`, `101st`, `111th`, ...
fn ordinal(n: usize) -> String {
    const WORDS: [&str; 10] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth",
    ];
    if let Some(word) = n.checked_sub(1).and_then(|i| WORDS.get(i)) {
        return (*word).to_owned();
    }
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
