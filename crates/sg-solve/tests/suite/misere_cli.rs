//! `grundy cram`, `node-kayles` and `chomp` with `--misere` through the
//! real binary: outcomes against a plain misère search written here (a
//! position with no move is a win for the player to move; every move
//! tried, no split, no symmetry), hints that leave a misère loss, the text
//! and JSON answers, long games against misère Nim (Bouton's rule), and
//! the options refused.

use crate::common::{SplitMix64, bite, chomp_diagram, fails, grundy};
use std::collections::HashMap;

fn stdout_of(args: &[&str], input: &str) -> String {
    let out = grundy(args, input);
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The JSON answer, checked for what `--misere` promises: the keys, no
/// nimber, `"misere": true`, and an outcome; with the outcome `expected`.
fn misere_json(args: &[&str], input: &str, expected_lose: bool) -> serde_json::Value {
    let text = stdout_of(args, input);
    assert_eq!(text.lines().count(), 1, "{text}");
    let answer: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut keys: Vec<&str> = answer
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "expanded",
            "game",
            "hint",
            "misere",
            "nimber",
            "outcome",
            "positions",
            "seconds"
        ]
    );
    assert!(answer["nimber"].is_null(), "{answer}");
    assert_eq!(answer["misere"], true, "{answer}");
    let outcome = if expected_lose { "LOSE" } else { "WIN" };
    assert_eq!(answer["outcome"], outcome, "{args:?} {input}");
    if expected_lose {
        assert!(answer["hint"].is_null(), "{answer}");
    }
    answer
}

/// Whether the Cram position `free` (cells `row * cols + col`) is a misère
/// loss for the player to move, by the definition.
fn cram_loses(rows: u32, cols: u32, free: u64, memo: &mut HashMap<u64, bool>) -> bool {
    if let Some(&lose) = memo.get(&free) {
        return lose;
    }
    let mut any = false;
    let mut lose = true;
    for cell in 0..rows * cols {
        let (r, c) = (cell / cols, cell % cols);
        for (other, fits) in [(cell + 1, c + 1 < cols), (cell + cols, r + 1 < rows)] {
            let domino = 1 << cell | 1 << other;
            if fits && free & domino == domino {
                any = true;
                if cram_loses(rows, cols, free & !domino, memo) {
                    lose = false;
                }
            }
        }
    }
    // No move: the player to move wins.
    let lose = any && lose;
    memo.insert(free, lose);
    lose
}

#[test]
fn cram_misere_matches_the_definition_and_its_hints_win() {
    let mut rng = SplitMix64::new(41);
    let mut boards: Vec<(u32, u32, u64)> = (1..=4)
        .flat_map(|r| (1..=5).map(move |c| (r, c, 0)))
        .collect();
    boards.extend((0..40).map(|_| {
        let (rows, cols) = (1 + rng.below(4) as u32, 1 + rng.below(5) as u32);
        let blocked = (0..rows * cols).fold(0u64, |b, i| b | u64::from(rng.below(4) == 0) << i);
        (rows, cols, blocked)
    }));
    let (mut won, mut lost) = (0, 0);
    for (rows, cols, blocked) in boards {
        let picture: String = (0..rows)
            .map(|r| {
                let row: String = (0..cols)
                    .map(|c| match blocked >> (r * cols + c) & 1 {
                        1 => '#',
                        _ => '.',
                    })
                    .collect();
                row + "\n"
            })
            .collect();
        let free = !blocked & ((1u64 << (rows * cols)) - 1);
        let mut memo = HashMap::new();
        let lose = cram_loses(rows, cols, free, &mut memo);
        let args = ["cram", "--board", "-", "--misere", "--hint", "--json"];
        let answer = misere_json(&args, &picture, lose);
        let text = stdout_of(&["cram", "--board", "-", "--misere", "--hint"], &picture);
        if lose {
            lost += 1;
            assert_eq!(text, "LOSE\n", "{picture}");
            continue;
        }
        won += 1;
        // The plain search met only the board itself: no domino fits, a
        // win with no move to make.
        if memo.len() == 1 {
            assert!(answer["hint"].is_null(), "{answer}");
            assert_eq!(text, "WIN\n");
            continue;
        }
        let hint = &answer["hint"];
        let cell = |k: usize| {
            let (r, c) = (hint[k][0].as_u64().unwrap(), hint[k][1].as_u64().unwrap());
            assert!(r < u64::from(rows) && c < u64::from(cols), "{hint}");
            (r * u64::from(cols) + c, (r, c))
        };
        let ((a, (r1, c1)), (b, (r2, c2))) = (cell(0), cell(1));
        assert_eq!(r1.abs_diff(r2) + c1.abs_diff(c2), 1, "{hint} is no domino");
        let domino = 1 << a | 1 << b;
        assert_eq!(free & domino, domino, "{hint} covers a blocked cell");
        assert!(
            cram_loses(rows, cols, free & !domino, &mut memo),
            "{picture}{hint}"
        );
        assert_eq!(text, format!("WIN\nmove ({r1},{c1})-({r2},{c2})\n"));
    }
    assert!(won > 10 && lost > 10, "{won} won, {lost} lost");
    // Without --hint, the outcome alone; the empty board by its size.
    let lose = cram_loses(3, 4, (1 << 12) - 1, &mut HashMap::new());
    let expected = if lose { "LOSE\n" } else { "WIN\n" };
    assert_eq!(stdout_of(&["cram", "3x4", "--misere"], ""), expected);
    misere_json(
        &["cram", "3x4", "--misere", "--json", "--outcome"],
        "",
        lose,
    );
}

/// Whether the Node-Kayles position `set` is a misère loss, by the
/// definition: `adjacent[v]` the neighbours of `v`.
fn node_kayles_loses(adjacent: &[u64], set: u64, memo: &mut HashMap<u64, bool>) -> bool {
    if let Some(&lose) = memo.get(&set) {
        return lose;
    }
    let lose = set != 0
        && (0..adjacent.len())
            .filter(|&v| set >> v & 1 == 1)
            .all(|v| !node_kayles_loses(adjacent, set & !(adjacent[v] | 1 << v), memo));
    memo.insert(set, lose);
    lose
}

#[test]
fn node_kayles_misere_matches_the_definition_and_its_hints_win() {
    let mut rng = SplitMix64::new(42);
    let (mut won, mut lost) = (0, 0);
    for round in 0..60 {
        let n = 1 + rng.below(14) as u32;
        let one_in = 2 + round % 4;
        let mut adjacent = vec![0u64; n as usize];
        let mut text = String::new();
        let mut edges = 0;
        for u in 0..n {
            for v in u + 1..n {
                if rng.below(one_in) == 0 {
                    adjacent[u as usize] |= 1 << v;
                    adjacent[v as usize] |= 1 << u;
                    text += &format!("{u} {v}\n");
                    edges += 1;
                }
            }
        }
        let input = format!("{n} {edges}\n{text}");
        let all = (1u64 << n) - 1;
        let mut memo = HashMap::new();
        let lose = node_kayles_loses(&adjacent, all, &mut memo);
        let answer = misere_json(
            &["node-kayles", "--misere", "--hint", "--json"],
            &input,
            lose,
        );
        let text = stdout_of(&["node-kayles", "--misere", "--hint"], &input);
        if lose {
            lost += 1;
            assert_eq!(text, "LOSE\n");
            continue;
        }
        won += 1;
        let v = answer["hint"].as_u64().unwrap() as usize;
        assert!(v < n as usize, "{answer}");
        let left = all & !(adjacent[v] | 1 << v);
        assert!(node_kayles_loses(&adjacent, left, &mut memo), "{input}{v}");
        assert_eq!(text, format!("WIN\nmove vertex {v}\n"));
    }
    assert!(won > 10 && lost > 10, "{won} won, {lost} lost");
}

/// Whether a row of segments of `lengths` (a sorted list) is a misère
/// loss in Node-Kayles on paths: a vertex taken removes its neighbours.
fn segments_lose(lengths: &[u32], memo: &mut HashMap<Vec<u32>, bool>) -> bool {
    if let Some(&lose) = memo.get(lengths) {
        return lose;
    }
    let mut lose = !lengths.is_empty();
    'moves: for (i, &n) in lengths.iter().enumerate() {
        for v in 0..n {
            let mut next = lengths.to_vec();
            next.swap_remove(i);
            next.extend([v.saturating_sub(1), n.saturating_sub(v + 2)]);
            next.retain(|&l| l > 0);
            next.sort_unstable();
            if segments_lose(&next, memo) {
                lose = false;
                break 'moves;
            }
        }
    }
    memo.insert(lengths.to_vec(), lose);
    lose
}

/// Paths, a wild game in misère play (Dawson's chess), up to 40
/// vertices, against the plain search of segments; and graphs of up to
/// 128 vertices of isolated vertices and edges (misère Nim with heaps of
/// 1: a loss exactly when their number is odd).
#[test]
fn node_kayles_misere_paths_and_long_graphs() {
    let mut memo = HashMap::new();
    for n in (1..=40u32).step_by(3) {
        let edges: String = (1..n).map(|v| format!("{} {v}\n", v - 1)).collect();
        let input = format!("{n} {}\n{edges}", n - 1);
        let lose = segments_lose(&[n], &mut memo);
        let answer = misere_json(
            &["node-kayles", "--misere", "--hint", "--json"],
            &input,
            lose,
        );
        if !lose {
            let v = answer["hint"].as_u64().unwrap() as u32;
            let mut left = vec![v.saturating_sub(1), n.saturating_sub(v + 2)];
            left.retain(|&l| l > 0);
            left.sort_unstable();
            assert!(segments_lose(&left, &mut memo), "path of {n}: {v}");
        }
    }
    for (isolated, pairs) in [
        (128u32, 0u32),
        (127, 0),
        (0, 64),
        (1, 63),
        (2, 63),
        (30, 40),
    ] {
        let n = isolated + 2 * pairs;
        let edges: String = (0..pairs)
            .map(|p| format!("{} {}\n", isolated + 2 * p, isolated + 2 * p + 1))
            .collect();
        let input = format!("{n} {pairs}\n{edges}");
        let lose = (isolated + pairs) % 2 == 1;
        let answer = misere_json(
            &["node-kayles", "--misere", "--hint", "--json"],
            &input,
            lose,
        );
        if !lose {
            assert!(answer["hint"].as_u64().unwrap() < u64::from(n), "{answer}");
        }
    }
}

/// Whether the Chomp diagram `rows` (lengths from the top) is a misère
/// loss: the player who takes the last cell but the poisoned one loses.
fn chomp_loses(rows: &[u32], memo: &mut HashMap<Vec<u32>, bool>) -> bool {
    if let Some(&lose) = memo.get(rows) {
        return lose;
    }
    let mut any = false;
    let mut lose = true;
    for (r, &length) in rows.iter().enumerate() {
        for c in u32::from(r == 0)..length {
            any = true;
            if chomp_loses(&bite(rows, r as u32, c), memo) {
                lose = false;
            }
        }
    }
    let lose = any && lose;
    memo.insert(rows.to_vec(), lose);
    lose
}

#[test]
fn chomp_misere_matches_the_definition_and_its_hints_win() {
    let mut rng = SplitMix64::new(43);
    let mut memo = HashMap::new();
    let (mut won, mut lost) = (0, 0);
    for round in 0..60 {
        let (rows, spec) = chomp_diagram(round, &mut rng);
        let lose = chomp_loses(&rows, &mut memo);
        let answer = misere_json(&["chomp", &spec, "--misere", "--hint", "--json"], "", lose);
        let text = stdout_of(&["chomp", &spec, "--misere", "--hint"], "");
        if lose {
            lost += 1;
            assert_eq!(text, "LOSE\n", "{spec}");
            continue;
        }
        won += 1;
        if rows == [1] {
            // Only the poisoned cell: a win, with no move to make.
            assert!(answer["hint"].is_null(), "{answer}");
            assert_eq!(text, "WIN\n");
            continue;
        }
        let (r, c) = (
            answer["hint"][0].as_u64().unwrap() as u32,
            answer["hint"][1].as_u64().unwrap() as u32,
        );
        assert!((r, c) != (0, 0) && (r as usize) < rows.len() && c < rows[r as usize]);
        assert!(
            chomp_loses(&bite(&rows, r, c), &mut memo),
            "{spec}: ({r},{c})"
        );
        assert_eq!(text, format!("WIN\nmove ({r},{c})\n"));
    }
    assert!(won > 10 && lost > 5, "{won} won, {lost} lost");
}

/// An L of Chomp, a first row of `a + 1` cells and `b` rows of one below,
/// is Nim with heaps `a` and `b`: games up to 125 moves long, against
/// Bouton's rule for misère Nim.
#[test]
fn chomp_misere_long_games_follow_boutons_rule() {
    let nim_loses = |a: u32, b: u32| {
        if a <= 1 && b <= 1 { a + b == 1 } else { a == b }
    };
    for (a, b) in [
        (125, 0),
        (0, 125),
        (62, 62),
        (62, 61),
        (100, 1),
        (1, 1),
        (40, 3),
    ] {
        let spec: Vec<String> = std::iter::once(a + 1)
            .chain(std::iter::repeat_n(1, b as usize))
            .map(|l| l.to_string())
            .collect();
        let spec = spec.join(",");
        let answer = misere_json(
            &["chomp", &spec, "--misere", "--hint", "--json"],
            "",
            nim_loses(a, b),
        );
        if nim_loses(a, b) {
            continue;
        }
        // A bite in the first row leaves `c - 1` of heap `a`; one in the
        // column leaves `r - 1` of heap `b`.
        let (r, c) = (
            answer["hint"][0].as_u64().unwrap() as u32,
            answer["hint"][1].as_u64().unwrap() as u32,
        );
        let after = match (r, c) {
            (0, c) if (1..=a).contains(&c) => (c - 1, b),
            (r, 0) if (1..=b).contains(&r) => (a, r - 1),
            _ => panic!("({r},{c}) is no cell of {spec}"),
        };
        assert!(nim_loses(after.0, after.1), "{a}, {b}: ({r},{c})");
    }
}

#[test]
fn options_without_a_meaning_in_misere_play_are_refused() {
    let graph = "3 2\n0 1\n1 2\n";
    for (args, input) in [
        (&["cram", "4x5", "--misere", "--proof", "x.proof"][..], ""),
        (&["cram", "4x5", "--proof", "x.proof", "--misere"][..], ""),
        (
            &["node-kayles", "--misere", "--proof", "x.proof"][..],
            graph,
        ),
        (&["chomp", "4x5", "--misere", "--proof", "x.proof"][..], ""),
    ] {
        let (out, err) = fails(args, input);
        assert!(out.is_empty(), "{out}");
        assert!(err.contains("--proof") && err.contains("--misere"), "{err}");
        assert!(!std::path::Path::new("x.proof").exists());
    }
    // The endgame table and threads: the misère search uses neither.
    for (args, option) in [
        (&["cram", "4x5", "--misere", "--online"][..], "--online"),
        (
            &["chomp", "4x5", "--threads", "2", "--misere"][..],
            "--threads",
        ),
        (
            &["node-kayles", "--misere", "--threads", "1"][..],
            "--threads",
        ),
    ] {
        let (out, err) = fails(args, graph);
        assert!(out.is_empty(), "{out}");
        assert!(err.contains(option) && err.contains("--misere"), "{err}");
    }
}
