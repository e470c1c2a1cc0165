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
