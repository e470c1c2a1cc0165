//! The minimum excludant (`mex`) of a set of Grundy values.
//!
//! A position with `d` moves has a Grundy value of at most `d`, so values
//! above `d` never change the answer and are ignored. Small sets (`d < 64`)
//! use one machine word; larger ones use a reusable stamp array, so that no
//! call allocates once the scratch space has grown to the largest degree.

/// A Grundy value (a nimber): the value of a position of an impartial game,
/// the mex of its options' values. Every crate of `grundy` computes and
/// answers with it (the octal engine stores values as `u16` and reports
/// one that does not fit).
pub type Nimber = u32;

/// Reusable scratch space for computing `mex` of sets of any size.
#[derive(Debug, Default, Clone)]
pub struct Mex {
    /// `seen[v] == stamp` means `v` is in the current set.
    seen: Vec<u32>,
    stamp: u32,
}

impl Mex {
    /// Creates empty scratch space.
    pub fn new() -> Self {
        Self::default()
    }

    /// The smallest non-negative integer not among `values`, where `values`
    /// yields at most `len` items (the out-degree of the position).
    #[inline]
    pub fn mex<I>(&mut self, len: usize, values: I) -> u32
    where
        I: IntoIterator<Item = u32>,
    {
        if len < 64 {
            return mex_small(values);
        }
        self.mex_large(len, values)
    }

    fn mex_large<I>(&mut self, len: usize, values: I) -> u32
    where
        I: IntoIterator<Item = u32>,
    {
        if self.seen.len() <= len {
            self.seen.resize(len + 1, 0);
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // The stamp wrapped: old marks could alias the new stamp.
            self.seen.fill(0);
            self.stamp = 1;
        }
        for v in values {
            if (v as usize) <= len {
                self.seen[v as usize] = self.stamp;
            }
        }
        let stamp = self.stamp;
        self.seen[..=len]
            .iter()
            .position(|&s| s != stamp)
            .unwrap_or(len + 1) as u32
    }
}

/// `mex` of a set whose interesting members are below 64: one bit each.
/// Values of 64 and more are ignored, which is exact when the set has fewer
/// than 64 members (its mex is then at most 63).
#[inline]
pub fn mex_small<I>(values: I) -> u32
where
    I: IntoIterator<Item = u32>,
{
    let mut bits = 0u64;
    for v in values {
        if v < 64 {
            bits |= 1 << v;
        }
    }
    (!bits).trailing_zeros()
}

/// `mex` of a set held as bits (value `v` is bit `v % 64` of word
/// `v / 64`): the first bit not set, as a `usize` (a caller that keeps a
/// larger set than a [`Nimber`] holds checks the conversion). `None` when
/// every bit of `words` is set (the mex is then `64 * words.len()` or more:
/// a set made from the options of a position holds fewer values than its
/// bits, and always has an answer).
///
/// ```
/// use sg_nimber::mex::mex_of_bits;
/// assert_eq!(mex_of_bits(&[0b1011]), Some(2));
/// assert_eq!(mex_of_bits(&[u64::MAX, 0b1]), Some(65));
/// assert_eq!(mex_of_bits(&[u64::MAX]), None);
/// ```
#[inline]
pub fn mex_of_bits(words: &[u64]) -> Option<usize> {
    words
        .iter()
        .enumerate()
        .find(|(_, w)| **w != u64::MAX)
        .map(|(i, w)| i * 64 + w.trailing_ones() as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn mex_by_definition(values: &[u32]) -> u32 {
        (0..).find(|m| !values.contains(m)).unwrap()
    }

    #[test]
    fn known_values() {
        let mut m = Mex::new();
        assert_eq!(m.mex(0, []), 0);
        assert_eq!(m.mex(4, [0, 1, 2, 4]), 3);
        assert_eq!(m.mex(3, [2, 3, 5]), 0);
        let all: Vec<u32> = (0..200).collect();
        assert_eq!(m.mex(all.len(), all.iter().copied()), 200);
    }

    proptest! {
        #[test]
        fn matches_definition(values in proptest::collection::vec(0u32..150, 0..140)) {
            let mut m = Mex::new();
            prop_assert_eq!(m.mex(values.len(), values.iter().copied()), mex_by_definition(&values));
            // Reusing the scratch space must not leak the previous set.
            prop_assert_eq!(m.mex(values.len(), values.iter().copied()), mex_by_definition(&values));
            prop_assert_eq!(m.mex(1, [1]), 0);
        }

        #[test]
        fn bits_match_definition(values in proptest::collection::vec(0u32..200, 0..140)) {
            let mut words = [0u64; 4];
            for &v in &values {
                words[v as usize / 64] |= 1 << (v % 64);
            }
            let expected = mex_by_definition(&values);
            let got = mex_of_bits(&words);
            if expected < 256 {
                prop_assert_eq!(got, Some(expected as usize));
            } else {
                prop_assert_eq!(got, None);
            }
        }
    }
}
