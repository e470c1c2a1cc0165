//! The built-in games against the definition: the solver's nimbers and
//! winning moves on random small positions equal those of a plain
//! memoised mex over every move of the whole position (no split, no
//! canonical form, no known nimber, no pruning); Node-Kayles on paths
//! against Dawson's chess from the octal engine; a tiny transposition
//! table and two threads against the defaults; the Kayles example against
//! `0.77`.

use std::collections::HashMap;

use proptest::prelude::*;
use sg_octal::{Rules, Sequence};
use sg_search::bits::Bits;
use sg_search::games::chomp::Chomp;
use sg_search::games::cram::Cram;
use sg_search::games::node_kayles::{NodeKayles, Vertices};
use sg_search::{Game, Nimber, Options, Solver};

#[path = "../../examples/user_game.rs"]
#[allow(dead_code, unreachable_pub)]
pub(crate) mod user_game;

/// The nimber of `position` by the definition: the mex of the nimbers of
/// the positions its moves lead to, memoised in `memo`. Only `moves` and
/// `play` of the game are used. (The positions here are small: the depth
/// of the recursion is at most their number of moves in a row.)
fn by_definition<G: Game>(
    game: &G,
    position: &G::Position,
    memo: &mut HashMap<G::Position, Nimber>,
) -> Nimber {
    if let Some(&n) = memo.get(position) {
        return n;
    }
    let mut moves = Vec::new();
    game.moves(position, &mut moves);
    let mut seen = vec![false; moves.len() + 1];
    for mv in &moves {
        let n = by_definition(game, &game.play(position, mv), memo) as usize;
        if n < seen.len() {
            seen[n] = true;
        }
    }
    let mex = seen.iter().position(|&s| !s).expect("a value is missing") as Nimber;
    memo.insert(position.clone(), mex);
    mex
}

/// The solver's nimber of `position` equals the definition's, and its
/// winning move is one of the moves, to a position of nimber 0, exactly
/// when the nimber is not 0.
fn check<G: Game>(
    solver: &Solver<'_, G>,
    position: &G::Position,
    memo: &mut HashMap<G::Position, Nimber>,
) -> Result<(), TestCaseError> {
    let game = solver.game();
    let expected = by_definition(game, position, memo);
    prop_assert_eq!(solver.nimber(position).unwrap(), expected, "{:?}", position);
    match solver.winning_move(position).unwrap() {
        Some(mv) => {
            prop_assert!(expected != 0, "a move from {:?}, of nimber 0", position);
            let mut moves = Vec::new();
            game.moves(position, &mut moves);
            prop_assert!(moves.contains(&mv), "{:?} is not a move", mv);
            let next = game.play(position, &mv);
            prop_assert_eq!(
                by_definition(game, &next, memo),
                0,
                "{:?} after {:?}",
                next,
                mv
            );
        }
        None => prop_assert_eq!(expected, 0, "no winning move from {:?}", position),
    }
    Ok(())
}

/// A transposition table of a few kilobytes.
fn tiny() -> Options {
    Options {
        memory: 4 << 10,
        ..Options::default()
    }
}

/// The options a test case runs with: the default (0), a tiny table (1)
/// or two threads (2).
fn options(pick: u8) -> Options {
    match pick {
        0 => Options::default(),
        1 => tiny(),
        _ => Options {
            threads: 2,
            ..Options::default()
        },
    }
}

/// The same game without its nimbers known at once (split and canonical
/// forms kept): what the search alone finds.
struct Searched<'g, G>(&'g G);

impl<G: Game> Game for Searched<'_, G> {
    type Position = G::Position;
    type Move = G::Move;
    fn moves(&self, position: &G::Position, moves: &mut Vec<G::Move>) {
        self.0.moves(position, moves)
    }
    fn play(&self, position: &G::Position, mv: &G::Move) -> G::Position {
        self.0.play(position, mv)
    }
    fn split(&self, position: &G::Position, components: &mut Vec<G::Position>) {
        self.0.split(position, components)
    }
    fn canonical(&self, component: &G::Position) -> G::Position {
        self.0.canonical(component)
    }
    fn size(&self, component: &G::Position) -> u64 {
        self.0.size(component)
    }
}

/// `G(0)` to `G(to)` of an octal game, from the octal engine.
fn octal(code: &str, to: u64) -> Vec<u16> {
    let mut sequence = Sequence::new(Rules::parse(code).unwrap());
    sequence.extend_to(to, &mut |_| {}).unwrap();
    (0..=to).map(|n| sequence.value(n).unwrap()).collect()
}

/// The edges of a random graph on `n` vertices: the pairs `pairs` picks
/// (modulo `n`), without self-loops; with `mirror`, each edge also
/// mirrored by `v -> n - 1 - v` (so that the graph has a symmetry).
pub(crate) fn random_edges(n: u32, pairs: &[(u32, u32)], mirror: bool) -> Vec<(u32, u32)> {
    let mut edges = Vec::new();
    if n < 2 {
        return edges;
    }
    for &(u, v) in pairs {
        let (u, v) = (u % n, v % n);
        if u != v {
            edges.push((u, v));
            if mirror {
                edges.push((n - 1 - u, n - 1 - v));
            }
        }
    }
    edges
}

/// The cells `(row, col)` of a `rows x cols` board whose bits (row-major)
/// are set in `mask`.
pub(crate) fn cells_of_mask(rows: u32, cols: u32, mask: u64) -> Vec<(u32, u32)> {
    (0..rows * cols)
        .filter(|i| mask >> i & 1 == 1)
        .map(|i| (i / cols, i % cols))
        .collect()
}

/// The members of `mask` below `n`, as a set.
pub(crate) fn subset<B: Bits>(n: u32, mask: u128) -> B {
    let below = if n >= 128 { u128::MAX } else { (1 << n) - 1 };
    B::from_u128(mask & below)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn cram_with_blocked_cells_matches_the_definition(
        rows in 1u32..=4, cols in 1u32..=4, blocked in any::<u16>(), pick in 0u8..3
    ) {
        let blocked = cells_of_mask(rows, cols, u64::from(blocked));
        let cram = Cram::<u64>::with_blocked(rows, cols, &blocked).unwrap();
        let solver = Solver::with_options(&cram, options(pick));
        check(&solver, &cram.start(), &mut HashMap::new())?;
    }

    #[test]
    fn node_kayles_on_random_graphs_matches_the_definition(
        n in 0u32..=13,
        pairs in proptest::collection::vec((0u32..16, 0u32..16), 0..40),
        mirror in any::<bool>(),
        mask in any::<u128>(),
    ) {
        let edges = random_edges(n, &pairs, mirror);
        let game = NodeKayles::<u64>::new(n, &edges).unwrap();
        let solver = Solver::new(&game);
        let mut memo = HashMap::new();
        check(&solver, &game.start(), &mut memo)?;
        check(&solver, &Vertices(subset(n, mask)), &mut memo)?;
        // The same on the wider set type, with a tiny table, and with two
        // threads.
        let wide = NodeKayles::<u128>::new(n, &edges).unwrap();
        let mut memo = HashMap::new();
        for pick in [1, 2] {
            let solver = Solver::with_options(&wide, options(pick));
            check(&solver, &Vertices(subset(n, mask)), &mut memo)?;
        }
    }

    #[test]
    fn node_kayles_on_grids_matches_the_definition(
        rows in 1u32..=4, cols in 1u32..=5, mask in any::<u128>(), pick in 0u8..3
    ) {
        let game = NodeKayles::<u64>::grid(rows, cols).unwrap();
        prop_assert_eq!(game.grid_shape(), Some((rows, cols)));
        let solver = Solver::with_options(&game, options(pick));
        let mut memo = HashMap::new();
        check(&solver, &game.start(), &mut memo)?;
        check(&solver, &Vertices(subset(rows * cols, mask)), &mut memo)?;
    }

    #[test]
    fn node_kayles_known_nimbers_match_the_definition(
        n in 1u32..=12,
        pairs in proptest::collection::vec((0u32..16, 0u32..16), 0..20),
        mask in any::<u128>(),
    ) {
        let game = NodeKayles::<u64>::new(n, &random_edges(n, &pairs, false)).unwrap();
        let mut memo = HashMap::new();
        let position = Vertices(subset(n, mask));
        if let Some(known) = game.known_nimber(&position) {
            prop_assert_eq!(known, by_definition(&game, &position, &mut memo));
        }
    }

    #[test]
    fn chomp_on_random_diagrams_matches_the_definition(
        mut rows in proptest::collection::vec(1u32..=8, 1..=8), pick in 0u8..3
    ) {
        rows.sort_unstable_by(|a, b| b.cmp(a));
        let chomp = Chomp::<u64>::from_rows(&rows).unwrap();
        // A table that holds almost nothing makes the search exponential
        // (the 6 x 6 square takes seconds): only inside the 5 x 5 square.
        let pick = if pick == 1 && (rows.len() > 5 || rows[0] > 5) { 0 } else { pick };
        let solver = Solver::with_options(&chomp, options(pick));
        check(&solver, &chomp.start(), &mut HashMap::new())?;
    }
}

/// Every diagram inside the 7 x 7 square: the known nimbers and the
/// solver's (one solver for all, on both set types) equal the definition.
#[test]
fn chomp_on_every_diagram_of_the_7x7_square_matches_the_definition() {
    let narrow = Chomp::<u64>::rectangle(7, 7).unwrap();
    let wide = Chomp::<u128>::rectangle(7, 7).unwrap();
    let (solver, wide_solver) = (Solver::new(&narrow), Solver::new(&wide));
    let mut memo = HashMap::new();
    let mut diagrams = 0;
    let mut known = 0;
    // Seven row lengths from 0 to 7 as the digits of a counter in base 8,
    // kept when they do not increase (the rows of length 0 left out).
    for code in 1..8u32.pow(7) {
        let digits: Vec<u32> = (0..7).map(|i| code / 8u32.pow(6 - i) % 8).collect();
        if digits.windows(2).any(|w| w[1] > w[0]) {
            continue;
        }
        let rows: Vec<u32> = digits.into_iter().filter(|&l| l > 0).collect();
        let diagram = Chomp::<u64>::diagram(&rows).unwrap();
        diagrams += 1;
        let expected = by_definition(&narrow, &diagram, &mut memo);
        if let Some(n) = narrow.known_nimber(&diagram) {
            assert_eq!(n, expected, "{rows:?}");
            known += 1;
        }
        assert_eq!(solver.nimber(&diagram).unwrap(), expected, "{rows:?}");
        let wide_diagram = Chomp::<u128>::diagram(&rows).unwrap();
        assert_eq!(
            wide_solver.nimber(&wide_diagram).unwrap(),
            expected,
            "{rows:?}"
        );
        assert_eq!(Chomp::<u64>::rows(diagram), rows);
    }
    // The diagrams with at most 7 rows of at most 7 cells: C(14, 7) - 1.
    assert_eq!(diagrams, 3431, "{known} known");
    // The 49 L-shapes, and the two rows [b + 1, b] and their transposes
    // for b from 2 to 6 ([2, 1] is an L-shape).
    assert_eq!(known, 59);
}

#[test]
fn chomp_transposes_to_the_same_game() {
    let chomp = Chomp::<u64>::rectangle(5, 4).unwrap();
    let solver = Solver::new(&chomp);
    let mut memo = HashMap::new();
    for rows in [
        vec![4, 4, 3, 1, 1],
        vec![4, 2],
        vec![3, 3, 3, 3, 3],
        vec![1, 1, 1],
    ] {
        let diagram = Chomp::<u64>::diagram(&rows).unwrap();
        let transposed = Chomp::transpose(diagram);
        assert_eq!(Chomp::transpose(transposed), diagram);
        let canonical = chomp.canonical(&diagram);
        assert_eq!(chomp.canonical(&transposed), canonical);
        assert_eq!(chomp.canonical(&canonical), canonical);
        assert_eq!(
            by_definition(&chomp, &transposed, &mut memo),
            by_definition(&chomp, &diagram, &mut memo),
            "{rows:?}"
        );
        assert_eq!(
            solver.nimber(&transposed).unwrap(),
            solver.nimber(&diagram).unwrap()
        );
    }
}

/// Node-Kayles on a path of `n` vertices is Dawson's chess `0.137` on a
/// heap of `n`: through the closed form, and through the search alone,
/// with the path numbered in order (a 1 x n grid) and shuffled (a graph
/// with only the automorphisms of a path).
#[test]
fn node_kayles_on_paths_is_dawsons_chess() {
    let dawson = octal("0.137", 128);
    for n in 0..=128u32 {
        let expected = Nimber::from(dawson[n as usize]);
        // The path visits the vertices in the order of (37 v + 5) mod 128.
        let mut order: Vec<u32> = (0..n).collect();
        order.sort_by_key(|&v| (37 * v + 5) % 128);
        let edges: Vec<(u32, u32)> = order.windows(2).map(|w| (w[0], w[1])).collect();
        let shuffled = NodeKayles::<u128>::new(n, &edges).unwrap();
        assert_eq!(
            Solver::new(&shuffled).nimber(&shuffled.start()).unwrap(),
            expected,
            "path of {n}"
        );
        if n <= 40 {
            let searched = Searched(&shuffled);
            assert_eq!(
                Solver::new(&searched).nimber(&shuffled.start()).unwrap(),
                expected,
                "path of {n}, searched"
            );
        }
        if n > 0 {
            let line = NodeKayles::<u128>::grid(1, n).unwrap();
            let searched = Searched(&line);
            assert_eq!(
                Solver::new(&searched).nimber(&line.start()).unwrap(),
                expected,
                "1 x {n} grid, searched"
            );
        }
    }
}

/// 3 x n grids: the search with a table of a few kilobytes, the search
/// with a large one and the definition agree.
#[test]
fn node_kayles_on_3xn_grids_with_a_tiny_table() {
    let mut memo = HashMap::new();
    for n in 1..=6 {
        let grid = NodeKayles::<u64>::grid(3, n).unwrap();
        let expected = by_definition(&grid, &grid.start(), &mut memo);
        memo.clear();
        let small = Solver::with_options(&grid, tiny());
        assert_eq!(small.nimber(&grid.start()).unwrap(), expected, "3 x {n}");
        assert!(small.table_bytes() <= 4 << 10);
        assert_eq!(
            Solver::new(&grid).nimber(&grid.start()).unwrap(),
            expected,
            "3 x {n}"
        );
    }
}

/// Node-Kayles by a memoised mex over connected components, found by a
/// depth-first search on an adjacency list (no canonical form, no known
/// nimber, no pruning): independent of the game's own `split`, and fast
/// enough for the 3 x 16 grid (the definition without split is not).
struct ComponentSolver {
    neighbours: Vec<Vec<u32>>,
    memo: HashMap<u128, Nimber>,
}

impl ComponentSolver {
    fn new(vertices: u32, edges: &[(u32, u32)]) -> Self {
        let mut neighbours = vec![Vec::new(); vertices as usize];
        for &(u, v) in edges {
            neighbours[u as usize].push(v);
            neighbours[v as usize].push(u);
        }
        ComponentSolver {
            neighbours,
            memo: HashMap::new(),
        }
    }

    fn components(&self, set: u128) -> Vec<u128> {
        let mut parts = Vec::new();
        let mut rest = set;
        while rest != 0 {
            let seed = rest.trailing_zeros();
            let mut part = 1u128 << seed;
            let mut stack = vec![seed];
            while let Some(v) = stack.pop() {
                for &u in &self.neighbours[v as usize] {
                    if set >> u & 1 == 1 && part >> u & 1 == 0 {
                        part |= 1 << u;
                        stack.push(u);
                    }
                }
            }
            rest &= !part;
            parts.push(part);
        }
        parts
    }

    /// The nimber of a set of vertices (the XOR of its components').
    fn nimber(&mut self, set: u128) -> Nimber {
        self.components(set)
            .into_iter()
            .fold(0, |x, part| x ^ self.component_nimber(part))
    }

    fn component_nimber(&mut self, part: u128) -> Nimber {
        if let Some(&n) = self.memo.get(&part) {
            return n;
        }
        let mut seen = vec![false; part.count_ones() as usize + 1];
        for v in (0..128).filter(|&v| part >> v & 1 == 1) {
            let removed = self.neighbours[v as usize]
                .iter()
                .fold(1u128 << v, |set, &u| set | 1 << u);
            let n = self.nimber(part & !removed) as usize;
            if n < seen.len() {
                seen[n] = true;
            }
        }
        let mex = seen.iter().position(|&s| !s).expect("a value is missing") as Nimber;
        self.memo.insert(part, mex);
        mex
    }
}

/// The edges of the `rows x cols` grid, vertex `r * cols + c`.
fn grid_edges(rows: u32, cols: u32) -> Vec<(u32, u32)> {
    let mut edges = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let v = r * cols + c;
            if c + 1 < cols {
                edges.push((v, v + 1));
            }
            if r + 1 < rows {
                edges.push((v + cols, v));
            }
        }
    }
    edges
}

/// The solver's nimbers of the 3 x n grids, n from 1 to `last`, equal the
/// component solver's.
fn check_3xn_grids(last: u32) {
    for n in 1..=last {
        let grid = NodeKayles::<u64>::grid(3, n).unwrap();
        let expected = ComponentSolver::new(3 * n, &grid_edges(3, n)).nimber((1 << (3 * n)) - 1);
        for pick in [0, 2] {
            let solver = Solver::with_options(&grid, options(pick));
            assert_eq!(solver.nimber(&grid.start()).unwrap(), expected, "3 x {n}");
        }
    }
}

#[test]
fn node_kayles_on_3xn_grids_matches_the_component_solver() {
    check_3xn_grids(10);
}

/// The same to 3 x 16 (about 10 s in a release build):
/// `cargo test --release -p sg-search --test games -- --ignored`.
#[test]
#[ignore = "slow: the component solver takes seconds on 3 x 16"]
fn node_kayles_on_3xn_grids_to_16_matches_the_component_solver() {
    check_3xn_grids(16);
}

/// The grid given as an edge list is recognised as the grid, and a grid
/// numbered otherwise is solved to the same nimbers.
#[test]
fn node_kayles_grids_from_edge_lists() {
    let (rows, cols) = (3u32, 5u32);
    let edges = grid_edges(rows, cols);
    let listed = NodeKayles::<u64>::new(rows * cols, &edges).unwrap();
    assert_eq!(listed.grid_shape(), Some((rows, cols)));
    // Numbered otherwise: vertex v as (7 v + 3) mod 15.
    let renumber = |v: u32| (7 * v + 3) % 15;
    let renumbered: Vec<(u32, u32)> = edges
        .iter()
        .map(|&(u, v)| (renumber(u), renumber(v)))
        .collect();
    let other = NodeKayles::<u64>::new(rows * cols, &renumbered).unwrap();
    assert_eq!(other.grid_shape(), None);
    assert_eq!(other.automorphisms().len(), 4);
    let (a, b) = (Solver::new(&listed), Solver::new(&other));
    let mut memo = HashMap::new();
    for mask in (0..1u32 << 15).step_by(97) {
        let position = Vertices(u64::from(mask));
        let image = Vertices(
            (0..15)
                .filter(|&v| mask >> v & 1 == 1)
                .fold(0u64, |set, v| set | 1 << renumber(v)),
        );
        let expected = by_definition(&listed, &position, &mut memo);
        assert_eq!(a.nimber(&position).unwrap(), expected);
        assert_eq!(b.nimber(&image).unwrap(), expected);
    }
}

/// The Kayles example computes `0.77`.
#[test]
fn the_kayles_example_is_octal_0_77() {
    let kayles = octal("0.77", 300);
    let solver = Solver::new(&user_game::Kayles);
    for (pins, &expected) in kayles.iter().enumerate() {
        assert_eq!(
            solver.nimber(&vec![pins as u32]).unwrap(),
            Nimber::from(expected),
            "{pins} pins"
        );
    }
    // A position of several rows: the XOR of theirs.
    let rows = vec![3, 7, 12, 40];
    let expected = rows.iter().fold(0, |x, &r| x ^ kayles[r as usize]);
    assert_eq!(solver.nimber(&rows).unwrap(), Nimber::from(expected));
}
