//! The reference: Grundy values of a take-and-break game by the definition,
//! the mex over every option of every heap. O(n^2) for two-heap splits and
//! O(n^3) for three-heap splits: every faster path is tested against it.

use std::ops::ControlFlow;

use super::{OctalError, Rules, moves::Moves};
use sg_nimber::Mex;

/// `G(0), ..., G(to)` for `rules`, by the definition: the mex of the XOR of
/// the values of the heaps each option leaves. Fails with
/// [`OctalError::ValueOverflow`] if a value exceeds `u16::MAX` and with
/// [`OctalError::TooManyHeaps`] if `to` is beyond the engine's limit.
pub fn grundy_by_definition(rules: &Rules, to: usize) -> Result<Vec<u16>, OctalError> {
    super::check_heap_limit(to as u64)?;
    let moves = Moves::new(rules);
    let mut values: Vec<u16> = Vec::with_capacity(to + 1);
    let mut scratch = Scratch::default();
    for n in 0..=to as u64 {
        let g = scratch.value(&moves, &values, n)?;
        values.push(g);
    }
    Ok(values)
}

/// `G(heap)` by the definition, from the values of the smaller heaps
/// (`values` holds at least `G(0), ..., G(heap - 1)`; later ones are not
/// read): the mex over every option of `heap`. Costs one pass over the
/// options (about `heap / 2` per two-heap take, `heap^2 / 12` per
/// three-heap take): it checks a stored value against the recurrence.
/// Fails with [`OctalError::TooManyHeaps`] if `values` is too short and
/// with [`OctalError::ValueOverflow`] if the value exceeds `u16::MAX`.
pub fn grundy_of_heap(rules: &Rules, values: &[u16], heap: u64) -> Result<u16, OctalError> {
    if (values.len() as u64) < heap {
        return Err(OctalError::TooManyHeaps { heap });
    }
    Scratch::default().value(&Moves::new(rules), values, heap)
}

/// The buffers of a mex over the options of one heap, reused across heaps.
#[derive(Default)]
struct Scratch {
    options: Vec<u32>,
    mex: Mex,
}

impl Scratch {
    /// `G(n)` by the definition, from `values[..n]`.
    fn value(&mut self, moves: &Moves, values: &[u16], n: u64) -> Result<u16, OctalError> {
        self.options.clear();
        let _ = moves.for_each_option(n, u64::MAX, |_, parts| {
            let x = parts.iter().fold(0u16, |acc, &p| acc ^ values[p as usize]);
            self.options.push(u32::from(x));
            ControlFlow::Continue(())
        });
        let g = self
            .mex
            .mex(self.options.len(), self.options.iter().copied());
        u16::try_from(g).map_err(|_| OctalError::ValueOverflow { heap: n })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(code: &str, to: usize) -> Vec<u16> {
        grundy_by_definition(&Rules::parse(code).unwrap(), to).unwrap()
    }

    #[test]
    fn known_sequences() {
        // Nim (0.333...): G(n) = n.
        assert_eq!(values("0.3333333", 7), (0..8).collect::<Vec<u16>>());
        // Kayles (Winning Ways): 0 1 2 3 1 4 3 2 1 4 2 6 4 1 2 7 1 4 3 2
        assert_eq!(
            values("0.77", 19),
            [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2]
        );
        // Dawson's Kayles (0.07): 0 0 1 1 2 0 3 1 1 0 3 3 2 2 4 0
        assert_eq!(
            values("0.07", 15),
            [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0]
        );
        // Grundy's game: 0 0 0 1 0 2 1 0 2 1 0 2 1 3 2 1 3 2 4 3
        assert_eq!(
            grundy_by_definition(&Rules::grundys_game(), 19).unwrap(),
            [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3]
        );
        // Subtraction {1, 2}: n mod 3.
        let s = grundy_by_definition(&Rules::subtraction(&[1, 2]).unwrap(), 11).unwrap();
        assert_eq!(s, (0..12).map(|n| n % 3).collect::<Vec<u16>>());
        // 0.f, hand-checked: G(1) = 1 (take it), G(2) = mex{G(1)} = 0,
        // G(3) = mex{G(2), G(1)^G(1)} = 1, G(4) = mex{G(3), G(1)^G(2),
        // G(1)^G(1)^G(1)} = 0.
        assert_eq!(&values("0.f", 4), &[0, 1, 0, 1, 0]);
    }

    #[test]
    fn one_heap_agrees_with_the_sequence() {
        for code in ["0.77", "0.07", "4.007", "0.f3", "0.6"] {
            let rules = Rules::parse(code).unwrap();
            let all = grundy_by_definition(&rules, 300).unwrap();
            for n in 0..=300u64 {
                assert_eq!(grundy_of_heap(&rules, &all, n), Ok(all[n as usize]));
                assert_eq!(
                    grundy_of_heap(&rules, &all[..n as usize], n),
                    Ok(all[n as usize])
                );
            }
            assert_eq!(
                grundy_of_heap(&rules, &all[..10], 11),
                Err(OctalError::TooManyHeaps { heap: 11 })
            );
        }
    }
}
