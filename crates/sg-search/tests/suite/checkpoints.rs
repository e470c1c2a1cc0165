//! Checkpoints of a search: facts written and read back with every check
//! of their form; hints that are false never change an answer, hints that
//! are true save work; facts learnt are trusted; a stopped search keeps
//! what it learnt.

use proptest::prelude::*;
use sg_search::bits::to_le_bytes;
use sg_search::checkpoint::{CheckpointError, decode, encode};
use sg_search::games::cram::Cram;
use sg_search::games::node_kayles::NodeKayles;
use sg_search::proof::ProofGame;
use sg_search::{Fact, Game, Options, SearchError, Solver};

fn one_thread() -> Options {
    Options {
        memory: 64 << 20,
        threads: 1,
    }
}

/// The facts of a finished search of `game`'s start (without the work).
fn facts_of<G: Game>(game: &G, start: &G::Position, min_work: u64) -> Vec<(G::Position, Fact)> {
    let solver = Solver::with_options(game, one_thread());
    solver.nimber(start).unwrap();
    solver
        .facts(min_work)
        .into_iter()
        .map(|(p, f, _)| (p, f))
        .collect()
}

#[test]
fn a_checkpoint_reads_back_as_written() {
    let cram = Cram::<u64>::new(4, 5).unwrap();
    let facts = facts_of(&cram, &cram.start(), 0);
    assert!(facts.len() > 100, "{}", facts.len());
    let bytes = encode(&cram, &facts, "test");
    assert_eq!(decode(&cram, &bytes).unwrap(), facts);
    // Each fact as a word and back.
    for (_, fact) in &facts {
        assert_eq!(Fact::from_word(fact.to_word()), Some(*fact));
    }
}

#[test]
fn damaged_foreign_and_crafted_checkpoints_are_refused() {
    let cram = Cram::<u64>::new(4, 5).unwrap();
    let facts = facts_of(&cram, &cram.start(), 0);
    let bytes = encode(&cram, &facts, "test");
    assert!(matches!(
        decode(&cram, &bytes[..10]),
        Err(CheckpointError::Truncated { len: 10 })
    ));
    let mut wrong = bytes.clone();
    wrong[0] = b'X';
    assert!(matches!(
        decode(&cram, &wrong),
        Err(CheckpointError::BadMagic { .. })
    ));
    let mut wrong = bytes.clone();
    wrong[8] = 9;
    assert!(matches!(
        decode(&cram, &wrong),
        Err(CheckpointError::UnsupportedVersion { found: 9 })
    ));
    // Any byte of the body changed: the checksum.
    for at in [16, bytes.len() / 2, bytes.len() - 1] {
        let mut wrong = bytes.clone();
        wrong[at] ^= 0x40;
        assert!(
            matches!(decode(&cram, &wrong), Err(CheckpointError::Checksum { .. })),
            "byte {at}"
        );
    }
    // Another board, another game.
    let other = Cram::<u64>::new(4, 6).unwrap();
    let err = decode(&other, &bytes).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the file is a checkpoint of cram 4x5, not of cram 4x6"
    );
    let kayles = NodeKayles::<u64>::new(3, &[(0, 1), (1, 2)]).unwrap();
    assert!(matches!(
        decode(&kayles, &bytes),
        Err(CheckpointError::OtherGame { .. })
    ));
    // A well-formed file of crafted entries (its checksum right): a word
    // that is no fact (the lock's bit set), a position the board cannot
    // hold.
    let craft = |entries: Vec<(Vec<u8>, u64)>| {
        let body = postcard::to_allocvec(&("cram", cram.rules(), "test", entries)).unwrap();
        let mut bytes = b"GRUNDYC\0".to_vec();
        bytes.extend_from_slice(&2u32.to_le_bytes());
        bytes.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
        bytes.extend_from_slice(&body);
        bytes
    };
    let (position, fact) = facts[0];
    let code = cram.code(&position);
    assert_eq!(
        decode(&cram, &craft(vec![(code.clone(), fact.to_word())])).unwrap(),
        vec![(position, fact)]
    );
    assert_eq!(
        decode(
            &cram,
            &craft(vec![
                (code.clone(), fact.to_word()),
                (code, fact.to_word() | 1 << 61)
            ])
        )
        .unwrap_err()
        .to_string(),
        "entry 1 is not a valid fact"
    );
    assert_eq!(
        decode(
            &cram,
            &craft(vec![(to_le_bytes(1u128 << 100), fact.to_word())])
        )
        .unwrap_err()
        .to_string(),
        "entry 0 is not a position of the game"
    );
    assert_eq!(Fact::from_word(0), None);
    assert_eq!(Fact::from_word(u64::MAX), None);
}

/// Hints that are false (random claims about the components met) never
/// change a nimber; true ones (a finished search's) make the search
/// expand fewer positions.
#[test]
fn hints_order_the_search_and_never_decide_it() {
    for (rows, cols) in [(3, 6), (4, 5), (4, 6), (3, 8)] {
        let cram = Cram::<u64>::new(rows, cols).unwrap();
        let start = cram.start();
        let plain = Solver::with_options(&cram, one_thread());
        let nimber = plain.nimber(&start).unwrap();
        let facts = facts_of(&cram, &start, 0);
        // Lies: every fact's exact nimber moved by one, bounds dropped.
        let lies: Vec<(_, Fact)> = facts
            .iter()
            .filter_map(|(p, f)| Some((*p, f.nimber()?)))
            .map(|(p, n)| (p, lie(n + 1)))
            .collect();
        let lied = Solver::with_options(&cram, one_thread()).with_hints(lies);
        assert_eq!(
            lied.nimber(&start).unwrap(),
            nimber,
            "{rows}x{cols} with lies"
        );
        let hinted = Solver::with_options(&cram, one_thread()).with_hints(facts);
        assert_eq!(hinted.nimber(&start).unwrap(), nimber, "{rows}x{cols}");
        assert!(
            hinted.expanded() <= plain.expanded(),
            "{rows}x{cols}: {} with hints, {} without",
            hinted.expanded(),
            plain.expanded()
        );
    }
}

/// A fact saying the nimber is `n`, made from a true one's word.
fn lie(n: u32) -> Fact {
    // The word of an exact nimber: used, exact, the nimber in bits 32..60.
    Fact::from_word(1 << 63 | 1 << 62 | u64::from(n) << 32).expect("an exact fact")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Random hints on random Node-Kayles graphs: the nimber is the one
    /// found without them.
    #[test]
    fn random_hints_never_change_a_nimber(
        edges in proptest::collection::vec((0u32..10, 0u32..10), 0..25),
        claims in proptest::collection::vec((any::<u64>(), 0u32..6), 0..200),
    ) {
        let edges: Vec<(u32, u32)> = edges.into_iter().filter(|(a, b)| a != b).collect();
        let game = NodeKayles::<u64>::new(10, &edges).unwrap();
        let start = game.start();
        let nimber = Solver::with_options(&game, one_thread()).nimber(&start).unwrap();
        // Hints about subsets of the vertices (canonical or not).
        let hints: Vec<_> = claims
            .into_iter()
            .map(|(set, n)| {
                let mut p = start;
                p.0 &= set;
                (game.canonical(&p), lie(n))
            })
            .collect();
        let hinted = Solver::with_options(&game, one_thread()).with_hints(hints);
        prop_assert_eq!(hinted.nimber(&start).unwrap(), nimber);
    }
}

/// Facts learnt (trusted) answer at once; a search stopped from another
/// thread ends with `Stopped`, and what it learnt resumes it.
#[test]
fn a_stopped_search_resumes_from_its_facts() {
    let cram = Cram::<u64>::new(5, 6).unwrap();
    let start = cram.start();
    let whole = Solver::with_options(&cram, one_thread());
    let nimber = whole.nimber(&start).unwrap();
    let from_scratch = whole.expanded();
    let stopped = Solver::with_options(&cram, one_thread());
    let result = std::thread::scope(|scope| {
        scope.spawn(|| {
            while stopped.expanded() < from_scratch / 2 {
                std::thread::yield_now();
            }
            stopped.stop();
        });
        stopped.nimber(&start)
    });
    assert_eq!(result, Err(SearchError::Stopped));
    assert!(stopped.is_stopped());
    let facts: Vec<_> = stopped
        .facts(0)
        .into_iter()
        .map(|(p, f, _)| (p, f))
        .collect();
    assert!(!facts.is_empty());
    // As hints: proven again, with less work.
    let hinted = Solver::with_options(&cram, one_thread()).with_hints(facts.clone());
    assert_eq!(hinted.nimber(&start).unwrap(), nimber);
    assert!(
        hinted.expanded() < from_scratch,
        "{} of {from_scratch}",
        hinted.expanded()
    );
    // Trusted: still less.
    let trusting = Solver::with_options(&cram, one_thread());
    trusting.learn(facts);
    assert_eq!(trusting.nimber(&start).unwrap(), nimber);
    assert!(trusting.expanded() < from_scratch);
}
