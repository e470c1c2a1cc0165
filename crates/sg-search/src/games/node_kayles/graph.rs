//! The graph of a Node-Kayles game: its construction (from edges, as a
//! grid, with given symmetries), what it tells of itself, and the
//! components of a set of vertices.

use super::automorphisms::automorphisms;
use super::canonical::{Image, ImageTable, Symmetry};
use super::known::dawsons_chess;
use super::{
    AUTOMORPHISM_STEPS, MAX_AUTOMORPHISMS, MAX_LISTED_SYMMETRIES, NodeKayles, NodeKaylesError,
    Vertices,
};
use crate::bits::Bits;

/// The neighbours of a set of a grid by shifts: a cell's left and right
/// neighbours are the bits beside it (within its row), those above and
/// below `cols` bits away. Components and the degrees of the closed forms
/// take a few operations on whole sets, not one per vertex.
#[derive(Clone, Copy, Debug)]
pub(super) struct GridShifts<B> {
    pub(super) cols: u32,
    /// The cells not in the first column, not in the last.
    not_first: B,
    not_last: B,
}

impl<B: Bits> GridShifts<B> {
    /// The cells of `set` whose right neighbour is in `set`, and those whose
    /// neighbour below is.
    #[inline]
    pub(super) fn edges(&self, set: B) -> (B, B) {
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
    pub(super) fn component(&self, set: B, seed: B) -> B {
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
