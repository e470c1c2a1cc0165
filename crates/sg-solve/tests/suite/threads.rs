//! Threads through the real binary: whatever `--threads` or the
//! environment's `RAYON_NUM_THREADS` asks for, every pool `grundy` starts
//! (the octal engine's, the tables' checks, the searches') has at most one
//! thread per CPU the process may run on, a lowered request is said on
//! standard error, and the answers are those of the default.

use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

/// The CPUs this test may run on, as `grundy` counts them.
fn cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs `grundy ARGS` with `RAYON_NUM_THREADS` set to `env` (unset if
/// `None`), failing the test if it has not ended within a minute (a
/// million threads used to take longer than that).
fn run(args: &[&str], env: Option<&str>) -> Output {
    let mut command = crate::common::grundy_command();
    command.args(args).stdin(Stdio::null());
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    match env {
        Some(value) => command.env("RAYON_NUM_THREADS", value),
        None => command.env_remove("RAYON_NUM_THREADS"),
    };
    let mut child = command.spawn().unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("{args:?} with RAYON_NUM_THREADS={env:?}: not ended within a minute");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    crate::common::finish(child, "grundy")
}

/// The lines of standard error that say a request was lowered.
fn notes(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.contains("lowered to"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_environment_cannot_raise_the_thread_count() {
    // The octal catalogue's check is the part of `tables verify` that runs
    // on rayon's global pool.
    let (_guard, catalogue) = crate::common::small_catalogue();
    let cases: [&[&str]; 4] = [
        &["octal", ".6", "--online", "--to", "100000", "--json"],
        &["octal", "0.77", "--heaps", "10", "20", "--hint"],
        &["tables", "verify", &catalogue],
        &["cram", "4x5", "--hint"],
    ];
    for args in cases {
        let plain = run(args, None);
        assert!(plain.status.success(), "{args:?}");
        assert!(notes(&plain).is_empty(), "{args:?}");
        for asked in ["4096", "1000000"] {
            let out = run(args, Some(asked));
            assert!(out.status.success(), "{args:?}");
            // The same answers (the searches' statistics aside).
            let answer = |o: &Output| {
                let text = String::from_utf8_lossy(&o.stdout).into_owned();
                text.split(",\"positions\"").next().unwrap().to_owned()
            };
            assert_eq!(answer(&out), answer(&plain), "{args:?}");
            assert_eq!(
                notes(&out),
                [format!(
                    "note: RAYON_NUM_THREADS={asked} lowered to {}: one thread per CPU this process may run on",
                    cpus()
                )],
                "{args:?}"
            );
        }
        // A request the CPUs allow is kept, and not remarked on.
        let out = run(args, Some("1"));
        assert!(out.status.success() && notes(&out).is_empty(), "{args:?}");
    }
}

#[test]
fn a_thread_option_beyond_the_cpus_is_lowered_and_said() {
    let many = (cpus() + 7).to_string();
    for args in [
        &[
            "octal",
            ".6",
            "--online",
            "--to",
            "20000",
            "--threads",
            &many,
        ][..],
        &["chomp", "4x5", "--threads", &many][..],
    ] {
        let out = run(args, None);
        assert!(out.status.success(), "{args:?}");
        assert_eq!(
            notes(&out),
            [format!(
                "note: --threads {many} lowered to {}: one thread per CPU this process may run on",
                cpus()
            )],
            "{args:?}"
        );
    }
}
