//! Sets of quotient elements, as bit sets over the element ids `0..order`:
//! the P-portion, the sets `x^-1 P` of the elements that bring `x` into
//! it, the escape sets of heaps, the outcome rows of the construction.

/// A set of element ids below a fixed bound (the order of the quotient it
/// belongs to).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub(crate) struct Bits {
    words: Vec<u64>,
}

impl Bits {
    /// The empty set of ids below `len`.
    pub(crate) fn new(len: usize) -> Bits {
        Bits {
            words: vec![0; len.div_ceil(64)],
        }
    }

    /// Whether `i` is in the set.
    #[inline]
    pub(crate) fn contains(&self, i: usize) -> bool {
        self.words[i / 64] >> (i % 64) & 1 != 0
    }

    /// Adds `i`.
    #[inline]
    pub(crate) fn insert(&mut self, i: usize) {
        self.words[i / 64] |= 1 << (i % 64);
    }

    /// Adds every element of `other` (of the same bound).
    pub(crate) fn union_with(&mut self, other: &Bits) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a |= b;
        }
    }

    /// Keeps only the elements of `other` (of the same bound).
    pub(crate) fn intersect_with(&mut self, other: &Bits) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a &= b;
        }
    }

    /// Whether every element is in `other`.
    pub(crate) fn is_subset(&self, other: &Bits) -> bool {
        self.words
            .iter()
            .zip(&other.words)
            .all(|(a, b)| a & !b == 0)
    }

    /// Whether no element is in `other`.
    pub(crate) fn is_disjoint(&self, other: &Bits) -> bool {
        self.words.iter().zip(&other.words).all(|(a, b)| a & b == 0)
    }

    /// Whether the set holds every id below `len`.
    pub(crate) fn is_full(&self, len: usize) -> bool {
        (0..len).all(|i| self.contains(i))
    }

    /// The elements, in increasing order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        set_bits(&self.words)
    }

    /// The bytes the set takes.
    pub(crate) fn bytes(&self) -> usize {
        self.words.len() * 8
    }
}

/// The indices of the bits set in `words` (bit `i` of word `w` is `64 w +
/// i`), in increasing order.
pub(crate) fn set_bits(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(w, &word)| {
        let mut rest = word;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let bit = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            Some(w * 64 + bit)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let mut a = Bits::new(130);
        for i in [0, 5, 64, 129] {
            a.insert(i);
        }
        assert_eq!(a.iter().collect::<Vec<_>>(), [0, 5, 64, 129]);
        let mut b = Bits::new(130);
        b.insert(5);
        assert!(b.is_subset(&a) && !a.is_subset(&b));
        let mut c = Bits::new(130);
        c.insert(7);
        assert!(c.is_disjoint(&a) && !b.is_disjoint(&a));
        c.union_with(&b);
        assert_eq!(c.iter().collect::<Vec<_>>(), [5, 7]);
        c.intersect_with(&a);
        assert_eq!(c.iter().collect::<Vec<_>>(), [5]);
        let mut full = Bits::new(3);
        (0..3).for_each(|i| full.insert(i));
        assert!(full.is_full(3) && !a.is_full(130));
    }
}
