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

/// The classes of the coarsest congruence refining `{P, not P}`: the class
/// of each element (ids from 0, in order of first element) and their
/// number.
///
/// Each split by one generator is linear: the elements are sorted by their
/// class (a counting sort), and within a class the classes of the products
/// get new ids, stamped so that nothing is cleared between classes.
pub(crate) fn indistinguishable(
    len: usize,
    in_p: impl Fn(usize) -> bool,
    steps: &[&dyn Fn(usize) -> usize],
) -> (Vec<u32>, usize) {
    let mut class: Vec<u32> = (0..len).map(|e| u32::from(in_p(e))).collect();
    let mut count = renumber(&mut class);
    let mut next_class = vec![0u32; len];
    let mut order = vec![0u32; len];
    let mut start = Vec::new();
    let mut stamp = vec![0u32; len.max(1)];
    let mut fresh = vec![0u32; len.max(1)];
    let mut clock = 0u32;
    loop {
        let before = count;
        for step in steps {
            // The elements by class.
            start.clear();
            start.resize(count + 1, 0u32);
            for &c in &class {
                start[c as usize + 1] += 1;
            }
            for c in 0..count {
                start[c + 1] += start[c];
            }
            let mut fill = start.clone();
            for (e, &c) in class.iter().enumerate() {
                order[fill[c as usize] as usize] = e as u32;
                fill[c as usize] += 1;
            }
            let mut next = 0u32;
            for c in 0..count {
                clock = clock.wrapping_add(1);
                if clock == 0 {
                    stamp.iter_mut().for_each(|s| *s = 0);
                    clock = 1;
                }
                for &e in &order[start[c] as usize..start[c + 1] as usize] {
                    let k = class[step(e as usize)] as usize;
                    if stamp[k] != clock {
                        stamp[k] = clock;
                        fresh[k] = next;
                        next += 1;
                    }
                    next_class[e as usize] = fresh[k];
                }
            }
            std::mem::swap(&mut class, &mut next_class);
            count = next as usize;
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
    let top = class.iter().copied().max().map_or(0, |m| m as usize + 1);
    let mut id = vec![u32::MAX; top];
    let mut next = 0u32;
    for c in class.iter_mut() {
        let slot = &mut id[*c as usize];
        if *slot == u32::MAX {
            *slot = next;
            next += 1;
        }
        *c = *slot;
    }
    next as usize
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
