//! Sums with heaps beyond the quotient, searched: against the
//! definition, and stopped by the search's bound or its caller.

use std::ops::ControlFlow;

use super::*;

/// Bounds of `positions` positions and a gibibyte.
fn limits(positions: usize) -> SumSearchLimits {
    SumSearchLimits {
        positions,
        bytes: 1 << 30,
    }
}

/// Sums with heaps beyond the quotient, answered by a search of the sum
/// ([`MisereQuotient::search_sum`]), against the definition: their
/// outcome, and a hint that is a move and leaves a lost sum. The
/// quotients are kept small (heaps 0..=3, or stopped early by the test's
/// candidate bound), so that most sums have heaps they do not cover.
#[test]
fn sums_beyond_the_quotient_are_searched_as_the_definition_plays() {
    let mut rng = sg_nimber::testing::SplitMix64::new(0x5eed_0b0d);
    let codes: Vec<String> = CLASSICS
        .iter()
        .map(|c| c.to_string())
        .chain((0..24).map(|_| random_code(&mut rng)))
        .collect();
    for code in &codes {
        let rules = Rules::parse(code).unwrap();
        let to = rng.below(4);
        let q = compute_bounded(&rules, Limits { to, max_order: 64 }).unwrap();
        let digits = rules.digits().unwrap();
        let mut definition = MisereDefinition::new(digits);
        for sum in sums_up_to(13, 13) {
            let searched = q
                .search_sum(&sum, true, limits(1 << 20), &mut |_| {
                    ControlFlow::Continue(())
                })
                .unwrap_or_else(|e| panic!("{code} {sum:?}: {e}"));
            let expected = definition.lost(&sum);
            assert_eq!(searched.lost, expected, "{code} {sum:?}");
            let terminal = sum.iter().all(|&h| octal_options(digits, h).is_empty());
            assert_eq!(
                searched.winning_move.is_none(),
                expected || terminal,
                "{code} {sum:?}"
            );
            if let Some(m) = searched.winning_move {
                let mut after = sum.clone();
                let h = after.remove(m.heap);
                assert!(
                    octal_options(digits, h).contains(&m.leaves),
                    "{code} {sum:?}"
                );
                assert_eq!(h - m.leaves.iter().sum::<u64>(), m.take);
                after.extend(&m.leaves);
                assert!(definition.lost(&after), "{code} {sum:?}: {m:?} wins");
            }
        }
    }
}

/// The search's bound and its caller's stop are errors, not answers.
#[test]
fn a_sum_search_stops_at_its_bound_and_when_told() {
    let rules = Rules::parse("0.07").unwrap();
    let q = compute_bounded(
        &rules,
        Limits {
            to: 2,
            max_order: 64,
        },
    )
    .unwrap();
    let heaps = [9, 10, 11, 12, 13];
    assert_eq!(
        q.search_sum(
            &heaps,
            false,
            limits(10),
            &mut |_| ControlFlow::Continue(())
        ),
        Err(MisereError::SearchLimit { positions: 10 })
    );
    assert_eq!(
        q.search_sum(&heaps, false, limits(1 << 20), &mut |_| ControlFlow::Break(
            ()
        )),
        Err(MisereError::SearchStopped)
    );
    // A heap with more options than the bound (0.6 splits a heap of 2^40
    // in half a trillion ways): the bound, at once, with or without a
    // hint.
    let splits = compute_bounded(
        &Rules::parse("0.6").unwrap(),
        Limits {
            to: 3,
            max_order: 64,
        },
    )
    .unwrap();
    for hint in [false, true] {
        assert_eq!(
            splits.search_sum(&[1 << 40, 1], hint, limits(1000), &mut |_| {
                ControlFlow::Continue(())
            }),
            Err(MisereError::SearchLimit { positions: 1000 })
        );
    }
    // Many heaps make large positions: the bound on memory, well before
    // the one on positions (each position of 3,000 heaps is 24 KB).
    let many: Vec<u64> = [5, 7]
        .iter()
        .flat_map(|&h| vec![h; 1500])
        .chain([25])
        .collect();
    let small = SumSearchLimits {
        positions: 1 << 20,
        bytes: 64 << 20,
    };
    assert_eq!(
        q.search_sum(&many, false, small, &mut |_| ControlFlow::Continue(())),
        Err(MisereError::SearchMemory { bytes: 64 << 20 })
    );
    // The caller is told the positions expanded.
    let mut told = Vec::new();
    let _ = q.search_sum(&heaps, false, limits(5000), &mut |n| {
        told.push(n);
        ControlFlow::Continue(())
    });
    assert_eq!(told[..2], [0, 1024]);
    // A sum the quotient covers costs no position.
    let covered = q
        .search_sum(&[1, 2], true, limits(1), &mut |_| ControlFlow::Break(()))
        .unwrap();
    assert_eq!(covered.positions, 0);
    assert_eq!(covered.lost, q.is_lost(&[1, 2]).unwrap());
}
