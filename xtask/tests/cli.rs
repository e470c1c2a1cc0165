//! `cargo xtask` through its binary: errors are one `error: ...` line with
//! exit status 1 (no backtrace, even with `RUST_BACKTRACE=1`), usage errors
//! are clap's (exit status 2), and `gen --check --out DIR` names the
//! command that fixes DIR.

use std::process::Command;

fn xtask(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn errors_are_one_line_without_a_backtrace() {
    let dir = std::env::temp_dir().join(format!("xtask-cli-missing-{}", std::process::id()));
    let dir = dir.to_str().unwrap();
    let (code, err) = xtask(&["gen", "--check", "--out", dir, "--row-width", "8"]);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(
        err,
        format!(
            "error: {dir} does not exist (or is not a folder); make it with \
             `cargo xtask gen --out {dir} --row-width 8`\n"
        )
    );
    assert!(!err.contains("backtrace"), "{err}");
}

#[test]
fn threads_are_bounded() {
    for bad in ["0", "257", "100000"] {
        let (code, err) = xtask(&["gen", "--check", "--threads", bad]);
        assert_eq!(code, Some(2), "{bad}: {err}");
        assert!(err.contains("from 1 to 256"), "{err}");
    }
}
