//! Cram against the definition: moves, splits, canonical forms, the
//! symmetric-loss rule and the layouts of both lane widths.

use std::collections::HashMap;

use super::*;
use crate::{Options, Solver};

/// The nimber by the definition: the mex of the options', no split, no
/// symmetry.
fn by_definition<B: Bits>(
    cram: &Cram<B>,
    position: Cells<B>,
    memo: &mut HashMap<B, Nimber>,
) -> Nimber {
    if let Some(&n) = memo.get(&position.0) {
        return n;
    }
    let mut moves = Vec::new();
    cram.moves(&position, &mut moves);
    let mut seen = Vec::new();
    for mv in moves {
        seen.push(by_definition(cram, cram.play(&position, &mv), memo));
    }
    let mex = (0..).find(|n| !seen.contains(n)).unwrap();
    memo.insert(position.0, mex);
    mex
}

#[test]
fn small_boards_match_the_definition() {
    let boards = (1..=4).flat_map(|rows| (1..=5).map(move |cols| (rows, cols)));
    // Boards of lanes of 16 bits in a u64 too.
    let wide = [(1, 12), (1, 16), (2, 9), (2, 10)];
    for (rows, cols) in boards.chain(wide) {
        let cram = Cram::<u64>::new(rows, cols).unwrap();
        let expected = by_definition(&cram, cram.start(), &mut HashMap::new());
        assert_eq!(
            Solver::new(&cram).nimber(&cram.start()).unwrap(),
            expected,
            "{rows}x{cols}"
        );
        let wide = Cram::<u128>::new(rows, cols).unwrap();
        assert_eq!(
            Solver::new(&wide).nimber(&wide.start()).unwrap(),
            expected,
            "{rows}x{cols}"
        );
        let threads = Options {
            memory: 1 << 20,
            threads: 2,
        };
        let parallel = Solver::with_options(&cram, threads);
        assert_eq!(
            parallel.nimber(&cram.start()).unwrap(),
            expected,
            "{rows}x{cols}, 2 threads"
        );
    }
}

/// The images of a set of cells (in lanes of `stride` bits) under the
/// symmetries of the square (the eight, or with `rows_stay` the four
/// that keep rows rows), each moved to the top left corner, cell by
/// cell (`None` where an image does not fit in lanes of `stride` bits,
/// `lanes` of them).
fn images_by_cells(shape: u128, stride: i64, lanes: i64, rows_stay: bool) -> Vec<Option<u128>> {
    let cells: Vec<(i64, i64)> = (0..128)
        .filter(|b| shape >> b & 1 == 1)
        .map(|b| (b / stride, b % stride))
        .collect();
    type Map = fn((i64, i64)) -> (i64, i64);
    let maps: [Map; 8] = [
        |(r, c)| (r, c),
        |(r, c)| (-r, -c),
        |(r, c)| (-r, c),
        |(r, c)| (r, -c),
        |(r, c)| (c, r),
        |(r, c)| (-c, -r),
        |(r, c)| (-c, r),
        |(r, c)| (c, -r),
    ];
    maps.iter()
        .take(if rows_stay { 4 } else { 8 })
        .map(|map| {
            let moved: Vec<(i64, i64)> = cells.iter().map(|&cell| map(cell)).collect();
            let top = moved.iter().map(|p| p.0).min().unwrap();
            let left = moved.iter().map(|p| p.1).min().unwrap();
            let mut bits = 0u128;
            for &(r, c) in &moved {
                let (r, c) = (r - top, c - left);
                if c >= stride || r >= lanes {
                    return None;
                }
                bits |= 1 << (stride * r + c);
            }
            Some(bits)
        })
        .collect()
}

/// Checks the canonical form of one component of `free` on `cram`.
fn check_canonical<B: Bits>(
    cram: &Cram<B>,
    free: B,
    pick: usize,
) -> Result<(), proptest::test_runner::TestCaseError> {
    let mut parts = Vec::new();
    cram.split(&Cells(free & cram.start), &mut parts);
    if let Some(part) = parts.get(pick % parts.len().max(1)) {
        let stride = i64::from(cram.stride);
        let lanes = i64::from(B::BITS / cram.stride);
        // With lanes of 16 bits, a transposed image counts when the
        // shape fits in 8 x 8 (and in the lanes there are).
        let shape = Shape::new(part.0, cram.stride);
        let rows_stay = cram.stride == 16 && (shape.height > 8 || shape.width > 8);
        let images = images_by_cells(part.0.to_u128(), stride, lanes, rows_stay);
        let canonical = cram.canonical(part).0.to_u128();
        // An image of the component, and the smallest of those that fit.
        proptest::prop_assert_eq!(Some(canonical), images.iter().flatten().min().copied());
        // Every image that fits has the same canonical form.
        for image in images.iter().flatten() {
            proptest::prop_assert_eq!(
                cram.canonical(&Cells(B::from_u128(*image))).0.to_u128(),
                canonical
            );
        }
    }
    Ok(())
}

proptest::proptest! {
    #[test]
    fn canonical_is_the_smallest_image(rows in 1u32..=16, cols in 1u32..=16, bits in proptest::num::u128::ANY, pick in 0usize..64) {
        if let Ok(cram) = Cram::<u128>::new(rows, cols) {
            check_canonical(&cram, bits, pick)?;
        }
        if let Ok(cram) = Cram::<u64>::new(rows, cols) {
            check_canonical(&cram, bits as u64, pick)?;
        }
    }

    /// A shape that the rule says the second player wins has nimber 0
    /// by the definition.
    #[test]
    fn the_symmetric_rule_agrees_with_the_definition(rows in 1u32..=4, cols in 1u32..=6, bits in proptest::num::u32::ANY) {
        let cram = Cram::<u64>::new(rows, cols).unwrap();
        let free = Cells(u64::from(bits) & cram.start);
        let mut parts = Vec::new();
        cram.split(&free, &mut parts);
        for part in parts {
            if let Reduced::Known(n) = cram.reduce(&part) {
                proptest::prop_assert_eq!(n, by_definition(&cram, part, &mut HashMap::new()));
            }
        }
    }
}

#[test]
fn boards_are_stored_in_the_narrowest_lanes() {
    let tall = Cram::<u128>::new(12, 3).unwrap();
    assert_eq!((tall.transposed, tall.stride), (true, 16), "as in a u64");
    let cram = Cram::<u128>::new(3, 12).unwrap();
    assert_eq!((cram.transposed, cram.stride), (false, 16), "as in a u64");
    let cram = Cram::<u128>::new(5, 12).unwrap();
    assert_eq!((cram.transposed, cram.stride), (true, 8));
    let position = cram.position(&[(0, 11), (1, 11)]);
    let mut moves = Vec::new();
    cram.moves(&position, &mut moves);
    assert_eq!(moves.len(), 1);
    assert_eq!(cram.cells(moves[0]), [(0, 11), (1, 11)]);
    assert_eq!(cram.domino((1, 11), (0, 11)), Some(moves[0]));
    assert_eq!(
        cram.domino((0, 11), (0, 10)).map(|d| cram.cells(d)),
        Some([(0, 10), (0, 11)])
    );
    assert_eq!(cram.domino((0, 11), (1, 10)), None);
    assert_eq!(cram.domino((0, 11), (0, 12)), None);
    assert_eq!(cram.free_cells(cram.play(&position, &moves[0])), []);
    // 4 x 11 in a u64, in lanes of 16 bits; 11 x 4 transposed.
    for (rows, cols, transposed) in [(4, 11, false), (11, 4, true)] {
        let cram = Cram::<u64>::new(rows, cols).unwrap();
        assert_eq!((cram.transposed, cram.stride), (transposed, 16));
        let last = (rows - 1, cols - 1);
        let up = if transposed {
            (rows - 1, cols - 2)
        } else {
            (rows - 2, cols - 1)
        };
        let domino = cram.domino(up, last).unwrap();
        assert_eq!(cram.cells(domino), [up, last]);
        assert_eq!(
            cram.free_cells(cram.play(&cram.start(), &domino)).len() as u32,
            rows * cols - 2
        );
    }
    assert!(fits_u64(4, 16) && !fits_u64(5, 9) && fits_u64(8, 8));
    assert!(matches!(
        Cram::<u128>::new(9, 9),
        Err(CramError::TooLarge { .. })
    ));
    assert!(matches!(
        Cram::<u128>::new(8, 17),
        Err(CramError::TooLarge { .. })
    ));
    assert!(Cram::<u128>::new(8, 16).is_ok());
    for rows in 1..=20 {
        for cols in 1..=20 {
            let supported = rows.min(cols) <= MAX_SHORT_SIDE && rows.max(cols) <= MAX_SIDE;
            assert_eq!(fits(rows, cols), supported, "{rows}x{cols}");
            assert_eq!(
                Cram::<u128>::new(rows, cols).is_ok(),
                supported,
                "{rows}x{cols}"
            );
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// A move that wins by symmetry leaves a position of nimber 0 by the
    /// definition, on random boards made their own image under half a turn
    /// by blocked cells in pairs of images (and some with a pair broken,
    /// which must then have no such move or a true one).
    #[test]
    fn symmetry_wins_are_wins_by_the_definition(
        rows in 1u32..=4,
        cols in 1u32..=6,
        picks in proptest::collection::vec((0u32..4, 0u32..6), 0..4),
        broken in proptest::bool::weighted(0.2),
    ) {
        let mut blocked = Vec::new();
        for (k, &(r, c)) in picks.iter().enumerate() {
            let (r, c) = (r % rows, c % cols);
            blocked.push((r, c));
            if !(broken && k == 0) {
                blocked.push((rows - 1 - r, cols - 1 - c));
            }
        }
        let cram = Cram::<u64>::with_blocked(rows, cols, &blocked).unwrap();
        let start = cram.start();
        if let Some(domino) = cram.symmetry_win(start) {
            let after = cram.play(&start, &domino);
            proptest::prop_assert_eq!(by_definition(&cram, after, &mut HashMap::new()), 0);
        }
    }
}

/// Empty boards odd one way and even the other have the central domino;
/// the others, and boards not their own image, have none.
#[test]
fn symmetry_wins_of_empty_boards() {
    for (rows, cols, cells) in [
        (3, 4, [(1, 1), (1, 2)]),
        (4, 5, [(1, 2), (2, 2)]),
        (1, 2, [(0, 0), (0, 1)]),
        (5, 8, [(2, 3), (2, 4)]),
    ] {
        let cram = Cram::<u64>::new(rows, cols).unwrap();
        let domino = cram.symmetry_win(cram.start()).unwrap();
        assert_eq!(cram.cells(domino), cells, "{rows}x{cols}");
    }
    for (rows, cols) in [(4, 4), (3, 3), (5, 7), (2, 2)] {
        let cram = Cram::<u64>::new(rows, cols).unwrap();
        assert_eq!(cram.symmetry_win(cram.start()), None, "{rows}x{cols}");
    }
    let lopsided = Cram::<u64>::with_blocked(3, 4, &[(0, 0)]).unwrap();
    assert_eq!(lopsided.symmetry_win(lopsided.start()), None);
}

/// The components of random positions of `cram` (each of its dominoes
/// kept with probability about a half, `rounds` times), canonical.
fn random_components<B: Bits>(cram: &Cram<B>, rounds: usize, seed: u64) -> Vec<Cells<B>> {
    let mut state = seed;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut found = Vec::new();
    for _ in 0..rounds {
        let mut position = cram.start();
        let placed = next() % 6;
        for _ in 0..placed {
            let mut moves = Vec::new();
            cram.moves(&position, &mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[(next() % moves.len() as u64) as usize];
            position = cram.play(&position, &mv);
        }
        // Single cells taken out too, which leaves more trees.
        let holes = B::from_u128(u128::from(next() & next() & next()));
        let mut parts = Vec::new();
        cram.split(&Cells(position.0 & !holes), &mut parts);
        found.extend(parts.iter().map(|part| cram.canonical(part)));
    }
    found
}

/// Components of one class key have one nimber, by the definition, on
/// boards of both lane widths; and keys do merge components that are
/// not images of each other (trees bent another way, twin leaves).
#[test]
fn components_of_one_class_have_one_nimber() {
    fn check<B: Bits>(cram: &Cram<B>, rounds: usize, seed: u64) -> (usize, usize) {
        let mut nimbers: HashMap<u128, (Nimber, B)> = HashMap::new();
        let mut memo = HashMap::new();
        let mut forms = std::collections::HashSet::new();
        for part in random_components(cram, rounds, seed) {
            let Some(key) = cram.class_key(&part) else {
                continue;
            };
            forms.insert(part.0);
            let n = by_definition(cram, part, &mut memo);
            let (first, shape) = *nimbers.entry(key).or_insert((n, part.0));
            assert_eq!(n, first, "{part:?} and {shape:?} share a key");
        }
        (forms.len(), nimbers.len())
    }
    let mut merged = 0;
    for (rows, cols, seed) in [(4, 4, 1), (3, 6, 2), (4, 5, 3), (2, 9, 4), (3, 5, 5)] {
        let (forms, keys) = check(&Cram::<u64>::new(rows, cols).unwrap(), 400, seed);
        assert!(keys > 0, "{rows}x{cols}");
        merged += forms - keys;
        // Lanes of 16 bits: a board of 16 columns, those past `cols`
        // blocked.
        let blocked: Vec<(u32, u32)> = (0..rows)
            .flat_map(|r| (cols..16).map(move |c| (r, c)))
            .collect();
        let wide = Cram::<u64>::with_blocked(rows, 16, &blocked).unwrap();
        assert_eq!(wide.stride, 16);
        let (wide_forms, wide_keys) = check(&wide, 100, seed);
        merged += wide_forms - wide_keys;
        check(&Cram::<u128>::new(rows, cols).unwrap(), 100, seed);
    }
    assert!(merged > 50, "only {merged} components merged");
}

/// A key is the same for every image of a component under the
/// symmetries of the square, and for trees that hang another way.
#[test]
fn class_keys_ignore_symmetries_and_the_way_trees_hang() {
    let cram = Cram::<u64>::new(8, 8).unwrap();
    for part in random_components(&cram, 300, 7) {
        let key = cram.class_key(&part);
        let stride = i64::from(cram.stride);
        for image in images_by_cells(part.0.to_u128(), stride, 8, false)
            .into_iter()
            .flatten()
        {
            assert_eq!(cram.class_key(&Cells(image as u64)), key, "{part:?}");
        }
    }
    // A 2 x 2 block with a path of three cells hanging straight down, or
    // bent, from one of its cells; the same with two leaves at the end
    // of the path (one counts); a path of four.
    let shape = |cells: &[(u32, u32)]| cram.canonical(&cram.position(cells));
    let block = [(0, 0), (0, 1), (1, 0), (1, 1)];
    let with = |tail: &[(u32, u32)]| {
        let mut cells = block.to_vec();
        cells.extend_from_slice(tail);
        cram.class_key(&shape(&cells))
    };
    let straight = with(&[(2, 0), (3, 0), (4, 0)]);
    assert!(straight.is_some());
    assert_eq!(with(&[(2, 0), (3, 0), (3, 1)]), straight, "bent");
    assert_eq!(
        with(&[(0, 2), (0, 3), (1, 3)]),
        straight,
        "from another cell"
    );
    assert_eq!(
        with(&[(2, 0), (3, 0), (4, 0), (3, 1)]),
        with(&[(2, 0), (3, 0), (3, 1)]),
        "twin leaves"
    );
    assert_ne!(with(&[(2, 0), (3, 0), (4, 0), (5, 0)]), straight, "longer");
    assert_ne!(with(&[(2, 0), (0, 2), (0, 3)]), straight, "two trees");
    // A path: a tree whose key ignores its bends.
    let path = cram.class_key(&shape(&[(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]));
    assert_eq!(
        cram.class_key(&shape(&[(0, 0), (1, 0), (1, 1), (1, 2), (2, 2)])),
        path
    );
    // No leaf: no key (its canonical form says as much).
    assert_eq!(cram.class_key(&shape(&block)), None);
    assert_eq!(
        Cram::<u64>::new(8, 8)
            .unwrap()
            .without_classes()
            .class_key(&shape(&[(0, 0), (0, 1), (0, 2)])),
        None
    );
}

/// A tree too long for a key has none, and the board is still solved
/// (a snake of 43 cells on 8 x 16).
#[test]
fn components_without_room_in_a_key_have_none() {
    let cram = Cram::<u128>::new(8, 16).unwrap();
    let mut cells = Vec::new();
    for row in (0..8).step_by(2) {
        for col in 0..16 {
            cells.push((row, if row % 4 == 0 { col } else { 15 - col }));
        }
        if row + 1 < 8 {
            cells.push((row + 1, if row % 4 == 0 { 15 } else { 0 }));
        }
    }
    let snake = cram.canonical(&cram.position(&cells[..43]));
    assert_eq!(cram.class_key(&snake), None);
    let short = cram.canonical(&cram.position(&cells[..20]));
    assert!(cram.class_key(&short).is_some());
}
