//! Checking stored values `G(0..n)` of a game (a run that `grundy octal
//! --resume` continues, a table that `grundy tables verify` checks):
//! [`check_values`].
//!
//! Each heap's value is recomputed from the *stored* values below it, by
//! the engine's own method (the sparse-space method, exact for every
//! split: see the `sparse` module), and compared with the stored one. By
//! induction on the heaps, values that pass are the game's: heap 0 has no
//! option, and when the stored values below `h` are right, the value
//! recomputed for `h` is `G(h)`. So a wrong value anywhere is found, at
//! the first wrong heap, however the file was made.
//!
//! Each heap's check depends only on the stored values, not on the other
//! checks, so the heaps are shared by the threads of the rayon pool (with
//! feature `parallel`): ranges of [`RANGE`] heaps, a window of ranges at a
//! time in heap order, so that a check with a wrong value stops at the
//! first window holding one. A range starts from the split chosen for all
//! the values (its rare lists cut to the heaps below the range) and adds
//! each heap once checked. The cost is what computing the sequence costs
//! (every value is computed once, from options that are all known), but
//! shared by every thread: there is no sequential step.

use std::ops::{ControlFlow, Range};

use super::heap::{Scratch, first_unreached};
use super::moves::Moves;
use super::sparse::Sparse;
use super::{OctalError, Rules, check_heap_limit};

/// Heaps per range: the rare lists are copied once per range.
const RANGE: usize = 1 << 12;

/// Ranges per window and thread.
const RANGES_PER_THREAD: usize = 4;

/// Checks that `values` are `G(0), G(1), ...` of `rules`: every heap's
/// value is recomputed from the values before it. Fails at the first
/// heap whose stored value is not the game's
/// ([`OctalError::WrongValue`]); [`OctalError::OutOfMemory`] if the
/// lists of the check cannot be had. `progress` is called now and then
/// (on the calling thread) with the number of heaps checked.
///
/// ```
/// use sg_octal::{OctalError, Rules, check_values, grundy_by_definition};
/// let kayles = Rules::parse("0.77").unwrap();
/// let mut values = grundy_by_definition(&kayles, 500).unwrap();
/// assert_eq!(check_values(&kayles, &values, &mut |_| {}), Ok(()));
/// values[300] ^= 1;
/// assert!(matches!(
///     check_values(&kayles, &values, &mut |_| {}),
///     Err(OctalError::WrongValue { heap: 300, .. })
/// ));
/// ```
pub fn check_values(
    rules: &Rules,
    values: &[u16],
    progress: &mut dyn FnMut(u64),
) -> Result<(), OctalError> {
    check_values_watched(rules, values, &mut |checked| {
        progress(checked);
        ControlFlow::Continue(())
    })
    .map(|_| ())
}

/// [`check_values`], asking `watch` after each batch of heaps checked (with
/// their number) whether to go on: `Ok(false)` when it said to stop before
/// the end (what was checked is then right, the rest unknown).
pub fn check_values_watched(
    rules: &Rules,
    values: &[u16],
    watch: &mut dyn FnMut(u64) -> ControlFlow<()>,
) -> Result<bool, OctalError> {
    if let Some(last) = values.len().checked_sub(1) {
        check_heap_limit(last as u64)?;
    }
    let moves = Moves::new(rules);
    let sparse =
        Sparse::try_rebuild(&moves, values).map_err(|_| OctalError::OutOfMemory { heap: 0 })?;
    let window = RANGE * RANGES_PER_THREAD * threads();
    let mut start = 0;
    while start < values.len() {
        let end = (start + window).min(values.len());
        let ranges: Vec<Range<usize>> = (start..end)
            .step_by(RANGE)
            .map(|a| a..(a + RANGE).min(end))
            .collect();
        let check = |range: &Range<usize>| check_range(&sparse, &moves, values, range.clone());
        #[cfg(feature = "parallel")]
        let checked: Vec<Result<(), OctalError>> = {
            use rayon::prelude::*;
            ranges.par_iter().map(check).collect()
        };
        #[cfg(not(feature = "parallel"))]
        let checked: Vec<Result<(), OctalError>> = ranges.iter().map(check).collect();
        // The ranges are in heap order: the first error is at the first
        // wrong heap.
        checked.into_iter().collect::<Result<(), _>>()?;
        if watch(end as u64).is_break() && end < values.len() {
            return Ok(false);
        }
        start = end;
    }
    Ok(true)
}

/// The threads that share the check: the current rayon pool's.
fn threads() -> usize {
    #[cfg(feature = "parallel")]
    return rayon::current_num_threads().max(1);
    #[cfg(not(feature = "parallel"))]
    1
}

/// Checks the heaps of `range` from the stored values below each.
fn check_range(
    sparse: &Sparse,
    moves: &Moves,
    values: &[u16],
    range: Range<usize>,
) -> Result<(), OctalError> {
    let out_of_memory = |heap: usize| OctalError::OutOfMemory { heap: heap as u64 };
    let mut known = sparse
        .truncated(range.start)
        .map_err(|_| out_of_memory(range.start))?;
    let mut scratch = Scratch::default();
    for h in range {
        // Every option of `h` leaves heaps below `h`: the first value no
        // option reaches is the heap's value.
        let expected =
            first_unreached(&known, moves, &values[..h], h, 1, None, &mut scratch).first();
        let stored = values[h];
        if expected != usize::from(stored) {
            return Err(OctalError::WrongValue {
                heap: h as u64,
                stored,
                expected: expected as u64,
            });
        }
        if h > 0 {
            known.push_rare(h, stored).map_err(|_| out_of_memory(h))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Sequence, grundy_by_definition};
    use sg_nimber::testing::SplitMix64;

    /// Right values pass; any one value changed fails at its heap, on
    /// octal, hexadecimal and subtraction codes and Grundy's game, across
    /// the ranges and windows.
    #[test]
    fn a_changed_value_is_found_at_its_heap() {
        let mut rng = SplitMix64::new(21);
        for code in [
            "0.77",
            "0.6",
            "4.007",
            "0.3033",
            "0.f",
            "0.137",
            "grundys-game",
        ] {
            let rules = Rules::parse(code).unwrap();
            let len = if rules.is_hexadecimal() {
                300
            } else {
                2 * RANGE + 100
            };
            // The engine's values (tested against the definition apart),
            // without stopping at a period.
            let mut values = computed(&rules, len);
            assert_eq!(check_values(&rules, &values, &mut |_| {}), Ok(()), "{code}");
            let mut heaps = vec![0, 1, 2, len - 1];
            heaps.extend((0..3).map(|_| rng.below(len as u64) as usize));
            if len > RANGE {
                heaps.extend([RANGE - 1, RANGE, 2 * RANGE + 1]);
            }
            for heap in heaps {
                let right = values[heap];
                for wrong in [right ^ 1, u16::MAX - heap as u16 % 2] {
                    values[heap] = wrong;
                    let found = check_values(&rules, &values, &mut |_| {});
                    assert_eq!(
                        found,
                        Err(OctalError::WrongValue {
                            heap: heap as u64,
                            stored: wrong,
                            expected: u64::from(right),
                        }),
                        "{code} heap {heap}"
                    );
                }
                values[heap] = right;
            }
        }
    }

    /// `G(0..len)` by the engine, however far its period.
    fn computed(rules: &Rules, len: usize) -> Vec<u16> {
        let mut sequence = Sequence::new(rules.clone());
        sequence.extend_to(len as u64 - 1, &mut |_| {}).unwrap();
        let values: Vec<u16> = (0..len as u64)
            .map(|h| sequence.value(h).unwrap())
            .collect();
        let checked = len.min(301);
        let reference = grundy_by_definition(rules, checked - 1).unwrap();
        assert_eq!(values[..checked], reference, "{rules}");
        values
    }

    /// Values that are the game's from a changed start on are still
    /// refused at the first changed heap (a file of another game).
    #[test]
    fn another_game_is_refused_at_its_first_difference() {
        let kayles = Rules::parse("0.77").unwrap();
        let dawson = Rules::parse("0.07").unwrap();
        let values = computed(&dawson, 2000);
        let first = computed(&kayles, 2000)
            .iter()
            .zip(&values)
            .position(|(a, b)| a != b)
            .unwrap();
        assert!(matches!(
            check_values(&kayles, &values, &mut |_| {}),
            Err(OctalError::WrongValue { heap, .. }) if heap == first as u64
        ));
    }

    /// Progress reaches every heap, in order; no values pass at once.
    #[test]
    fn progress_and_no_values() {
        let rules = Rules::parse("0.6").unwrap();
        let values = computed(&rules, 20_001);
        let mut seen = Vec::new();
        check_values(&rules, &values, &mut |n| seen.push(n)).unwrap();
        assert!(seen.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(seen.last(), Some(&20_001));
        assert_eq!(check_values(&rules, &[], &mut |_| panic!()), Ok(()));
    }
}
