//! The `graph` subcommand: its output formats through the real binary, bad
//! input, and its answers and hints against an independent retrograde
//! analysis of the product graph on many random small cyclic graphs.

use crate::common::{SplitMix64, fails, format_lines, grundy};
use sg_solve::graph::{Options, solve};
use std::collections::HashMap;

fn succeeds(args: &[&str], input: &str) -> String {
    let out = grundy(args, input);
    assert!(out.status.success(), "{args:?}: {out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// 0 <-> 1 -> 2 (twice), 3 with a self-loop and an exit to 2, 4 <-> 5.
/// Values: 0, 1, 0, inf{0}, inf{}, inf{}.
const GAME: &str = "6 8\n0 1\n1 0\n1 2\n1 2\n3 3\n3 2\n4 5\n5 4\n";

#[test]
fn a_cyclic_game_that_draws() {
    // 4 <-> 5 has no exit at all; inf{0} plus a value of 1 is a draw (1 is
    // not in K); two tokens on infinite values always draw.
    let out = succeeds(&["graph"], &format!("{GAME}1 4\n2 3 1\n2 3 3\n1 5"));
    assert_eq!(out, "DRAW\nDRAW\nDRAW\nDRAW\n");
    let out = succeeds(&["cyclic"], "2 2\n0 1\n1 0\n1 0\n2 0 1\n");
    assert_eq!(out, "DRAW\nDRAW\n");
}

#[test]
fn queries_are_delimited_by_their_counts() {
    // Queries across and within lines, with tabs and CRLF.
    let out = succeeds(
        &["graph", "--hint"],
        &format!("{GAME}3\r\n1 1 0 1\t1\n\n1 3 2\n3 3"),
    );
    assert_eq!(out, "LOSE\nWIN 1 2\nWIN 3 2\nDRAW\n");
}

#[test]
fn values_and_json() {
    let out = succeeds(&["graph", "--values"], &format!("{GAME}1 0\n"));
    assert_eq!(out, "0\n1\n0\ninf{0}\ninf{}\ninf{}\n");
    let out = succeeds(&["graph", "--values", "--json"], GAME);
    assert_eq!(
        out,
        "{\"node\":0,\"value\":0}\n{\"node\":1,\"value\":1}\n{\"node\":2,\"value\":0}\n\
         {\"node\":3,\"value\":\"inf\",\"k\":[0]}\n{\"node\":4,\"value\":\"inf\",\"k\":[]}\n\
         {\"node\":5,\"value\":\"inf\",\"k\":[]}\n"
    );
    let queries = "1 0\n2 2 3\n1 4\n";
    let out = succeeds(&["graph", "--json", "--hint"], &format!("{GAME}{queries}"));
    assert_eq!(
        out,
        "{\"outcome\":\"LOSE\"}\n\
         {\"outcome\":\"WIN\",\"move\":{\"token\":1,\"from\":3,\"to\":2}}\n\
         {\"outcome\":\"DRAW\"}\n"
    );
    let out = succeeds(&["graph", "--json"], &format!("{GAME}{queries}"));
    assert_eq!(
        out,
        "{\"outcome\":\"LOSE\"}\n{\"outcome\":\"WIN\"}\n{\"outcome\":\"DRAW\"}\n"
    );
    // Every JSON line parses.
    for line in out.lines() {
        serde_json::from_str::<serde_json::Value>(line).unwrap();
    }
    // A graph with no nodes and no queries is fine.
    assert_eq!(succeeds(&["graph", "--values"], "0 0\n"), "");
}

#[test]
fn bad_input() {
    let (out, err) = fails(&["graph"], &format!("{GAME}1 0\n2 1 6\n1 1\n"));
    assert_eq!(out, "LOSE\n");
    assert_eq!(
        err,
        "error: line 11, column 5: node 6 is out of range (nodes are 0..=5)\n"
    );
    let (out, err) = fails(&["graph"], "3 2\n0 1\n1 3\n1 0\n");
    assert_eq!(out, "");
    assert_eq!(
        err,
        "error: line 3, column 3: node 3 is out of range (nodes are 0..=2)\n"
    );
    // A truncated query: its answer is not printed, earlier ones are.
    let (out, err) = fails(&["graph", "--hint"], &format!("{GAME}1 1\n3 0 1"));
    assert_eq!(out, "WIN 1 2\n");
    assert_eq!(
        err,
        "error: line 11, column 6: expected a token's node, found the end of the input\n"
    );
    let (out, err) = fails(&["graph"], &format!("{GAME}1 1\n0\n"));
    assert_eq!(out, "WIN\n");
    assert_eq!(
        err,
        "error: line 11, column 1: the number of tokens k of a query must be at least 1\n"
    );
    let (_, err) = fails(&["graph"], &format!("{GAME}1 x\n"));
    assert_eq!(
        err,
        "error: line 10, column 3: expected a token's node, found `x`\n"
    );
    let (_, err) = fails(&["graph"], "3 2\n0 1\n");
    assert_eq!(
        err,
        "error: line 3, column 1: expected the source node of an edge, found the end of the input\n"
    );
    let (_, err) = fails(&["graph"], "");
    assert_eq!(
        err,
        "error: line 1, column 1: expected the number of nodes n, found the end of the input\n"
    );
    // With --values, the values are printed once the graph is read, and the
    // queries are still checked.
    let (out, err) = fails(&["graph", "--values"], "1 0\n1 1\n");
    assert_eq!(out, "0\n");
    assert!(
        err.contains("line 2, column 3: node 1 is out of range"),
        "{err}"
    );
}

/// Win/lose/draw of every sorted position of `k` tokens on the graph `adj`,
/// by backward induction on the product graph.
fn retrograde(adj: &[Vec<usize>], k: usize) -> HashMap<Vec<usize>, &'static str> {
    let n = adj.len();
    let mut positions: Vec<Vec<usize>> = vec![vec![]];
    for _ in 0..k {
        let mut next = vec![];
        for p in &positions {
            for v in p.last().copied().unwrap_or(0)..n {
                let mut q = p.clone();
                q.push(v);
                next.push(q);
            }
        }
        positions = next;
    }
    let moves = |p: &Vec<usize>| -> Vec<Vec<usize>> {
        let mut out = vec![];
        for i in 0..p.len() {
            for &w in &adj[p[i]] {
                let mut q = p.clone();
                q[i] = w;
                q.sort_unstable();
                out.push(q);
            }
        }
        out
    };
    let mut result: HashMap<Vec<usize>, &'static str> = HashMap::new();
    let mut changed = true;
    while changed {
        changed = false;
        for p in &positions {
            if result.contains_key(p) {
                continue;
            }
            let outcomes: Vec<Option<&str>> =
                moves(p).iter().map(|q| result.get(q).copied()).collect();
            if outcomes.contains(&Some("LOSE")) {
                result.insert(p.clone(), "WIN");
                changed = true;
            } else if outcomes.iter().all(|&o| o == Some("WIN")) {
                result.insert(p.clone(), "LOSE");
                changed = true;
            }
        }
    }
    for p in positions {
        result.entry(p).or_insert("DRAW");
    }
    result
}

#[test]
fn answers_and_hints_match_retrograde_analysis() {
    let mut rng = SplitMix64::new(0x5EED_0FC7_C1E5);
    for _ in 0..1500 {
        let n = 1 + rng.below(7) as usize;
        let m = rng.below(15) as usize;
        let mut adj = vec![vec![]; n];
        let mut lines = vec![vec![n as u64, m as u64]];
        for _ in 0..m {
            let (u, v) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
            adj[u].push(v);
            lines.push(vec![u as u64, v as u64]);
        }
        let truth: Vec<_> = (0..=3).map(|k| retrograde(&adj, k)).collect();
        let mut queries = vec![];
        for _ in 0..20 {
            let k = 1 + rng.below(3) as usize;
            let toks: Vec<usize> = (0..k).map(|_| rng.below(n as u64) as usize).collect();
            // A query's tokens may be split over several lines.
            let cut = rng.below(k as u64 + 2) as usize;
            let mut line = vec![k as u64];
            line.extend(toks.iter().map(|&t| t as u64));
            let rest = line.split_off(cut.min(line.len()));
            lines.push(line);
            if !rest.is_empty() {
                lines.push(rest);
            }
            queries.push(toks);
        }
        let input = format_lines(&lines, &mut rng);
        let mut out = Vec::new();
        let hint = Options {
            hint: true,
            ..Options::default()
        };
        solve(input.as_bytes(), &mut out, hint).unwrap();
        let out = String::from_utf8(out).unwrap();
        let answers: Vec<&str> = out.lines().collect();
        assert_eq!(answers.len(), queries.len(), "{input}");
        for (toks, answer) in queries.iter().zip(answers) {
            let mut sorted = toks.clone();
            sorted.sort_unstable();
            let expected = truth[toks.len()][&sorted];
            let words: Vec<&str> = answer.split(' ').collect();
            assert_eq!(words[0], expected, "{toks:?} in {adj:?}");
            if expected == "WIN" {
                // The hinted move is legal and leaves a loss for the opponent.
                let from: usize = words[1].parse().unwrap();
                let to: usize = words[2].parse().unwrap();
                assert!(adj[from].contains(&to), "{answer} in {adj:?}");
                let i = sorted.iter().position(|&t| t == from).expect("a token");
                sorted[i] = to;
                sorted.sort_unstable();
                assert_eq!(
                    truth[toks.len()][&sorted],
                    "LOSE",
                    "{answer} {toks:?} {adj:?}"
                );
            } else {
                assert_eq!(words.len(), 1);
            }
        }
    }
}

#[test]
fn a_million_node_chain_into_a_cycle() {
    // 0 terminal, 1 <-> 2 with 1 -> 0, and v -> v - 1 above: values v % 2
    // from 2 up; node 1 is 1.
    let n = 1_000_000usize;
    // Three edges at the bottom and one from each v >= 3: n in all.
    let mut input = format!("{n} {n}\n1 0\n1 2\n2 1\n");
    for v in 3..n {
        input.push_str(&format!("{v} {}\n", v - 1));
    }
    input.push_str(&format!("1 {}\n2 {} 1\n1 1\n", n - 1, n - 2));
    let mut out = Vec::new();
    solve(
        input.as_bytes(),
        &mut out,
        Options {
            hint: true,
            ..Options::default()
        },
    )
    .unwrap();
    // n - 1 is odd: value 1, win by moving down the chain; n - 2 (0) and
    // node 1 (1) XOR to 1: win, by moving node 1 to 0 (labelled before 2).
    assert_eq!(
        String::from_utf8(out).unwrap(),
        format!("WIN {} {}\nWIN 1 0\nWIN 1 0\n", n - 1, n - 2)
    );
}
