//! The three sources of values (compiled-in tables, the tables of a folder
//! by `--tables`, no table by `--online`) give the same answers, on large
//! random inputs that reach past the tables (where knights come from the
//! certified description, or on demand with `--online`); and `grundy tables`.

use crate::common::{SplitMix64, grundy};
use sg_core::knight::{MoveSet, knight_square_table};
use sg_core::row::row_table_by_definition;
use sg_tables::format::{Game, Metadata, encode};
use std::fmt::Write;

/// A folder with a row table of width 12 and a knight table of size 100:
/// smaller than the compiled-in ones, so lookups and fallbacks both happen.
/// The folder is removed when the returned guard drops (when the test
/// ends, passed or failed).
fn small_tables() -> tempfile::TempDir {
    let guard = tempfile::tempdir().unwrap();
    let dir = guard.path();
    let row = Metadata {
        game: Game::Row { width: 12 },
        generator: "test".into(),
    };
    std::fs::write(
        dir.join("row12.sgt"),
        encode(&row, &row_table_by_definition(12)).unwrap(),
    )
    .unwrap();
    let moves = MoveSet::hyper_knight();
    let knight = Metadata {
        game: Game::Knight {
            size: 100,
            moves: moves.steps().to_vec(),
        },
        generator: "test".into(),
    };
    std::fs::write(
        dir.join("knight.sgt"),
        encode(&knight, &knight_square_table(&moves, 100)).unwrap(),
    )
    .unwrap();
    guard
}

/// The output of every source, for `args` and `input`, all equal.
fn same_everywhere(args: &[&str], input: &str, dir: &str) -> Vec<u8> {
    let default = grundy(args, input);
    for extra in [vec!["--online"], vec!["--tables", dir]] {
        let all: Vec<&str> = args.iter().copied().chain(extra.iter().copied()).collect();
        let other = grundy(&all, input);
        assert_eq!(other.status.code(), default.status.code(), "{all:?}");
        assert_eq!(other.stdout, default.stdout, "{all:?}");
        assert_eq!(other.stderr, default.stderr, "{all:?}");
    }
    default.stdout
}

fn rows_input(rng: &mut SplitMix64, cases: usize, width: u64) -> String {
    let mut s = format!("{cases}\n");
    for _ in 0..cases {
        let n = 1 + rng.below(40);
        writeln!(s, "{n}").unwrap();
        for _ in 0..n {
            let cols: Vec<u64> = (1..=width).filter(|_| rng.below(2) == 0).collect();
            write!(s, "{}", cols.len()).unwrap();
            for c in cols {
                write!(s, " {c}").unwrap();
            }
            s.push('\n');
        }
    }
    s
}

#[test]
fn rows_agree_on_every_source() {
    let guard = small_tables();
    let dir = guard.path().to_str().unwrap();
    let mut rng = SplitMix64::new(5724);
    let input = rows_input(&mut rng, 3000, 20);
    let out = same_everywhere(&["hdu5724"], &input, dir);
    assert_eq!(out.split(|&b| b == b'\n').count(), 3001);
    same_everywhere(&["hdu5724", "--hint"], &input, dir);
    // Wider boards than any table: the closed form answers.
    let wide = rows_input(&mut rng, 500, 40);
    same_everywhere(&["hdu5724", "--width", "40", "--hint"], &wide, dir);
}

#[test]
fn knights_agree_on_every_source() {
    let guard = small_tables();
    let dir = guard.path().to_str().unwrap();
    let mut rng = SplitMix64::new(1315);
    let mut input = String::from("2000\n");
    for _ in 0..2000 {
        let n = 1 + rng.below(20);
        writeln!(input, "{n}").unwrap();
        for _ in 0..n {
            // Inside the small table, inside the compiled-in one, past both.
            let limit = [100, 1024, 3000][rng.below(3) as usize];
            writeln!(input, "{} {}", rng.below(limit), rng.below(limit)).unwrap();
        }
    }
    same_everywhere(&["lightoj1315"], &input, dir);
    same_everywhere(&["lightoj1315", "--hint"], &input, dir);
    // Too far out for on-demand computation: the certified description
    // answers, with or without a folder of tables; --online refuses.
    let far = "2\n1\n5 5\n1\n40000 1\n";
    let default = grundy(&["lightoj1315"], far);
    assert_eq!(default.status.code(), Some(0));
    let mapped = grundy(&["lightoj1315", "--tables", dir], far);
    assert_eq!(mapped.status.code(), Some(0));
    assert_eq!(mapped.stdout, default.stdout);
    assert_eq!(
        grundy(&["lightoj1315", "--online"], far).status.code(),
        Some(2)
    );
}

#[test]
fn tables_info_and_verify() {
    let guard = small_tables();
    let dir = guard.path();
    let out = grundy(&["tables", "info"], "");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("row game, width 20"), "{text}");
    assert!(text.contains("knight game, 1024 x 1024"), "{text}");
    assert!(text.contains("format version:  1"), "{text}");

    let out = grundy(&["tables", "verify", dir.to_str().unwrap()], "");
    assert!(out.status.success(), "{out:?}");

    let knight = dir.join("knight.sgt");
    let mut bytes = std::fs::read(&knight).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&knight, &bytes).unwrap();
    let out = grundy(&["tables", "verify", knight.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("INVALID: payload checksum mismatch"),
        "{text}"
    );
    let out = grundy(&["tables", "info", knight.to_str().unwrap()], "");
    assert!(String::from_utf8(out.stdout).unwrap().contains("MISMATCH"));
    // Solving with a corrupt table is refused, with the reason.
    let out = grundy(
        &["lightoj1315", "--tables", dir.to_str().unwrap()],
        "1\n1\n1 1\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stderr).unwrap().contains("checksum"));

    std::fs::write(&knight, b"GRUNDYT\0 short").unwrap();
    let out = grundy(&["tables", "verify", knight.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stdout).unwrap().contains("truncated"));
}

/// A Cram endgame table is described by `tables info`, and `tables verify`
/// recomputes its nimbers and checks its fingerprints: wrong nimbers or
/// wrong fingerprints in a file whose checksums are right fail, naming a
/// polyomino.
#[test]
fn cram_endgame_tables_are_verified_from_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    let table = sg_tables::cram::CramEndgameTable::by_definition(9).unwrap();
    let metadata = Metadata {
        game: table.game(),
        generator: "test".into(),
    };
    let payload = table.to_payload();
    let path = dir.path().join("cram9.sgt");
    std::fs::write(&path, encode(&metadata, &payload).unwrap()).unwrap();
    let out = grundy(&["tables", "info", path.to_str().unwrap()], "");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Cram endgame (code 7)"), "{text}");
    assert!(
        text.contains("slots of 16 bits (4-bit nimber, 12-bit fingerprint)"),
        "{text}"
    );
    assert!(
        text.contains("by size from 1 cell: 1 1 2 5 12 35 108 369 1285"),
        "{text}"
    );
    let out = grundy(&["tables", "verify", path.to_str().unwrap()], "");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("1818 polyominoes, values checked"), "{text}");

    // A bit of every slot of the polyominoes of 9 cells flipped (the
    // array of `3 t` slots of two bytes at the end; `t` in the size's
    // record), checksums recomputed: bit 0, the nimber's, then bit 4, the
    // fingerprint's. Each polyomino's three slots XOR to a value that
    // differs in that bit.
    let third = u32::from_le_bytes(payload[16 * 8 + 12..16 * 9].try_into().unwrap()) as usize;
    let last = payload.len() - 6 * third;
    for (bit, says) in [
        (0, "INVALID: wrong value: the Cram polyomino"),
        (4, "is not in the table"),
    ] {
        let mut forged = payload.clone();
        for low in (last..forged.len()).step_by(2) {
            forged[low] ^= 1 << bit;
        }
        std::fs::write(&path, encode(&metadata, &forged).unwrap()).unwrap();
        let out = grundy(&["tables", "verify", path.to_str().unwrap()], "");
        assert_eq!(out.status.code(), Some(1));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(says), "{text}");
    }

    // A table of the retired layout (header kind 6): refused by `info`
    // and `verify`, saying how to regenerate it.
    let mut old = encode(&metadata, &payload).unwrap();
    old[16..20].copy_from_slice(&6u32.to_le_bytes());
    std::fs::write(&path, &old).unwrap();
    for command in ["info", "verify"] {
        let out = grundy(&["tables", command, path.to_str().unwrap()], "");
        assert_eq!(out.status.code(), Some(1), "{command}");
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(
            text.contains("retired layout (table kind 6") && text.contains("cargo xtask gen"),
            "{command}: {text}"
        );
    }
}
