//! Certificates of Cram boards, Node-Kayles graphs (past 128 vertices
//! too) and Chomp check and prove the nimber of the definition; positions
//! of other games and symmetries that are not automorphisms are refused.

use super::*;

/// The blocked cells of a `rows` x `cols` board whose bit `row * cols +
/// col` is set in `mask`.
fn blocked_of(rows: u32, cols: u32, mask: u64) -> Vec<(u32, u32)> {
    (0..rows * cols)
        .filter(|i| mask >> i & 1 == 1)
        .map(|i| (i / cols, i % cols))
        .collect()
}

/// Checks a certificate of the board and compares with the definition.
fn proves_the_definition<B: Bits>(rows: u32, cols: u32, blocked: &[(u32, u32)]) {
    proves::<B>(
        rows,
        cols,
        blocked,
        board_by_definition(rows, cols, blocked),
    );
}

/// The nimber of the board by the definition.
fn board_by_definition(rows: u32, cols: u32, blocked: &[(u32, u32)]) -> Nimber {
    let mut free = (1u64 << (rows * cols)) - 1;
    for &(r, c) in blocked {
        free &= !(1 << (r * cols + c));
    }
    by_definition(rows, cols, free, &mut HashMap::new())
}

/// Checks a certificate of the board and compares with `expected`, its
/// nimber by the definition.
fn proves<B: Bits>(rows: u32, cols: u32, blocked: &[(u32, u32)], expected: Nimber) {
    let proof = prove_board::<B>(rows, cols, blocked);
    let checked = check(&proof.bytes).unwrap_or_else(|e| panic!("{rows}x{cols} {blocked:?}: {e}"));
    assert_eq!(checked.nimber, expected, "{rows}x{cols} {blocked:?}");
    assert_eq!(checked.claims, proof.claims);
    let cram = Cram::<B>::with_blocked(rows, cols, blocked).unwrap();
    assert_eq!(checked.game, cram.describe());
    assert_eq!(check_game(&proof.bytes, Some(&cram)).unwrap(), checked);
}

#[test]
fn certificates_of_small_boards_prove_the_definition() {
    for rows in 1..=4 {
        for cols in 1..=6 {
            // The definition once for both widths.
            let expected = board_by_definition(rows, cols, &[]);
            proves::<u64>(rows, cols, &[], expected);
            proves::<u128>(rows, cols, &[], expected);
        }
    }
    // Stored transposed: more than 8 columns.
    proves_the_definition::<u128>(2, 10, &[]);
    proves_the_definition::<u128>(3, 9, &[(1, 4)]);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    #[test]
    fn certificates_of_boards_with_blocked_cells_prove_the_definition(
        rows in 1u32..=4, cols in 1u32..=6, mask in proptest::num::u64::ANY,
    ) {
        let blocked = blocked_of(rows, cols, mask & mask >> 7);
        proves_the_definition::<u64>(rows, cols, &blocked);
    }
}

/// Chomp by the definition: the mex over every bite but the poisoned
/// cell, rows from the top.
fn chomp_by_definition(rows: &[u32], memo: &mut HashMap<Vec<u32>, Nimber>) -> Nimber {
    if let Some(&n) = memo.get(rows) {
        return n;
    }
    let mut seen = Vec::new();
    for (r, &length) in rows.iter().enumerate() {
        for c in 0..length {
            if (r, c) == (0, 0) {
                continue;
            }
            let next: Vec<u32> = rows
                .iter()
                .enumerate()
                .map(|(i, &l)| if i >= r { l.min(c) } else { l })
                .filter(|&l| l > 0)
                .collect();
            seen.push(chomp_by_definition(&next, memo));
        }
    }
    let mex = (0..).find(|n| !seen.contains(n)).expect("a mex");
    memo.insert(rows.to_vec(), mex);
    mex
}

#[test]
fn certificates_of_node_kayles_and_chomp_prove_the_definition() {
    let mut rng = SplitMix(1);
    for round in 0..60 {
        let n = 1 + rng.below(12) as u32;
        let edges = random_graph(&mut rng, n, 2 + round % 4);
        let mut adjacent = vec![0u64; n as usize];
        for &(u, v) in &edges {
            adjacent[u as usize] |= 1 << v;
            adjacent[v as usize] |= 1 << u;
        }
        let expected = node_kayles_by_definition(&adjacent, (1 << n) - 1, &mut HashMap::new());
        let game = NodeKayles::<u64>::new(n, &edges).unwrap();
        let checked = check(&prove_game(&game).bytes).unwrap();
        assert_eq!(checked.nimber, expected, "{n} {edges:?}");
        assert_eq!(checked.game, game.describe());
        assert!(
            checked.game.starts_with(&format!("node-kayles, {n} vert")),
            "{}",
            checked.game
        );
        let wide = NodeKayles::<u128>::new(n, &edges).unwrap();
        assert_eq!(check(&prove_game(&wide).bytes).unwrap().nimber, expected);
    }
    for (rows, cols) in [(3, 5), (2, 7), (4, 4)] {
        let grid = NodeKayles::<u64>::grid(rows, cols).unwrap();
        let n = rows * cols;
        let mut adjacent = vec![0u64; n as usize];
        for v in 0..n {
            let (r, c) = (v / cols, v % cols);
            for (w, ok) in [(v + 1, c + 1 < cols), (v + cols, r + 1 < rows)] {
                if ok {
                    adjacent[v as usize] |= 1 << w;
                    adjacent[w as usize] |= 1 << v;
                }
            }
        }
        let expected = node_kayles_by_definition(&adjacent, (1 << n) - 1, &mut HashMap::new());
        assert_eq!(check(&prove_game(&grid).bytes).unwrap().nimber, expected);
    }
    for _ in 0..60 {
        let mut rows = vec![1 + rng.below(7) as u32];
        while rows.len() < 6 && rng.below(4) != 0 {
            let last = *rows.last().unwrap();
            rows.push(1 + rng.below(u64::from(last)) as u32);
        }
        let expected = chomp_by_definition(&rows, &mut HashMap::new());
        let game = Chomp::<u64>::from_rows(&rows).unwrap();
        let checked = check(&prove_game(&game).bytes).unwrap();
        assert_eq!(checked.nimber, expected, "{rows:?}");
        let wide = Chomp::<u128>::from_rows(&rows).unwrap();
        assert_eq!(check(&prove_game(&wide).bytes).unwrap().nimber, expected);
    }
    assert_eq!(
        Chomp::<u64>::rectangle(3, 4).unwrap().describe(),
        "chomp 3x4"
    );
    assert_eq!(
        Chomp::<u64>::from_rows(&[4, 3, 1]).unwrap().describe(),
        "chomp 4,3,1"
    );
}

#[test]
fn positions_of_other_games_are_refused() {
    let chomp = Chomp::<u64>::from_rows(&[4, 3, 1]).unwrap();
    assert!(chomp.position_of(&[]).is_none());
    assert!(chomp.position_of(&[1]).is_none(), "no row");
    assert!(
        chomp.position_of(&to_le_bytes(1u128 << 64)).is_none(),
        "beyond u64"
    );
    let start = chomp.code(&chomp.start());
    assert_eq!(chomp.position_of(&start), Some(chomp.start()));
    // A code with a zero byte at its end is not the stored form of a
    // position.
    assert!(
        chomp
            .position_of(&[start.clone(), vec![0]].concat())
            .is_none()
    );
    // Every code below 2^12: a position exactly when it encodes rows.
    for code in 0..1u128 << 12 {
        if let Some(position) = chomp.position_of(&to_le_bytes(code)) {
            let rows = Chomp::rows(position);
            assert!(rows.windows(2).all(|w| w[0] >= w[1]) && rows.iter().all(|&l| l > 0));
            assert_eq!(
                chomp.code(&Chomp::<u64>::diagram(&rows).unwrap()),
                to_le_bytes(code)
            );
        }
    }
    let graph = NodeKayles::<u64>::new(5, &[(0, 1)]).unwrap();
    assert!(graph.position_of(&[0b1_1111]).is_some());
    assert!(graph.position_of(&[0b10_0000]).is_none(), "vertex 5 of 5");
    assert_eq!(graph.show(&graph.start()), "vertices 0,1,2,3,4");
    assert_eq!(graph.show_move(&3), "vertex 3");
}

/// Graphs of more than 128 vertices: certificates of `U256` positions
/// check, a grid's and another graph's, and give the definition's nimber
/// where it can be computed (a sum of small random components, each by
/// the definition).
#[test]
fn certificates_of_graphs_past_128_vertices_check() {
    let ladder = NodeKayles::<U256>::grid(2, 67).unwrap();
    let checked = check(&prove_game(&ladder).bytes).unwrap();
    // The ladder 2 x n: 1 for n odd (OEIS A316632's comment).
    assert_eq!(checked.nimber, 1);
    let mut rng = SplitMix(11);
    let mut edges = Vec::new();
    let mut expected = 0;
    let mut start = 0;
    while start < 200 {
        let n = 2 + rng.below(6) as u32;
        let part = random_graph(&mut rng, n, 2);
        let mut adjacent = vec![0u64; n as usize];
        for &(u, v) in &part {
            adjacent[u as usize] |= 1 << v;
            adjacent[v as usize] |= 1 << u;
            edges.push((start + u, start + v));
        }
        expected ^= node_kayles_by_definition(&adjacent, (1 << n) - 1, &mut HashMap::new());
        start += n;
    }
    let game = NodeKayles::<U256>::new(start, &edges).unwrap();
    let proof = prove_game(&game);
    assert_eq!(check(&proof.bytes).unwrap().nimber, expected);
    assert_eq!(proof.nimber, expected);
}

/// The symmetries a certificate gives a graph's canonical forms are
/// checked: each an automorphism other than the identity, none on a grid.
#[test]
fn symmetries_that_are_not_automorphisms_are_refused() {
    // The sun: a 5-cycle with a leaf at each vertex (vertex i + 5 at i).
    let mut edges: Vec<(u32, u32)> = (0..5)
        .flat_map(|i: u32| [(i.min((i + 1) % 5), i.max((i + 1) % 5)), (i, i + 5)])
        .collect();
    edges.sort_unstable();
    let game = NodeKayles::<u64>::new(10, &edges).unwrap();
    let rules = game.rules();
    assert_eq!(rules.symmetries.len(), 9, "the dihedral group of order 10");
    let proof = prove_game(&game);
    assert!(proof.claims > 0);
    let adjacent: Vec<u64> = (0..10)
        .map(|v| {
            edges
                .iter()
                .filter_map(|&(a, b)| (a == v).then_some(b).or((b == v).then_some(a)))
                .fold(0, |set, w| set | 1 << w)
        })
        .collect();
    let expected = node_kayles_by_definition(&adjacent, (1 << 10) - 1, &mut HashMap::new());
    assert_eq!(check(&proof.bytes).unwrap().nimber, expected);
    let refused = |symmetries: Vec<Vec<u32>>| {
        let mut parts = take_apart::<NodeKayles<u64>>(&proof.bytes);
        parts.rules.symmetries = symmetries;
        check(&put_together(&parts)).unwrap_err().to_string()
    };
    let rotation: Vec<u32> = (0..10)
        .map(|v| if v < 5 { (v + 1) % 5 } else { 5 + (v - 4) % 5 })
        .collect();
    let identity: Vec<u32> = (0..10).collect();
    let mut swapped = identity.clone();
    swapped.swap(0, 5);
    let e = refused(vec![swapped]);
    assert!(e.contains("symmetry 0 is not an automorphism"), "{e}");
    let e = refused(vec![rotation.clone(), identity.clone()]);
    assert!(e.contains("symmetry 1") && e.contains("identity"), "{e}");
    let e = refused(vec![identity[..9].to_vec()]);
    assert!(e.contains("maps 9 vertices, not 10"), "{e}");
    let mut twice = rotation.clone();
    twice[1] = twice[0];
    let e = refused(vec![twice]);
    assert!(e.contains("image of two vertices"), "{e}");
    let mut outside = rotation.clone();
    outside[9] = 10;
    let e = refused(vec![outside]);
    assert!(e.contains("not a vertex"), "{e}");
    // Fewer symmetries than the group: still checked, by the images of
    // those given (a rotation, whose powers are found by lowering again).
    let mut parts = take_apart::<NodeKayles<u64>>(&proof.bytes);
    parts.rules.symmetries = vec![rotation];
    match check(&put_together(&parts)) {
        Ok(checked) => assert_eq!(checked.nimber, expected),
        // A claim valued only through a reflection is then not found.
        Err(e) => assert!(e.to_string().contains("not claimed before"), "{e}"),
    }
    let grid = NodeKayles::<u64>::grid(3, 3).unwrap();
    assert!(grid.rules().symmetries.is_empty());
    let mut parts = take_apart::<NodeKayles<u64>>(&prove_game(&grid).bytes);
    parts.rules.symmetries = vec![(0..9).rev().collect()];
    let e = check(&put_together(&parts)).unwrap_err().to_string();
    assert!(e.contains("the 3x3 grid"), "{e}");
}
