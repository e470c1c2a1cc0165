//! Certificates of Cram boards, Node-Kayles graphs and Chomp: the
//! helpers the tests share (the games by their definition, certificates
//! taken apart and put together); other boards, truncated and garbage
//! files are refused.

use std::collections::HashMap;

use super::file::{Claim, Claims, Sections, Tail, encode, take};
use super::*;
use crate::Solver;
use crate::bits::{Bits, U256, from_le_bytes, to_le_bytes};
use crate::games::chomp::Chomp;
use crate::games::cram::{Cells, Cram};
use crate::games::node_kayles::NodeKayles;

mod corruption;
mod games;

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

fn prove_board<B: Bits>(rows: u32, cols: u32, blocked: &[(u32, u32)]) -> ProofFile {
    let cram = Cram::<B>::with_blocked(rows, cols, blocked).unwrap();
    let solver = Solver::new(&cram);
    let nimber = solver.nimber(&cram.start()).unwrap();
    let proof = prove(&solver, "tests").unwrap();
    assert_eq!(proof.nimber, nimber);
    proof
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

/// A certificate of the start of `game`.
fn prove_game<G: ProofGame>(game: &G) -> ProofFile {
    let solver = Solver::new(game);
    let nimber = solver.nimber(&game.root()).unwrap();
    let proof = prove(&solver, "tests").unwrap();
    assert_eq!(proof.nimber, nimber);
    proof
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
