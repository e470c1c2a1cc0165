//! The list search's scan (`search::list`): the first of a range of
//! splits whose value is among a few targets, compared a block of splits
//! at a time without a branch so that the compiler vectorises it, on any
//! target; `avx2::first_hit` compiles the same code for AVX2, and
//! `kernels::first_hit` chooses between them.

/// Values sought at once by the vectorised scan.
pub(crate) const TARGETS: usize = 8;

/// Splits compared per step of the vectorised scan.
const BLOCK: usize = 32;

/// The splits `{a, r - a}` with `lo <= a <= hi` of a split size `r`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Splits<'a> {
    /// The values known, `G(0..n)`.
    pub(crate) values: &'a [u16],
    /// The split size: the splits are `{a, r - a}`.
    pub(crate) r: usize,
    /// The smallest `a`.
    pub(crate) lo: usize,
    /// The largest `a` (`r - lo < values.len()`: both parts of every
    /// split are known).
    pub(crate) hi: usize,
}

/// The first `a` of `splits` with `G(a) ^ G(r - a)` among `targets`:
/// blocks of [`BLOCK`] splits, compared with every target without a
/// branch (the loop vectorises); the block with a hit is then searched.
#[inline(always)]
pub(crate) fn first_hit(splits: Splits<'_>, targets: &[u16; TARGETS]) -> Option<usize> {
    let Splits { values, r, lo, hi } = splits;
    let mut a = lo;
    while a + BLOCK <= hi + 1 {
        let small = &values[a..a + BLOCK];
        let large = &values[r + 1 - a - BLOCK..r + 1 - a];
        let mut hit = false;
        for j in 0..BLOCK {
            let x = small[j] ^ large[BLOCK - 1 - j];
            for &t in targets {
                hit |= x == t;
            }
        }
        if hit {
            break;
        }
        a += BLOCK;
    }
    (a..=hi).find(|&a| targets.contains(&(values[a] ^ values[r - a])))
}
