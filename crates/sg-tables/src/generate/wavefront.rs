//! A wavefront over a grid of tiles, run as a dataflow: tile `(i, j)`
//! starts as soon as tiles `(i - 1, j)` and `(i, j - 1)` are done, on the
//! thread that finished the last of them, so no thread waits at a barrier.

use std::sync::atomic::{AtomicU8, Ordering};

/// Runs `work(i, j)` for every tile of a `rows x cols` grid on the current
/// rayon pool, each after `work(i - 1, j)` and `work(i, j - 1)` have
/// returned (and so after every `work(i', j')` with `i' <= i`, `j' <= j`),
/// and sees everything they wrote. Tiles of one anti-diagonal may run at
/// the same time.
pub(crate) fn wavefront<F>(rows: usize, cols: usize, work: F)
where
    F: Fn(usize, usize) + Sync,
{
    if rows == 0 || cols == 0 {
        return;
    }
    let grid = Grid {
        cols,
        rows,
        // Per tile: how many of `(i - 1, j)` and `(i, j - 1)` are not done.
        waiting: (0..rows * cols)
            .map(|k| AtomicU8::new(u8::from(k / cols > 0) + u8::from(k % cols > 0)))
            .collect(),
        work: &work,
    };
    rayon::scope(|scope| grid.run(scope, 0, 0));
}

/// The grid and its counts of unfinished predecessors.
struct Grid<'a, F> {
    rows: usize,
    cols: usize,
    /// At `i * cols + j`.
    waiting: Vec<AtomicU8>,
    work: &'a F,
}

impl<F: Fn(usize, usize) + Sync> Grid<'_, F> {
    /// Runs tile `(i, j)`, then starts the tiles that were waiting only for
    /// it.
    fn run<'s>(&'s self, scope: &rayon::Scope<'s>, i: usize, j: usize) {
        (self.work)(i, j);
        for (ni, nj) in [(i + 1, j), (i, j + 1)] {
            if ni < self.rows && nj < self.cols {
                // AcqRel: what both predecessors wrote is visible to the
                // thread that starts the tile.
                let before = self.waiting[ni * self.cols + nj].fetch_sub(1, Ordering::AcqRel);
                if before == 1 {
                    scope.spawn(move |scope| self.run(scope, ni, nj));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn every_tile_once_after_its_predecessors() {
        for (rows, cols) in [(0, 3), (1, 1), (1, 7), (5, 1), (9, 13)] {
            let done = Mutex::new(vec![false; rows * cols]);
            wavefront(rows, cols, |i, j| {
                let mut done = done.lock().unwrap();
                assert!(i == 0 || done[(i - 1) * cols + j]);
                assert!(j == 0 || done[i * cols + j - 1]);
                assert!(!done[i * cols + j]);
                done[i * cols + j] = true;
            });
            assert!(done.into_inner().unwrap().iter().all(|&d| d));
        }
    }
}
