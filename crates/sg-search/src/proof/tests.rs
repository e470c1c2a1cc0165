//! Certificates of Cram boards: they check and prove the nimber of the
//! definition; every single corruption of a claim is rejected at the first
//! claim it breaks; other boards, truncated and garbage files are refused.

use std::collections::HashMap;

use super::file::{Claim, Claims, Sections, Tail, encode, take};
use super::*;
use crate::Solver;
use crate::bits::{Bits, U256, from_le_bytes, to_le_bytes};
use crate::games::chomp::Chomp;
use crate::games::cram::{Cells, Cram};
use crate::games::node_kayles::NodeKayles;

/// The nimber of a Cram board by the definition: the mex of the options',
/// cells numbered `row * cols + col`, no split, no symmetry.
fn by_definition(rows: u32, cols: u32, free: u64, memo: &mut HashMap<u64, Nimber>) -> Nimber {
    // Every domino of the board, as the mask of its two cells.
    let mut dominoes = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let a = r * cols + c;
            if c + 1 < cols {
                dominoes.push(1 << a | 1 << (a + 1));
            }
            if r + 1 < rows {
                dominoes.push(1 << a | 1 << (a + cols));
            }
        }
    }
    mex_of_options(&dominoes, free, memo)
}

/// The mex of the nimbers of the positions one domino of `dominoes` away
/// from `free`, memoised.
fn mex_of_options(dominoes: &[u64], free: u64, memo: &mut HashMap<u64, Nimber>) -> Nimber {
    if let Some(&n) = memo.get(&free) {
        return n;
    }
    // A board of at most 64 cells has at most 112 dominoes (8 x 8): a
    // nimber, at most its position's number of options, is below 128.
    let mut seen = 0u128;
    for &domino in dominoes {
        if free & domino == domino {
            seen |= 1 << mex_of_options(dominoes, free & !domino, memo);
        }
    }
    let mex = seen.trailing_ones();
    memo.insert(free, mex);
    mex
}

/// The blocked cells of a `rows` x `cols` board whose bit `row * cols +
/// col` is set in `mask`.
fn blocked_of(rows: u32, cols: u32, mask: u64) -> Vec<(u32, u32)> {
    (0..rows * cols)
        .filter(|i| mask >> i & 1 == 1)
        .map(|i| (i / cols, i % cols))
        .collect()
}

fn prove_board<B: Bits>(rows: u32, cols: u32, blocked: &[(u32, u32)]) -> ProofFile {
    let cram = Cram::<B>::with_blocked(rows, cols, blocked).unwrap();
    let solver = Solver::new(&cram);
    let nimber = solver.nimber(&cram.start()).unwrap();
    let proof = prove(&solver, "tests").unwrap();
    assert_eq!(proof.nimber, nimber);
    proof
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

/// SplitMix64, for random test inputs.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random graph of `n` vertices, each pair an edge with probability
/// `1 / one_in`; edges sorted, `u < v`.
fn random_graph(rng: &mut SplitMix, n: u32, one_in: u64) -> Vec<(u32, u32)> {
    let mut edges = Vec::new();
    for u in 0..n {
        for v in u + 1..n {
            if rng.below(one_in) == 0 {
                edges.push((u, v));
            }
        }
    }
    edges
}

/// Node-Kayles by the definition: the mex over every vertex of the set
/// left when it and its neighbours go.
fn node_kayles_by_definition(
    adjacent: &[u64],
    set: u64,
    memo: &mut HashMap<u64, Nimber>,
) -> Nimber {
    if let Some(&n) = memo.get(&set) {
        return n;
    }
    let seen: Vec<Nimber> = (0..adjacent.len())
        .filter(|&v| set >> v & 1 == 1)
        .map(|v| node_kayles_by_definition(adjacent, set & !(adjacent[v] | 1 << v), memo))
        .collect();
    let mex = (0..).find(|n| !seen.contains(n)).expect("a mex");
    memo.insert(set, mex);
    mex
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

/// A certificate taken apart: the metadata's fields and the claims.
struct Parts<G: ProofGame> {
    rules: G::Rules,
    tail: Tail,
    claims: Vec<Claim>,
}

fn take_apart<G: ProofGame>(bytes: &[u8]) -> Parts<G> {
    let sections = Sections::of(bytes).unwrap();
    let (name, rest) = take::<String>(sections.metadata, "game").unwrap();
    assert_eq!(name, G::NAME);
    let (rules, rest) = take::<G::Rules>(rest, "rules").unwrap();
    let (tail, rest) = take::<Tail>(rest, "tail").unwrap();
    assert!(rest.is_empty());
    let mut reader = Claims::new(sections.payload().unwrap(), tail.claims);
    let mut claims = Vec::new();
    while let Some(claim) = reader.next_claim().unwrap() {
        claims.push(claim);
    }
    Parts {
        rules,
        tail,
        claims,
    }
}

fn put_together<G: ProofGame>(parts: &Parts<G>) -> Vec<u8> {
    let mut metadata = postcard::to_allocvec(G::NAME).unwrap();
    metadata = postcard::to_extend(&parts.rules, metadata).unwrap();
    let tail = Tail {
        claims: parts.claims.len() as u64,
        ..parts.tail.clone()
    };
    metadata = postcard::to_extend(&tail, metadata).unwrap();
    let mut payload = Vec::new();
    for claim in &parts.claims {
        payload = postcard::to_extend(claim, payload).unwrap();
    }
    encode(&metadata, &payload)
}

/// The claim number (from 1) and the message of a rejection.
fn rejection(result: Result<Checked, ProofError>) -> (Option<u64>, String) {
    match result {
        Ok(checked) => panic!("accepted: {checked:?}"),
        Err(e @ ProofError::Claim { number, .. }) => (Some(number), e.to_string()),
        Err(e @ (ProofError::Root { .. } | ProofError::File(_))) => (None, e.to_string()),
        Err(e) => panic!("unexpected error {e}"),
    }
}

/// A certificate of the start of `game`.
fn prove_game<G: ProofGame>(game: &G) -> ProofFile {
    let solver = Solver::new(game);
    let nimber = solver.nimber(&game.root()).unwrap();
    let proof = prove(&solver, "tests").unwrap();
    assert_eq!(proof.nimber, nimber);
    proof
}

/// Every claim of the certificate of `game` corrupted in every way, one
/// at a time.
fn every_corruption_is_rejected<G: ProofGame>(game: &G) -> usize {
    let proof = prove_game(game);
    let parts = take_apart::<G>(&proof.bytes);
    assert_eq!(
        put_together(&parts),
        proof.bytes,
        "taken apart and put together"
    );
    let mut corruptions = 0;
    // The stated nimber changed: the root fails.
    for new in [proof.nimber + 1, proof.nimber ^ 1] {
        let mut bad = take_apart::<G>(&proof.bytes);
        bad.tail.nimber = new;
        let e = check(&put_together(&bad)).unwrap_err();
        assert!(matches!(e, ProofError::Root { .. }), "{e}");
        corruptions += 1;
    }
    for i in 0..parts.claims.len() {
        let claim = &parts.claims[i];
        let position = game.position_of(&claim.position).unwrap();
        let shown = game.show(&position);
        let number = i as u64 + 1;
        let mut moves = Vec::new();
        game.moves(&position, &mut moves);
        let v = claim.nimber;

        // A nimber changed: the witness as it is, or with entries for
        // (a) dropped or added (every move in turn), so that it has the
        // form of a witness for the new nimber. The claim itself fails:
        // no claim before it relies on it.
        let mut changed = Vec::new();
        for new in [v + 1, v + 2, v ^ 1, v.wrapping_sub(1)] {
            if new == v || new == u32::MAX {
                continue;
            }
            changed.push((new, claim.witness.clone()));
            let (reaching, rest) = claim.witness.split_at(v as usize);
            if new < v {
                changed.push((new, [&reaching[..new as usize], rest].concat()));
            } else if new == v + 1 {
                for m in 0..moves.len() as u32 {
                    changed.push((new, [reaching, &[m], rest].concat()));
                }
            }
        }
        for (new, witness) in changed {
            let mut bad = take_apart::<G>(&proof.bytes);
            bad.claims[i].nimber = new;
            bad.claims[i].witness = witness;
            let (failed, message) = rejection(check(&put_together(&bad)));
            assert_eq!(
                failed,
                Some(number),
                "claim {number} given nimber {new}: {message}"
            );
            assert!(message.contains(&shown), "{message}");
            corruptions += 1;
        }

        // Removed: the first claim (or the root) that relies on it fails,
        // naming it.
        let mut bad = take_apart::<G>(&proof.bytes);
        bad.claims.remove(i);
        let (failed, message) = rejection(check(&put_together(&bad)));
        assert!(failed.is_none_or(|n| n >= number), "{message}");
        assert!(
            message.contains(&format!("{shown}, not claimed before"))
                || message.contains(&format!("{shown} has no claim")),
            "claim {number} removed: {message}"
        );
        corruptions += 1;

        // Its position altered: a bit of its code changed (a cell or a
        // vertex added or taken away, a diagram's path changed), a zero
        // byte added at its end, or another claim's position. The claim
        // fails (not a position, claimed before, or its witness does not
        // fit), or a later one that relies on the original does.
        let bits = from_le_bytes::<U256>(&claim.position).unwrap();
        let mut altered: Vec<Vec<u8>> = (0..72)
            .chain([100, 127, 128, 200, 255])
            .map(|bit| to_le_bytes(bits ^ U256::ONE << bit))
            .collect();
        altered.push([claim.position.clone(), vec![0]].concat());
        altered.extend(parts.claims.iter().step_by(7).map(|c| c.position.clone()));
        for code in altered {
            if code == claim.position {
                continue;
            }
            let mut bad = take_apart::<G>(&proof.bytes);
            bad.claims[i].position = code.clone();
            let (failed, message) = rejection(check(&put_together(&bad)));
            assert!(
                failed.is_none_or(|n| n >= number),
                "claim {number} moved to {code:02x?}: {message}"
            );
            corruptions += 1;
        }
    }
    corruptions
}

#[test]
fn every_single_corruption_of_a_claim_is_rejected() {
    let mut corruptions = every_corruption_is_rejected(&Cram::<u64>::new(4, 5).unwrap());
    let board = Cram::<u64>::with_blocked(4, 4, &[(0, 0), (2, 3)]).unwrap();
    corruptions += every_corruption_is_rejected(&board);
    corruptions +=
        every_corruption_is_rejected(&Cram::<u128>::with_blocked(3, 9, &[(1, 4)]).unwrap());
    assert!(corruptions > 10_000, "{corruptions}");
}

#[test]
fn every_single_corruption_of_a_node_kayles_or_chomp_claim_is_rejected() {
    let grid = NodeKayles::<u64>::grid(3, 5).unwrap();
    let mut corruptions = every_corruption_is_rejected(&grid);
    let mut rng = SplitMix(7);
    let graph = random_graph(&mut rng, 11, 3);
    corruptions += every_corruption_is_rejected(&NodeKayles::<u128>::new(11, &graph).unwrap());
    corruptions += every_corruption_is_rejected(&Chomp::<u64>::rectangle(4, 5).unwrap());
    corruptions +=
        every_corruption_is_rejected(&Chomp::<u128>::from_rows(&[6, 5, 5, 2, 1]).unwrap());
    assert!(corruptions > 2_000, "{corruptions}");
}

/// The nimber of a set of cells by the definition (rows of 8 bits, as
/// `Cram<u64>` stores them).
fn nimber_of_cells(cells: u64) -> Nimber {
    by_definition(8, 8, cells, &mut HashMap::new())
}

/// Every entry of every witness changed to each other move: the
/// certificate is accepted only when the new move leads to the same
/// nimber as the old one (and its components have claims before).
fn changed_witness_entries_are_accepted_only_when_true(
    rows: u32,
    cols: u32,
    blocked: &[(u32, u32)],
) -> usize {
    let cram = Cram::<u64>::with_blocked(rows, cols, blocked).unwrap();
    let proof = prove_board::<u64>(rows, cols, blocked);
    let parts = take_apart::<Cram<u64>>(&proof.bytes);
    let mut changes = 0;
    for (i, claim) in parts.claims.iter().enumerate() {
        let position = cram.position_of(&claim.position).unwrap();
        let mut moves = Vec::new();
        cram.moves(&position, &mut moves);
        // (entry index, the position the entry's move leads to, the
        // positions each alternative leads to; an entry `m + 1` takes the
        // alternative `k` as `k + 1`)
        let mut entries: Vec<(usize, u64, Vec<u64>, u32)> = Vec::new();
        let options: Vec<u64> = moves.iter().map(|m| cram.play(&position, m).0).collect();
        for j in 0..claim.nimber as usize {
            entries.push((j, options[claim.witness[j] as usize], options.clone(), 0));
        }
        for (k, option) in options.iter().enumerate() {
            let at = claim.nimber as usize + k;
            let entry = claim.witness[at];
            if entry == 0 {
                continue;
            }
            let mut replies = Vec::new();
            cram.moves(&Cells(*option), &mut replies);
            // The reply is right when it leads to the nimber the original
            // leads to (the claim's).
            let after: Vec<u64> = replies
                .iter()
                .map(|r| cram.play(&Cells(*option), r).0)
                .collect();
            entries.push((at, after[entry as usize - 1], after, 1));
        }
        for (index, original, alternatives, offset) in entries {
            let expected = nimber_of_cells(original);
            for (k, &alternative) in alternatives.iter().enumerate() {
                let entry = k as u32 + offset;
                if entry == parts.claims[i].witness[index] {
                    continue;
                }
                let mut bad = take_apart::<Cram<u64>>(&proof.bytes);
                bad.claims[i].witness[index] = entry;
                let result = check(&put_together(&bad));
                let right = nimber_of_cells(alternative) == expected;
                match result {
                    Ok(_) => assert!(right, "claim {} entry {index} -> {k} accepted", i + 1),
                    // A right move is refused only for lacking claims.
                    Err(e) => assert!(
                        !right || e.to_string().contains("not claimed before"),
                        "claim {} entry {index} -> {k}: {e}",
                        i + 1
                    ),
                }
                changes += 1;
            }
        }
    }
    changes
}

#[test]
fn a_changed_witness_is_accepted_only_when_it_still_proves_the_claim() {
    let changes = changed_witness_entries_are_accepted_only_when_true(4, 4, &[(0, 0), (2, 3)])
        + changed_witness_entries_are_accepted_only_when_true(3, 5, &[]);
    assert!(changes > 1000, "{changes}");
}

#[test]
fn a_certificate_of_another_board_is_rejected() {
    let proof = prove_board::<u64>(3, 5, &[]);
    // Checked as a proof for another board.
    let other = Cram::<u64>::new(3, 6).unwrap();
    let e = check_game(&proof.bytes, Some(&other)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the certificate is for cram 3x5, not cram 3x6",
        "{e}"
    );
    // The rules of the file replaced by another board's: the root is not
    // the start of the new rules; with the root replaced too, the claims
    // do not prove it.
    let mut parts = take_apart::<Cram<u64>>(&proof.bytes);
    parts.rules = CramRules {
        rows: 3,
        cols: 5,
        blocked: vec![(1, 2)],
    };
    let e = check(&put_together(&parts)).unwrap_err();
    assert!(
        matches!(e, ProofError::File(FileError::RootNotStart { .. })),
        "{e}"
    );
    let board = Cram::<u64>::with_blocked(3, 5, &[(1, 2)]).unwrap();
    parts.tail.root = board.code(&board.start());
    let e = check(&put_together(&parts)).unwrap_err();
    assert!(matches!(e, ProofError::Root { .. }), "{e}");
    // Rules that make no board.
    parts.rules.rows = 0;
    let e = check(&put_together(&parts)).unwrap_err();
    assert!(matches!(e, ProofError::Rules { .. }), "{e}");
    // Another game.
    let mut bytes = proof.bytes.clone();
    let at = super::file::HEADER_LEN + 1;
    bytes[at..at + 4].copy_from_slice(b"kram");
    let metadata_len = u32::from_le_bytes(bytes[16..20].try_into().unwrap()) as usize;
    let crc = crc32fast::hash(&bytes[64..64 + metadata_len]);
    bytes[20..24].copy_from_slice(&crc.to_le_bytes());
    let e = check(&bytes).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the certificate is for the game \"kram\", which this program does not know"
    );
}

#[test]
fn truncated_and_garbage_files_are_clear_errors() {
    let proof = prove_board::<u64>(3, 4, &[]);
    let bytes = &proof.bytes;
    for len in 0..bytes.len() {
        let e = check(&bytes[..len]).unwrap_err();
        assert!(matches!(e, ProofError::File(_)), "{len}: {e}");
        if len >= 64 {
            assert!(e.to_string().starts_with("the file is truncated"), "{e}");
        }
    }
    // Every byte changed: refused (the header's fields, or a checksum).
    for at in 0..bytes.len() {
        let mut bad = bytes.clone();
        bad[at] ^= 0x5a;
        assert!(check(&bad).is_err(), "byte {at} changed");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(
        check(&longer)
            .unwrap_err()
            .to_string()
            .contains("header describes")
    );
    let e = check(b"CRAM 4x7 nimber 3\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "the file is truncated: its header needs 64 bytes, the file has 18"
    );
    let e = check(&[0x17; 100]).unwrap_err();
    assert!(e.to_string().starts_with("not a grundy proof file"), "{e}");
    assert!(!e.to_string().contains("gzip"), "{e}");
    let mut gzipped = [0u8; 100];
    gzipped[..3].copy_from_slice(&[0x1f, 0x8b, 0x08]);
    let e = check(&gzipped).unwrap_err().to_string();
    assert!(
        e.ends_with("; it is compressed with gzip: gunzip it first"),
        "{e}"
    );
    // A payload that ends in the middle of a claim, its checksum right.
    let mut parts = take_apart::<Cram<u64>>(bytes);
    let claims = parts.claims.len() as u64;
    parts.tail.claims = claims;
    let full = put_together(&parts);
    let sections_end = full.len();
    let mut cut = full[..sections_end - 1].to_vec();
    let payload_len = u64::from_le_bytes(cut[24..32].try_into().unwrap()) - 1;
    cut[24..32].copy_from_slice(&payload_len.to_le_bytes());
    let metadata_len = u32::from_le_bytes(cut[16..20].try_into().unwrap()) as usize;
    let crc = crc32fast::hash(&cut[64 + metadata_len..]);
    cut[32..36].copy_from_slice(&crc.to_le_bytes());
    let e = check(&cut).unwrap_err();
    assert!(
        e.to_string().contains(&format!("claim {claims} (at byte")),
        "{e}"
    );
}

#[test]
fn a_small_table_writes_a_certificate_that_checks() {
    let cram = Cram::<u64>::new(4, 6).unwrap();
    let solver = Solver::with_options(
        &cram,
        crate::Options {
            memory: 4 << 10,
            threads: 1,
        },
    );
    let proof = prove(&solver, "tests").unwrap();
    let large = prove_board::<u64>(4, 6, &[]);
    assert_eq!(check(&proof.bytes).unwrap().nimber, large.nimber);
}

#[test]
fn positions_show_in_the_board_orientation() {
    let cram = Cram::<u128>::new(2, 10).unwrap();
    let position = cram.position(&[(0, 0), (0, 1), (0, 2), (1, 2)]);
    assert_eq!(cram.show(&position), "cells .../##.");
    assert_eq!(cram.show(&Cells(0)), "no free cell");
    let cram = Cram::<u64>::new(3, 3).unwrap();
    assert_eq!(cram.show(&cram.start()), "cells .../.../...");
    assert_eq!(cram.describe(), "cram 3x3");
    let blocked = Cram::<u64>::with_blocked(3, 3, &[(1, 1)]).unwrap();
    assert_eq!(blocked.describe(), "cram 3x3 with 1 blocked cell");
    let one = NodeKayles::<u64>::new(1, &[]).unwrap();
    assert_eq!(one.describe(), "node-kayles, 1 vertex, 0 edges");
    let edge = NodeKayles::<u64>::new(2, &[(0, 1)]).unwrap();
    assert_eq!(edge.describe(), "node-kayles, 2 vertices, 1 edge");
    assert_eq!(blocked.rules().blocked, [(1, 1)]);
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
