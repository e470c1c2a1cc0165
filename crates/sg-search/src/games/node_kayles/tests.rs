//! Node-Kayles against the definition: known nimbers, symmetries,
//! canonical forms and symmetric losses.

use super::known::dawsons_chess;
use super::*;
use crate::Solver;
use crate::bits::U256;

#[test]
fn dawsons_chess_starts_as_known() {
    // Winning Ways: 0.137 = 0 1 1 2 0 3 1 1 0 3 3 2 2 4 0 5 2 2 3 3 ...
    assert_eq!(
        dawsons_chess(19),
        [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3]
    );
}

/// Whether `permutation` maps the graph's edges onto its edges.
fn is_automorphism<B: Bits>(game: &NodeKayles<B>, permutation: &[u32]) -> bool {
    let n = game.vertices();
    let mut images: Vec<u32> = permutation.to_vec();
    images.sort_unstable();
    images == (0..n).collect::<Vec<_>>()
        && (0..n).all(|u| {
            (0..n).all(|v| {
                game.closed[u as usize].has(v)
                    == game.closed[permutation[u as usize] as usize].has(permutation[v as usize])
            })
        })
}

fn cycle(n: u32) -> Vec<(u32, u32)> {
    (0..n).map(|v| (v, (v + 1) % n)).collect()
}

#[test]
fn automorphism_groups_of_known_graphs() {
    let cases: Vec<(NodeKayles<u128>, usize, bool)> = vec![
        // The symmetries of the rectangle, and of the square.
        (NodeKayles::grid(3, 16).unwrap(), 4, true),
        (NodeKayles::grid(3, 7).unwrap(), 4, true),
        (NodeKayles::grid(3, 3).unwrap(), 8, true),
        (NodeKayles::grid(8, 16).unwrap(), 4, true),
        // The dihedral group.
        (NodeKayles::new(12, &cycle(12)).unwrap(), 24, true),
        (NodeKayles::new(5, &cycle(5)).unwrap(), 10, true),
        // A path: the reversal.
        (NodeKayles::new(3, &[(2, 0), (0, 1)]).unwrap(), 2, true),
        (NodeKayles::new(0, &[]).unwrap(), 1, true),
        // 4! = 24 of K4; K5 has 120, more than the cap.
        (
            NodeKayles::new(4, &[(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]).unwrap(),
            24,
            true,
        ),
        (NodeKayles::new(5, &[]).unwrap(), MAX_AUTOMORPHISMS, false),
        // The Petersen graph: 120.
        (
            NodeKayles::new(
                10,
                &[
                    (0, 1),
                    (1, 2),
                    (2, 3),
                    (3, 4),
                    (4, 0),
                    (0, 5),
                    (1, 6),
                    (2, 7),
                    (3, 8),
                    (4, 9),
                    (5, 7),
                    (7, 9),
                    (9, 6),
                    (6, 8),
                    (8, 5),
                ],
            )
            .unwrap(),
            MAX_AUTOMORPHISMS,
            false,
        ),
    ];
    for (game, count, complete) in &cases {
        let found = game.automorphisms();
        assert_eq!(found.len(), *count, "{} vertices", game.vertices());
        assert_eq!(game.automorphisms_complete(), *complete);
        assert_eq!(found[0], (0..game.vertices()).collect::<Vec<_>>());
        for (i, p) in found.iter().enumerate() {
            assert!(is_automorphism(game, p), "{p:?}");
            assert!(!found[..i].contains(p), "{p:?} twice");
        }
    }
}

#[test]
fn refused_graphs() {
    assert_eq!(
        NodeKayles::<u64>::new(3, &[(0, 1), (1, 1)]).unwrap_err(),
        NodeKaylesError::SelfLoop {
            index: 1,
            vertex: 1
        }
    );
    let error = NodeKayles::<u64>::new(3, &[(0, 3)]).unwrap_err();
    assert_eq!(
        error,
        NodeKaylesError::OutOfRange {
            index: 0,
            vertex: 3,
            vertices: 3
        }
    );
    assert_eq!(
        error.to_string(),
        "edge 0 names vertex 3, outside the graph's 3 vertices (numbered from 0)"
    );
    assert!(matches!(
        NodeKayles::<u64>::new(65, &[]),
        Err(NodeKaylesError::TooLarge {
            vertices: 65,
            max: 64
        })
    ));
    assert!(NodeKayles::<u128>::new(65, &[]).is_ok());
    let error = NodeKayles::<u128>::grid(9, 15).unwrap_err();
    assert_eq!(
        error.to_string(),
        "a graph of 135 vertices is larger than the engine supports (at most 128 vertices)"
    );
    assert!(NodeKayles::<U256>::grid(9, 15).is_ok());
    let error = NodeKayles::<U256>::grid(3, 86).unwrap_err();
    assert_eq!(
        error.to_string(),
        "a graph of 258 vertices is larger than the engine supports (at most 256 vertices)"
    );
    // Repeated edges, either way round, are one edge.
    let twice = NodeKayles::<u64>::new(3, &[(0, 1), (1, 0), (0, 1), (1, 2)]).unwrap();
    let once = NodeKayles::<u64>::new(3, &[(0, 1), (1, 2)]).unwrap();
    assert_eq!(twice.closed, once.closed);
    // Symmetries: each at most once, at most 63 of them (a certificate's
    // rules list them; each costs a table of images).
    let swap = vec![1, 0];
    assert_eq!(
        NodeKayles::<u64>::with_symmetries(2, &[], &[swap.clone(), swap.clone()]).unwrap_err(),
        NodeKaylesError::RepeatedSymmetry { index: 1, first: 0 }
    );
    let star: Vec<(u32, u32)> = (1..8).map(|v| (0, v)).collect();
    let many: Vec<Vec<u32>> = (0..64u32)
        .map(|k| {
            // The leaves 1..=7 rotated by k: 64 automorphisms of the
            // star, refused by their count before they are looked at.
            (0..8u32)
                .map(|v| if v == 0 { 0 } else { 1 + (v - 1 + k) % 7 })
                .collect()
        })
        .collect();
    let error = NodeKayles::<u64>::with_symmetries(8, &star, &many).unwrap_err();
    assert_eq!(error, NodeKaylesError::TooManySymmetries { count: 64 });
    assert_eq!(error.to_string(), "64 symmetries are listed, more than 63");
}

/// The grid shape moved by `(dr, dc)` and mapped by one of the eight
/// symmetries of the square, cell by cell, if it stays in the grid.
fn moved(cells: &[(i64, i64)], symmetry: usize, rows: i64, cols: i64) -> Option<u128> {
    let mapped: Vec<(i64, i64)> = cells
        .iter()
        .map(|&(r, c)| {
            let (r, c) = if symmetry & 4 != 0 { (c, r) } else { (r, c) };
            let r = if symmetry & 1 != 0 { -r } else { r };
            let c = if symmetry & 2 != 0 { -c } else { c };
            (r, c)
        })
        .collect();
    let top = mapped.iter().map(|p| p.0).min()?;
    let left = mapped.iter().map(|p| p.1).min()?;
    let mut set = 0u128;
    for &(r, c) in &mapped {
        let (r, c) = (r - top, c - left);
        if r >= rows || c >= cols {
            return None;
        }
        set |= 1 << (r * cols + c);
    }
    Some(set)
}

/// The nimber by the definition (the mex over every move).
fn by_definition<B: Bits>(
    game: &NodeKayles<B>,
    set: B,
    memo: &mut std::collections::HashMap<B, Nimber>,
) -> Nimber {
    if let Some(&n) = memo.get(&set) {
        return n;
    }
    let mut seen = 0u128;
    for v in game.members(Vertices(set)) {
        seen |= 1 << by_definition(game, set & !game.closed[v as usize], memo);
    }
    let mex = (!seen).trailing_zeros();
    memo.insert(set, mex);
    mex
}

/// A xorshift generator for the test inputs.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Random sets made symmetric (each with its image under an involution
/// of the whole graph, with or without the vertices the involution maps
/// into their closed neighbourhood): every component called a
/// symmetric loss has nimber 0, on grids (mirrors, half turn,
/// diagonals) and on other graphs (a random graph with the symmetry
/// `v -> n - 1 - v`).
#[test]
fn symmetric_losses_have_nimber_0() {
    let mut state = 0x2545_f491_4f6c_dd1d;
    let mut losses = 0;
    for (rows, cols) in [(3, 4), (4, 4), (3, 5), (4, 5), (5, 5), (2, 7), (4, 6)] {
        let grid = NodeKayles::<u64>::grid(rows, cols).unwrap();
        // (row, column, rows, columns) to the image's (row, column).
        type Involution = fn(u32, u32, u32, u32) -> (u32, u32);
        let involutions: Vec<Involution> = vec![
            |r, c, _, cols| (r, cols - 1 - c),
            |r, c, rows, _| (rows - 1 - r, c),
            |r, c, rows, cols| (rows - 1 - r, cols - 1 - c),
            |r, c, _, _| (c, r),
            |r, c, rows, _| (rows - 1 - c, rows - 1 - r),
        ];
        let count = if rows == cols { 5 } else { 3 };
        let mut memo = std::collections::HashMap::new();
        for s in &involutions[..count] {
            let image = |v: u32| {
                let (r, c) = s(v / cols, v % cols, rows, cols);
                r * cols + c
            };
            let blocked = (0..rows * cols)
                .filter(|&v| grid.closed[v as usize].has(image(v)))
                .fold(0u64, |set, v| set | 1 << v);
            for round in 0..100 {
                let half = next(&mut state) & grid.all;
                let mut set = (0..rows * cols)
                    .filter(|&v| half.has(v))
                    .fold(half, |set, v| set | 1 << image(v));
                if round % 2 == 0 {
                    set &= !blocked;
                }
                let mut parts = Vec::new();
                grid.split(&Vertices(set), &mut parts);
                for part in parts {
                    if grid.examine(part.0).1 {
                        losses += 1;
                        assert_eq!(by_definition(&grid, part.0, &mut memo), 0, "{part:?}");
                    }
                }
            }
        }
    }
    assert!(losses > 300, "only {losses} symmetric losses met on grids");
    losses = 0;
    for n in [8, 9, 12, 13] {
        for _ in 0..20 {
            let mut edges = Vec::new();
            for _ in 0..n + 2 {
                let (u, v) = ((next(&mut state) % n) as u32, (next(&mut state) % n) as u32);
                if u != v {
                    edges.push((u, v));
                    edges.push((n as u32 - 1 - u, n as u32 - 1 - v));
                }
            }
            let game = NodeKayles::<u64>::new(n as u32, &edges).unwrap();
            let mut memo = std::collections::HashMap::new();
            for _ in 0..20 {
                let half = next(&mut state) & game.all;
                let set = (0..n as u32)
                    .filter(|&v| half.has(v))
                    .fold(half, |set, v| set | 1 << (n as u32 - 1 - v));
                let mut parts = Vec::new();
                game.split(&Vertices(set), &mut parts);
                for part in parts {
                    if game.examine(part.0).1 {
                        losses += 1;
                        assert_eq!(by_definition(&game, part.0, &mut memo), 0, "{part:?}");
                    }
                }
            }
        }
    }
    assert!(
        losses > 100,
        "only {losses} symmetric losses met on other graphs"
    );
}

proptest::proptest! {
    /// A canonical form is its own canonical form (what proofs rely
    /// on), on grids and on graphs whose automorphisms were capped.
    #[test]
    fn canonical_forms_are_their_own(bits in proptest::num::u128::ANY, graph in 0usize..4) {
        let game: NodeKayles<u128> = match graph {
            0 => NodeKayles::grid(5, 5).unwrap(),
            1 => NodeKayles::grid(3, 16).unwrap(),
            // No edge: 12! automorphisms, capped.
            2 => NodeKayles::new(12, &[]).unwrap(),
            // Two disjoint 6-cycles: 288, capped.
            _ => NodeKayles::new(12, &[cycle(6), cycle(6).iter().map(|&(u, v)| (u + 6, v + 6)).collect()].concat()).unwrap(),
        };
        proptest::prop_assert_eq!(game.automorphisms_complete(), graph < 2);
        let canonical = game.canonical(&Vertices(bits & game.all));
        proptest::prop_assert_eq!(game.canonical(&canonical), canonical);
    }
}

#[test]
fn edges_are_listed_once() {
    let game = NodeKayles::<u64>::new(4, &[(2, 1), (1, 2), (0, 3), (3, 2)]).unwrap();
    assert_eq!(game.edges(), [(0, 3), (1, 2), (2, 3)]);
    assert_eq!(
        NodeKayles::<u64>::grid(2, 2).unwrap().edges(),
        [(0, 1), (0, 2), (1, 3), (2, 3)]
    );
}

/// Every grid with both sides even is lost by the half turn.
#[test]
fn even_grids_are_symmetric_losses() {
    for (rows, cols) in [(2, 2), (2, 8), (4, 6), (6, 6), (8, 8)] {
        let grid = NodeKayles::<u64>::grid(rows, cols).unwrap();
        assert_eq!(grid.known_nimber(&grid.start()), Some(0));
    }
    let grid = NodeKayles::<u64>::grid(3, 4).unwrap();
    assert_eq!(grid.known_nimber(&grid.start()), None);
}

proptest::proptest! {
    /// On a grid, the canonical form is the smallest of the images
    /// (moved to the top left corner) under the symmetries that fit,
    /// the same for every such image, on both set types.
    #[test]
    fn grid_canonical_forms_merge_moved_images(
        rows in 1u32..=8, cols in 1u32..=16, bits in proptest::num::u128::ANY, pick in 0usize..64
    ) {
        let game = NodeKayles::<u128>::grid(rows, cols).unwrap();
        let mut parts = Vec::new();
        game.split(&Vertices(bits & game.all), &mut parts);
        let Some(&part) = parts.get(pick % parts.len().max(1)) else {
            return Ok(());
        };
        let cells: Vec<(i64, i64)> = game
            .members(part)
            .iter()
            .map(|&v| (i64::from(v / cols), i64::from(v % cols)))
            .collect();
        let images: Vec<u128> = (0..8)
            .filter_map(|s| moved(&cells, s, i64::from(rows), i64::from(cols)))
            .collect();
        let canonical = game.canonical(&part).0;
        proptest::prop_assert_eq!(Some(canonical), images.iter().min().copied());
        for &image in &images {
            proptest::prop_assert_eq!(game.canonical(&Vertices(image)).0, canonical);
        }
        if rows * cols <= 64 {
            let narrow = NodeKayles::<u64>::grid(rows, cols).unwrap();
            proptest::prop_assert_eq!(
                u128::from(narrow.canonical(&Vertices(part.0 as u64)).0),
                canonical
            );
        }
    }

    /// On other graphs, the canonical form is the smallest image under
    /// the automorphisms, and the same for all images.
    #[test]
    fn automorphism_canonical_forms_are_the_smallest_image(
        n in 3u32..=15, bits in proptest::num::u128::ANY, chord in proptest::bool::ANY
    ) {
        // A cycle with a chord (two or four automorphisms) or without
        // (2n, below the cap).
        let mut edges = cycle(n);
        if chord {
            edges.push((0, n / 2));
        }
        let game = NodeKayles::<u128>::new(n, &edges).unwrap();
        proptest::prop_assert!(game.automorphisms_complete());
        let set = bits & game.all.to_u128();
        let images: Vec<u128> = game
            .automorphisms()
            .iter()
            .map(|p| (0..n).filter(|&v| set >> v & 1 == 1).fold(0u128, |s, v| s | 1 << p[v as usize]))
            .collect();
        let canonical = game.canonical(&Vertices(set)).0;
        proptest::prop_assert_eq!(Some(canonical), images.iter().min().copied());
        for &image in &images {
            proptest::prop_assert_eq!(game.canonical(&Vertices(image)).0, canonical);
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config::with_cases(48))]

    /// Graphs of more than 128 vertices: a random set of the last rows of
    /// a grid of 160 to 256 cells (its bits above 128) has the nimber, by
    /// the solver on `U256`, that the definition gives for the same set
    /// moved to the first rows of a grid on `u64`; and its canonical form
    /// is that of the `u128` grid's, moved down by as many rows.
    #[test]
    fn sets_of_256_bits_play_as_the_same_sets_low(
        rows in 20u32..=32, bits in proptest::num::u64::ANY, density in 2u32..4
    ) {
        let cols = 8;
        let wide = NodeKayles::<U256>::grid(rows, cols).unwrap();
        let narrow = NodeKayles::<u64>::grid(8, cols).unwrap();
        // A random set of about 10 or 5 of the first 40 cells, so that
        // the definition's search stays small and the set splits.
        let mut low = bits & ((1 << 40) - 1);
        for k in 1..density {
            low &= bits.rotate_left(17 * k);
        }
        let shift = (rows - 8) * cols;
        let high = U256::from(low) << shift;
        let solver = Solver::new(&wide);
        let mut memo = std::collections::HashMap::new();
        proptest::prop_assert_eq!(
            solver.nimber(&Vertices(high)).unwrap(),
            by_definition(&narrow, low, &mut memo)
        );
        let mut parts = Vec::new();
        wide.split(&Vertices(high), &mut parts);
        let mut low_parts = Vec::new();
        narrow.split(&Vertices(low), &mut low_parts);
        proptest::prop_assert_eq!(parts.len(), low_parts.len());
        for (part, low_part) in parts.iter().zip(&low_parts) {
            proptest::prop_assert_eq!(part.0, U256::from(low_part.0) << shift);
            // Canonical forms move a shape to the top left corner.
            let canonical = wide.canonical(part).0;
            proptest::prop_assert_eq!(canonical, U256::from(narrow.canonical(low_part).0));
        }
    }
}

proptest::proptest! {
    /// On grids, the closed forms from whole sets (shifts) and components
    /// by layers are those of the degrees of each vertex and of the
    /// closed neighbourhoods.
    #[test]
    fn grid_shortcuts_agree_with_the_general_code(
        rows in 1u32..=8, cols in 1u32..=16, bits in proptest::num::u128::ANY, thin in 0u32..3
    ) {
        let game = NodeKayles::<u128>::grid(rows, cols).unwrap();
        let shifts = game.shifts.expect("a grid");
        let mut set = bits & game.all;
        for k in 0..thin {
            set &= bits.rotate_left(29 + 13 * k);
        }
        let n = set.count_ones();
        if n >= 2 {
            proptest::prop_assert_eq!(
                game.grid_closed_form(&shifts, set, n),
                game.degree_closed_form(set, n)
            );
        }
        let mut rest = set;
        while rest != 0 {
            let seed = rest & rest.wrapping_neg();
            let by_layers = game.component(set, seed);
            // By closed neighbourhoods, a vertex at a time.
            let (mut part, mut frontier) = (seed, seed);
            while frontier != 0 {
                let mut next = 0;
                let mut f = frontier;
                while f != 0 {
                    next |= game.closed[f.trailing_zeros() as usize];
                    f &= f - 1;
                }
                frontier = next & set & !part;
                part |= frontier;
            }
            proptest::prop_assert_eq!(by_layers, part);
            rest &= !part;
        }
    }
}
