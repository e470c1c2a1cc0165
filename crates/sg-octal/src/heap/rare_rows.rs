//! The rare-mark rows: the marks of step 1 for a range of split sizes,
//! computed once for a batch of heaps ([`RareMarks`]), as bits for values
//! below 512 (`word_rows` of `super::super::avx512`, `super::super::avx2`
//! and `super::super::portable`) or as bytes, with the values of the
//! first splits of each size.
//!
//! Tried and dropped: the marks kept as bits only, without the byte array,
//! when every row is bits (no gain); `.6`'s marks as rows of bytes
//! (slower; as bits, `.6` to 2^20 on one thread took 0.6x the time with
//! AVX-512, and the portable path gained as much); 64 to 384 first
//! splits (within a few percent of 192, with AVX-512 and portable).

use super::super::kernels;
use super::super::moves::Moves;
use super::super::sparse::{Sparse, Split};

/// The marks of step 1 for a range of split sizes `r`, computed once for
/// a batch: heaps `h` and `h + 1` with takes `i` and `i + 1` split the
/// same `r`. A group whose split equals the first group's shares its rows.
/// With values below 512, the rows are bits ([`kernels::word_rows`]:
/// `avx512::word_rows`: `.354` and `.376` 0.91x the time on one thread;
/// `avx2::word_rows`, with the first splits below: `.354` 0.64x the time
/// of the byte rows and `.6` 0.9x with the AVX2 search), and the values of
/// the first [`FIRST_FOUND`](crate::splits::FIRST_FOUND) splits of each `r` (rare or not) come with
/// them, which the search of each heap then skips; otherwise bytes
/// ([`mark_rows`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct RareMarks {
    lo: usize,
    hi: usize,
    width: usize,
    /// The rows are computed from the heaps below `known`.
    known: usize,
    /// The mask and flip of each group when the rows were computed.
    splits: Vec<(u16, [u32; 2])>,
    /// `rows[g][(r - lo) * width + x] != 0`: a rare split of `r` has value `x`.
    rows: Vec<Vec<u8>>,
    /// Words of 64 values per row of `word_rows`, 0 if the rows are bytes.
    words: usize,
    /// With values below 512, the rows as bits: bit `x % 64` of
    /// `word_rows[g][(r - lo) * words + x / 64]` (see `portable::word_rows`).
    word_rows: Vec<Vec<u64>>,
    /// The rows group `g` reads.
    alias: Vec<usize>,
    /// Words of 64 values per row of `first_found`, 0 if not computed.
    found_words: usize,
    /// The values of the first splits of each `r` (rare or not;
    /// `portable::first_found`), rows of `found_words` words.
    first_found: Vec<u64>,
}

impl RareMarks {
    /// The marks for `r` in `lo..hi`, from the values below `values.len()`.
    pub(crate) fn new(
        sparse: &Sparse,
        moves: &Moves,
        values: &[u16],
        lo: usize,
        hi: usize,
    ) -> RareMarks {
        let width = (1usize << sparse.bits) + 1;
        // Rows of bits for values below 512; of bytes above.
        let words = match sparse.bits {
            0..=9 => 1 << sparse.bits.saturating_sub(6),
            _ => 0,
        };
        let mut alias = Vec::new();
        let mut rows = Vec::new();
        let mut word_rows = Vec::new();
        for (g, split) in sparse.groups.iter().enumerate() {
            if g > 0 && (split.mask, split.flip) == (sparse.groups[0].mask, sparse.groups[0].flip) {
                alias.push(alias[0]);
                continue;
            }
            if words > 0 {
                alias.push(word_rows.len());
                let mut table = vec![0u64; (hi - lo) * words];
                kernels::word_rows(words, split, moves, values, lo, &mut table);
                word_rows.push(table);
                continue;
            }
            alias.push(rows.len());
            let mut table = vec![0u8; (hi - lo) * width];
            mark_rows(split, moves, values, lo, width, &mut table);
            rows.push(table);
        }
        // With the rows as bits (`words > 0`), the values of the first
        // splits too, which the searches then skip.
        let found_words = words;
        let mut first_found = vec![0u64; (hi - lo) * found_words];
        if found_words > 0 {
            for (r, row) in (lo..hi).zip(first_found.chunks_exact_mut(found_words)) {
                kernels::first_found(moves, values, r, row);
            }
        }
        RareMarks {
            first_found,
            found_words,
            lo,
            hi,
            width,
            known: values.len(),
            splits: sparse.groups.iter().map(|g| (g.mask, g.flip)).collect(),
            rows,
            words,
            word_rows,
            alias,
        }
    }

    /// The row of group `g` (now `split`) for `r`, if computed and if the
    /// group's split is still the one it was computed with, and from which
    /// heaps it was computed.
    #[inline]
    pub(super) fn row(&self, g: usize, split: &Split, r: usize) -> Option<(Row<'_>, usize)> {
        if r < self.lo || r >= self.hi || self.splits.get(g) != Some(&(split.mask, split.flip)) {
            return None;
        }
        let row = if self.words > 0 {
            let k = (r - self.lo) * self.words;
            Row::Words(&self.word_rows[self.alias[g]][k..k + self.words])
        } else {
            let k = (r - self.lo) * self.width;
            Row::Bytes(&self.rows[self.alias[g]][k..k + self.width])
        };
        Some((row, self.known))
    }

    /// The values of the first [`FIRST_FOUND`](crate::splits::FIRST_FOUND) splits of `r` (see
    /// `avx512::first_found`), if computed, and computed from the heaps
    /// below `n`.
    #[inline]
    pub(super) fn first_found(&self, r: usize, n: usize) -> Option<&[u64]> {
        if self.found_words == 0 || r < self.lo || r >= self.hi || self.known != n {
            return None;
        }
        let k = (r - self.lo) * self.found_words;
        Some(&self.first_found[k..k + self.found_words])
    }
}

/// A row of [`RareMarks`]: one byte per value, or one bit.
pub(super) enum Row<'a> {
    Bytes(&'a [u8]),
    Words(&'a [u64]),
}

/// The rows of [`RareMarks`] for `r` from `lo` on (`table` holds whole
/// rows of `width` bytes, zeroed): what `marks::mark_rare` marks for each `r`,
/// but a rare part at a time, for every `r` at once: the other parts
/// `r - a` are consecutive heaps, read in order, and no row is copied.
fn mark_rows(
    split: &Split,
    moves: &Moves,
    values: &[u16],
    lo: usize,
    width: usize,
    table: &mut [u8],
) {
    let n = values.len();
    let hi = lo + table.len() / width;
    for (&a, &ga) in split.rare.iter().zip(&split.rare_values) {
        let a = a as usize;
        if a + 1 >= hi {
            break;
        }
        // `a < r` and `r - a < n`.
        let (from, to) = (lo.max(a + 1), hi.min(n + a));
        if from >= to {
            continue;
        }
        let mut mark = |from: usize, to: usize| {
            let mut row = (from - lo) * width;
            for &g in &values[from - a..to - a] {
                table[row + usize::from(ga ^ g)] = 1;
                row += width;
            }
        };
        if moves.unequal && (from..to).contains(&(2 * a)) {
            mark(from, 2 * a);
            mark(2 * a + 1, to);
        } else {
            mark(from, to);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;
    #[cfg(target_arch = "x86_64")]
    use crate::avx2::{self, Avx2};
    #[cfg(target_arch = "x86_64")]
    use crate::avx512::{self, Avx512};
    use crate::portable;
    use crate::splits::FIRST_FOUND;
    use sg_nimber::testing::SplitMix64;

    /// The rows of bits (AVX-512 and AVX2, where the CPU has them, and the
    /// portable kernel) hold the same marks as the rows of bytes, on
    /// random values (not game values: the marks are defined for any),
    /// every split group, rows of 1 to 40 split sizes below and beyond the
    /// values known, Grundy's game included; and the values of the first
    /// splits are those of the definition.
    #[test]
    fn word_rows_equal_byte_rows() {
        #[cfg(target_arch = "x86_64")]
        let (avx512, avx2) = (Avx512::detect(), Avx2::detect());
        let mut rng = SplitMix64::new(8);
        let codes = ["0.354", "0.376", "0.6", "4.05", "0.4444", "0.137"];
        for case in 0..300 {
            let rules = match case % 7 {
                6 => Rules::grundys_game(),
                k => Rules::parse(codes[k]).unwrap(),
            };
            let moves = Moves::new(&rules);
            let n = 2 + rng.below(700) as usize;
            let bits = 6 + case % 4;
            let values: Vec<u16> = (0..n).map(|_| rng.below(1 << bits) as u16).collect();
            let mut sparse = Sparse::rebuild(&moves, &values);
            sparse.bits = sparse.bits.max(bits as u32);
            let width = (1usize << sparse.bits) + 1;
            let lo = rng.below(n as u64 + 20) as usize;
            let hi = lo + 1 + rng.below(40) as usize;
            let words = 1usize << (sparse.bits - 6);
            for split in &sparse.groups {
                let mut bytes = vec![0u8; (hi - lo) * width];
                mark_rows(split, &moves, &values, lo, width, &mut bytes);
                let mut tables = Vec::new();
                let mut table = vec![0u64; (hi - lo) * words];
                portable::word_rows(words, split, &moves, &values, lo, &mut table);
                tables.push(table);
                #[cfg(target_arch = "x86_64")]
                if let Some(cpu) = avx512 {
                    let mut table = vec![0u64; (hi - lo) * words];
                    avx512::word_rows(cpu, words, split, &moves, &values, lo, &mut table);
                    tables.push(table);
                }
                #[cfg(target_arch = "x86_64")]
                if let Some(cpu) = avx2 {
                    let mut table = vec![0u64; (hi - lo) * words];
                    avx2::word_rows(cpu, words, split, &moves, &values, lo, &mut table);
                    tables.push(table);
                }
                for table in &tables {
                    for row in 0..hi - lo {
                        for x in 0..width - 1 {
                            let bit = table[row * words + x / 64] >> (x % 64) & 1;
                            assert_eq!(
                                bit,
                                u64::from(bytes[row * width + x]),
                                "{rules} case {case}: r {}, value {x}",
                                lo + row
                            );
                        }
                    }
                }
            }
            // The first splits' values, against the definition.
            for r in lo..hi {
                let (first, last) = crate::splits::split_range(&moves, r, n);
                let mut expected = vec![0u64; words];
                for a in (first..=last).take(FIRST_FOUND) {
                    let x = usize::from(values[a] ^ values[r - a]);
                    expected[x / 64] |= 1 << (x % 64);
                }
                let mut row = vec![0u64; words];
                portable::first_found(&moves, &values, r, &mut row);
                assert_eq!(row, expected, "{rules} case {case}: r {r}");
                #[cfg(target_arch = "x86_64")]
                if let Some(cpu) = avx512 {
                    avx512::first_found(cpu, &moves, &values, r, &mut row);
                    assert_eq!(row, expected, "{rules} case {case}: r {r}");
                }
                #[cfg(target_arch = "x86_64")]
                if let Some(cpu) = avx2 {
                    avx2::first_found(cpu, &moves, &values, r, &mut row);
                    assert_eq!(row, expected, "{rules} case {case}: r {r}");
                }
            }
        }
    }
}
