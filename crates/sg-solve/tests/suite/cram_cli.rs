//! `grundy cram` through the real binary: nimbers against the definition,
//! the JSON answer, hints that win, boards from files, every bad input,
//! and certificates that `grundy proof check` accepts (and refuses once
//! corrupted).

use crate::common::{fails, grundy, grundy_bytes};
use sg_search::Solver;
use sg_search::games::cram::Cram;
use std::collections::HashMap;

/// The nimber of a Cram board by the definition: cells `row * cols + col`
/// of the set `free`, the mex over every domino, no split, no symmetry.
fn by_definition(rows: u32, cols: u32, free: u64, memo: &mut HashMap<u64, u32>) -> u32 {
    if let Some(&n) = memo.get(&free) {
        return n;
    }
    let mut seen = Vec::new();
    for cell in 0..rows * cols {
        let (r, c) = (cell / cols, cell % cols);
        for (other, fits) in [(cell + 1, c + 1 < cols), (cell + cols, r + 1 < rows)] {
            let domino = 1 << cell | 1 << other;
            if fits && free & domino == domino {
                seen.push(by_definition(rows, cols, free & !domino, memo));
            }
        }
    }
    let mex = (0..).find(|n| !seen.contains(n)).unwrap();
    memo.insert(free, mex);
    mex
}

/// A board: its size and blocked cells, drawn as `grundy cram --board`
/// reads it.
struct Board {
    rows: u32,
    cols: u32,
    blocked: Vec<(u32, u32)>,
}

impl Board {
    fn empty(rows: u32, cols: u32) -> Self {
        Board {
            rows,
            cols,
            blocked: Vec::new(),
        }
    }

    /// A board with each cell blocked with probability `1 / one_in`.
    fn random(rng: &mut crate::common::SplitMix64, rows: u32, cols: u32, one_in: u64) -> Self {
        let blocked = (0..rows * cols)
            .filter(|_| rng.below(one_in) == 0)
            .map(|i| (i / cols, i % cols))
            .collect();
        Board {
            rows,
            cols,
            blocked,
        }
    }

    fn picture(&self) -> String {
        let mut text = String::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                text.push(if self.blocked.contains(&(r, c)) {
                    '#'
                } else {
                    '.'
                });
            }
            text.push('\n');
        }
        text
    }

    fn free(&self) -> u64 {
        let mut free = 0;
        for r in 0..self.rows {
            for c in 0..self.cols {
                if !self.blocked.contains(&(r, c)) {
                    free |= 1 << (r * self.cols + c);
                }
            }
        }
        free
    }

    fn nimber(&self) -> u32 {
        by_definition(self.rows, self.cols, self.free(), &mut HashMap::new())
    }
}

fn stdout_of(args: &[&str], input: &str) -> String {
    let out = grundy(args, input);
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

fn json_of(args: &[&str], input: &str) -> serde_json::Value {
    let text = stdout_of(args, input);
    assert_eq!(text.lines().count(), 1, "{text}");
    serde_json::from_str(&text).unwrap()
}

#[test]
fn nimbers_and_outcomes_match_the_definition() {
    for rows in 1..=4 {
        for cols in 1..=4 {
            let board = Board::empty(rows, cols);
            let nimber = board.nimber();
            let outcome = if nimber == 0 { "LOSE" } else { "WIN" };
            let size = format!("{rows}x{cols}");
            assert_eq!(
                stdout_of(&["cram", &size], ""),
                format!("nimber {nimber}\n{outcome}\n"),
                "{size}"
            );
        }
    }
    // Boards with blocked cells, from standard input, with the endgame
    // table (components of up to 14 cells) and without it (--online).
    let mut rng = crate::common::SplitMix64::new(20);
    for _ in 0..40 {
        let (rows, cols) = (1 + rng.below(4) as u32, 1 + rng.below(5) as u32);
        let board = Board::random(&mut rng, rows, cols, 4);
        for online in [&[][..], &["--online"]] {
            let args = [&["cram", "--board", "-", "--json"][..], online].concat();
            let answer = json_of(&args, &board.picture());
            assert_eq!(
                answer["nimber"],
                board.nimber(),
                "{}{online:?}",
                board.picture()
            );
        }
    }
}

#[test]
fn the_json_answer_has_exactly_its_keys() {
    let answer = json_of(&["cram", "4x5", "--json"], "");
    let keys: Vec<&str> = answer
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut expected = vec![
        "game",
        "nimber",
        "outcome",
        "hint",
        "positions",
        "expanded",
        "seconds",
    ];
    expected.sort_unstable();
    let mut keys = keys;
    keys.sort_unstable();
    assert_eq!(keys, expected);
    assert_eq!(answer["game"], "cram 4x5");
    assert_eq!(answer["nimber"], 2);
    assert_eq!(answer["outcome"], "WIN");
    assert!(answer["hint"].is_null(), "no hint without --hint");
    assert!(answer["positions"].as_u64().unwrap() > 0);
    assert!(answer["seconds"].as_f64().unwrap() >= 0.0);
    // A lost position has no hint, even with --hint.
    let lost = json_of(&["cram", "2x2", "--json", "--hint"], "");
    assert_eq!(
        (lost["nimber"].clone(), lost["outcome"].clone()),
        (0.into(), "LOSE".into())
    );
    assert!(lost["hint"].is_null());
    assert_eq!(
        stdout_of(&["cram", "2x2", "--hint"], ""),
        "nimber 0\nLOSE\n"
    );
}

/// The board after the domino `hint` (two cells) is placed.
fn after(board: &Board, hint: [(u32, u32); 2]) -> Board {
    for (r, c) in hint {
        assert!(
            r < board.rows && c < board.cols,
            "{hint:?} is off the board"
        );
        assert!(
            !board.blocked.contains(&(r, c)),
            "{hint:?} covers a blocked cell"
        );
    }
    let [(r1, c1), (r2, c2)] = hint;
    assert_eq!(
        r1.abs_diff(r2) + c1.abs_diff(c2),
        1,
        "{hint:?} is no domino"
    );
    let mut blocked = board.blocked.clone();
    blocked.extend(hint);
    Board {
        rows: board.rows,
        cols: board.cols,
        blocked,
    }
}

#[test]
fn hints_lead_to_nimber_zero() {
    let mut rng = crate::common::SplitMix64::new(21);
    let mut won = 0;
    for round in 0..40 {
        let (rows, cols) = (1 + rng.below(4) as u32, 2 + rng.below(4) as u32);
        let board = match round % 2 {
            0 => Board::random(&mut rng, rows, cols, 5),
            _ => Board::empty(rows, cols),
        };
        let answer = json_of(
            &["cram", "--board", "-", "--json", "--hint"],
            &board.picture(),
        );
        if answer["outcome"] == "LOSE" {
            assert!(answer["hint"].is_null());
            continue;
        }
        won += 1;
        let cell = |i: usize| {
            let c = &answer["hint"][i];
            (c[0].as_u64().unwrap() as u32, c[1].as_u64().unwrap() as u32)
        };
        let next = after(&board, [cell(0), cell(1)]);
        // The library solves the position after the hint, and the
        // definition agrees.
        let cram = Cram::<u64>::with_blocked(rows, cols, &next.blocked).unwrap();
        assert_eq!(Solver::new(&cram).nimber(&cram.start()).unwrap(), 0);
        assert_eq!(next.nimber(), 0, "{}", board.picture());
        // The text form names the same move.
        let text = stdout_of(&["cram", "--board", "-", "--hint"], &board.picture());
        let (a, b) = (cell(0), cell(1));
        assert!(
            text.ends_with(&format!("move ({},{})-({},{})\n", a.0, a.1, b.0, b.1)),
            "{text}"
        );
    }
    assert!(won > 10, "{won}");
    // On a board stored transposed (more than 8 columns).
    let answer = json_of(&["cram", "2x9", "--json", "--hint"], "");
    let cells: Vec<(u32, u32)> = (0..2)
        .map(|i| {
            let c = &answer["hint"][i];
            (c[0].as_u64().unwrap() as u32, c[1].as_u64().unwrap() as u32)
        })
        .collect();
    let next = after(&Board::empty(2, 9), [cells[0], cells[1]]);
    assert_eq!(next.nimber(), 0);
}

#[test]
fn boards_are_read_as_drawn() {
    // Blank lines and trailing spaces ignored, short rows padded with
    // blocked cells, CRLF: the board .#. / ... / .## .
    let drawn = "\n.#.  \r\n\n...\t\n.\n\n";
    let board = Board {
        rows: 3,
        cols: 3,
        blocked: vec![(0, 1), (2, 1), (2, 2)],
    };
    let answer = json_of(&["cram", "--board", "-", "--json"], drawn);
    assert_eq!(answer["nimber"], board.nimber());
    assert_eq!(answer["game"], "cram 3x3 with 3 blocked cells");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.txt");
    std::fs::write(&path, drawn).unwrap();
    let answer = json_of(&["cram", "--board", path.to_str().unwrap(), "--json"], "");
    assert_eq!(answer["nimber"], board.nimber());
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for size in [
        "4", "4x", "x4", "4x7x", "+4x7", "4X7", "4 x7", "0x5", "5x0", "a", "",
    ] {
        let (out, err) = fails(&["cram", size], "");
        assert!(out.is_empty(), "{size}: {out}");
        assert!(err.contains("error: "), "{size}: {err}");
    }
    for (size, what) in [
        ("9x9", "beyond the engine"),
        ("17x2", "beyond the engine"),
        ("99999999999x1", "beyond what the engine supports"),
    ] {
        let (out, err) = fails(&["cram", size], "");
        assert!(out.is_empty() && err.contains(what), "{size}: {err}");
    }
    for (board, what) in [
        (
            "..\n.x\n",
            "line 2, column 2: expected `.` (a free cell) or `#` (a blocked cell), found `x`",
        ),
        (". .\n", "line 1, column 2"),
        ("\n \n", "the board has no row"),
        ("\u{1b}[2J\n", "found `\\x1b`"),
        // A character of two bytes is named whole; a lone byte escaped.
        (
            ".é\n",
            "line 1, column 2: expected `.` (a free cell) or `#` (a blocked cell), found `é`",
        ),
        (
            &".".repeat(17),
            "line 1, column 17: a row of more than 16 cells",
        ),
        (&"..\n".repeat(17), "line 17, column 1: more than 16 rows"),
        (&".........\n".repeat(9), "9x9 is beyond the engine"),
    ] {
        let (out, err) = fails(&["cram", "--board", "-"], board);
        assert!(out.is_empty(), "{out}");
        assert!(err.contains(what), "{board:?}: {err}");
    }
    for (board, what) in [
        (&b".\xc3\n"[..], "found `\\xc3`"),
        (b"\xff.\n", "found `\\xff`"),
    ] {
        let out = grundy_bytes(&["cram", "--board", "-"], board);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.code() == Some(2) && err.contains(what), "{err}");
    }
    let (_, err) = fails(&["cram", "--board", "/no/such/board"], "");
    assert!(err.contains("/no/such/board"), "{err}");
    // A board file too large is refused before it is read whole.
    let out = grundy_bytes(&["cram", "--board", "/dev/zero"], b"");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    // Options.
    for args in [
        &["cram", "4x4", "--threads", "0"][..],
        &["cram", "4x4", "--threads", "+2"],
        &["cram", "4x4", "--memory", "0"],
        &["cram", "4x4", "--memory", "1X"],
        &["cram", "4x4", "--board", "-"],
        &["cram", "-4x7"],
        &["cram"],
    ] {
        let out = grundy(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn threads_and_memory_do_not_change_the_answer() {
    for size in ["4x5", "3x7", "2x10"] {
        let expected = stdout_of(&["cram", size, "--hint"], "");
        for args in [
            &["--threads", "1"][..],
            &["--threads", "2"],
            // At most one thread per CPU: 1024 run as many as the CPUs.
            &["--threads", "1024"],
            &["--memory", "64K"],
            &["--memory", "4K", "--threads", "2"],
            &["--online"],
            &["--online", "--threads", "2", "--memory", "4K"],
        ] {
            let out = stdout_of(&[&["cram", size, "--hint"], args].concat(), "");
            // The hint may differ; the nimber may not, and the hint must win.
            assert_eq!(
                out.lines().take(2).collect::<Vec<_>>(),
                expected.lines().take(2).collect::<Vec<_>>(),
                "{size} {args:?}"
            );
        }
    }
}

#[test]
fn proofs_written_by_the_cli_check_and_corrupted_ones_fail() {
    let dir = tempfile::tempdir().unwrap();
    for (size, nimber) in [("4x5", 2), ("3x9", 1), ("1x1", 0)] {
        let path = dir.path().join(format!("cram-{size}.proof"));
        let file = path.to_str().unwrap();
        let answer = json_of(&["cram", size, "--json", "--proof", file], "");
        assert_eq!(answer["nimber"], nimber);
        let checked = stdout_of(&["proof", "check", file], "");
        assert!(
            checked.starts_with(&format!("cram {size}: nimber {nimber}, ")),
            "{checked}"
        );
        assert!(checked.ends_with(" positions checked\n"), "{checked}");
    }
    // A board with blocked cells, through standard input.
    let path = dir.path().join("board.proof");
    let file = path.to_str().unwrap();
    stdout_of(
        &["cram", "--board", "-", "--proof", file],
        "...#\n....\n##..\n",
    );
    let bytes = std::fs::read(&path).unwrap();
    let out = grundy_bytes(&["proof", "check", "-"], &bytes);
    assert!(out.status.success(), "{out:?}");
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("cram 3x4 with 3 blocked cells: nimber ")
    );

    // Corrupted: the first claim's nimber changed: exit status 1,
    // naming the claim and its position.
    let path = dir.path().join("cram-4x5.proof");
    let bytes = std::fs::read(&path).unwrap();
    let err = crate::common::first_claim_corrupted_fails(&bytes);
    assert!(err.contains("(cells "), "{err}");
    let metadata_len = u32::from_le_bytes(bytes[16..20].try_into().unwrap()) as usize;
    let payload = 64 + metadata_len;
    // Any byte of the claims changed: refused (exit status 1) unless the
    // change leaves a certificate that still proves the nimber.
    let mut rejected = 0;
    for at in (payload..bytes.len()).step_by(3) {
        let mut bad = bytes.clone();
        bad[at] ^= 1;
        let out = grundy_bytes(
            &["proof", "check", "-"],
            &crate::common::with_payload_crc(bad),
        );
        let text = String::from_utf8(out.stdout).unwrap();
        match out.status.code() {
            // Still a proof: of the same nimber.
            Some(0) => assert!(text.starts_with("cram 4x5: nimber 2, "), "{text}"),
            code => {
                assert_eq!(code, Some(1), "byte {at}");
                assert!(text.is_empty());
                rejected += 1;
            }
        }
    }
    assert!(rejected > 0);
    // Truncated, or not a proof at all: exit status 1 with a clear line.
    let out = grundy_bytes(&["proof", "check", "-"], &bytes[..bytes.len() - 3]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("the file is truncated")
    );
    let out = grundy(&["proof", "check", "-"], "nimber 3\n");
    assert_eq!(out.status.code(), Some(1));
    // The certificate's file is checked before the search: a folder that
    // is not there is refused at once.
    let (out, err) = fails(&["cram", "8x16", "--proof", "/no/such/folder/x.proof"], "");
    assert!(out.is_empty() && err.contains("does not exist"), "{err}");
}

/// `--outcome`: who wins without the nimber (null in JSON), on empty and
/// random boards, against the definition; its hints leave a lost board;
/// boards won by symmetry are answered without search, with the central
/// domino; and a certificate cannot be asked for.
#[test]
fn outcomes_alone_match_the_definition() {
    let hint_of = |answer: &serde_json::Value| -> [(u32, u32); 2] {
        let cell = |k: usize| {
            let c = &answer["hint"][k];
            (c[0].as_u64().unwrap() as u32, c[1].as_u64().unwrap() as u32)
        };
        [cell(0), cell(1)]
    };
    let mut rng = crate::common::SplitMix64::new(23);
    let mut boards: Vec<Board> = (1..=4)
        .flat_map(|r| (1..=5).map(move |c| Board::empty(r, c)))
        .collect();
    boards.extend((0..40).map(|_| {
        let (rows, cols) = (1 + rng.below(4) as u32, 1 + rng.below(5) as u32);
        Board::random(&mut rng, rows, cols, 4)
    }));
    for board in &boards {
        let args = ["cram", "--board", "-", "--outcome", "--hint", "--json"];
        let answer = json_of(&args, &board.picture());
        let wins = board.nimber() != 0;
        assert!(answer["nimber"].is_null(), "{answer}");
        assert_eq!(
            answer["outcome"],
            if wins { "WIN" } else { "LOSE" },
            "{}",
            board.picture()
        );
        if wins {
            assert_eq!(
                after(board, hint_of(&answer)).nimber(),
                0,
                "{}",
                board.picture()
            );
        } else {
            assert!(answer["hint"].is_null());
        }
    }
    // Won by symmetry: no position searched, the central domino.
    for (size, centre) in [
        ("5x8", [(2, 3), (2, 4)]),
        ("8x5", [(3, 2), (4, 2)]),
        ("7x16", [(3, 7), (3, 8)]),
    ] {
        let answer = json_of(&["cram", size, "--outcome", "--hint", "--json"], "");
        assert_eq!(answer["outcome"], "WIN", "{size}");
        assert_eq!(answer["positions"], 0, "{size}");
        assert_eq!(hint_of(&answer), centre, "{size}");
    }
    assert_eq!(stdout_of(&["cram", "3x4", "--outcome"], ""), "WIN\n");
    assert_eq!(
        stdout_of(&["cram", "2x2", "--outcome", "--hint"], ""),
        "LOSE\n"
    );
    let out = grundy(&["cram", "4x5", "--outcome", "--proof", "x.proof"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(!std::path::Path::new("x.proof").exists());
}
