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
use automorphisms::automorphisms;

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

/// How canonical forms are made.
#[derive(Clone, Debug)]
enum Symmetry<B> {
    /// The `rows x cols` grid numbered `r * cols + c`; `column` is its
    /// column 0, `diagonal` its cells `(i, i)`.
    Grid {
        rows: u32,
        cols: u32,
        column: B,
        diagonal: B,
    },
    /// The automorphisms other than the identity.
    Images(Vec<Image<B>>),
}

/// An automorphism other than the identity, and for an involution the
/// vertices it maps into their own closed neighbourhood (a set it maps
/// onto itself and that avoids them is a loss: see the module
/// documentation).
#[derive(Clone, Debug)]
struct Image<B> {
    table: ImageTable<B>,
    mirror_blocked: Option<B>,
}

/// The image of a set of vertices under a permutation, by bytes: entry
/// `[k][b]` is the image of the set `b << 8k`.
#[derive(Clone, Debug)]
struct ImageTable<B> {
    bytes: Vec<[B; 256]>,
}

impl<B: Bits> ImageTable<B> {
    fn new(permutation: &[u32]) -> Self {
        let bytes = (0..permutation.len().div_ceil(8))
            .map(|k| {
                let mut table = [B::ZERO; 256];
                for (byte, image) in table.iter_mut().enumerate() {
                    for bit in 0..8 {
                        let v = 8 * k + bit;
                        if byte >> bit & 1 == 1 && v < permutation.len() {
                            *image |= B::ONE << permutation[v];
                        }
                    }
                }
                table
            })
            .collect();
        ImageTable { bytes }
    }

    #[inline]
    fn image(&self, set: B) -> B {
        let mut image = B::ZERO;
        for (k, table) in self.bytes.iter().enumerate() {
            let byte = (set >> (8 * k as u32)).low_u64() & 0xff;
            image |= table[byte as usize];
        }
        image
    }
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

/// The neighbours of a set of a grid by shifts: a cell's left and right
/// neighbours are the bits beside it (within its row), those above and
/// below `cols` bits away. Components and the degrees of the closed forms
/// take a few operations on whole sets, not one per vertex.
#[derive(Clone, Copy, Debug)]
struct GridShifts<B> {
    cols: u32,
    /// The cells not in the first column, not in the last.
    not_first: B,
    not_last: B,
}

impl<B: Bits> GridShifts<B> {
    /// The cells of `set` whose right neighbour is in `set`, and those whose
    /// neighbour below is.
    #[inline]
    fn edges(&self, set: B) -> (B, B) {
        (set & (set >> 1) & self.not_last, set & (set >> self.cols))
    }

    /// `set` and its neighbours (possibly outside the graph: callers
    /// intersect).
    #[inline]
    fn grown(&self, set: B) -> B {
        set | ((set & self.not_last) << 1)
            | ((set & self.not_first) >> 1)
            | (set << self.cols)
            | (set >> self.cols)
    }
}

impl<B: Bits> NodeKayles<B> {
    /// The graph of `vertices` vertices (`0` to `vertices - 1`) and the
    /// undirected `edges`; an edge listed twice (either way round) is one
    /// edge.
    pub fn new(vertices: u32, edges: &[(u32, u32)]) -> Result<Self, NodeKaylesError> {
        let closed = Self::closed_of(vertices, edges)?;
        let grid = grid_shape(&closed);
        Ok(Self::build(closed, grid))
    }

    /// The graph of [`new`](Self::new) whose canonical forms (and
    /// symmetric losses) use the automorphisms `symmetries` (each the
    /// image of every vertex, none the identity) instead of those the
    /// constructor finds: how a certificate's checker builds the game, with
    /// the symmetries its writer used ([`symmetries`](Self::symmetries)).
    /// Each is checked to be an automorphism; a grid takes none (its
    /// canonical forms use the grid's symmetries).
    pub fn with_symmetries(
        vertices: u32,
        edges: &[(u32, u32)],
        symmetries: &[Vec<u32>],
    ) -> Result<Self, NodeKaylesError> {
        let closed = Self::closed_of(vertices, edges)?;
        if let Some((rows, cols)) = grid_shape(&closed) {
            if !symmetries.is_empty() {
                return Err(NodeKaylesError::GridSymmetries { rows, cols });
            }
            return Ok(Self::build(closed, Some((rows, cols))));
        }
        if symmetries.len() > MAX_LISTED_SYMMETRIES {
            return Err(NodeKaylesError::TooManySymmetries {
                count: symmetries.len(),
            });
        }
        let mut first_at = std::collections::HashMap::new();
        for (index, permutation) in symmetries.iter().enumerate() {
            if let Some(&first) = first_at.get(permutation) {
                return Err(NodeKaylesError::RepeatedSymmetry { index, first });
            }
            first_at.insert(permutation, index);
        }
        for (index, permutation) in symmetries.iter().enumerate() {
            automorphism_error(&closed, permutation).map_or(Ok(()), |why| {
                Err(NodeKaylesError::NotAnAutomorphism { index, why })
            })?;
        }
        let identity: Vec<u32> = (0..vertices).collect();
        let mut automorphisms = vec![identity];
        automorphisms.extend(symmetries.iter().cloned());
        let complete = closed_under_composition(&automorphisms);
        Ok(Self::build_with(closed, None, automorphisms, complete))
    }

    /// The automorphisms other than the identity that canonical forms use:
    /// none on a grid.
    pub fn symmetries(&self) -> Vec<Vec<u32>> {
        match self.symmetry {
            Symmetry::Grid { .. } => Vec::new(),
            Symmetry::Images(_) => self
                .automorphisms
                .iter()
                .filter(|p| p.iter().enumerate().any(|(v, &w)| v as u32 != w))
                .cloned()
                .collect(),
        }
    }

    /// The closed neighbourhoods of the graph, or why it is refused.
    fn closed_of(vertices: u32, edges: &[(u32, u32)]) -> Result<Vec<B>, NodeKaylesError> {
        if vertices > B::BITS {
            return Err(NodeKaylesError::TooLarge {
                vertices: u64::from(vertices),
                max: B::BITS,
            });
        }
        let mut closed: Vec<B> = (0..vertices).map(|v| B::ONE << v).collect();
        for (index, &(u, v)) in edges.iter().enumerate() {
            for vertex in [u, v] {
                if vertex >= vertices {
                    return Err(NodeKaylesError::OutOfRange {
                        index,
                        vertex,
                        vertices,
                    });
                }
            }
            if u == v {
                return Err(NodeKaylesError::SelfLoop { index, vertex: u });
            }
            closed[u as usize] |= B::ONE << v;
            closed[v as usize] |= B::ONE << u;
        }
        Ok(closed)
    }

    /// The `rows x cols` grid graph: vertex `r * cols + c` for row `r` and
    /// column `c`, joined to the vertices beside, above and below it.
    pub fn grid(rows: u32, cols: u32) -> Result<Self, NodeKaylesError> {
        let vertices = u64::from(rows) * u64::from(cols);
        if vertices > u64::from(B::BITS) {
            return Err(NodeKaylesError::TooLarge {
                vertices,
                max: B::BITS,
            });
        }
        let closed = grid_closed(rows, cols);
        let grid = (vertices > 0).then_some((rows, cols));
        Ok(Self::build(closed, grid))
    }

    fn build(closed: Vec<B>, grid: Option<(u32, u32)>) -> Self {
        let adjacency: Vec<B> = closed
            .iter()
            .enumerate()
            .map(|(v, &c)| c & !(B::ONE << v as u32))
            .collect();
        let (automorphisms, automorphisms_complete) =
            automorphisms(&adjacency, MAX_AUTOMORPHISMS, AUTOMORPHISM_STEPS);
        Self::build_with(closed, grid, automorphisms, automorphisms_complete)
    }

    /// The game with these automorphisms (the identity first).
    fn build_with(
        closed: Vec<B>,
        grid: Option<(u32, u32)>,
        automorphisms: Vec<Vec<u32>>,
        automorphisms_complete: bool,
    ) -> Self {
        let vertices = closed.len() as u32;
        let all = (0..vertices).fold(B::ZERO, |all, v| all | B::ONE << v);
        let symmetry = match grid {
            Some((rows, cols)) => Symmetry::Grid {
                rows,
                cols,
                column: (0..rows).fold(B::ZERO, |set, r| set | B::ONE << (r * cols)),
                diagonal: (0..rows.min(cols))
                    .fold(B::ZERO, |set, i| set | B::ONE << (i * cols + i)),
            },
            None => Symmetry::Images(
                automorphisms
                    .iter()
                    .filter(|p| p.iter().enumerate().any(|(v, &w)| v as u32 != w))
                    .map(|p| Image {
                        table: ImageTable::new(p),
                        mirror_blocked: p
                            .iter()
                            .enumerate()
                            .all(|(v, &w)| p[w as usize] == v as u32)
                            .then(|| {
                                p.iter().enumerate().fold(B::ZERO, |set, (v, &w)| {
                                    if closed[v].has(w) {
                                        set | B::ONE << v as u32
                                    } else {
                                        set
                                    }
                                })
                            }),
                    })
                    .collect(),
            ),
        };
        // A line as long as the word has no room for a shift by a whole row:
        // it takes the general code.
        let shifts = grid
            .filter(|&(_, cols)| cols < B::BITS)
            .map(|(rows, cols)| {
                let column =
                    |c: u32| (0..rows).fold(B::ZERO, |set, r| set | B::ONE << (r * cols + c));
                GridShifts {
                    cols,
                    not_first: all & !column(0),
                    not_last: all & !column(cols - 1),
                }
            });
        NodeKayles {
            vertices,
            closed,
            all,
            paths: dawsons_chess(vertices.max(2) as usize),
            automorphisms,
            automorphisms_complete,
            symmetry,
            shifts,
        }
    }

    /// The number of vertices.
    pub fn vertices(&self) -> u32 {
        self.vertices
    }

    /// The starting position: every vertex.
    pub fn start(&self) -> Vertices<B> {
        Vertices(self.all)
    }

    /// The position whose remaining vertices are `vertices`; vertices
    /// that do not exist are ignored.
    pub fn position(&self, vertices: &[u32]) -> Vertices<B> {
        Vertices(
            vertices
                .iter()
                .filter(|&&v| v < self.vertices)
                .fold(B::ZERO, |set, &v| set | B::ONE << v),
        )
    }

    /// The remaining vertices of `position`, in increasing order.
    pub fn members(&self, position: Vertices<B>) -> Vec<u32> {
        (0..self.vertices).filter(|&v| position.0.has(v)).collect()
    }

    /// The edges, each once as `(u, v)` with `u < v`, in increasing order.
    pub fn edges(&self) -> Vec<(u32, u32)> {
        (0..self.vertices)
            .flat_map(|u| {
                (u + 1..self.vertices)
                    .filter(move |&v| self.closed[u as usize].has(v))
                    .map(move |v| (u, v))
            })
            .collect()
    }

    /// The automorphisms found (the identity first), each as the image of
    /// every vertex.
    pub fn automorphisms(&self) -> &[Vec<u32>] {
        &self.automorphisms
    }

    /// Whether [`automorphisms`](Self::automorphisms) is the whole group
    /// (the search ended within its caps).
    pub fn automorphisms_complete(&self) -> bool {
        self.automorphisms_complete
    }

    /// `Some((rows, cols))` when the graph is a grid and canonical forms
    /// use translations.
    pub fn grid_shape(&self) -> Option<(u32, u32)> {
        match self.symmetry {
            Symmetry::Grid { rows, cols, .. } => Some((rows, cols)),
            Symmetry::Images(_) => None,
        }
    }

    /// The component of `set` that holds `seed`.
    #[inline]
    fn component(&self, set: B, seed: B) -> B {
        if let Some(shifts) = &self.shifts {
            // Grown by a layer of neighbours at a time, all at once.
            let mut part = seed;
            loop {
                let grown = shifts.grown(part) & set;
                if grown == part {
                    return part;
                }
                part = grown;
            }
        }
        let mut part = seed;
        let mut frontier = seed;
        while frontier != B::ZERO {
            let mut next = B::ZERO;
            let mut rest = frontier;
            while rest != B::ZERO {
                next |= self.closed[rest.trailing_zeros() as usize];
                rest = rest.without_lowest();
            }
            frontier = next & set & !part;
            part |= frontier;
        }
        part
    }

    /// Bit `cols * r + c` of a grid shape, rows of `cols` bits: the
    /// shape moved to the top left corner, with its height and width.
    #[inline]
    fn normalize(shape: B, cols: u32) -> (B, u32, u32) {
        let top = shape.trailing_zeros() / cols;
        let shape = shape >> (top * cols);
        let height = (B::BITS - 1 - shape.leading_zeros()) / cols + 1;
        let row = low_bits::<B>(cols);
        let mut columns = B::ZERO;
        for r in 0..height {
            columns |= (shape >> (r * cols)) & row;
        }
        let left = columns.trailing_zeros();
        let width = B::BITS - columns.leading_zeros() - left;
        (shape >> left, height, width)
    }

    /// A normalized grid shape with its columns reversed.
    #[inline]
    fn mirrored(shape: B, height: u32, width: u32, cols: u32) -> B {
        let mut image = B::ZERO;
        for r in 0..height {
            // The row's `width` low bits, reversed (the bits above are
            // shifted out).
            let reversed = ((shape >> (r * cols)) << (B::BITS - width)).reverse_bits();
            image |= reversed << (r * cols);
        }
        image
    }

    /// A normalized grid shape upside down.
    #[inline]
    fn upside_down(shape: B, height: u32, width: u32, cols: u32) -> B {
        let row = low_bits::<B>(width);
        let mut image = B::ZERO;
        for r in 0..height {
            image |= ((shape >> (r * cols)) & row) << ((height - 1 - r) * cols);
        }
        image
    }

    /// A normalized grid shape transposed (row `r`, column `c` to row
    /// `c`, column `r`); it must fit (`width <= rows`, `height <= cols`).
    fn transposed(shape: B, cols: u32) -> B {
        let mut image = B::ZERO;
        let mut rest = shape;
        while rest != B::ZERO {
            let bit = rest.trailing_zeros();
            rest = rest.without_lowest();
            image |= B::ONE << ((bit % cols) * cols + bit / cols);
        }
        image
    }

    /// The canonical form of a nonempty set of vertices, and whether it is
    /// a symmetric loss (see the module documentation).
    fn examine(&self, set: B) -> (B, bool) {
        match &self.symmetry {
            &Symmetry::Grid {
                rows,
                cols,
                column,
                diagonal,
            } => {
                let (shape, height, width) = Self::normalize(set, cols);
                let mirror = Self::mirrored(shape, height, width, cols);
                let flipped = Self::upside_down(shape, height, width, cols);
                let turned = Self::upside_down(mirror, height, width, cols);
                let mut best = shape.min(mirror).min(flipped).min(turned);
                let row = |r: u32| (shape >> (r * cols)) & low_bits::<B>(width);
                let col = |c: u32| (shape >> c) & column;
                let (mid_row, mid_col) = (height / 2, width / 2);
                // Mirrored (columns reversed): nothing on the middle column,
                // or no row holding both middle cells.
                let mut loss = mirror == shape
                    && if width % 2 == 1 {
                        col(mid_col) == B::ZERO
                    } else {
                        col(mid_col - 1) & col(mid_col) == B::ZERO
                    };
                // Upside down: the same with rows.
                loss = loss
                    || flipped == shape
                        && if height % 2 == 1 {
                            row(mid_row) == B::ZERO
                        } else {
                            row(mid_row - 1) & row(mid_row) == B::ZERO
                        };
                // A half turn: not the central cell, nor both central
                // cells of the middle row or column.
                loss = loss
                    || turned == shape
                        && match (height % 2, width % 2) {
                            (1, 1) => !shape.has(mid_row * cols + mid_col),
                            (1, 0) => {
                                !(shape.has(mid_row * cols + mid_col - 1)
                                    && shape.has(mid_row * cols + mid_col))
                            }
                            (0, 1) => {
                                !(shape.has((mid_row - 1) * cols + mid_col)
                                    && shape.has(mid_row * cols + mid_col))
                            }
                            _ => true,
                        };
                if width <= rows && height <= cols && (height > 1 || width > 1) {
                    let transposed = Self::transposed(shape, cols);
                    let transposed_mirror = Self::mirrored(transposed, width, height, cols);
                    let anti = Self::upside_down(transposed_mirror, width, height, cols);
                    best = best
                        .min(transposed)
                        .min(transposed_mirror)
                        .min(Self::upside_down(transposed, width, height, cols))
                        .min(anti);
                    if height == width {
                        // About the diagonal: nothing on it; about the
                        // other diagonal (a transposition and a half turn):
                        // nothing on that one.
                        let other = (0..width)
                            .fold(B::ZERO, |set, i| set | B::ONE << (i * cols + width - 1 - i));
                        loss = loss
                            || transposed == shape && shape & diagonal == B::ZERO
                            || anti == shape && shape & other == B::ZERO;
                    }
                }
                (best, loss)
            }
            Symmetry::Images(images) => {
                let mut best = set;
                let mut loss = false;
                for image in images {
                    let moved = image.table.image(set);
                    best = best.min(moved);
                    loss = loss
                        || moved == set
                            && image
                                .mirror_blocked
                                .is_some_and(|blocked| set & blocked == B::ZERO);
                }
                // When the automorphisms found are not the whole group
                // (not closed under composition), the smallest image may
                // have smaller images still: go on down to a set that has
                // none, so that the canonical form is its own.
                if !self.automorphisms_complete {
                    loop {
                        let lower = images
                            .iter()
                            .map(|image| image.table.image(best))
                            .fold(best, B::min);
                        if lower == best {
                            break;
                        }
                        best = lower;
                    }
                }
                (best, loss)
            }
        }
    }

    /// The nimber of a nonempty set of vertices from its degrees, for the
    /// shapes of the module documentation.
    fn closed_form(&self, set: B) -> Option<Nimber> {
        let n = set.count_ones();
        if n <= 1 {
            return Some(n);
        }
        match &self.shifts {
            Some(shifts) => self.grid_closed_form(shifts, set, n),
            None => self.degree_closed_form(set, n),
        }
    }

    /// [`closed_form`](Self::closed_form) of `n >= 2` vertices on any
    /// graph, from the degree of each vertex.
    fn degree_closed_form(&self, set: B, n: u32) -> Option<Nimber> {
        let mut degrees = 0;
        let mut max_degree = 0;
        let mut rest = set;
        while rest != B::ZERO {
            let d = (self.closed[rest.trailing_zeros() as usize] & set).count_ones() - 1;
            degrees += d;
            max_degree = max_degree.max(d);
            rest = rest.without_lowest();
        }
        let edges = degrees / 2;
        if edges == n * (n - 1) / 2 {
            return Some(1);
        }
        if edges == n - 1 && max_degree == n - 1 {
            // A star of n - 1 >= 2 leaves.
            return Some(if (n - 1).is_multiple_of(2) { 2 } else { 1 });
        }
        if max_degree <= 2 && (edges == n - 1 || edges == n) && self.connected(set) {
            let path = self.paths[if edges == n - 1 { n } else { n - 3 } as usize];
            return Some(if edges == n - 1 {
                path
            } else {
                Nimber::from(path == 0)
            });
        }
        None
    }

    /// [`closed_form`](Self::closed_form) on a grid, from whole sets: the
    /// grid has no triangle, so its cliques are single edges and its stars
    /// have at most 4 leaves; a vertex has degree 3 or 4 when three of its
    /// four neighbours are in the set.
    #[inline]
    fn grid_closed_form(&self, shifts: &GridShifts<B>, set: B, n: u32) -> Option<Nimber> {
        let (right, down) = shifts.edges(set);
        let edges = right.count_ones() + down.count_ones();
        if n == 2 {
            return (edges == 1).then_some(1);
        }
        if edges != n - 1 && edges != n {
            return None;
        }
        // The cells with a neighbour to their left, right, above, below.
        let (left, up) = (right << 1, down << shifts.cols);
        let at_least_three = (left & right & (up | down)) | (up & down & (left | right));
        if at_least_three != B::ZERO {
            // A star: a centre of degree n - 1 (3 or 4 leaves).
            let star = edges == n - 1
                && match n {
                    4 => true,
                    5 => left & right & up & down != B::ZERO,
                    _ => false,
                };
            return star.then_some(if (n - 1).is_multiple_of(2) { 2 } else { 1 });
        }
        if !self.connected(set) {
            return None;
        }
        Some(if edges == n - 1 {
            self.paths[n as usize]
        } else {
            Nimber::from(self.paths[(n - 3) as usize] == 0)
        })
    }

    /// Whether `set` (nonempty) induces a connected graph.
    fn connected(&self, set: B) -> bool {
        self.component(set, set.lowest()) == set
    }
}

/// The set `{0, ..., width - 1}` (`width` at least 1).
#[inline]
fn low_bits<B: Bits>(width: u32) -> B {
    B::ALL >> (B::BITS - width)
}

/// The closed neighbourhoods of the `rows x cols` grid.
fn grid_closed<B: Bits>(rows: u32, cols: u32) -> Vec<B> {
    let mut closed = Vec::with_capacity((rows * cols) as usize);
    for r in 0..rows {
        for c in 0..cols {
            let v = r * cols + c;
            let mut set = B::ONE << v;
            if c > 0 {
                set |= B::ONE << (v - 1);
            }
            if c + 1 < cols {
                set |= B::ONE << (v + 1);
            }
            if r > 0 {
                set |= B::ONE << (v - cols);
            }
            if r + 1 < rows {
                set |= B::ONE << (v + cols);
            }
            closed.push(set);
        }
    }
    closed
}

/// Why `permutation` is not an automorphism of the graph of `closed`
/// (closed neighbourhoods) other than the identity; `None` if it is one.
fn automorphism_error<B: Bits>(closed: &[B], permutation: &[u32]) -> Option<String> {
    let n = closed.len();
    if permutation.len() != n {
        return Some(format!("it maps {} vertices, not {n}", permutation.len()));
    }
    let mut seen = vec![false; n];
    for (v, &w) in permutation.iter().enumerate() {
        match seen.get_mut(w as usize) {
            None => return Some(format!("vertex {v} goes to {w}, not a vertex")),
            Some(true) => return Some(format!("vertex {w} is the image of two vertices")),
            Some(slot) => *slot = true,
        }
    }
    if permutation.iter().enumerate().all(|(v, &w)| v as u32 == w) {
        return Some("it is the identity".to_owned());
    }
    for (v, &neighbourhood) in closed.iter().enumerate() {
        let mut image = B::ZERO;
        let mut rest = neighbourhood;
        while rest != B::ZERO {
            image |= B::ONE << permutation[rest.trailing_zeros() as usize];
            rest = rest.without_lowest();
        }
        if image != closed[permutation[v] as usize] {
            return Some(format!(
                "the neighbours of vertex {v} do not go to those of vertex {}",
                permutation[v]
            ));
        }
    }
    None
}

/// Whether the composition of any two of `permutations` is one of them.
fn closed_under_composition(permutations: &[Vec<u32>]) -> bool {
    let set: std::collections::HashSet<&[u32]> = permutations.iter().map(Vec::as_slice).collect();
    permutations.iter().all(|p| {
        permutations.iter().all(|q| {
            let composed: Vec<u32> = q.iter().map(|&w| p[w as usize]).collect();
            set.contains(composed.as_slice())
        })
    })
}

/// `Some((rows, cols))` when the graph is the `rows x cols` grid numbered
/// `r * cols + c` (the fewest rows that match).
fn grid_shape<B: Bits>(closed: &[B]) -> Option<(u32, u32)> {
    let n = closed.len() as u32;
    (1..=n)
        .filter(|&rows| n.is_multiple_of(rows))
        .map(|rows| (rows, n / rows))
        .find(|&(rows, cols)| grid_closed::<B>(rows, cols) == closed)
}

/// Dawson's chess (`0.137`) by its definition: `G(m)` for `m` up to `to`.
fn dawsons_chess(to: usize) -> Vec<Nimber> {
    let mut values: Vec<Nimber> = Vec::with_capacity(to + 1);
    for m in 0..=to {
        let mut seen = 0u128;
        for i in 0..m {
            let left = i.saturating_sub(1);
            let right = (m - i).saturating_sub(2);
            seen |= 1 << (values[left] ^ values[right]);
        }
        values.push((!seen).trailing_zeros());
    }
    values
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
