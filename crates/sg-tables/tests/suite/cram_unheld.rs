//! Keys a Cram endgame table does not hold are said not held, but for the
//! false acceptances its fingerprints allow (`2^-FINGERPRINT_BITS` per
//! key): the other orientations of held shapes, sets of `K` cells cut
//! from polyominoes of `K + 1` (most of them not connected, or not in
//! canonical form), and random sets, looked up in a table of 10 cells and
//! in the committed table of 14. Every input is fixed (the tables, and
//! SplitMix64 from fixed seeds), so the counts do not vary between runs.
//!
//! The bound: with `M` keys not held, each accepted independently with
//! probability `p = 2^-12`, the accepted keys `X` have mean `mu = M p`,
//! and Chernoff's bound `P(X >= (1 + d) mu) <= exp(-d^2 mu / (2 + d))`
//! gives, for `(1 + d) mu = 3 mu + 20`, an exponent of at least 20
//! whatever `mu`: a count over `3 mu + 20` has probability below
//! `2 * 10^-9`, and would mean that the fingerprints do not work as
//! stated.

use sg_core::testing::SplitMix64;
use sg_tables::cram::{CramEndgameTable, FINGERPRINT_BITS};
use sg_tables::polyomino::{Canonical, free_polyominoes};
use std::collections::HashSet;

/// The largest count of false acceptances among `keys` lookups that the
/// stated probability allows (see the module documentation).
fn bound(keys: usize) -> usize {
    ((3 * keys) >> FINGERPRINT_BITS) + 20
}

/// How many of `keys` (none held) `table` accepts, after checking that
/// none is held (by `held`) and that they are distinct.
fn accepted(table: &CramEndgameTable<'_>, keys: &HashSet<u128>, held: &HashSet<u128>) -> usize {
    assert!(keys.is_disjoint(held));
    keys.iter().filter(|&&k| table.get(k).is_some()).count()
}

/// The cells of `key` (bit `8 * row + column`) as `(row, column)`.
fn cells(key: u128) -> Vec<(i32, i32)> {
    (0..128)
        .filter(|b| key >> b & 1 == 1)
        .map(|b| (b / 8, b % 8))
        .collect()
}

/// The key of `cells` moved to the top left corner, if it fits in rows
/// of 8 cells (16 rows).
fn key_of(cells: &[(i32, i32)]) -> Option<u128> {
    let top = cells.iter().map(|c| c.0).min()?;
    let left = cells.iter().map(|c| c.1).min()?;
    let mut key = 0u128;
    for &(r, c) in cells {
        let (r, c) = (r - top, c - left);
        if r >= 16 || c >= 8 {
            return None;
        }
        key |= 1 << (8 * r + c);
    }
    Some(key)
}

/// A symmetry of the square on `(row, column)`.
type Symmetry = fn((i32, i32)) -> (i32, i32);

/// The images of `key` under the 8 symmetries of the square that fit.
fn images(key: u128) -> Vec<u128> {
    let cells = cells(key);
    let maps: [Symmetry; 8] = [
        |(r, c)| (r, c),
        |(r, c)| (r, -c),
        |(r, c)| (-r, c),
        |(r, c)| (-r, -c),
        |(r, c)| (c, r),
        |(r, c)| (c, -r),
        |(r, c)| (-c, r),
        |(r, c)| (-c, -r),
    ];
    maps.iter()
        .filter_map(|map| key_of(&cells.iter().map(|&c| map(c)).collect::<Vec<_>>()))
        .collect()
}

/// A random set of `n` distinct cells of the 128 bits.
fn random_set(rng: &mut SplitMix64, n: u32) -> u128 {
    let mut key = 0u128;
    while key.count_ones() < n {
        key |= 1 << (rng.below(128));
    }
    key
}

/// A random polyomino of `n` cells (grown from one cell by random
/// neighbours), moved to the top left corner if it fits.
fn random_polyomino(rng: &mut SplitMix64, n: usize) -> Option<u128> {
    let mut cells = vec![(0i32, 0i32)];
    while cells.len() < n {
        let (r, c) = cells[rng.below(cells.len() as u64) as usize];
        let next = [(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)][rng.below(4) as usize];
        if !cells.contains(&next) {
            cells.push(next);
        }
    }
    key_of(&cells)
}

/// The table of 10 cells from the rules, and its keys.
fn table_of_10() -> (CramEndgameTable<'static>, HashSet<u128>) {
    let table = CramEndgameTable::by_definition(10).unwrap();
    let held = free_polyominoes(10).into_iter().flatten().collect();
    (table, held)
}

#[test]
fn keys_not_held_by_a_table_of_10_cells_are_detected() {
    let (table, held) = table_of_10();
    assert!(held.iter().all(|&k| table.get(k).is_some()));
    // The other orientations of every held shape.
    let turned: HashSet<u128> = held
        .iter()
        .flat_map(|&k| images(k))
        .filter(|k| !held.contains(k))
        .collect();
    // Every set of 10 cells cut from a polyomino of 11, and the key of
    // 10 cells cut from its canonical form bit by bit, not held.
    let eleven = &free_polyominoes(11)[10];
    let cut: HashSet<u128> = eleven
        .iter()
        .flat_map(|&k| {
            (0..128)
                .filter(move |b| k >> b & 1 == 1)
                .map(move |b| k & !(1 << b))
        })
        .filter(|k| !held.contains(k))
        .collect();
    // Random sets of 1 to 10 cells.
    let mut rng = SplitMix64::new(0x5eed_0001);
    let random: HashSet<u128> = (0..120_000)
        .map(|i| random_set(&mut rng, 1 + i % 10))
        .filter(|k| !held.contains(k))
        .collect();
    let mut all = 0;
    let mut total = 0;
    for (what, keys) in [("turned", &turned), ("cut", &cut), ("random", &random)] {
        let n = accepted(&table, keys, &held);
        eprintln!("{what}: {n} of {} accepted", keys.len());
        assert!(n <= bound(keys.len()), "{what}: {n} of {}", keys.len());
        all += keys.len();
        total += n;
    }
    assert!(total <= bound(all), "{total} of {all}");
}

/// The committed table of 14 cells: the other orientations of random
/// polyominoes of 8 to 14 cells, and random sets of 2 to 14 cells that are
/// not connected (so not held).
#[test]
fn keys_not_held_by_the_committed_table_are_detected() {
    let table = sg_tables::embedded_cram_endgame();
    let canonical = Canonical::default();
    let mut rng = SplitMix64::new(0x5eed_0002);
    let mut held = HashSet::new();
    let mut turned = HashSet::new();
    while turned.len() < 150_000 {
        let cells = 8 + rng.below(7) as usize;
        let Some(shape) = random_polyomino(&mut rng, cells) else {
            continue;
        };
        let key = canonical.of(shape);
        assert!(table.get(key).is_some(), "{key:#x} is held");
        held.insert(key);
        turned.extend(images(key).into_iter().filter(|&k| k != key));
    }
    let n = accepted(table, &turned, &held);
    eprintln!("turned: {n} of {} accepted", turned.len());
    assert!(n <= bound(turned.len()), "{n} of {}", turned.len());

    let connected = |key: u128| {
        let mut part = key & key.wrapping_neg();
        loop {
            let grown = (part
                | (part << 1 & !0x0101_0101_0101_0101_0101_0101_0101_0101)
                | (part >> 1 & !0x8080_8080_8080_8080_8080_8080_8080_8080)
                | part << 8
                | part >> 8)
                & key;
            if grown == part {
                return part == key;
            }
            part = grown;
        }
    };
    let random: HashSet<u128> = (0..150_000)
        .map(|i| random_set(&mut rng, 2 + i % 13))
        .filter(|&k| !connected(k))
        .collect();
    let n = accepted(table, &random, &HashSet::new());
    eprintln!("random: {n} of {} accepted", random.len());
    assert!(n <= bound(random.len()), "{n} of {}", random.len());
}
