//! Definitional solvers, written from the problem statements and
//! independent of the library's engine, plus input formatting helpers.

#![allow(dead_code, unreachable_pub)]

use std::collections::HashMap;
use std::ffi::OsStr;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The longest a test waits for a process it started: past it, the
/// process is killed and the test fails, saying so (a run that hangs
/// never hangs the suite).
pub const CHILD_LIMIT: Duration = Duration::from_secs(300);

/// `program` as the tests start it: standard input empty unless set, and
/// SIGHUP, SIGINT and SIGTERM at their default action in the child,
/// whatever this process inherited. (`nohup cargo test` ignores SIGHUP;
/// an ignored signal stays ignored across exec, grundy rightly leaves it
/// so, and a test that sends it would wait for nothing.)
pub fn command(program: impl AsRef<OsStr>) -> Command {
    let mut command = Command::new(program);
    command.stdin(Stdio::null());
    // No `progress:` lines on standard error (a pipe here) from a run
    // that a slow machine makes last: tests compare standard error; the
    // lines are tested where a test sets the variable again.
    command.env("GRUNDY_PROGRESS_EVERY", "0");
    // SAFETY: the closure runs in the child between fork and exec, where
    // only async-signal-safe functions may be called; signal(2) is one,
    // and it only sets this process's dispositions.
    unsafe {
        command.pre_exec(|| {
            for signal in [libc::SIGHUP, libc::SIGINT, libc::SIGTERM] {
                libc::signal(signal, libc::SIG_DFL);
            }
            Ok(())
        });
    }
    command
}

/// The `grundy` binary under test, started as [`command`] does.
pub fn grundy_command() -> Command {
    command(assert_cmd::cargo::cargo_bin("grundy"))
}

/// The output of `child` once it ends, at most [`CHILD_LIMIT`] away: past
/// it the child is killed and the test fails naming `what`. Its standard
/// output and error are read as it runs (when they are piped).
pub fn finish(mut child: Child, what: &str) -> Output {
    let read = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = read(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = read(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > CHILD_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {CHILD_LIMIT:?}, killed");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Output {
        status,
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    }
}

/// `output` and `status` of a command, bounded as [`finish`] is.
pub trait Bounded {
    /// Runs the command, its standard output and error captured.
    fn bounded_output(&mut self) -> std::io::Result<Output>;
    /// Runs the command, its output where it goes; its exit status.
    fn bounded_status(&mut self) -> std::io::Result<std::process::ExitStatus>;
    /// Runs the command with its streams as set: what is piped is
    /// captured (a test that sends standard output to `/dev/full` pipes
    /// standard error).
    fn bounded_output_as_set(&mut self) -> std::io::Result<Output>;
}

impl Bounded for Command {
    fn bounded_output(&mut self) -> std::io::Result<Output> {
        let what = format!("{self:?}");
        let child = self.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn()?;
        Ok(finish(child, &what))
    }

    fn bounded_status(&mut self) -> std::io::Result<std::process::ExitStatus> {
        let what = format!("{self:?}");
        Ok(finish(self.spawn()?, &what).status)
    }

    fn bounded_output_as_set(&mut self) -> std::io::Result<Output> {
        let what = format!("{self:?}");
        Ok(finish(self.spawn()?, &what))
    }
}

/// The `grundy` binary under test as an `assert_cmd` command, started as
/// [`command`] does and killed past [`CHILD_LIMIT`].
pub fn assert_grundy() -> assert_cmd::Command {
    let mut command = assert_cmd::Command::from_std(grundy_command());
    command.timeout(CHILD_LIMIT);
    command
}

/// Runs the real `grundy` binary with `args`, `input` on standard input.
pub fn grundy(args: &[&str], input: &str) -> std::process::Output {
    grundy_bytes(args, input.as_bytes())
}

/// Runs the real `grundy` binary with `args`, the bytes `input` on
/// standard input (killed past [`CHILD_LIMIT`]: the test then fails).
pub fn grundy_bytes(args: &[&str], input: &[u8]) -> std::process::Output {
    let mut child = grundy_command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from a thread: a child that does not read all of it (an
    // error at its first line) must not block the test.
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(&input);
    });
    let out = finish(child, &format!("grundy {args:?}"));
    writer.join().unwrap();
    out
}

/// `PATH` with the folder of the `grundy` binary under test first, for
/// commands run by `sh -c` that call it by name.
pub fn path_with_grundy() -> std::ffi::OsString {
    let bin = assert_cmd::cargo::cargo_bin("grundy");
    let mut path = std::ffi::OsString::from(bin.parent().unwrap());
    if let Some(old) = std::env::var_os("PATH") {
        path.push(":");
        path.push(old);
    }
    path
}

/// `text` with the number after each JSON key `"seconds":` (the time a
/// search took) replaced by `_`, so that an example's output and the
/// program's compare equal.
pub fn seconds_normalised(text: &str) -> String {
    number_normalised(text, "seconds")
}

/// `text` with the number after each JSON key `"KEY":` replaced by `_`.
pub fn number_normalised(text: &str, key: &str) -> String {
    let key = format!("\"{key}\":");
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(&key) {
        out.push_str(&rest[..at + key.len()]);
        rest = &rest[at + key.len()..];
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || ".eE+-".contains(c)))
            .unwrap_or(rest.len());
        out.push('_');
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Runs `grundy ARGS` on `input` and checks the bad-input contract: exit
/// status 2, one line `error: ...` on standard error (after a note that
/// the threads asked for were lowered, if any), no panic. Returns
/// (stdout, the error line).
pub fn fails(args: &[&str], input: &str) -> (String, String) {
    let out = grundy(args, input);
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stdout} {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // A note that a thread count was lowered may come before the error.
    let stderr: String = stderr
        .lines()
        .filter(|l| !(l.starts_with("note: ") && l.contains(" lowered to ")))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    (stdout, stderr)
}

/// The seeded generator of the tests and benchmarks.
pub use sg_core::testing::SplitMix64;

/// The rows of a Chomp diagram after the cell (r, c) is taken.
pub fn bite(rows: &[u32], r: u32, c: u32) -> Vec<u32> {
    rows.iter()
        .enumerate()
        .map(|(i, &l)| if i as u32 >= r { l.min(c) } else { l })
        .filter(|&l| l > 0)
        .collect()
}

/// The `round`th Chomp diagram of a test (row lengths, nonincreasing),
/// and its argument `A,B,...`: the twelve rectangles of one or two rows of
/// 1 to 6 first, then random diagrams of at most 6 rows of at most 7.
pub fn chomp_diagram(round: u32, rng: &mut SplitMix64) -> (Vec<u32>, String) {
    let rows: Vec<u32> = if round < 12 {
        vec![1 + round % 6; 1 + round as usize / 6]
    } else {
        let mut rows = vec![1 + rng.below(7) as u32];
        while rows.len() < 6 && rng.below(4) != 0 {
            let last = *rows.last().unwrap();
            rows.push(1 + rng.below(u64::from(last)) as u32);
        }
        rows
    };
    let spec: Vec<String> = rows.iter().map(u32::to_string).collect();
    (rows, spec.join(","))
}

/// Runs the real `grundy` binary with `args` and `input` on standard input
/// under an address-space limit of `limit_mib` MiB (`ulimit -v`), so that
/// an allocation in proportion to a declared count fails the test. A failed
/// allocation aborts (signal 6): the exit status is then `None`.
#[cfg(target_os = "linux")]
pub fn grundy_limited(args: &[&str], input: &[u8], limit_mib: u64) -> std::process::Output {
    let bin = assert_cmd::cargo::cargo_bin("grundy");
    let script = format!("ulimit -v {} && exec \"$0\" \"$@\"", limit_mib * 1024);
    assert_cmd::Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(bin)
        .args(args)
        .write_stdin(input.to_vec())
        .output()
        .unwrap()
}

fn mex(values: &[u32]) -> u32 {
    (0..).find(|v| !values.contains(v)).unwrap()
}

/// Grundy value of node `v` of a DAG given as adjacency lists (memoized
/// recursion; test graphs are at most a few thousand deep).
pub fn dag_value(adj: &[Vec<usize>], v: usize, memo: &mut HashMap<usize, u32>) -> u32 {
    if let Some(&g) = memo.get(&v) {
        return g;
    }
    let vals: Vec<u32> = adj[v].iter().map(|&w| dag_value(adj, w, memo)).collect();
    let g = mex(&vals);
    memo.insert(v, g);
    g
}

/// The moves of the row game by the statement: a piece on column `p`
/// (1-based from the left) goes to the first empty column to its right,
/// jumping any pieces in between; columns must stay within `1..=width`.
pub fn row_moves(cols: &[u32], width: u32) -> Vec<(u32, u32, Vec<u32>)> {
    let mut out = vec![];
    for &p in cols {
        let mut q = p + 1;
        while q <= width && cols.contains(&q) {
            q += 1;
        }
        if q <= width {
            let mut next: Vec<u32> = cols.iter().map(|&c| if c == p { q } else { c }).collect();
            next.sort_unstable();
            out.push((p, q, next));
        }
    }
    out
}

/// Grundy value of a row (sorted columns) by the definition.
pub fn row_value(cols: &[u32], width: u32, memo: &mut HashMap<Vec<u32>, u32>) -> u32 {
    if let Some(&g) = memo.get(cols) {
        return g;
    }
    let vals: Vec<u32> = row_moves(cols, width)
        .into_iter()
        .map(|(_, _, next)| row_value(&next, width, memo))
        .collect();
    let g = mex(&vals);
    memo.insert(cols.to_vec(), g);
    g
}

/// Every 20-column row's value by the definition, indexed by the set of
/// columns as a bit mask with column `c` at bit `c - 1` (a different
/// encoding from the library's, on purpose). Rows are processed by
/// decreasing sum of columns: every move raises a column.
pub fn row_table_20() -> Vec<u8> {
    const W: u32 = 20;
    let mut order: Vec<u32> = (0..1u32 << W).collect();
    let colsum = |m: u32| {
        (0..W)
            .filter(|b| m >> b & 1 == 1)
            .map(|b| b + 1)
            .sum::<u32>()
    };
    order.sort_by_key(|&m| std::cmp::Reverse(colsum(m)));
    let mut table = vec![0u8; 1 << W];
    for m in order {
        let cols: Vec<u32> = (0..W).filter(|b| m >> b & 1 == 1).map(|b| b + 1).collect();
        let vals: Vec<u32> = row_moves(&cols, W)
            .into_iter()
            .map(|(_, _, next)| {
                u32::from(table[next.iter().map(|c| 1usize << (c - 1)).sum::<usize>()])
            })
            .collect();
        table[m as usize] = mex(&vals) as u8;
    }
    table
}

pub const KNIGHT_MOVES: [(i64, i64); 6] =
    [(-3, -1), (-2, 1), (-2, -1), (-1, -2), (-1, -3), (1, -2)];

/// Hyper-knight values for every square with `x + y < limit`, as a
/// `limit x limit` array filled by increasing `x + y`.
pub fn knight_values(limit: usize) -> Vec<Vec<u8>> {
    let mut g = vec![vec![0u8; limit]; limit];
    for d in 0..limit {
        for x in 0..=d {
            let y = d - x;
            let vals: Vec<u32> = KNIGHT_MOVES
                .iter()
                .map(|&(dx, dy)| (x as i64 + dx, y as i64 + dy))
                .filter(|&(a, b)| a >= 0 && b >= 0)
                .map(|(a, b)| u32::from(g[a as usize][b as usize]))
                .collect();
            g[x][y] = mex(&vals) as u8;
        }
    }
    g
}

/// Joins tokens with varied whitespace (spaces, tabs, CRLF, blank lines),
/// keeping each logical line's tokens on a line unless `scramble` says so.
pub fn format_lines(lines: &[Vec<u64>], rng: &mut SplitMix64) -> String {
    let mut s = String::new();
    for line in lines {
        for (i, t) in line.iter().enumerate() {
            if i > 0 {
                s.push_str([" ", "\t", "  ", " \t "][rng.below(4) as usize]);
            }
            s.push_str(&t.to_string());
        }
        s.push_str(["\n", "\r\n", "\n\n", " \n"][rng.below(4) as usize]);
    }
    s
}

/// Breaks `input` at a random place, one of several ways: cut there, a
/// byte replaced by a bad or surprising one, or one of `tokens` inserted.
pub fn break_at_random(input: &mut Vec<u8>, rng: &mut SplitMix64, tokens: &[&str]) {
    let at = rng.below(input.len() as u64 + 1) as usize;
    match rng.below(3) {
        0 => input.truncate(at),
        1 if at < input.len() => input[at] = b"x-9 \n0"[rng.below(6) as usize],
        _ => {
            let token = tokens[rng.below(tokens.len() as u64) as usize];
            input.splice(at..at, format!(" {token} ").into_bytes());
        }
    }
}

/// A proof file with its payload checksum made right again after a change
/// (the header of `crates/sg-search/PROOF.md`: metadata length at byte 16,
/// payload checksum at byte 32, the payload after the metadata).
pub fn with_payload_crc(mut proof: Vec<u8>) -> Vec<u8> {
    let metadata_len = u32::from_le_bytes(proof[16..20].try_into().unwrap()) as usize;
    let crc = crc32fast::hash(&proof[64 + metadata_len..]);
    proof[32..36].copy_from_slice(&crc.to_le_bytes());
    proof
}

/// Changes the nimber of the first claim of the proof file `proof` (the
/// claim starts with its position, a list of bytes: its length, below 128
/// here, one byte, then the bytes; then its nimber, below 128 here: one
/// byte), and checks that `grundy proof check` refuses it with exit status
/// 1 and one line naming claim 1. Returns that line.
pub fn first_claim_corrupted_fails(proof: &[u8]) -> String {
    let metadata_len = u32::from_le_bytes(proof[16..20].try_into().unwrap()) as usize;
    let payload = 64 + metadata_len;
    assert!(proof[payload] < 128, "a one-byte length");
    let nimber_at = payload + 1 + usize::from(proof[payload]);
    let mut bad = proof.to_vec();
    assert!(bad[nimber_at] < 127, "a one-byte nimber");
    bad[nimber_at] += 1;
    let out = grundy_bytes(&["proof", "check", "-"], &with_payload_crc(bad));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(out.stdout.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: - is not a valid proof: claim 1 of "),
        "{err}"
    );
    err
}

/// A table file with any metadata bytes (no check of what they say, so
/// that hostile parameters can be written), checksums right.
pub fn raw_table(kind: sg_tables::format::TableKind, metadata: &[u8], payload: &[u8]) -> Vec<u8> {
    let offset = (64 + metadata.len()).div_ceil(64) * 64;
    let header = sg_tables::format::Header {
        version: 1,
        kind,
        metadata_len: metadata.len() as u32,
        payload_offset: offset as u64,
        payload_len: payload.len() as u64,
        payload_crc: crc32fast::hash(payload),
        metadata_crc: crc32fast::hash(metadata),
    };
    let mut file = header.to_bytes().to_vec();
    file.extend_from_slice(metadata);
    file.resize(offset, 0);
    file.extend_from_slice(payload);
    file
}

/// A postcard varint.
pub fn varint(mut n: u64, out: &mut Vec<u8>) {
    while n >= 0x80 {
        out.push((n as u8 & 0x7f) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Sends the signal `SIGname` (`"INT"`, `"KILL"`, ...) to `child`.
pub fn signal(child: &std::process::Child, name: &str) {
    let sent = std::process::Command::new("kill")
        .arg(format!("-{name}"))
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(sent.success(), "kill -{name} {}", child.id());
}

/// A catalogue of every game of the compiled-in one up to heap 256 (its
/// check takes a fraction of the compiled-in one's second), in a folder
/// removed when the guard drops.
pub fn small_catalogue() -> (tempfile::TempDir, String) {
    use sg_tables::format::{Game, Metadata, encode};
    use sg_tables::octal::{
        CATALOGUE_GAMES, CatalogueEntry, catalogue_digits, catalogue_rules, encode_catalogue,
    };
    let entries: Vec<CatalogueEntry> = (0..CATALOGUE_GAMES)
        .map(|index| {
            let rules = catalogue_rules(catalogue_digits(index));
            let mut sequence = sg_octal::Sequence::new(rules);
            sequence.extend_to(256, &mut |_| {}).unwrap();
            CatalogueEntry::from_sequence(&sequence)
        })
        .collect();
    let records = encode_catalogue(&entries);
    let metadata = Metadata {
        game: Game::OctalCatalogue {
            limit: 256,
            games: CATALOGUE_GAMES,
            len: records.len() as u64,
        },
        generator: "test".into(),
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("octal-catalogue.sgt");
    std::fs::write(&path, encode(&metadata, &records).unwrap()).unwrap();
    let path = path.to_str().unwrap().to_owned();
    (dir, path)
}
