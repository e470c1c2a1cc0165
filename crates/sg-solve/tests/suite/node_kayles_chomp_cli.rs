//! `grundy node-kayles` and `grundy chomp` through the real binary:
//! nimbers against the definition, the JSON answer, hints that win, every
//! bad input, and certificates that `grundy proof check` accepts.

use crate::common::{SplitMix64, bite, chomp_diagram, fails, grundy};
use sg_search::games::chomp::Chomp;
use sg_search::games::node_kayles::NodeKayles;
use sg_search::{Game, Solver};
use std::collections::HashMap;

fn mex(seen: &[u32]) -> u32 {
    (0..).find(|n| !seen.contains(n)).unwrap()
}

/// Node-Kayles by the definition: `adjacent[v]` the neighbours of `v`.
fn node_kayles(adjacent: &[u64], set: u64, memo: &mut HashMap<u64, u32>) -> u32 {
    if let Some(&n) = memo.get(&set) {
        return n;
    }
    let seen: Vec<u32> = (0..adjacent.len())
        .filter(|&v| set >> v & 1 == 1)
        .map(|v| node_kayles(adjacent, set & !(adjacent[v] | 1 << v), memo))
        .collect();
    let n = mex(&seen);
    memo.insert(set, n);
    n
}

/// Chomp by the definition, rows from the top.
fn chomp(rows: &[u32], memo: &mut HashMap<Vec<u32>, u32>) -> u32 {
    if let Some(&n) = memo.get(rows) {
        return n;
    }
    let mut seen = Vec::new();
    for (r, &length) in rows.iter().enumerate() {
        for c in (r == 0) as u32..length {
            seen.push(chomp(&bite(rows, r as u32, c), memo));
        }
    }
    let n = mex(&seen);
    memo.insert(rows.to_vec(), n);
    n
}

struct Graph {
    n: u32,
    edges: Vec<(u32, u32)>,
}

impl Graph {
    fn random(rng: &mut SplitMix64, n: u32, one_in: u64) -> Self {
        let mut edges = Vec::new();
        for u in 0..n {
            for v in u + 1..n {
                if rng.below(one_in) == 0 {
                    edges.push(if rng.below(2) == 0 { (u, v) } else { (v, u) });
                }
            }
        }
        Graph { n, edges }
    }

    fn text(&self) -> String {
        let mut text = format!("{} {}\n", self.n, self.edges.len());
        for (u, v) in &self.edges {
            text += &format!("{u} {v}\n");
        }
        text
    }

    fn adjacent(&self) -> Vec<u64> {
        let mut adjacent = vec![0u64; self.n as usize];
        for &(u, v) in &self.edges {
            adjacent[u as usize] |= 1 << v;
            adjacent[v as usize] |= 1 << u;
        }
        adjacent
    }

    fn nimber(&self) -> u32 {
        let all = if self.n == 64 {
            u64::MAX
        } else {
            (1 << self.n) - 1
        };
        node_kayles(&self.adjacent(), all, &mut HashMap::new())
    }
}

fn json_of(args: &[&str], input: &str) -> serde_json::Value {
    let out = grundy(args, input);
    assert!(out.status.success(), "{args:?}: {out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    serde_json::from_str(&text).unwrap()
}

fn stdout_of(args: &[&str], input: &str) -> String {
    let out = grundy(args, input);
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

fn keys(answer: &serde_json::Value) -> Vec<String> {
    let mut keys: Vec<String> = answer.as_object().unwrap().keys().cloned().collect();
    keys.sort_unstable();
    keys
}

const KEYS: [&str; 7] = [
    "expanded",
    "game",
    "hint",
    "nimber",
    "outcome",
    "positions",
    "seconds",
];

#[test]
fn node_kayles_matches_the_definition_and_its_hints_win() {
    let mut rng = SplitMix64::new(30);
    let mut won = 0;
    for round in 0..60 {
        let n = 1 + rng.below(14) as u32;
        let graph = Graph::random(&mut rng, n, 2 + round % 4);
        let answer = json_of(&["node-kayles", "--json", "--hint"], &graph.text());
        assert_eq!(keys(&answer), KEYS);
        let nimber = graph.nimber();
        assert_eq!(answer["nimber"], nimber, "{}", graph.text());
        assert_eq!(answer["outcome"], if nimber == 0 { "LOSE" } else { "WIN" });
        // Who wins alone (--outcome): the same, without the nimber, and a
        // hint that leaves a lost graph.
        let args = ["node-kayles", "--json", "--hint", "--outcome"];
        let alone = json_of(&args, &graph.text());
        assert!(alone["nimber"].is_null());
        assert_eq!(alone["outcome"], answer["outcome"], "{}", graph.text());
        if nimber != 0 {
            let vertex = alone["hint"].as_u64().unwrap() as u32;
            let adjacent = graph.adjacent();
            let full = (1u64 << graph.n) - 1;
            let left = full & !(adjacent[vertex as usize] | 1 << vertex);
            assert_eq!(node_kayles(&adjacent, left, &mut HashMap::new()), 0);
        }
        if nimber == 0 {
            assert!(answer["hint"].is_null());
            continue;
        }
        won += 1;
        let vertex = answer["hint"].as_u64().unwrap() as u32;
        assert!(vertex < graph.n);
        // The library solves the position after the hint; so does the
        // definition.
        let game = NodeKayles::<u64>::new(graph.n, &graph.edges).unwrap();
        let next = game.play(&game.start(), &vertex);
        assert_eq!(Solver::new(&game).nimber(&next).unwrap(), 0);
        let adjacent = graph.adjacent();
        let left = next.0;
        assert_eq!(
            left,
            game.start().0 & !(adjacent[vertex as usize] | 1 << vertex)
        );
        assert_eq!(node_kayles(&adjacent, left, &mut HashMap::new()), 0);
        let text = stdout_of(&["node-kayles", "--hint"], &graph.text());
        assert_eq!(
            text,
            format!("nimber {nimber}\nWIN\nmove vertex {vertex}\n")
        );
    }
    assert!(won > 10, "{won}");
}

#[test]
fn node_kayles_on_paths_is_dawsons_chess() {
    let values = stdout_of(&["octal", "0.137", "--values", "--to", "40"], "");
    let values: Vec<u32> = values.lines().map(|l| l.parse().unwrap()).collect();
    for n in 1..=40u32 {
        let edges: String = (1..n).map(|v| format!("{} {v}\n", v - 1)).collect();
        // The search's options do not change the answer.
        let options: &[&str] = match n % 3 {
            0 => &[],
            1 => &["--online", "--threads", "2"],
            _ => &["--memory", "4K", "--threads", "1"],
        };
        let answer = json_of(
            &[&["node-kayles", "--json"][..], options].concat(),
            &format!("{n} {}\n{edges}", n - 1),
        );
        assert_eq!(answer["nimber"], values[n as usize], "path of {n}");
    }
}

#[test]
fn chomp_matches_the_definition_and_its_hints_win() {
    let mut rng = SplitMix64::new(31);
    let mut memo = HashMap::new();
    let mut won = 0;
    for round in 0..60 {
        let (rows, spec) = chomp_diagram(round, &mut rng);
        let answer = json_of(&["chomp", &spec, "--json", "--hint"], "");
        assert_eq!(keys(&answer), KEYS);
        let nimber = chomp(&rows, &mut memo);
        assert_eq!(answer["nimber"], nimber, "{spec}");
        // Who wins alone (--outcome): the same outcome, no nimber, and a
        // hint that leaves a lost diagram.
        let alone = json_of(&["chomp", &spec, "--json", "--hint", "--outcome"], "");
        assert!(alone["nimber"].is_null(), "{spec}");
        assert_eq!(alone["outcome"], answer["outcome"], "{spec}");
        if nimber != 0 {
            let (r, c) = (
                alone["hint"][0].as_u64().unwrap() as u32,
                alone["hint"][1].as_u64().unwrap() as u32,
            );
            assert_eq!(chomp(&bite(&rows, r, c), &mut memo), 0, "{spec}");
        }
        if nimber == 0 {
            assert!(answer["hint"].is_null());
            assert_eq!(answer["outcome"], "LOSE");
            continue;
        }
        won += 1;
        let (r, c) = (
            answer["hint"][0].as_u64().unwrap() as u32,
            answer["hint"][1].as_u64().unwrap() as u32,
        );
        assert!((r, c) != (0, 0) && (r as usize) < rows.len() && c < rows[r as usize]);
        let after = bite(&rows, r, c);
        let game = Chomp::<u64>::from_rows(&after).unwrap();
        assert_eq!(Solver::new(&game).nimber(&game.start()).unwrap(), 0);
        assert_eq!(chomp(&after, &mut memo), 0);
        let text = stdout_of(&["chomp", &spec, "--hint"], "");
        assert_eq!(text, format!("nimber {nimber}\nWIN\nmove ({r},{c})\n"));
    }
    assert!(won > 10, "{won}");
    // RxC is the rectangle.
    assert_eq!(
        json_of(&["chomp", "3x4", "--json"], "")["nimber"],
        chomp(&[4, 4, 4], &mut memo)
    );
    assert_eq!(
        json_of(&["chomp", "3x4", "--json"], "")["game"],
        "chomp 3x4"
    );
    // The search's options do not change the answer (Chomp has no table:
    // --online is accepted and changes nothing).
    let options = ["--online", "--threads", "2", "--memory", "4K"];
    assert_eq!(
        json_of(&[&["chomp", "4x6", "--json"][..], &options].concat(), "")["nimber"],
        chomp(&[6, 6, 6, 6], &mut memo)
    );
}

#[test]
fn bad_graphs_and_rows_are_one_line_and_exit_2() {
    for (input, what) in [
        (
            "3 2\n0 1\n2 2\n",
            "line 3, column 3: the edge joins node 2 to itself",
        ),
        (
            "3 1\n0 3\n",
            "line 2, column 3: node 3 is out of range (nodes are 0..=2)",
        ),
        ("3 1\n0\n", "found the end of the input"),
        ("3 1\n0 x\n", "line 2, column 3: expected"),
        ("3 1\n0 1 2\n", "line 2, column 5: unexpected `2`"),
        ("257 0\n", "line 1, column 1"),
        ("-1 0\n", "line 1, column 1"),
        ("", "found the end of the input"),
        (
            "4 18446744073709551615\n0 1\n",
            "found the end of the input",
        ),
    ] {
        let (out, err) = fails(&["node-kayles"], input);
        assert!(out.is_empty(), "{out}");
        assert!(err.contains(what), "{input:?}: {err}");
    }
    // A declared count of edges is not allocated for.
    #[cfg(target_os = "linux")]
    {
        let out =
            crate::common::grundy_limited(&["node-kayles"], b"4 18446744073709551615\n0 1\n", 64);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
    }
    let (_, err) = fails(&["node-kayles", "/no/such/graph"], "");
    assert!(err.contains("/no/such/graph"), "{err}");
    for (rows, what) in [
        ("3,4", "row 2 has 4 cells, more than row 1 above it (3)"),
        ("3,0", "at least 1"),
        ("0x3", "at least 1"),
        ("3,,1", "digits only"),
        ("+3", "digits only"),
        ("a", "digits only"),
        (
            "1x127",
            "a Chomp diagram of 1x127 (rows x columns) is larger than the engine supports",
        ),
        ("127x1", "beyond the engine"),
        ("4294967296", "beyond what the engine supports"),
    ] {
        let (out, err) = fails(&["chomp", rows], "");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains(what), "{rows}: {err}");
    }
    for args in [
        &["chomp"][..],
        &["chomp", "3x4", "--threads", "0"],
        &["chomp", "3x4", "--memory", "1Q"],
        &["node-kayles", "--threads", "x"],
    ] {
        let out = grundy(args, "1 0\n");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn proofs_of_node_kayles_and_chomp_check() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = SplitMix64::new(32);
    let graph = Graph::random(&mut rng, 14, 4);
    let path = dir.path().join("graph.proof");
    let file = path.to_str().unwrap();
    let answer = json_of(&["node-kayles", "--json", "--proof", file], &graph.text());
    let distinct: std::collections::BTreeSet<(u32, u32)> = graph
        .edges
        .iter()
        .map(|&(u, v)| (u.min(v), u.max(v)))
        .collect();
    let checked = stdout_of(&["proof", "check", file], "");
    let expected = format!(
        "node-kayles, 14 vertices, {} edges: nimber {}, ",
        distinct.len(),
        answer["nimber"]
    );
    assert!(checked.starts_with(&expected), "{checked}");
    assert!(checked.ends_with(" positions checked\n"), "{checked}");
    crate::common::first_claim_corrupted_fails(&std::fs::read(&path).unwrap());
    let path = dir.path().join("chomp.proof");
    let file = path.to_str().unwrap();
    let answer = json_of(&["chomp", "5,5,3,2", "--json", "--proof", file], "");
    let checked = stdout_of(&["proof", "check", file], "");
    assert!(
        checked.starts_with(&format!("chomp 5,5,3,2: nimber {}, ", answer["nimber"])),
        "{checked}"
    );
    crate::common::first_claim_corrupted_fails(&std::fs::read(&path).unwrap());
}

/// `--grid RxC`: the grid graph without a file, as the same graph read;
/// sizes beyond 256 vertices and bad sizes are one line, exit status 2.
#[test]
fn grid_sizes_play_as_the_grid_read() {
    let mut text = String::from("12 17\n");
    for r in 0..3 {
        for c in 0..4 {
            let v = r * 4 + c;
            if c + 1 < 4 {
                text.push_str(&format!("{v} {}\n", v + 1));
            }
            if r + 1 < 3 {
                text.push_str(&format!("{v} {}\n", v + 4));
            }
        }
    }
    let read = grundy(&["node-kayles", "--hint"], &text);
    let grid = grundy(&["node-kayles", "--grid", "3x4", "--hint"], "");
    assert!(read.status.success() && grid.status.success());
    assert_eq!(read.stdout, grid.stdout);
    // 3 x 43: 129 vertices, past 128.
    let wide = grundy(&["node-kayles", "--grid", "2x65", "--outcome"], "");
    assert!(
        wide.status.success(),
        "{}",
        String::from_utf8_lossy(&wide.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&wide.stdout), "WIN\n");
    for (size, what) in [
        (
            "3x86",
            "the 3x86 grid has 258 vertices, more than the engine supports (at most 256)",
        ),
        ("0x3", "the number of rows must be at least 1"),
        ("3by4", "expected a size RxC such as 4x7"),
    ] {
        let out = grundy(&["node-kayles", "--grid", size], "");
        assert_eq!(out.status.code(), Some(2), "{size}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(what), "{size}: {err}");
    }
    let both = grundy(&["node-kayles", "--grid", "3x4", "graph.txt"], "");
    assert_eq!(both.status.code(), Some(2));
}
