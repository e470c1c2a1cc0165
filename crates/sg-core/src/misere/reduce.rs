//! Reduction by indistinguishability: the coarsest partition of a finite
//! commutative monoid, given by its elements `0..len` and the products by
//! a generating set (`steps`), that separates the P-portion from the rest
//! and is kept by every product. Two elements fall in one class exactly
//! when no multiplier tells them apart (`xz in P` iff `yz in P` for every
//! `z`): the classes are the elements of the reduced quotient.
//!
//! Moore's refinement: start from {P, not P} and split each class by the
//! classes of the products by one generator, a generator at a time, until
//! a full round over the generators splits nothing. A partition coarser
//! than indistinguishability stays coarser after a split (indistinguishable
//! elements have indistinguishable products), so the fixed point is the
//! indistinguishability partition itself; each round costs one hash
//! lookup per element and generator, and there are at most `len` rounds
//! (each splits a class), in practice a handful.

use std::collections::HashMap;

/// The classes of the coarsest congruence refining `{P, not P}`: the class
/// of each element (ids from 0, in order of first element) and their
/// number.
pub(crate) fn indistinguishable(
    len: usize,
    in_p: impl Fn(usize) -> bool,
    steps: &[&dyn Fn(usize) -> usize],
) -> (Vec<u32>, usize) {
    let mut class: Vec<u32> = (0..len).map(|e| u32::from(in_p(e))).collect();
    let mut count = renumber(&mut class);
    loop {
        let before = count;
        for step in steps {
            let mut ids: HashMap<(u32, u32), u32> = HashMap::with_capacity(count * 2);
            let next: Vec<u32> = (0..len)
                .map(|e| {
                    let key = (class[e], class[step(e)]);
                    let fresh = ids.len() as u32;
                    *ids.entry(key).or_insert(fresh)
                })
                .collect();
            class = next;
            count = ids.len();
        }
        if count == before {
            break;
        }
    }
    renumber(&mut class);
    (class, count)
}

/// Renumbers the classes in order of their first element; returns their
/// number.
fn renumber(class: &mut [u32]) -> usize {
    let mut ids: HashMap<u32, u32> = HashMap::new();
    for c in class.iter_mut() {
        let fresh = ids.len() as u32;
        *c = *ids.entry(*c).or_insert(fresh);
    }
    ids.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cyclic_monoid_reduces_to_its_outcome_pattern() {
        // Z/6 under addition with P = {1, 4}: x ~ y iff x = y mod 3.
        let add1 = |e: usize| (e + 1) % 6;
        let (class, count) = indistinguishable(6, |e| e == 1 || e == 4, &[&add1]);
        assert_eq!(count, 3);
        for e in 0..6 {
            assert_eq!(class[e], class[(e + 3) % 6]);
        }
        // P = {1} only: nothing merges.
        let (_, count) = indistinguishable(6, |e| e == 1, &[&add1]);
        assert_eq!(count, 6);
    }
}
