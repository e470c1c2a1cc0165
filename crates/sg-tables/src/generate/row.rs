//! The row table: the Grundy value of every row of `width` cells, by bit
//! mask, from the definition (`sg_core::row::row_grundy_by_definition`).
//!
//! # Layers
//! A move takes a piece from bit `j` to an empty bit `k < j`, so it lowers
//! the sum of the bit indices of the pieces by `j - k >= 1`. The rows with
//! the same sum (a *layer*) therefore never lead to one another, and a
//! layer depends only on lower layers.
//!
//! To list a layer quickly, a mask is split into its high and low halves:
//! `sum(mask) = sum(lo) + sum(hi) + half * popcount(hi)`. The low halves
//! are bucketed by their sum once; layer `s` is then, for every high half
//! `hi` with shifted sum `t <= s`, the low halves of bucket `s - t`.
//!
//! # Tiles
//! A move never raises the high half either: it stays, loses a piece (one
//! jumps into the low half) or moves a piece down. So cut the plane
//! (layer, high half) into tiles of [`LAYERS_PER_TILE`] layers by a run of
//! consecutive high halves: a row depends only on rows of its own tile in
//! lower layers, or of tiles `(a', b') <= (a, b)`. The tiles are run as a
//! wavefront, as the knight table's: a tile starts when the tile of the
//! previous layers and the tile of the previous high halves are done, and
//! goes through its layers in order, the rows of each layer in address
//! order. A row is still computed only after every row it leads to, so the
//! bytes do not depend on the threads; and a tile's part of the table (a
//! 64th of it) stays in the cache across its layers, instead of a sweep
//! over the whole table per layer.
use super::Progress;
use super::cells::{as_cells, load, store};
use super::wavefront::wavefront;
use crate::views::MAX_ROW_WIDTH;
use sg_core::row::row_grundy_by_definition;

/// The widest row table the generator makes: `2^28` bytes (256 MiB) held
/// in memory, the largest it has been run and timed at (19 s on 2 cores,
/// `cargo xtask gen --out DIR --row-width 28`). A table file could hold wider rows
/// ([`MAX_ROW_WIDTH`]; checked when compiling), but not in memory here.
pub const MAX_WIDTH: u32 = 28;
const _: () = assert!(MAX_WIDTH <= MAX_ROW_WIDTH);

/// Layers in a tile.
pub const LAYERS_PER_TILE: usize = 8;

/// Tiles across the high halves (fewer when there are fewer high halves).
const HIGH_TILES: usize = 64;

/// Sum of the indices of the set bits of `mask`.
fn index_sum(mut mask: u32) -> u32 {
    let mut sum = 0;
    while mask != 0 {
        sum += mask.trailing_zeros();
        mask &= mask - 1;
    }
    sum
}

/// Values grouped by a key in `0..keys`, each group in increasing order.
struct Buckets {
    starts: Vec<usize>,
    items: Vec<u32>,
}

impl Buckets {
    fn new(count: u32, keys: usize, key: impl Fn(u32) -> usize) -> Self {
        let mut starts = vec![0usize; keys + 1];
        for v in 0..count {
            starts[key(v) + 1] += 1;
        }
        for k in 0..keys {
            starts[k + 1] += starts[k];
        }
        let mut next = starts.clone();
        let mut items = vec![0u32; count as usize];
        for v in 0..count {
            let k = key(v);
            items[next[k]] = v;
            next[k] += 1;
        }
        Self { starts, items }
    }

    fn get(&self, key: usize) -> &[u32] {
        match (self.starts.get(key), self.starts.get(key + 1)) {
            (Some(&a), Some(&b)) => &self.items[a..b],
            _ => &[],
        }
    }
}

/// The Grundy value of every row of `width <= MAX_WIDTH` cells (`2^width` bytes,
/// by mask), in parallel on the current rayon pool. The result does not
/// depend on the number of threads. `progress` counts the tiles.
///
/// # Panics
/// If `width` is not in `1..=MAX_WIDTH`.
pub fn row_table(width: u32, progress: &dyn Progress) -> Vec<u8> {
    assert!((1..=MAX_WIDTH).contains(&width), "row width {width}");
    let low_bits = width / 2;
    let high_bits = width - low_bits;
    let max_sum = (width * (width - 1) / 2) as usize;
    let low = Buckets::new(1 << low_bits, max_sum + 1, |lo| index_sum(lo) as usize);
    // Per high half: the sum of its bits' indices in the whole mask.
    let high_sums: Vec<usize> = (0..1u32 << high_bits)
        .map(|hi| (index_sum(hi) + low_bits * hi.count_ones()) as usize)
        .collect();
    let mut table = vec![0u8; 1 << width];
    let cells = as_cells(&mut table);

    let layer_tiles = (max_sum + 1).div_ceil(LAYERS_PER_TILE);
    let highs_per_tile = (high_sums.len() / HIGH_TILES).max(1);
    let high_tiles = high_sums.len().div_ceil(highs_per_tile);
    progress.start((layer_tiles * high_tiles) as u64);
    wavefront(layer_tiles, high_tiles, |a, b| {
        let layers = a * LAYERS_PER_TILE..((a + 1) * LAYERS_PER_TILE).min(max_sum + 1);
        let highs = b * highs_per_tile..((b + 1) * highs_per_tile).min(high_sums.len());
        for layer in layers {
            for hi in highs.clone() {
                let Some(bucket) = layer.checked_sub(high_sums[hi]) else {
                    continue;
                };
                let base = hi << low_bits;
                for &lo in low.get(bucket) {
                    let mask = base | lo as usize;
                    let g = row_grundy_by_definition(mask as u64, |r| {
                        u32::from(load(cells, r as usize))
                    });
                    store(cells, mask, g as u8);
                }
            }
        }
        progress.advance(1);
    });
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::NoProgress;
    use sg_core::row::{row_grundy, row_table_by_definition};

    #[test]
    fn equals_the_sequential_definition() {
        for width in 1..=16 {
            let table = row_table(width, &NoProgress);
            assert_eq!(table, row_table_by_definition(width), "width {width}");
        }
    }

    #[test]
    fn equals_the_closed_form_on_20_cells() {
        let table = row_table(20, &NoProgress);
        for (mask, &g) in table.iter().enumerate() {
            assert_eq!(u32::from(g), row_grundy(mask as u64), "row {mask:#b}");
        }
    }

    #[test]
    fn same_bytes_whatever_the_thread_count() {
        let on = |threads| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| row_table(20, &NoProgress))
        };
        let default_pool = row_table(20, &NoProgress);
        assert_eq!(on(1), default_pool);
        // More threads than cores: other interleavings of the layers.
        assert_eq!(on(5), default_pool);
    }
}
