//! Every single corruption of a claim is rejected at the first claim it
//! breaks; a changed witness is accepted only when it still proves the
//! claim.

use super::*;

/// The claim number (from 1) and the message of a rejection.
fn rejection(result: Result<Checked, ProofError>) -> (Option<u64>, String) {
    match result {
        Ok(checked) => panic!("accepted: {checked:?}"),
        Err(e @ ProofError::Claim { number, .. }) => (Some(number), e.to_string()),
        Err(e @ (ProofError::Root { .. } | ProofError::File(_))) => (None, e.to_string()),
        Err(e) => panic!("unexpected error {e}"),
    }
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
