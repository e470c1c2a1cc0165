//! The knight table: the Grundy value of every square `(x, y)`, `x, y < N`,
//! from the definition (mex over `sg_core::knight::MoveSet::moves_from`).
//!
//! # Region
//! A step `(1, -2)` leaves the square `N x N`, so the values inside depend
//! on squares outside. The generator computes the region
//! `R = { 2x + y <= 3M, x + 2y <= 3M }` with `M = N - 1`, which holds the
//! square and is closed under moves: every hyper-knight step lowers neither
//! `2x + y` nor `x + 2y` (the steps are checked), so a move from `R` stays in
//! `R`. `R` is stored row-major in its bounding box of side `3M / 2 + 1`;
//! the square is cut out at the end, in place.
//!
//! # Wavefronts
//! Each step lowers `d = x + y` (strictly) and does not raise
//! `u = 2x + y`. Cut the `(d, u)` plane into tiles of `T x T`: a square
//! depends only on squares in its own tile with a smaller `d`, or in tiles
//! `(i', j')` with `i' <= i` and `j' <= j`. So the tiles of one
//! anti-diagonal `i + j = level` are independent: the levels are computed
//! in order, the tiles of a level in parallel, and inside a tile by
//! increasing `d`. This is the anti-diagonal wavefront of the square, in
//! blocks: one barrier per diagonal would mean 2047 barriers around about a
//! microsecond of work each for `N = 1024`, while tiles of `T = M / 64`
//! (32 to 128) give a few hundred levels with enough tiles to share.

use crate::cells::{as_cells, load, store};
use crate::progress::Progress;
use anyhow::{Result, bail};
use rayon::prelude::*;
use sg_core::knight::MoveSet;
use sg_core::mex::mex_small;

/// The largest knight table the generator makes (`N^2` bytes).
pub(crate) const MAX_SIZE: u64 = 20_000;

/// Bytes of memory the generator needs for a table of side `size`.
pub(crate) fn memory_needed(size: u64) -> u64 {
    let side = 3 * size.saturating_sub(1) / 2 + 1;
    side * side
}

/// The Grundy value of every square with `x, y < size`, row-major
/// (`x * size + y`), in parallel on the current rayon pool. The result does
/// not depend on the number of threads.
pub(crate) fn knight_table(moves: &MoveSet, size: u64, progress: &Progress) -> Result<Vec<u8>> {
    if !(1..=MAX_SIZE).contains(&size) {
        bail!("knight size {size} is not in 1..={MAX_SIZE}");
    }
    for &(dx, dy) in moves.steps() {
        if 2 * dx + dy > 0 || dx + 2 * dy > 0 {
            bail!("step ({dx}, {dy}) raises 2x + y or x + 2y: the generator does not support it");
        }
    }
    let m = size as usize - 1;
    let side = 3 * m / 2 + 1;
    let mut region = vec![0u8; side * side];
    let cells = as_cells(&mut region);

    let tile = (m / 64).clamp(32, 128);
    let d_tiles = (2 * m) / tile + 1;
    let u_tiles = (3 * m) / tile + 1;
    let levels = d_tiles + u_tiles - 1;
    progress.start(levels as u64);
    for level in 0..levels {
        let first = level.saturating_sub(u_tiles - 1);
        let last = level.min(d_tiles - 1);
        (first..=last).into_par_iter().for_each(|i| {
            let j = level - i;
            let d_end = ((i + 1) * tile).min(2 * m + 1);
            for d in i * tile..d_end {
                // (x, y) = (u - d, 2d - u): x >= 0, y >= 0, x + 2y <= 3m.
                let u_start = (j * tile).max(d).max((3 * d).saturating_sub(3 * m));
                let u_end = ((j + 1) * tile).min(2 * d + 1).min(3 * m + 1);
                for u in u_start..u_end {
                    let (x, y) = (u - d, 2 * d - u);
                    let g = mex_small(
                        moves
                            .moves_from(x as u64, y as u64)
                            .map(|(a, b)| u32::from(load(cells, a as usize * side + b as usize))),
                    );
                    store(cells, x * side + y, g as u8);
                }
            }
        });
        progress.advance(1);
    }
    progress.finish();

    let n = size as usize;
    for x in 1..n {
        region.copy_within(x * side..x * side + n, x * n);
    }
    region.truncate(n * n);
    Ok(region)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sg_core::knight::knight_square_table;

    #[test]
    fn equals_the_sequential_definition() {
        let moves = MoveSet::hyper_knight();
        for size in [1, 2, 3, 5, 17, 64, 100, 333, 700] {
            let table = knight_table(&moves, size, &Progress::hidden()).unwrap();
            assert_eq!(table, knight_square_table(&moves, size), "size {size}");
        }
    }

    #[test]
    fn same_bytes_on_one_thread() {
        let moves = MoveSet::hyper_knight();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let one = pool.install(|| knight_table(&moves, 1024, &Progress::hidden()).unwrap());
        assert_eq!(
            one,
            knight_table(&moves, 1024, &Progress::hidden()).unwrap()
        );
    }

    #[test]
    fn refuses_unsupported_steps() {
        let moves = MoveSet::new(&[(2, -3)]).unwrap();
        assert!(knight_table(&moves, 10, &Progress::hidden()).is_err());
    }
}
