//! Node-Kayles: players in turn pick a vertex of an undirected graph and
//! remove it together with its neighbours; the player who cannot pick one
//! (the graph is empty) loses.
//!
//! ```
//! use sg_search::games::node_kayles::NodeKayles;
//! use sg_search::{Game, Solver};
//!
//! // A 5-cycle: every move leaves two adjacent vertices, a win for the
//! // next player, so the player to move loses.
//! let cycle = NodeKayles::<u64>::new(5, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]).unwrap();
//! let solver = Solver::new(&cycle);
//! assert_eq!(solver.nimber(&cycle.start()).unwrap(), 0);
//! assert_eq!(solver.winning_move(&cycle.start()).unwrap(), None);
//!
//! // The 3 x 16 grid, vertex 16 r + c.
//! let grid = NodeKayles::<u64>::grid(3, 16).unwrap();
//! let solver = Solver::new(&grid);
//! assert_eq!(solver.nimber(&grid.start()).unwrap(), 3);
//! let vertex = solver.winning_move(&grid.start()).unwrap().unwrap();
//! let next = grid.play(&grid.start(), &vertex);
//! assert_eq!(solver.nimber(&next).unwrap(), 0);
//! ```
//!
//! A position is the set of remaining vertices, bit `v` for vertex `v` in
//! the input's numbering, in a `u64` (graphs of at most 64 vertices), a
//! `u128` (at most 128) or a [`U256`](crate::bits::U256) (at most 256). A
//! move is a vertex; playing it removes its closed neighbourhood (a mask
//! computed once per vertex).
//!
//! # Components
//!
//! A position splits into the connected components of the graph its
//! vertices induce: a move removes vertices of one component only, so the
//! position is their disjunctive sum. A component is grown from a seed
//! vertex by a breadth-first search on sets: the next layer is the union
//! of the closed neighbourhoods of the frontier, within the position.
//!
//! # Nimbers known without search
//!
//! [`Game::known_nimber`] recognises, from the degrees inside a set of
//! vertices (and, for paths and cycles, its connectedness), then from its
//! symmetries:
//!
//! - no vertex: 0;
//! - a clique (every two vertices adjacent; one vertex included): 1, as
//!   every move removes every vertex;
//! - a path of `m` vertices: Dawson's chess `0.137`, `G(m)`. Picking
//!   vertex `i` of a path `0, ..., m - 1` leaves the paths `0 .. i - 2` and
//!   `i + 2 .. m - 1`, of `max(i - 1, 0)` and `max(m - i - 2, 0)` vertices:
//!   these are the moves of `0.137` on a heap of `m` (take 1 only as the
//!   whole heap, 2 from an end or as the whole heap, 3 anywhere). The
//!   values are computed by that definition at construction for `m` up to
//!   the number of vertices;
//! - a cycle of `m >= 4` vertices: every move leaves a path of `m - 3`, so
//!   the nimber is `mex {G(m - 3)}`: 1 when `G(m - 3) = 0`, else 0;
//! - a star (one centre joined to `k >= 2` leaves, no other edge): the
//!   centre leaves nothing (0), a leaf leaves `k - 1` isolated vertices
//!   (`(k - 1) mod 2`), so the nimber is `mex {0, (k - 1) mod 2}`: 2 for
//!   `k` even, 1 for `k` odd;
//! - a **symmetric loss**: a set `S` of vertices with a symmetry `s` (an
//!   automorphism of the graph `S` induces, with `s(s(v)) = v`) that maps
//!   no vertex of `S` into its own closed neighbourhood (`s(v) != v`, and
//!   `s(v)` not a neighbour of `v`): nimber 0. The second player answers
//!   each vertex `v` with `s(v)`: it is still there (picking `v` removed
//!   only `v` and its neighbours), and what remains, `S` without the
//!   closed neighbourhoods of `v` and `s(v)`, is again mapped onto itself
//!   by `s`, with the same property; so the second player always has a
//!   move, and the first runs out first. The symmetries tried are those
//!   the canonical form tries (below) that are their own inverse: on a grid
//!   the mirror images (columns reversed: no cell on the middle column, or
//!   no row with both middle cells; rows reversed, alike), the half turn
//!   (not the central cell, nor both central cells of the middle row or
//!   column) and, for a square shape, the reflections in its diagonals
//!   (nothing on that diagonal); on other graphs the automorphisms found
//!   that are their own inverse, each with the vertices it maps into their
//!   own closed neighbourhood listed once.
//!
//! # Grids with both sides even are lost
//!
//! **Claim.** Node-Kayles on the `R x C` grid with `R` and `C` both even
//! has nimber 0: the player to move loses.
//!
//! *Proof.* The half turn `t(r, c) = (R - 1 - r, C - 1 - c)` maps the grid
//! onto itself, edges to edges. A cell and its image differ by
//! `(R - 1 - 2r, C - 1 - 2c)`, two odd numbers, so they are at distance at
//! least 2 along the grid: no cell is its own image or a neighbour of it.
//! The whole grid is thus a symmetric loss for `t` (above): the second
//! player answers each vertex `v` with `t(v)`, which is still there, and
//! the first runs out of moves first. ∎
//!
//! The solver uses it through the symmetric losses: [`Game::reduce`] finds
//! the start of an even by even grid (and every set of it that the half
//! turn maps onto itself avoiding the centre) lost without search, and a
//! certificate of such a grid has no claim: both checkers find its nimber
//! by the same rule. The grid odd one way and even the other is no such
//! loss (the central row or column holds two cells each the other's
//! neighbour's image), and its nimber is searched: 4 x 5 is 0, but 2 x 5 is
//! 1.
//!
//! # Grids by shifts
//!
//! On a grid, the neighbours of a whole set are four shifts of it (a cell's
//! left and right neighbours are the bits beside it in its row, those
//! above and below `C` bits away), so a component grows by a layer of
//! neighbours at a time, and the degrees the closed forms need come from
//! the set's horizontal and vertical edges (`set & set >> 1`, `set & set >>
//! C`) and the cells with three neighbours among four, a few operations
//! on whole sets instead of one per vertex.
//!
//! # Canonical forms
//!
//! Two kinds, chosen at construction:
//!
//! - **Grid graphs** (made by [`NodeKayles::grid`], or given as an edge
//!   list equal to the `R x C` grid numbered `r * C + c`): a component is
//!   moved to the top left corner, and the canonical form is the smallest,
//!   as a number, of its images under the symmetries of the rectangle
//!   (mirror, upside down, half turn) and, where the transposed shape fits
//!   in the grid, of the square. Translations and these symmetries map the
//!   grid's edges inside the shape to edges, so the images induce the same
//!   graph. This merges every two components of the grid that differ by a
//!   translation and a symmetry; it does not merge shapes that are
//!   isomorphic as graphs in other ways (a bent path and a straight one).
//! - **Other graphs**: the automorphism group of the input graph is
//!   computed once (colour refinement, then a backtracking search that
//!   extends a partial map vertex by vertex in breadth-first order,
//!   keeping adjacency, with caps of [`MAX_AUTOMORPHISMS`] elements and
//!   [`AUTOMORPHISM_STEPS`] candidate checks); the canonical form of a
//!   component is the smallest of its images under the automorphisms
//!   found. An automorphism maps a set of vertices to a set inducing an
//!   isomorphic graph, so any image is a correct representative; when the
//!   caps cut the search short, fewer positions are merged, never wrong
//!   ones (and the smallest image is lowered again through the
//!   automorphisms until it has no smaller image, so that a canonical form
//!   is its own canonical form). This merges components that differ by a symmetry of the whole
//!   graph; it does not merge isomorphic components placed differently
//!   (two separate copies of a triangle in a random graph).

use crate::bits::Bits;
use crate::game::{Game, Nimber, Reduced};

mod automorphisms;
mod canonical;
mod graph;
mod known;
use canonical::Symmetry;
use graph::GridShifts;

/// The most automorphisms kept (the identity included): each costs a
/// lookup table and a step of every canonical form.
pub const MAX_AUTOMORPHISMS: usize = 32;

/// The most candidate checks of the automorphism search.
pub const AUTOMORPHISM_STEPS: u64 = 1 << 20;

/// The most vertices of a graph (with `B = U256`).
pub const MAX_VERTICES: u32 = 256;

/// The remaining vertices, bit `v` for vertex `v`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Vertices<B>(pub B);

/// Why a graph is refused.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum NodeKaylesError {
    /// More vertices than the set type holds.
    #[error(
        "a graph of {vertices} vertices is larger than the engine supports (at most {max} vertices)"
    )]
    TooLarge {
        /// Vertices asked for.
        vertices: u64,
        /// The most the engine (with this set type) supports.
        max: u32,
    },
    /// An edge from a vertex to itself.
    #[error("edge {index} joins vertex {vertex} to itself")]
    SelfLoop {
        /// The edge's place in the list, from 0.
        index: usize,
        /// The vertex.
        vertex: u32,
    },
    /// An edge naming a vertex that does not exist.
    #[error(
        "edge {index} names vertex {vertex}, outside the graph's {vertices} vertices (numbered from 0)"
    )]
    OutOfRange {
        /// The edge's place in the list, from 0.
        index: usize,
        /// The vertex named.
        vertex: u32,
        /// Vertices of the graph.
        vertices: u32,
    },
    /// A symmetry given for canonical forms that is not an automorphism
    /// of the graph other than the identity.
    #[error("symmetry {index} is not an automorphism of the graph other than the identity: {why}")]
    NotAnAutomorphism {
        /// Its place in the list, from 0.
        index: usize,
        /// What is wrong with it.
        why: String,
    },
    /// Symmetries given for a grid, whose canonical forms use the grid's
    /// own.
    #[error(
        "the graph is the {rows}x{cols} grid, whose canonical forms use the grid's symmetries: no others may be given"
    )]
    GridSymmetries {
        /// Rows of the grid.
        rows: u32,
        /// Columns of the grid.
        cols: u32,
    },
    /// More symmetries than [`MAX_LISTED_SYMMETRIES`].
    #[error("{count} symmetries are listed, more than {}", MAX_LISTED_SYMMETRIES)]
    TooManySymmetries {
        /// How many are listed.
        count: usize,
    },
    /// A symmetry listed twice.
    #[error("symmetry {index} is symmetry {first} again")]
    RepeatedSymmetry {
        /// Its place in the list, from 0.
        index: usize,
        /// The place of its first listing.
        first: usize,
    },
}

/// The most symmetries [`NodeKayles::with_symmetries`] takes (a group of
/// 64 elements with the identity; grundy lists at most
/// [`MAX_AUTOMORPHISMS`]` - 1`): each costs a table of images (32 KiB a
/// 128-bit word, 256 KiB a 256-bit one), and their closure under
/// composition is checked pair by pair.
pub const MAX_LISTED_SYMMETRIES: usize = 63;

/// Whether a graph of `vertices` vertices fits in a `u64` (so that
/// `NodeKayles::<u64>` takes it).
pub fn fits_u64(vertices: u64) -> bool {
    vertices <= 64
}

/// Whether a graph of `vertices` vertices fits in a `u128` (so that
/// `NodeKayles::<u128>` takes it; larger graphs of at most
/// [`MAX_VERTICES`] take [`U256`](crate::bits::U256)).
pub fn fits_u128(vertices: u64) -> bool {
    vertices <= 128
}

/// Node-Kayles on a graph of at most 64 (`B = u64`), 128 (`B = u128`) or
/// 256 (`B = U256`) vertices.
#[derive(Clone, Debug)]
pub struct NodeKayles<B = u128> {
    vertices: u32,
    /// Bit `u` of `closed[v]`: `u == v` or `uv` is an edge.
    closed: Vec<B>,
    all: B,
    /// Dawson's chess, `G(m)` for paths of `m` vertices, `m` up to
    /// `vertices` (at least 3 entries).
    paths: Vec<Nimber>,
    automorphisms: Vec<Vec<u32>>,
    automorphisms_complete: bool,
    symmetry: Symmetry<B>,
    /// On a grid, its neighbours by shifts (see [`GridShifts`]).
    shifts: Option<GridShifts<B>>,
}

impl<B: Bits> Game for NodeKayles<B> {
    type Position = Vertices<B>;
    type Move = u32;

    fn moves(&self, position: &Vertices<B>, moves: &mut Vec<u32>) {
        let mut rest = position.0;
        while rest != B::ZERO {
            moves.push(rest.trailing_zeros());
            rest = rest.without_lowest();
        }
    }

    fn play(&self, position: &Vertices<B>, &vertex: &u32) -> Vertices<B> {
        Vertices(position.0 & !self.closed[vertex as usize])
    }

    fn split(&self, position: &Vertices<B>, components: &mut Vec<Vertices<B>>) {
        let mut rest = position.0;
        while rest != B::ZERO {
            let part = self.component(rest, rest.lowest());
            rest &= !part;
            components.push(Vertices(part));
        }
    }

    fn canonical(&self, component: &Vertices<B>) -> Vertices<B> {
        if component.0 == B::ZERO {
            return *component;
        }
        Vertices(self.examine(component.0).0)
    }

    fn known_nimber(&self, component: &Vertices<B>) -> Option<Nimber> {
        match self.reduce(component) {
            Reduced::Known(n) => Some(n),
            Reduced::Canonical(_) => None,
        }
    }

    fn reduce(&self, component: &Vertices<B>) -> Reduced<Vertices<B>> {
        let set = component.0;
        if let Some(n) = self.closed_form(set) {
            return Reduced::Known(n);
        }
        match self.examine(set) {
            (_, true) => Reduced::Known(0),
            (canonical, false) => Reduced::Canonical(Vertices(canonical)),
        }
    }

    fn size(&self, component: &Vertices<B>) -> u64 {
        u64::from(component.0.count_ones())
    }
}

#[cfg(test)]
mod tests;
