//! A stored quotient: continued, it gives the quotient the whole run
//! would have; one that is not the quotient is refused.

use super::*;

/// [`MisereQuotient::compute_kept`] from `from`, each heap given up after
/// `candidates` refuted candidates.
fn resume_within(
    rules: &Rules,
    limits: Limits,
    from: StoredQuotient,
    candidates: usize,
) -> Result<MisereQuotient, MisereError> {
    MisereQuotient::compute_kept(
        rules,
        limits,
        Some(from),
        &mut |progress| {
            if progress.candidates > candidates {
                std::ops::ControlFlow::Break(())
            } else {
                std::ops::ControlFlow::Continue(())
            }
        },
        &mut |_, _| {},
    )
}

#[test]
fn a_stored_quotient_continues_as_the_run_would_have() {
    for (code, half, to) in [
        ("0.77", 20, 60),
        ("0.35", 5, 9),
        ("0.07", 22, 28),
        ("4.7", 9, 18),
    ] {
        let rules = Rules::parse(code).unwrap();
        let limits = |to| Limits {
            to,
            max_order: 1024,
        };
        let whole = compute_within(&rules, limits(to), 256).unwrap();
        assert_eq!(whole.computed_to(), to, "{code}");
        let part = compute_within(&rules, limits(half), 256).unwrap();
        assert_eq!(part.computed_to(), half, "{code}");
        let mut kept = Vec::new();
        let resumed = MisereQuotient::compute_kept(
            &rules,
            limits(to),
            Some(part.stored()),
            &mut |progress| {
                if progress.candidates > 256 {
                    std::ops::ControlFlow::Break(())
                } else {
                    std::ops::ControlFlow::Continue(())
                }
            },
            &mut |heap, store| kept.push((heap, store().pretending.len())),
        )
        .unwrap();
        assert_eq!(resumed.stored(), whole.stored(), "{code}");
        assert_eq!(resumed.period(), whole.period(), "{code}");
        assert_eq!(resumed.ended(), whole.ended(), "{code}");
        // A heap kept after each heap proven past the stored ones.
        let heaps: Vec<u64> = kept.iter().map(|&(h, _)| h).collect();
        let expected: Vec<u64> = (half + 1..=whole.computed_to()).collect();
        assert_eq!(heaps, expected, "{code}");
        assert!(kept.iter().all(|&(h, len)| len as u64 == h + 1), "{code}");
    }
}

#[test]
fn a_stored_quotient_that_is_not_the_quotient_is_refused() {
    let rules = Rules::parse("0.77").unwrap();
    let limits = Limits {
        to: 12,
        max_order: 1024,
    };
    let good = compute_bounded(&rules, limits).unwrap().stored();
    assert!(resume_within(&rules, limits, good.clone(), TEST_CANDIDATES).is_ok());
    let n = good.order;
    let mut bad: Vec<(String, StoredQuotient)> = Vec::new();
    // Each element's P-membership flipped.
    for x in 0..n {
        let mut s = good.clone();
        s.p_portion[x] = !s.p_portion[x];
        bad.push((format!("P flipped at {x}"), s));
    }
    // Each heap with a move given each other element.
    for h in 1..good.pretending.len() {
        for x in 0..n as Element {
            if x != good.pretending[h] {
                let mut s = good.clone();
                s.pretending[h] = x;
                bad.push((format!("heap {h} as {x}"), s));
            }
        }
    }
    // Each product changed (both orders, so still commutative).
    for x in 1..n {
        for y in x..n {
            let mut s = good.clone();
            let z = ((usize::from(s.table[x * n + y]) + 1) % n) as Element;
            s.table[x * n + y] = z;
            s.table[y * n + x] = z;
            bad.push((format!("{x} {y} changed"), s));
        }
    }
    // Sizes and bounds.
    let mut s = good.clone();
    s.table.pop();
    bad.push(("a short table".into(), s));
    let mut s = good.clone();
    s.pretending[3] = n as Element;
    bad.push(("an element beyond the order".into(), s));
    let mut s = good.clone();
    s.pretending.clear();
    bad.push(("no heap".into(), s));
    // A duplicated element: the table of a larger monoid that is not
    // reduced (element n behaves as element 1).
    let mut s = good.clone();
    let m = n + 1;
    let fold = |x: usize| if x == n { 1 } else { x };
    s.table = (0..m * m)
        .map(|i| good.table[fold(i / m) * n + fold(i % m)])
        .collect();
    s.order = m;
    s.p_portion.push(good.p_portion[1]);
    let heap_of_1 = s.pretending.iter().position(|&x| x == 1).unwrap();
    s.pretending.push(n as Element);
    s.pretending[heap_of_1] = 1;
    bad.push(("not reduced".into(), s));
    for (what, stored) in bad {
        match resume_within(&rules, limits, stored, TEST_CANDIDATES) {
            Err(MisereError::Stored { why, .. }) => assert!(!why.is_empty(), "{what}"),
            other => panic!("{what}: accepted or refused for another reason: {other:?}"),
        }
    }
}
