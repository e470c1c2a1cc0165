//! A quotient as a file stores it ([`StoredQuotient`]: the product table,
//! the P-portion and the pretending function), and its check on load:
//! nothing read is trusted.
//!
//! [`check`] proves that a stored monoid is the misère quotient of the
//! heaps `0..=N` it names, from the rules alone:
//!
//! - it is a commutative monoid with identity 0 (commutativity pair by
//!   pair; associativity by Light's test, `(xy)s = x(ys)` for every `x`,
//!   `y` and every `s` of a generating set, here the heaps' elements,
//!   which must generate it);
//! - every sum of the heaps has the outcome it predicts (the proof of a
//!   candidate, `verify`, over every heap type): the map from sums to
//!   elements (onto, by the above) is a homomorphism, so two sums of one
//!   element are indistinguishable;
//! - no two elements are indistinguishable (`reduce`), so sums of
//!   distinct elements are told apart.
//!
//! Together: two sums have one element exactly when they are
//! indistinguishable, and the stored monoid is the quotient, whatever
//! wrote the file. The cost is that of
//! proving each heap once more, about what computing them cost.

use super::MAX_ORDER;
use super::bits::Bits;
use super::construct::{Construction, generated};
use super::monoid::{Element, IDENTITY, Monoid};
use super::reduce::indistinguishable;
use super::verify::{self, Unproven};
use crate::Rules;

/// A misère quotient of the heaps `0..pretending.len()` as stored: what
/// [`super::MisereQuotient::stored`] gives and
/// [`super::MisereQuotient::compute_kept`] checks and continues.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredQuotient {
    /// The number of elements.
    pub order: usize,
    /// The product table, `order * order` elements, row by row: `x y` at
    /// `x * order + y`; the identity is element 0.
    pub table: Vec<Element>,
    /// Whether each element is in the P-portion.
    pub p_portion: Vec<bool>,
    /// Each heap's element, from heap 0.
    pub pretending: Vec<Element>,
}

/// Why a stored quotient is refused.
pub(crate) type Refused = String;

/// Checks `stored` as the quotient of the game `rules` (see the module
/// doc) and gives the construction it continues from; `stop` is asked now
/// and then during the proof (`Ok(None)` when it says so).
pub(crate) fn check(
    rules: &Rules,
    max_order: usize,
    stored: StoredQuotient,
    stop: &mut dyn FnMut() -> bool,
) -> Result<Option<Construction>, Refused> {
    let StoredQuotient {
        order,
        table,
        p_portion,
        pretending,
    } = stored;
    if !(1..=MAX_ORDER).contains(&order) {
        return Err(format!("its order {order} is not from 1 to {MAX_ORDER}"));
    }
    if table.len() != order * order || p_portion.len() != order {
        return Err("its table or P-portion does not have the order's size".to_owned());
    }
    if let Some(at) = table.iter().position(|&x| usize::from(x) >= order) {
        return Err(format!(
            "its product table names element {} (at entry {at}), beyond its order {order}",
            table[at]
        ));
    }
    if pretending.is_empty() {
        return Err("it names no heap".to_owned());
    }
    if let Some(h) = pretending.iter().position(|&x| usize::from(x) >= order) {
        return Err(format!(
            "heap {h}'s element {} is beyond its order {order}",
            pretending[h]
        ));
    }
    let mut p = Bits::new(order);
    for (x, _) in p_portion.iter().enumerate().filter(|(_, in_p)| **in_p) {
        p.insert(x);
    }
    // Trusted by `from_table` only once the checks below pass.
    let monoid = Monoid::from_table(order, table, p);
    let m = &monoid;
    for x in m.elements() {
        if m.mul(IDENTITY, x) != x || m.mul(x, IDENTITY) != x {
            return Err(format!("element 0 is not its identity (0 times {x})"));
        }
        for y in 0..x {
            if m.mul(x, y) != m.mul(y, x) {
                return Err(format!(
                    "it is not commutative ({x} {y} and {y} {x} differ)"
                ));
            }
        }
    }
    // The heaps' elements must generate it...
    let mut letters: Vec<Element> = pretending.clone();
    letters.sort_unstable();
    letters.dedup();
    let reached = generated(m, &letters);
    if let Some(x) = (0..order).find(|&x| !reached.contains(x)) {
        return Err(format!("element {x} is the element of no sum of its heaps"));
    }
    // ...and then Light's test proves it associative.
    for x in m.elements() {
        if x % 64 == 0 && stop() {
            return Ok(None);
        }
        for y in m.elements() {
            let xy = m.mul(x, y);
            for &s in &letters {
                if m.mul(xy, s) != m.mul(x, m.mul(y, s)) {
                    return Err(format!(
                        "it is not associative (({x} {y}) {s} and {x} ({y} {s}) differ)"
                    ));
                }
            }
        }
    }
    // A heap without a move by the rules is the empty sum: checked before
    // the quotient's escapes are built on the heaps that have moves, which
    // must then generate it too (a file of another game's quotient fails
    // here, never there).
    let base = Construction::new(rules, max_order);
    for (h, &x) in pretending.iter().enumerate() {
        if x != IDENTITY && !base.heap_has_moves(h as u64) {
            return Err(format!(
                "heap {h} has no move, yet its element is not the identity"
            ));
        }
    }
    let construction = base.with_quotient(monoid, pretending);
    match verify::prove(
        &construction.monoid,
        &construction.partners,
        &construction.types,
        None,
        stop,
    ) {
        Ok(()) => {}
        Err(Unproven::Stopped) => return Ok(None),
        Err(Unproven::Wrong(_)) => {
            return Err("a sum of its heaps does not have the outcome it predicts".to_owned());
        }
        Err(Unproven::TooManyStates) => {
            return Err(format!(
                "its proof needs more than {} states",
                verify::MAX_STATES
            ));
        }
    }
    let classes = {
        let m = &construction.monoid;
        let steps: Vec<Box<dyn Fn(usize) -> usize + '_>> = letters
            .iter()
            .map(|&s| Box::new(move |x: usize| usize::from(m.mul(x as Element, s))) as _)
            .collect();
        let steps: Vec<&dyn Fn(usize) -> usize> = steps.iter().map(|f| f.as_ref()).collect();
        indistinguishable(order, |x| m.is_p(x as Element), &steps).1
    };
    if classes != order {
        return Err(format!(
            "{} of its elements are indistinguishable from others (it is not reduced)",
            order - classes
        ));
    }
    Ok(Some(construction))
}

/// The stored form of a construction's quotient.
pub(crate) fn store(construction: &Construction) -> StoredQuotient {
    let m = &construction.monoid;
    StoredQuotient {
        order: m.order(),
        table: m
            .elements()
            .flat_map(|x| m.elements().map(move |y| m.mul(x, y)))
            .collect(),
        p_portion: m.elements().map(|x| m.is_p(x)).collect(),
        pretending: construction.pretending.clone(),
    }
}
