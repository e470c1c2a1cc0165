//! Sums of independent games: which component to move, and to which value.
//!
//! By the Sprague-Grundy theorem the player to move loses a sum of games
//! exactly when the XOR (the nim-sum) `s` of the components' values is 0.
//! Otherwise let `g` be the value of a component that has the highest set
//! bit of `s`: then `g ^ s < g`, so by the mex rule that component has a
//! follower of value `g ^ s`, and moving there makes the nim-sum 0.
//! [`component_to_move`] picks the first such component and that target
//! value; finding the follower with the target value is the caller's, as
//! only it knows the component's moves (a token's edges, a row's jumps, a
//! knight's steps, a heap's splits).

use std::convert::Infallible;
use std::ops::BitXor;

/// The component to move in a sum of games whose values XOR to `sum`, and
/// the value it must move to: `Some((index, target))` for the first
/// component (0-based, in the order of `values`) whose value `g` has the
/// highest set bit of `sum`, with `target = g ^ sum < g`; `None` when no
/// value drops, which for the true nim-sum of `values` means `sum` is 0
/// (the player to move loses).
pub fn component_to_move<V>(values: impl IntoIterator<Item = V>, sum: V) -> Option<(usize, V)>
where
    V: Copy + Ord + BitXor<Output = V>,
{
    let Ok(found) = try_component_to_move(values.into_iter().map(Ok::<V, Infallible>), sum);
    found
}

/// [`component_to_move`] for values that may fail to compute (a square too
/// far out, say): stops at the first error and returns it. Values after the
/// chosen component are not computed.
pub fn try_component_to_move<V, E>(
    values: impl IntoIterator<Item = Result<V, E>>,
    sum: V,
) -> Result<Option<(usize, V)>, E>
where
    V: Copy + Ord + BitXor<Output = V>,
{
    for (index, value) in values.into_iter().enumerate() {
        let g = value?;
        let target = g ^ sum;
        if target < g {
            return Ok(Some((index, target)));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// By the definition: the first component `i` and value `t < g_i` such
    /// that replacing `g_i` by `t` makes the XOR of all values 0.
    fn first_zeroing_move(values: &[u64]) -> Option<(usize, u64)> {
        (0..values.len()).find_map(|i| {
            (0..values[i])
                .find(|&t| {
                    let mut v = values.to_vec();
                    v[i] = t;
                    v.iter().fold(0, |a, &b| a ^ b) == 0
                })
                .map(|t| (i, t))
        })
    }

    #[test]
    fn every_sum_of_three_small_games() {
        for a in 0..16u64 {
            for b in 0..16 {
                for c in 0..16 {
                    let values = [a, b, c];
                    let sum = a ^ b ^ c;
                    let found = component_to_move(values, sum);
                    assert_eq!(found, first_zeroing_move(&values), "{values:?}");
                    assert_eq!(found.is_none(), sum == 0);
                }
            }
        }
    }

    #[test]
    fn errors_stop_the_scan() {
        let mut computed = 0;
        let values = [Ok(1u8), Err("far"), Ok(3)]
            .into_iter()
            .inspect(|_| computed += 1);
        assert_eq!(try_component_to_move(values, 2), Err("far"));
        assert_eq!(computed, 2);
        let values = [Ok(6u8), Err("never computed")];
        assert_eq!(try_component_to_move(values, 4), Ok(Some((0, 2))));
    }

    proptest! {
        #[test]
        fn matches_the_definition(values in proptest::collection::vec(0u64..64, 0..6)) {
            let sum = values.iter().fold(0, |a, &b| a ^ b);
            let found = component_to_move(values.iter().copied(), sum);
            prop_assert_eq!(found, first_zeroing_move(&values));
            prop_assert_eq!(found.is_none(), sum == 0);
        }

        #[test]
        fn huge_values(values in proptest::collection::vec(any::<u64>(), 1..6)) {
            let sum = values.iter().fold(0, |a, &b| a ^ b);
            match component_to_move(values.iter().copied(), sum) {
                None => prop_assert_eq!(sum, 0),
                Some((i, t)) => {
                    prop_assert!(t < values[i]);
                    prop_assert_eq!(sum ^ values[i] ^ t, 0);
                    // No earlier component could have moved.
                    prop_assert!(values[..i].iter().all(|&g| g ^ sum > g));
                }
            }
        }
    }
}
