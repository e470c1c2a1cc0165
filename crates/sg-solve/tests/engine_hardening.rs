//! Regression tests for the engines and tables of the third hardening
//! issue (issue 21), through the real binary: any thread count works and
//! gives the same values, extreme knight steps are answered or refused,
//! games without moves are refused.

mod common;

use common::{fails, grundy};

/// `grundy ARGS` with the environment variables `env`: (exit status,
/// stdout, stderr), after checking that it did not panic.
fn run_env(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String, String) {
    let out = assert_cmd::Command::cargo_bin("grundy")
        .unwrap()
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!stderr.contains("panicked"), "{args:?} {env:?}: {stderr}");
    (out.status.code(), stdout, stderr)
}

/// Item 1: `--threads` from 1 to 1024 (all that it accepts) and
/// `RAYON_NUM_THREADS` of any size compute the same values; 32 and more
/// used to panic (the crew's slots).
#[test]
fn any_thread_count_gives_the_same_values() {
    let args = |threads: Option<&'static str>| {
        let mut args = vec!["octal", ".6", "--to", "3000", "--online", "--values"];
        if let Some(t) = threads {
            args.extend(["--threads", t]);
        }
        args
    };
    let (code, reference, err) = run_env(&args(Some("1")), &[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(reference.lines().count(), 3001);
    for threads in ["2", "31", "32", "33", "64", "1024"] {
        let (code, values, err) = run_env(&args(Some(threads)), &[]);
        assert_eq!(code, Some(0), "{threads} threads: {err}");
        assert!(values == reference, "{threads} threads: other values");
    }
    for threads in ["32", "100"] {
        let (code, values, err) = run_env(&args(None), &[("RAYON_NUM_THREADS", threads)]);
        assert_eq!(code, Some(0), "RAYON_NUM_THREADS={threads}: {err}");
        assert!(
            values == reference,
            "RAYON_NUM_THREADS={threads}: other values"
        );
    }
}

/// Item 2: steps at the ends of `i32` (whose negation overflows an `i32`)
/// are answered like any other, or refused with exit status 2 where the
/// square is beyond what can be computed for them. (Each run searches for
/// a certified description first, about a second: a few runs only; the
/// unit tests of `sg_core::knight` cover every edge step.)
#[test]
fn extreme_knight_steps_are_answered_or_refused() {
    const MIN: i32 = i32::MIN;
    const MAX: i32 = i32::MAX;
    let mixed = format!("-3,-1 {MIN},0 -2,1");
    for (steps, value) in [
        (format!("{MIN},0"), "0\n"),
        (format!("0,{MIN}"), "0\n"),
        (format!("{MAX},{MIN}"), "0\n"),
        // (-3, -1) reaches (0, 0), worth 0, and (-2, 1) reaches (1, 2),
        // from which no step stays on the board: worth 0.
        (mixed.clone(), "1\n"),
    ] {
        let out = grundy(&["knight", "3", "1", "--moves", &steps], "");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(0), "{steps}: {stderr}");
        assert!(!stderr.contains("panicked"), "{steps}: {stderr}");
        assert_eq!(String::from_utf8(out.stdout).unwrap(), value, "{steps}");
    }
    let out = grundy(&["knight", "--grid", "0..8", "0..8", "--moves", &mixed], "");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 8);
    // Far out, no certified description: refused as the user's to fix.
    let (_, err) = fails(
        &["knight", "4611686018427387904", "7", "--moves", &mixed],
        "",
    );
    assert!(
        err.contains("the limit for computing by the definition"),
        "{err}"
    );
    // A step beyond 32 bits is refused where it is written.
    let (code, _, err) = run_env(&["knight", "1", "2", "--moves", "-2147483649,0"], &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("out of range for a step"), "{err}");
}

/// Item 20: a code with no digit after the point and no move (`.`, `0.`:
/// almost certainly a typo) is refused, saying why.
#[test]
fn a_code_without_moves_is_refused() {
    for code in [".", "0.", " 0. "] {
        let (out, err) = fails(&["octal", code], "");
        assert_eq!(out, "");
        assert!(err.contains("allows no move"), "{code}: {err}");
        let (_, err) = fails(&["octal", code, "--online", "--heaps", "3"], "");
        assert!(err.contains("allows no move"), "{code}: {err}");
    }
    // `4.` splits a heap in two: a game with moves. `0.0`, written out,
    // is the game without moves, answered (it is in the catalogue).
    // (G(2) = 1 for `4.`: the split into 1 and 1.)
    for (code, answer) in [("4.", "WIN\n"), ("0.0", "LOSE\n"), ("0.000", "LOSE\n")] {
        let out = grundy(&["octal", code, "--heaps", "2"], "");
        assert_eq!(out.status.code(), Some(0), "{code}");
        assert_eq!(String::from_utf8(out.stdout).unwrap(), answer, "{code}");
    }
}

/// Item 21: the progress bar (drawn on a terminal: here the pseudo-terminal
/// of `script`) shows a rate only when it means something: never `0/s`,
/// and never more heaps per second than heaps done (the bar appears after
/// a second of work). It used to show `0/s`, then `286200733767/s`.
#[cfg(target_os = "linux")]
#[test]
fn the_progress_rate_is_never_absurd() {
    let bin = assert_cmd::cargo::cargo_bin("grundy");
    let command = format!(
        "'{}' octal .354 --online --to 30000000 --threads 1",
        bin.display()
    );
    // Stopped after 4 seconds: the frames drawn by then.
    let out = std::process::Command::new("timeout")
        .args(["4", "script", "-qc", &command, "/dev/null"])
        .output()
        .expect("`script` (util-linux) and `timeout` (coreutils) run");
    let text = String::from_utf8_lossy(&out.stdout);
    let number = |s: &str| s.replace(',', "").parse::<u64>();
    let mut frames = 0;
    for frame in text.split(['\r', '\n']).filter(|f| f.contains(" heaps, ")) {
        let (head, tail) = frame.split_once(" heaps, ").unwrap();
        let done = head.rsplit(' ').next().unwrap().split('/').next().unwrap();
        let done = number(done).unwrap_or_else(|_| panic!("{frame:?}"));
        let rate = tail.split("/s").next().unwrap();
        assert!(rate != "0", "{frame:?}");
        if rate != "-" {
            let rate = number(rate).unwrap_or_else(|_| panic!("{frame:?}"));
            assert!(rate <= done, "{frame:?}");
        }
        frames += 1;
    }
    assert!(frames > 0, "no progress drawn: {text:?}");
}
