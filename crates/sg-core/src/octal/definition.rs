//! The reference: Grundy values of a take-and-break game by the definition,
//! the mex over every option of every heap. O(n^2) for two-heap splits and
//! O(n^3) for three-heap splits: every faster path is tested against it.

use std::ops::ControlFlow;

use super::{OctalError, Rules, moves::Moves};
use crate::Mex;

/// `G(0), ..., G(to)` for `rules`, by the definition: the mex of the XOR of
/// the values of the heaps each option leaves. Fails with
/// [`OctalError::ValueOverflow`] if a value exceeds `u16::MAX` and with
/// [`OctalError::TooManyHeaps`] if `to` is beyond the engine's limit.
pub fn grundy_by_definition(rules: &Rules, to: usize) -> Result<Vec<u16>, OctalError> {
    super::check_heap_limit(to as u64)?;
    let moves = Moves::new(rules);
    let mut values: Vec<u16> = Vec::with_capacity(to + 1);
    let mut options: Vec<u32> = Vec::new();
    let mut mex = Mex::new();
    for n in 0..=to as u64 {
        options.clear();
        let _ = moves.for_each_option(n, u64::MAX, |_, parts| {
            let x = parts.iter().fold(0u16, |acc, &p| acc ^ values[p as usize]);
            options.push(u32::from(x));
            ControlFlow::Continue(())
        });
        let g = mex.mex(options.len(), options.iter().copied());
        let g = u16::try_from(g).map_err(|_| OctalError::ValueOverflow { heap: n })?;
        values.push(g);
    }
    Ok(values)
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
}
