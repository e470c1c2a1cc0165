//! Free polyominoes and their Cram nimbers from the rules, for the Cram
//! endgame table ([`crate::cram`]): written once here, so that the
//! generator and the verifier compute the same thing.
//!
//! # Enumeration
//! Redelmeier's algorithm ("Counting polyominoes: yet another attack",
//! Discrete Mathematics 36, 1981) lists every *fixed* polyomino (up to
//! translation) of at most `K` cells exactly once: cells are added one at
//! a time from a set of untried cells, each cell of the half plane
//! `y > 0 or (y = 0 and x >= 0)` joining the untried set at most once per
//! branch, so that no polyomino is reached twice. A *free* polyomino (up
//! to the eight symmetries of the square as well) is kept when the fixed
//! one is its canonical form, the form sg-search's Cram uses as a key
//! ([`sg_search::Game::canonical`]): the smallest, as a number, of its
//! images that fit in rows of 8 cells (bit `8 * row + column`), moved to
//! the top left corner. Every free polyomino of at most 16 cells has such
//! an image, and its canonical form is one fixed polyomino, met once.
//!
//! The search tree is cut at [`SPLIT_CELLS`] cells into independent
//! [`Subtree`]s (the state of the search there: cells, untried cells and
//! marks), which the generator runs in parallel and the verifier in turn.
//! The recursion is at most `K <= 16` deep.
//!
//! # Nimbers
//! [`nimber_by_definition`]: the mex, over every domino placed on two
//! cells of the polyomino, of the XOR of the nimbers of the connected
//! pieces of what is left (a piece of one cell has no move: nimber 0; the
//! others, smaller polyominoes, are looked up). No search and no rule
//! beyond the definition of Cram and of the sum of games.

use sg_search::Game;
use sg_search::games::cram::{Cells, Cram};

/// The most cells of a polyomino listed: one of at most 16 cells has an
/// image in rows of 8 cells in a `u128`.
pub const MAX_CELLS: u32 = 16;

/// The number of free polyominoes of `n` cells at `n - 1`, for `n` up to
/// [`MAX_CELLS`] (OEIS A000105; the tests check the enumeration against
/// it).
pub const FREE_POLYOMINOES: [u64; MAX_CELLS as usize] = [
    1, 1, 2, 5, 12, 35, 108, 369, 1285, 4655, 17073, 63600, 238591, 901971, 3426576, 13079255,
];

/// Subtrees of the enumeration start at polyominoes of this many cells.
pub const SPLIT_CELLS: usize = 8;

/// The canonical form of a set of cells, as sg-search's Cram defines it.
#[derive(Debug, Clone)]
pub struct Canonical(Cram<u128>);

impl Default for Canonical {
    fn default() -> Self {
        Self(Cram::new(16, 8).expect("16 x 8 is a valid Cram board"))
    }
}

impl Canonical {
    /// The canonical form of `cells` (bit `8 * row + column`).
    #[inline]
    pub fn of(&self, cells: u128) -> u128 {
        self.0.canonical(&Cells(cells)).0
    }
}

/// Bits of column 0 of every row.
const COLUMN_0: u128 = 0x0101_0101_0101_0101_0101_0101_0101_0101;

/// The cells of `cells` connected to `seed` (one of them) by sides.
/// Written apart from sg-search's Cram (which splits positions the same
/// way) on purpose: the table is a check of the solver, so it shares only
/// the canonical form (the key) with it.
#[inline]
fn piece(cells: u128, seed: u128) -> u128 {
    let mut part = seed;
    loop {
        let grown = (part
            | ((part << 1) & !COLUMN_0)
            | ((part >> 1) & !(COLUMN_0 << 7))
            | (part << 8)
            | (part >> 8))
            & cells;
        if grown == part {
            return part;
        }
        part = grown;
    }
}

/// The nimber of the Cram position `cells` (a polyomino in rows of 8
/// cells, bit `8 * row + column`) from the definition: the mex over every
/// domino of the XOR of the nimbers of the pieces left, those of two cells
/// or more given by `lookup` (called with their canonical form). Fails
/// with the canonical form of the first piece `lookup` does not know.
pub fn nimber_by_definition(
    cells: u128,
    canonical: &Canonical,
    lookup: impl Fn(u128) -> Option<u8>,
) -> Result<u8, u128> {
    let horizontal = cells & (cells >> 1) & !(COLUMN_0 << 7);
    let vertical = cells & (cells >> 8);
    // Fewer than 64 dominoes in 16 cells: the nimbers are below 64.
    let mut seen = 0u64;
    for (mut firsts, step) in [(horizontal, 1), (vertical, 8)] {
        while firsts != 0 {
            let first = firsts & firsts.wrapping_neg();
            firsts &= firsts - 1;
            let mut rest = cells & !first & !(first << step);
            let mut x = 0u8;
            while rest != 0 {
                let part = piece(rest, rest & rest.wrapping_neg());
                rest &= !part;
                if part.count_ones() > 1 {
                    let key = canonical.of(part);
                    x ^= lookup(key).ok_or(key)?;
                }
            }
            seen |= 1u64.checked_shl(u32::from(x)).unwrap_or(0);
        }
    }
    Ok((!seen).trailing_zeros() as u8)
}

/// The canonical forms of the free polyominoes of `1..=max_cells` cells,
/// `found[n - 1]` for `n` cells, in the order the search meets them.
pub type BySize = Vec<Vec<u128>>;

/// The state of the search at a polyomino of [`SPLIT_CELLS`] cells: what
/// it needs to list every polyomino that grows from there.
#[derive(Debug, Clone)]
pub struct Subtree {
    cells: Vec<u16>,
    untried: Vec<u16>,
    marked: Vec<bool>,
}

/// The grid of the search: columns `x` in `-K..=K`, rows `y` in
/// `-1..=K`, cell `(x, y)` at `(y + 1) * width + x + K`; the cells
/// outside the half plane and the border are marked from the start.
struct Grid {
    max_cells: usize,
    width: usize,
    /// Per cell: `x + K` and `y` (for cells inside).
    xs: Vec<u8>,
    ys: Vec<u8>,
}

impl Grid {
    fn new(max_cells: u32) -> Self {
        let k = max_cells as usize;
        let width = 2 * k + 1;
        let len = width * (k + 2);
        Grid {
            max_cells: k,
            width,
            xs: (0..len).map(|i| (i % width) as u8).collect(),
            ys: (0..len)
                .map(|i| (i / width).saturating_sub(1) as u8)
                .collect(),
        }
    }

    fn origin(&self) -> u16 {
        (self.width + self.max_cells) as u16
    }

    /// The marks before the first cell: everything outside the half
    /// plane `y > 0 or (y = 0 and x >= 0)` and the box `|x| < K, y < K`,
    /// and the origin (the first untried cell).
    fn start_marks(&self) -> Vec<bool> {
        let (k, width) = (self.max_cells, self.width);
        (0..width * (k + 2))
            .map(|i| {
                let (x, row) = (i % width, i / width);
                row == 0 || row == k + 1 || x == 0 || x == 2 * k || (row == 1 && x <= k)
            })
            .collect()
    }
}

/// One run of the search, from the start or from a [`Subtree`].
struct Search<'a> {
    grid: &'a Grid,
    canonical: &'a Canonical,
    marked: Vec<bool>,
    cells: Vec<u16>,
    /// Per cell count: the least and greatest `x + K`, and the greatest
    /// `y`, of the first cells.
    bounds: Vec<(u8, u8, u8)>,
    /// Per row `y`: its cells, bit `x + K`.
    rows: [u64; MAX_CELLS as usize],
    found: &'a mut BySize,
    /// Where to leave the subtrees instead of searching them, if cutting.
    subtrees: Option<&'a mut Vec<Subtree>>,
}

impl Search<'_> {
    fn push(&mut self, cell: u16) {
        let (x, y) = (self.grid.xs[cell as usize], self.grid.ys[cell as usize]);
        let (lo, hi, top) = self.bounds.last().copied().unwrap_or((x, x, y));
        self.bounds.push((lo.min(x), hi.max(x), top.max(y)));
        self.rows[y as usize] |= 1 << x;
        self.cells.push(cell);
    }

    fn pop(&mut self) {
        let cell = self.cells.pop().expect("a cell to take back") as usize;
        self.bounds.pop();
        self.rows[self.grid.ys[cell] as usize] &= !(1 << self.grid.xs[cell]);
    }

    /// Keeps the polyomino of the cells if it is the canonical form of its
    /// free polyomino.
    fn visit(&mut self) {
        let (lo, hi, top) = *self.bounds.last().expect("a cell");
        if hi - lo >= 8 {
            return;
        }
        let mut key = 0u128;
        for y in 0..=top as usize {
            key |= u128::from((self.rows[y] >> lo) as u8) << (8 * y);
        }
        if self.canonical.of(key) == key {
            self.found[self.cells.len() - 1].push(key);
        }
    }

    /// Redelmeier's step: each untried cell in turn joins the polyomino,
    /// which is then grown with the cells that are new neighbours of it.
    fn extend(&mut self, mut untried: Vec<u16>) {
        let width = self.grid.width as u16;
        while let Some(cell) = untried.pop() {
            self.push(cell);
            self.visit();
            if self.cells.len() < self.grid.max_cells {
                let mut next = untried.clone();
                let old = next.len();
                for neighbour in [cell + 1, cell - 1, cell + width, cell - width] {
                    if !self.marked[neighbour as usize] {
                        self.marked[neighbour as usize] = true;
                        next.push(neighbour);
                    }
                }
                let added = next[old..].to_vec();
                match self.subtrees.as_deref_mut() {
                    Some(subtrees) if self.cells.len() == SPLIT_CELLS => subtrees.push(Subtree {
                        cells: self.cells.clone(),
                        untried: next,
                        marked: self.marked.clone(),
                    }),
                    _ => self.extend(next),
                }
                for neighbour in added {
                    self.marked[neighbour as usize] = false;
                }
            }
            self.pop();
        }
    }
}

/// The enumeration of the free polyominoes of `1..=max_cells` cells, cut
/// into subtrees: the polyominoes of at most [`SPLIT_CELLS`] cells
/// (listed at once), and the subtrees that list the larger ones.
///
/// # Panics
/// If `max_cells` is not in `1..=MAX_CELLS`.
pub fn start(max_cells: u32, canonical: &Canonical) -> (BySize, Vec<Subtree>) {
    assert!((1..=MAX_CELLS).contains(&max_cells), "{max_cells} cells");
    let grid = Grid::new(max_cells);
    let mut found = vec![Vec::new(); max_cells as usize];
    let mut subtrees = Vec::new();
    let mut search = Search {
        marked: grid.start_marks(),
        grid: &grid,
        canonical,
        cells: Vec::new(),
        bounds: Vec::new(),
        rows: [0; MAX_CELLS as usize],
        found: &mut found,
        subtrees: Some(&mut subtrees),
    };
    search.extend(vec![grid.origin()]);
    (found, subtrees)
}

impl Subtree {
    /// Adds to `found` the free polyominoes of at most `max_cells` cells
    /// that grow from this subtree's polyomino (larger than it).
    pub fn run(&self, max_cells: u32, canonical: &Canonical, found: &mut BySize) {
        let grid = Grid::new(max_cells);
        let mut search = Search {
            grid: &grid,
            canonical,
            marked: self.marked.clone(),
            cells: Vec::new(),
            bounds: Vec::new(),
            rows: [0; MAX_CELLS as usize],
            found,
            subtrees: None,
        };
        for &cell in &self.cells {
            search.push(cell);
        }
        search.extend(self.untried.clone());
    }
}

/// The free polyominoes of `1..=max_cells` cells by size, on the calling
/// thread.
///
/// # Panics
/// If `max_cells` is not in `1..=MAX_CELLS`.
pub fn free_polyominoes(max_cells: u32) -> BySize {
    let canonical = Canonical::default();
    let (mut found, subtrees) = start(max_cells, &canonical);
    for subtree in &subtrees {
        subtree.run(max_cells, &canonical, &mut found);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{HashMap, HashSet};

    #[test]
    fn counts_are_those_of_oeis_a000105() {
        let found = free_polyominoes(12);
        let counts: Vec<u64> = found.iter().map(|keys| keys.len() as u64).collect();
        assert_eq!(counts, FREE_POLYOMINOES[..12]);
        // Listed through the subtrees or not, the same sets.
        for max_cells in [1, 2, 7, 8, 9] {
            let small = free_polyominoes(max_cells);
            assert_eq!(small.len(), max_cells as usize);
            for (n, keys) in small.iter().enumerate() {
                let a: HashSet<_> = keys.iter().collect();
                let b: HashSet<_> = found[n].iter().collect();
                assert_eq!(a, b, "{n} cells");
            }
        }
    }

    /// Every polyomino of up to 10 cells by brute force: all sets grown
    /// cell by cell from the single cell, canonicalised and deduplicated.
    #[test]
    fn equals_growth_by_brute_force() {
        let canonical = Canonical::default();
        let mut layer: HashSet<u128> = HashSet::from([1]);
        let found = free_polyominoes(10);
        for n in 1..=10 {
            let mut listed = found[n - 1].clone();
            listed.sort_unstable();
            let mut brute: Vec<u128> = layer.iter().copied().collect();
            brute.sort_unstable();
            assert_eq!(listed, brute, "{n} cells");
            let mut next = HashSet::new();
            for &shape in &layer {
                // Room on every side: moved one row down and one column right
                // (at most 10 cells: 8 columns do not always suffice, so
                // only the images that fit are kept, and each free
                // polyomino has one of those).
                for image in images(shape) {
                    let grown = image << 9;
                    let around = (grown << 1 & !COLUMN_0)
                        | (grown >> 1 & !(COLUMN_0 << 7))
                        | grown << 8
                        | grown >> 8;
                    let mut new = around & !grown;
                    while new != 0 {
                        let cell = new & new.wrapping_neg();
                        new &= new - 1;
                        next.insert(canonical.of(grown | cell));
                    }
                }
            }
            layer = next;
        }
    }

    /// The images of a canonical shape under the 8 symmetries that fit in
    /// 7 columns and 15 rows (room for one more cell around), cell by cell.
    fn images(shape: u128) -> Vec<u128> {
        let cells: Vec<(i32, i32)> = (0..128)
            .filter(|b| shape >> b & 1 == 1)
            .map(|b| (b / 8, b % 8))
            .collect();
        let mut out = Vec::new();
        for map in 0..8 {
            let moved: Vec<(i32, i32)> = cells
                .iter()
                .map(|&(r, c)| {
                    let (r, c) = if map & 4 != 0 { (c, r) } else { (r, c) };
                    (
                        if map & 1 != 0 { -r } else { r },
                        if map & 2 != 0 { -c } else { c },
                    )
                })
                .collect();
            let top = moved.iter().map(|p| p.0).min().unwrap();
            let left = moved.iter().map(|p| p.1).min().unwrap();
            if moved.iter().all(|p| p.1 - left < 6 && p.0 - top < 14) {
                out.push(
                    moved
                        .iter()
                        .fold(0u128, |k, p| k | 1 << (8 * (p.0 - top) + p.1 - left)),
                );
            }
        }
        out
    }

    /// Cram by the plain definition: the mex over moves of the whole
    /// position, memoised, no split, no symmetry.
    fn plain(cells: u128, memo: &mut HashMap<u128, u8>) -> u8 {
        if let Some(&n) = memo.get(&cells) {
            return n;
        }
        let mut seen = 0u64;
        for bit in 0..128 {
            for step in [1, 8] {
                if bit + step < 128
                    && (step == 8 || bit % 8 != 7)
                    && cells >> bit & 1 == 1
                    && cells >> (bit + step) & 1 == 1
                {
                    let next = cells & !(1 << bit) & !(1 << (bit + step));
                    seen |= 1 << plain(next, memo);
                }
            }
        }
        let n = (!seen).trailing_zeros() as u8;
        memo.insert(cells, n);
        n
    }

    #[test]
    fn nimbers_equal_the_plain_definition() {
        let canonical = Canonical::default();
        let found = free_polyominoes(9);
        let mut known: HashMap<u128, u8> = HashMap::new();
        let mut memo = HashMap::new();
        for keys in &found {
            let mut computed = Vec::new();
            for &key in keys {
                let n = nimber_by_definition(key, &canonical, |k| known.get(&k).copied()).unwrap();
                assert_eq!(n, plain(key, &mut memo), "{key:#x}");
                computed.push((key, n));
            }
            known.extend(computed);
        }
        // A piece the lookup does not know is named.
        let l_tromino_plus = 0b111 | 1 << 8 | 1 << 16 | 1 << 17;
        assert!(nimber_by_definition(l_tromino_plus, &canonical, |_| None).is_err());
    }
}
