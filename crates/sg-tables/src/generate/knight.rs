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
//! depends only on squares of its own tile with a smaller `d`, or of tiles
//! `(i', j')` with `i' <= i` and `j' <= j`. So the tiles of one
//! anti-diagonal `i + j` are independent, and a tile can start as soon as
//! the tiles `(i - 1, j)` and `(i, j - 1)` are done (they come after all the
//! others it needs). This is the anti-diagonal wavefront of the square, in
//! blocks, run as a dataflow: each tile counts the tiles it waits for, and
//! the thread that finishes the last of them starts it, so no thread waits
//! at a barrier between diagonals. (A barrier per diagonal of squares would
//! mean 2047 barriers around about a microsecond of work each for
//! `N = 1024`.) Inside a tile the squares go by increasing `d`.

use super::cells::{as_cells, load, store};
use super::wavefront::wavefront;
use super::{GenerateError, Progress};
use sg_core::knight::MoveSet;
use sg_core::mex::mex_small;
use std::sync::atomic::AtomicU8;

/// The largest knight table the generator makes (`N^2` bytes).
pub const MAX_SIZE: u64 = 20_000;

/// Bytes of memory the generator needs for a table of side `size`.
pub fn memory_needed(size: u64) -> u64 {
    let side = 3 * size.saturating_sub(1) / 2 + 1;
    side * side
}

/// The Grundy value of every square with `x, y < size`, row-major
/// (`x * size + y`), in parallel on the current rayon pool. The result does
/// not depend on the number of threads. `progress` counts the tiles.
///
/// Refuses a `size` outside `1..=MAX_SIZE` and steps that raise `2x + y` or
/// `x + 2y` (see the module documentation).
pub fn knight_table(
    moves: &MoveSet,
    size: u64,
    progress: &dyn Progress,
) -> Result<Vec<u8>, GenerateError> {
    if !(1..=MAX_SIZE).contains(&size) {
        return Err(GenerateError::KnightSize {
            size,
            max: MAX_SIZE,
        });
    }
    for &(dx, dy) in moves.steps() {
        if 2 * dx + dy > 0 || dx + 2 * dy > 0 {
            return Err(GenerateError::UnsupportedStep { dx, dy });
        }
    }
    let m = size as usize - 1;
    let side = 3 * m / 2 + 1;
    let mut region = vec![0u8; side * side];
    let cells = as_cells(&mut region);

    let tile = (m / 16).clamp(64, 256);
    let (d_tiles, u_tiles) = ((2 * m) / tile + 1, (3 * m) / tile + 1);
    // Squares with x >= min_x and y >= min_y have every move on the board:
    // their followers are at fixed offsets in the region's rows.
    let largest_drop = |along: fn(&(i32, i32)) -> i32| {
        moves
            .steps()
            .iter()
            .map(|s| -along(s))
            .max()
            .unwrap_or(0)
            .max(0) as usize
    };
    let (min_x, min_y) = (largest_drop(|s| s.0), largest_drop(|s| s.1));
    let offsets = moves
        .steps()
        .iter()
        .map(|&(dx, dy)| dx as isize * side as isize + dy as isize)
        .collect();
    let tiles = Tiles {
        moves,
        offsets,
        min_x,
        min_y,
        cells,
        side,
        m,
        tile,
    };
    progress.start((d_tiles * u_tiles) as u64);
    wavefront(d_tiles, u_tiles, |i, j| {
        tiles.compute(i, j);
        progress.advance(1);
    });

    let n = size as usize;
    for x in 1..n {
        region.copy_within(x * side..x * side + n, x * n);
    }
    region.truncate(n * n);
    Ok(region)
}

/// The tiles of the `(d, u)` plane and what computing them needs.
struct Tiles<'a> {
    moves: &'a MoveSet,
    /// Per step `(dx, dy)`: `dx * side + dy`, the follower's index from the
    /// square's.
    offsets: Vec<isize>,
    /// Squares with `x >= min_x` and `y >= min_y` have all their moves.
    min_x: usize,
    min_y: usize,
    cells: &'a [AtomicU8],
    /// Row length of the region's bounding box.
    side: usize,
    /// `N - 1`.
    m: usize,
    /// Side of a tile.
    tile: usize,
}

impl Tiles<'_> {
    /// The squares of tile `(i, j)` that lie in the region, by increasing `d`.
    fn compute(&self, i: usize, j: usize) {
        let (m, tile, side, cells) = (self.m, self.tile, self.side, self.cells);
        let d_end = ((i + 1) * tile).min(2 * m + 1);
        for d in i * tile..d_end {
            // (x, y) = (u - d, 2d - u): x >= 0, y >= 0, x + 2y <= 3m.
            let u_start = (j * tile).max(d).max((3 * d).saturating_sub(3 * m));
            let u_end = ((j + 1) * tile).min(2 * d + 1).min(3 * m + 1);
            for u in u_start..u_end {
                let (x, y) = (u - d, 2 * d - u);
                let at = x * side + y;
                let g = if x >= self.min_x && y >= self.min_y {
                    // Fewer than 64 moves: values below 64, one bit each.
                    let mut seen = 0u64;
                    for &offset in &self.offsets {
                        let value = load(cells, at.wrapping_add_signed(offset));
                        seen |= 1u64.checked_shl(u32::from(value)).unwrap_or(0);
                    }
                    (!seen).trailing_zeros()
                } else {
                    mex_small(
                        self.moves
                            .moves_from(x as u64, y as u64)
                            .map(|(a, b)| u32::from(load(cells, a as usize * side + b as usize))),
                    )
                };
                store(cells, at, g as u8);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::NoProgress;
    use sg_core::knight::knight_square_table;

    #[test]
    fn equals_the_sequential_definition() {
        let moves = MoveSet::hyper_knight();
        for size in [1, 2, 3, 5, 17, 64, 100, 333, 700] {
            let table = knight_table(&moves, size, &NoProgress).unwrap();
            assert_eq!(table, knight_square_table(&moves, size), "size {size}");
        }
    }

    #[test]
    fn same_bytes_whatever_the_thread_count() {
        let moves = MoveSet::hyper_knight();
        let on = |threads| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| knight_table(&moves, 1024, &NoProgress).unwrap())
        };
        let default_pool = knight_table(&moves, 1024, &NoProgress).unwrap();
        assert_eq!(on(1), default_pool);
        // More threads than cores: other interleavings of the tiles.
        assert_eq!(on(5), default_pool);
    }

    #[test]
    fn refuses_unsupported_steps() {
        let moves = MoveSet::new(&[(2, -3)]).unwrap();
        assert_eq!(
            knight_table(&moves, 10, &NoProgress),
            Err(GenerateError::UnsupportedStep { dx: 2, dy: -3 })
        );
        assert_eq!(
            knight_table(&MoveSet::hyper_knight(), 0, &NoProgress),
            Err(GenerateError::KnightSize {
                size: 0,
                max: MAX_SIZE
            })
        );
    }
}
