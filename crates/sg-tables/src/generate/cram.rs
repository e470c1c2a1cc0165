//! The Cram endgame table: the nimber of every free polyomino of
//! `1..=K` cells from the rules ([`crate::polyomino`]), in parallel on the
//! current rayon pool.
//!
//! The enumeration's subtrees ([`polyomino::start`]) run in parallel; then,
//! size by size, the nimbers of the polyominoes of `n` cells are computed
//! in parallel from the table of the sizes below (an option leaves pieces
//! of at most `n - 2` cells), and the size's hash is built and appended
//! ([`CramEndgameTable::push_size`]). The lookups of the generation are
//! those of the finished table. The table does not depend on the number
//! of threads: the hash of a size depends on its set of keys only, not
//! on their order.

use super::Progress;
use crate::cram::CramEndgameTable;
use crate::error::TableError;
use crate::polyomino::{self, BySize, Canonical};
use rayon::prelude::*;

/// The free polyominoes of `1..=max_cells` cells by size, the subtrees of
/// the enumeration in parallel; `progress` counts the subtrees.
///
/// # Panics
/// If `max_cells` is not in `1..=`[`polyomino::MAX_CELLS`].
pub fn free_polyominoes(max_cells: u32, canonical: &Canonical, progress: &dyn Progress) -> BySize {
    let (mut found, subtrees) = polyomino::start(max_cells, canonical);
    progress.start(subtrees.len() as u64);
    let listed = subtrees
        .par_iter()
        .fold(
            || vec![Vec::new(); max_cells as usize],
            |mut found, subtree| {
                subtree.run(max_cells, canonical, &mut found);
                progress.advance(1);
                found
            },
        )
        .collect::<Vec<BySize>>();
    for part in listed {
        for (all, keys) in found.iter_mut().zip(part) {
            all.extend(keys);
        }
    }
    found
}

/// The table of every polyomino of `1..=max_cells` cells. `progress`
/// counts the subtrees of the enumeration, then the polyominoes whose
/// nimbers are computed.
///
/// Fails if `max_cells` is not in `1..=`[`crate::cram::MAX_CELLS`], or
/// (which the tests exclude) if a nimber does not fit in four bits.
pub fn cram_endgame(
    max_cells: u32,
    progress: &dyn Progress,
) -> Result<CramEndgameTable<'static>, TableError> {
    if !(1..=crate::cram::MAX_CELLS).contains(&max_cells) {
        return Err(TableError::CramMaxCells {
            max_cells,
            max: crate::cram::MAX_CELLS,
        });
    }
    let canonical = Canonical::default();
    let found = free_polyominoes(max_cells, &canonical, progress);
    progress.start(found.iter().map(|keys| keys.len() as u64).sum());
    let mut table = CramEndgameTable::builder();
    for keys in &found {
        let nimbers = keys
            .par_iter()
            .map(|&key| table.nimber_by_definition(key, &canonical))
            .collect::<Result<Vec<u8>, TableError>>()?;
        progress.advance(keys.len() as u64);
        table.push_size(keys, &nimbers)?;
    }
    Ok(table)
}

/// [`CramEndgameTable::verify_values`] with the enumeration and each
/// size's checks in parallel on the current rayon pool.
pub fn verify_cram_endgame(table: &CramEndgameTable<'_>) -> Result<(), TableError> {
    let canonical = Canonical::default();
    let found = free_polyominoes(table.max_cells(), &canonical, &super::NoProgress);
    table.verify_values_with(&found, &canonical, |keys, check| {
        keys.par_iter().try_for_each(|&key| check(key))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::NoProgress;

    #[test]
    fn same_table_whatever_the_thread_count_and_it_verifies() {
        let on = |threads| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| cram_endgame(10, &NoProgress).unwrap())
        };
        let one = on(1);
        assert_eq!(one.to_payload(), on(5).to_payload());
        assert_eq!(one.game(), on(2).game());
        one.verify_values().unwrap();
        verify_cram_endgame(&one).unwrap();
        for cells in [0, 17] {
            assert!(matches!(
                cram_endgame(cells, &NoProgress),
                Err(TableError::CramMaxCells { max_cells, max: 16 }) if max_cells == cells
            ));
        }
    }
}
