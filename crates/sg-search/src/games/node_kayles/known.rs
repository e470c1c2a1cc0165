//! Nimbers of Node-Kayles components known without search: the closed
//! forms (cliques, paths, cycles, stars) from the degrees of a set.

use super::{GridShifts, NodeKayles};
use crate::bits::Bits;
use crate::game::Nimber;

impl<B: Bits> NodeKayles<B> {
    /// The nimber of a nonempty set of vertices from its degrees, for the
    /// shapes of the module documentation.
    pub(super) fn closed_form(&self, set: B) -> Option<Nimber> {
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
    pub(super) fn degree_closed_form(&self, set: B, n: u32) -> Option<Nimber> {
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
    pub(super) fn grid_closed_form(
        &self,
        shifts: &GridShifts<B>,
        set: B,
        n: u32,
    ) -> Option<Nimber> {
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

/// Dawson's chess (`0.137`) by its definition: `G(m)` for `m` up to `to`.
pub(super) fn dawsons_chess(to: usize) -> Vec<Nimber> {
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
