//! Classes of Cram components wider than their symmetries: a key that is
//! the same for components whose *graphs* of cells (joined by sides) are
//! the same, whatever the way they lie on the board
//! ([`Game::class_key`](crate::Game::class_key)).
//!
//! # Why components of one class have one nimber
//!
//! A move of Cram covers two free cells joined by a side. So Cram on a set
//! of cells is a game on the graph of those cells alone (choose an edge,
//! remove both its ends; the game Arc-Kayles): two components whose
//! graphs are isomorphic are the same game, and have the same nimber,
//! even when no rotation or reflection maps one onto the other (a path of
//! cells bent one way or another; a branch hanging left or right of the
//! cell it hangs from).
//!
//! One more rule merges graphs that are not isomorphic: *two leaves on
//! one vertex are one*. If cells `a` and `b` each have a single
//! neighbour, the same `v`, the graph without `b` has the same nimber. By
//! induction on the edges: the moves on `(a, v)` and `(b, v)` lead to the
//! same graph (the other leaf is left without a neighbour, which no move
//! can use), as does a move on `(v, w)` with and without `b`; any other
//! move leaves `a` and `b` leaves of `v`, a smaller graph of the same
//! kind. So the options of the two graphs have the same nimbers, pair by
//! pair (one of the first graph's two leaf moves has no twin, and repeats
//! the other's nimber).
//!
//! # The key
//!
//! Cells of one neighbour (leaves) are removed round by round until none
//! is left (peeling): what remains is the 2-core of the graph, every cell
//! of which has two neighbours or more; each removed cell hung from a
//! single cell, its *parent*, when it was removed, so the removed cells
//! form trees hanging from the core. Each tree is written canonically as
//! a string of brackets (the encoding of Aho, Hopcroft and Ullman: a cell
//! is `(` then the strings of its children in a fixed order then `)`),
//! two leaf children of a cell written once (the rule above). The key is
//! then the core, turned and reflected to its smallest image as the
//! canonical forms of the game are, with the string of the trees hanging
//! from each of its cells, listed in the order of the cells of that image
//! (where several images are smallest, the smallest list). When nothing
//! is left but one cell or two joined cells (the graph is a tree), the key
//! is the string of the tree hung from that centre.
//!
//! A key determines the graph it was computed from, up to isomorphism
//! and to leaves merged by the rule: the core's image is a set of cells,
//! so its graph; each of its cells' trees is given whole, and the string
//! of a tree determines it. So two components of one key have the same
//! nimber. The converse does not hold (graphs isomorphic in other ways
//! than by their trees, cores isomorphic but not congruent, get two keys),
//! which costs only searches the key would have saved.
//!
//! The key is packed into 128 bits: the core's image in the low 64 (a
//! tree's key has 0 there, a core never does), the trees' strings in the
//! high 64, each after the rank of its cell among the image's, behind a
//! leading 1. A component whose key does not fit (its core's image past
//! 64 bits, or more than 63 bits of strings), or which has no leaf (its
//! key would be its canonical form, which the table already uses), has
//! none.
//!
//! Measured on Cram 5x8 and 4x11 (one thread, with the endgame table):
//! every component the search expands was written out and its class
//! counted (the 1-dimensional Weisfeiler-Leman colours of its graph, an
//! upper bound on the classes of isomorphism): 2,038,062 distinct
//! canonical forms of 5x8 fall into at most 939,908 classes of
//! isomorphism, and trees hanging from a core account for 88% of the
//! merging that isomorphism allows (a sample of 300,000: 215,420 keys of
//! this module against 203,912 classes of colours).

use super::{Cram, Shape};
use crate::bits::Bits;

/// The most cells of a component (the bits of a `u128`).
const CELLS: usize = 128;

/// The bits of a string held behind its leading 1.
fn length(code: u64) -> u32 {
    63 - code.leading_zeros()
}

/// The string `(` then `children` then `)`, behind a leading 1: with
/// `leaf`, one leaf child first (two leaves on one cell are one, and the
/// string of a leaf, `()`, is the smallest), then the other `children`,
/// already sorted (by length, then as numbers: one fixed order); `None`
/// if it takes more than 62 bits.
#[inline]
fn code_of(leaf: bool, children: &[u64]) -> Option<u64> {
    let (mut code, mut bits): (u64, u32) = if leaf { (0b1110, 3) } else { (0b11, 1) };
    for &child in children {
        let len = length(child);
        if bits + len + 1 > 62 {
            return None;
        }
        code = code << len | (child & ((1 << len) - 1));
        bits += len;
    }
    Some(code << 1)
}

/// Cells of `live` with a live neighbour to the right, left, below and
/// above.
#[inline]
fn neighbours<B: Bits>(cram: &Cram<B>, live: B) -> [B; 4] {
    let s = cram.stride;
    [
        live & (live >> 1) & cram.not_last,
        live & (live << 1) & cram.not_first,
        live & (live >> s),
        live & (live << s),
    ]
}

/// The most cells with trees a key has room for: each takes at least 9
/// of its 63 bits (a rank of 7, a string of 2 or more).
const LABELS: usize = 7;

/// The children of the cells met so far, by bit, but leaves (a set of
/// cells with a leaf child stands for those): a thread's own, kept
/// between calls (a new one to zero cost as much as the rest of a key),
/// its counts zeroed again once a key is done.
struct Forest {
    count: [u8; CELLS],
    children: [[u64; 4]; CELLS],
}

thread_local! {
    static FOREST: std::cell::RefCell<Forest> = const {
        std::cell::RefCell::new(Forest {
            count: [0; CELLS],
            children: [[0; 4]; CELLS],
        })
    };
}

impl Forest {
    /// The string of `cell`, with a leaf child if `leaf`, and the children
    /// hung from it.
    #[inline]
    fn code(&self, cell: u32, leaf: bool) -> Option<u64> {
        let i = cell as usize;
        code_of(leaf, &self.children[i][..usize::from(self.count[i])])
    }

    /// Hangs a child of string `code` (not a leaf's) from `parent`, its
    /// children kept sorted.
    #[inline]
    fn hang(&mut self, parent: u32, code: u64) {
        let i = parent as usize;
        let n = usize::from(self.count[i]);
        let children = &mut self.children[i];
        let mut at = n;
        while at > 0 && children[at - 1] > code {
            children[at] = children[at - 1];
            at -= 1;
        }
        children[at] = code;
        self.count[i] += 1;
    }
}

impl<B: Bits> Cram<B> {
    /// The class key of the connected set of cells `free` (see the module
    /// documentation), if it has one.
    pub(super) fn class_key_of(&self, free: B) -> Option<u128> {
        let [r, l, d, u] = neighbours(self, free);
        if leaves(r, l, d, u) == B::ZERO {
            return None;
        }
        FOREST.with_borrow_mut(|forest| {
            let mut parents = B::ZERO;
            let key = self.peeled_key(free, forest, &mut parents);
            while parents != B::ZERO {
                forest.count[parents.trailing_zeros() as usize] = 0;
                parents = parents.without_lowest();
            }
            key
        })
    }

    /// The key of `free`, its trees hung in `forest` (whose counts are 0
    /// on the cells of `free`); `parents` gets the cells given children.
    fn peeled_key(&self, free: B, forest: &mut Forest, parents: &mut B) -> Option<u128> {
        let s = self.stride;
        let mut live = free;
        // The cells with a leaf hanging from them (the leaves of the first
        // round, whose strings are all `()`, are not hung one by one).
        let mut leafy = B::ZERO;
        let mut first = true;
        let core = loop {
            if live.without_lowest() == B::ZERO {
                // A tree with one centre.
                let centre = live.trailing_zeros();
                let code = forest.code(centre, leafy.has(centre))?;
                return tree_key(&[code]);
            }
            let [r, l, d, u] = neighbours(self, live);
            let leaves = leaves(r, l, d, u);
            if leaves == B::ZERO {
                break live;
            }
            if live & !leaves == B::ZERO {
                // Two cells joined, each the other's only neighbour: a
                // tree with two centres.
                let (x, y) = (
                    live.trailing_zeros(),
                    live.without_lowest().trailing_zeros(),
                );
                let a = forest.code(x, leafy.has(x))?;
                let b = forest.code(y, leafy.has(y))?;
                return tree_key(&[a.min(b), a.max(b)]);
            }
            // Each leaf hangs from its one neighbour; the leaves of one
            // round are never each other's neighbours (only two joined
            // cells, met above, could be).
            let hung = ((leaves & r) << 1)
                | ((leaves & l) >> 1)
                | ((leaves & d) << s)
                | ((leaves & u) >> s);
            *parents |= hung;
            if first {
                leafy = hung;
                first = false;
            } else {
                for (side, to) in [(r, 1i64), (l, -1), (d, i64::from(s)), (u, -i64::from(s))] {
                    let mut set = leaves & side;
                    while set != B::ZERO {
                        let cell = set.trailing_zeros();
                        set = set.without_lowest();
                        let code = forest.code(cell, leafy.has(cell))?;
                        forest.hang((i64::from(cell) + to) as u32, code);
                    }
                }
            }
            live &= !leaves;
        };
        self.core_key(core, core & *parents, leafy, forest)
    }

    /// The key of a core (a set of cells of at least two neighbours each)
    /// with the trees of `forest` hanging from its cells `hung`.
    fn core_key(&self, core: B, hung: B, leafy: B, forest: &Forest) -> Option<u128> {
        let s = self.stride;
        if hung.count_ones() as usize > LABELS {
            return None;
        }
        let (shape, top, left) = Shape::with_origin(core, s);
        // The cells with trees: (row, column) in the shape, and string.
        let mut labels = [(0u32, 0u32, 0u64); LABELS];
        let mut n = 0;
        let lane = s.trailing_zeros();
        let mut set = hung;
        while set != B::ZERO {
            let cell = set.trailing_zeros();
            set = set.without_lowest();
            let code = forest.code(cell, leafy.has(cell))?;
            labels[n] = ((cell >> lane) - top, (cell & (s - 1)) - left, code);
            n += 1;
        }
        let labels = &labels[..n];
        let images = shape.images();
        let smallest = images.iter().flatten().map(|&(image, _)| image).min()?;
        if smallest.to_u128() >> 64 != 0 {
            return None;
        }
        let mut best: Option<u64> = None;
        for &(image, transform) in images.iter().flatten() {
            if image != smallest {
                continue;
            }
            let mut placed = [(0u32, 0u64); LABELS];
            for (slot, &(row, col, code)) in placed.iter_mut().zip(labels) {
                let (row, col) = shape.map(transform, row, col);
                let bit = s * row + col;
                debug_assert!(image.has(bit), "a cell of the core maps into its image");
                let below = image & !(B::ALL << bit);
                *slot = (below.count_ones(), code);
            }
            let placed = &mut placed[..labels.len()];
            placed.sort_unstable();
            let mut key: u64 = 1;
            let mut bits = 0;
            for &(rank, code) in placed.iter() {
                let len = length(code);
                bits += 7 + len;
                if bits > 63 {
                    return None;
                }
                key = (key << 7 | u64::from(rank)) << len | (code & ((1 << len) - 1));
            }
            best = Some(best.map_or(key, |b| b.min(key)));
        }
        Some(u128::from(best?) << 64 | smallest.to_u128())
    }
}

/// Cells of exactly one live neighbour, given the cells with one to each
/// side.
#[inline]
fn leaves<B: Bits>(r: B, l: B, d: B, u: B) -> B {
    let odd = r ^ l ^ d ^ u;
    let two = (r & l) | (d & u) | ((r | l) & (d | u));
    odd & !two
}

/// The key of a tree: its centre's string, or its two centres' (sorted),
/// behind a leading 1 and a bit for one centre or two, in the high 64
/// bits; the low 64 are 0 (a core's image never is).
fn tree_key(centres: &[u64]) -> Option<u128> {
    let mut key: u64 = 0b10 | u64::from(centres.len() == 2);
    let mut bits = 1;
    for &code in centres {
        let len = length(code);
        bits += len;
        if bits > 63 {
            return None;
        }
        key = key << len | (code & ((1 << len) - 1));
    }
    Some(u128::from(key) << 64)
}
