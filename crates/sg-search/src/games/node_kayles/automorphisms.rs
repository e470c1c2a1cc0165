//! The automorphisms of a graph, found by colour refinement and a
//! search over partial maps: the symmetries of Node-Kayles' canonical
//! forms and symmetric losses on graphs that are not grids.

use crate::bits::Bits;

/// The automorphisms of a graph (`adjacency[v]`: the neighbours of `v`),
/// the identity first, at most `cap` of them, with at most `steps`
/// candidate checks; and whether the search finished (all were found).
///
/// Colour refinement gives each vertex a colour that every automorphism
/// keeps. The vertices are taken in breadth-first order (each after a
/// neighbour, within its component), and a partial map is extended one
/// vertex at a time to an unused vertex of the same colour whose
/// adjacency to the vertices already mapped is that of the vertex: a
/// complete map is then an automorphism, and every automorphism is met.
pub(super) fn automorphisms<B: Bits>(
    adjacency: &[B],
    cap: usize,
    steps: u64,
) -> (Vec<Vec<u32>>, bool) {
    let n = adjacency.len();
    let colour = refine(adjacency);
    let order = breadth_first_order(adjacency);
    let mut found: Vec<Vec<u32>> = Vec::new();
    let mut map = vec![u32::MAX; n];
    let mut used = B::ZERO;
    // Per depth, the next candidate to try.
    let mut next = vec![0u32; n + 1];
    let mut depth = 0usize;
    let mut checks = 0u64;
    loop {
        if depth == n {
            found.push(map.clone());
            if found.len() >= cap {
                return (found, false);
            }
            if depth == 0 {
                return (found, true);
            }
            depth -= 1;
            used &= !(B::ONE << map[order[depth]]);
            continue;
        }
        let v = order[depth];
        // The images of v's neighbours already mapped.
        let mut wanted = B::ZERO;
        let mut placed = B::ZERO;
        for &u in &order[..depth] {
            placed |= B::ONE << map[u];
            if adjacency[v].has(u as u32) {
                wanted |= B::ONE << map[u];
            }
        }
        let mut chosen = None;
        for w in next[depth]..n as u32 {
            checks += 1;
            if checks > steps {
                return (found, false);
            }
            if !used.has(w)
                && colour[w as usize] == colour[v]
                && adjacency[w as usize] & placed == wanted
            {
                chosen = Some(w);
                break;
            }
        }
        match chosen {
            Some(w) => {
                map[v] = w;
                used |= B::ONE << w;
                next[depth] = w + 1;
                depth += 1;
                next[depth] = 0;
            }
            None => {
                if depth == 0 {
                    return (found, true);
                }
                depth -= 1;
                used &= !(B::ONE << map[order[depth]]);
            }
        }
    }
}

/// Colour refinement: colours that every automorphism keeps (a vertex's
/// colour is refined by the multiset of its neighbours' colours until no
/// class splits; the new colours are numbered in the order of their
/// signatures, which does not depend on the numbering of the vertices).
fn refine<B: Bits>(adjacency: &[B]) -> Vec<u32> {
    let n = adjacency.len();
    let mut colour = vec![0u32; n];
    let mut classes = 1;
    loop {
        let signatures: Vec<(u32, Vec<u32>)> = (0..n)
            .map(|v| {
                let mut neighbours: Vec<u32> = (0..n)
                    .filter(|&u| adjacency[v].has(u as u32))
                    .map(|u| colour[u])
                    .collect();
                neighbours.sort_unstable();
                (colour[v], neighbours)
            })
            .collect();
        let mut sorted: Vec<&(u32, Vec<u32>)> = signatures.iter().collect();
        sorted.sort();
        sorted.dedup();
        let refined: Vec<u32> = signatures
            .iter()
            .map(|s| sorted.binary_search(&s).expect("a signature listed") as u32)
            .collect();
        let count = sorted.len();
        colour = refined;
        if count == classes {
            return colour;
        }
        classes = count;
    }
}

/// The vertices in breadth-first order, component by component.
fn breadth_first_order<B: Bits>(adjacency: &[B]) -> Vec<usize> {
    let n = adjacency.len();
    let mut order = Vec::with_capacity(n);
    let mut seen = B::ZERO;
    for root in 0..n {
        if seen.has(root as u32) {
            continue;
        }
        seen |= B::ONE << root as u32;
        let first = order.len();
        order.push(root);
        let mut head = first;
        while head < order.len() {
            let v = order[head];
            head += 1;
            let mut fresh = adjacency[v] & !seen;
            seen |= fresh;
            while fresh != B::ZERO {
                order.push(fresh.trailing_zeros() as usize);
                fresh = fresh.without_lowest();
            }
        }
    }
    order
}
