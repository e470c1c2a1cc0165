//! Tame quotients: those of misère Nim.
//!
//! In misère Nim a sum is lost by the player to move iff its nim-sum is 0
//! and some heap has 2 or more tokens, or its nim-sum is 1 and every heap
//! has at most 1 token (Bouton). So two sums are indistinguishable iff
//! they have the same nim-sum and either both have a heap of 2 or more, or
//! neither has (then the nim-sum is the parity of the heaps of 1): with
//! heaps of at most `m`, `2^(j-1) <= m < 2^j`, the quotient has the `2^j`
//! classes *(nim-sum v, a heap of 2 or more)* and the 2 classes *(parity,
//! no heap of 2 or more)*: order `2^j + 2` for `m >= 2` (6 for heaps of
//! at most 2 or 3, 10 for 4 to 7, 18 for 8 to 15), 2 for `m = 1` (the
//! parity alone) and 1 for `m = 0`. Its P-portion is `{parity 1 without
//! big heap, nim-sum 0 with one}`: 2 elements (1 for `m = 0`: none).
//!
//! Structurally, for `m >= 2`: the units are `{1, a}` with `a^2 = 1` (`a`
//! the heap of 1), there is exactly one idempotent `e` besides 1 (`*2 +
//! *2`, nim-sum 0 with a big heap), the other elements form the ideal
//! `K = Qe`, a group with identity `e` in which every element squares to
//! `e` (an elementary abelian 2-group, of order `2^j`), `ae` is not `e`,
//! and `P = {a, e}`. Conversely a bipartite monoid with these properties is
//! isomorphic to misère Nim's: `K` is `(Z/2)^j` with the distinguished
//! element `ae`, which a basis can take as its first vector (the heap of
//! 1), so `x -> (its coordinates in K, whether x is in K)` is the
//! isomorphism. Conway calls the games whose quotient is misère Nim's (or
//! trivial) *tame*; [`tame`] recognises them.

use super::monoid::{Element, IDENTITY, Monoid};

/// The misère Nim a tame quotient is: its quotient is that of misère Nim
/// with heaps of at most `max_heap` (and of every `m` with the same
/// number of binary digits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tame {
    /// 0 (trivial), 1, 2, 4, 8, ...: the smallest largest heap of misère
    /// Nim with this quotient.
    pub max_heap: u64,
}

/// Whether `monoid` (a reduced bipartite monoid) is misère Nim's quotient
/// for some set of heaps `0..=m`.
pub fn tame(monoid: &Monoid) -> Option<Tame> {
    let order = monoid.order();
    let p: Vec<Element> = monoid.elements().filter(|&x| monoid.is_p(x)).collect();
    match order {
        1 => return p.is_empty().then_some(Tame { max_heap: 0 }),
        2 => {
            let a = 1 as Element;
            return (p == [a] && monoid.mul(a, a) == IDENTITY).then_some(Tame { max_heap: 1 });
        }
        _ => {}
    }
    // K has 2^j >= 4 elements: order 2^j + 2.
    let k = order - 2;
    if !k.is_power_of_two() || k < 4 {
        return None;
    }
    let units: Vec<Element> = monoid
        .elements()
        .filter(|&x| monoid.elements().any(|y| monoid.mul(x, y) == IDENTITY))
        .collect();
    let [_, a] = units[..] else { return None };
    if monoid.mul(a, a) != IDENTITY {
        return None;
    }
    let idempotents: Vec<Element> = monoid
        .elements()
        .filter(|&x| x != IDENTITY && monoid.mul(x, x) == x)
        .collect();
    let [e] = idempotents[..] else { return None };
    let ideal: Vec<Element> = monoid
        .elements()
        .filter(|&x| monoid.mul(x, e) == x)
        .collect();
    if ideal.len() != k || ideal.contains(&IDENTITY) || ideal.contains(&a) {
        return None;
    }
    if ideal.iter().any(|&x| monoid.mul(x, x) != e) || monoid.mul(a, e) == e {
        return None;
    }
    let mut expected = vec![a, e];
    expected.sort_unstable();
    (p == expected).then_some(Tame {
        max_heap: (k / 2) as u64,
    })
}
