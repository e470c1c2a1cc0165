//! The files a user names (`octal --out`, `knight --png`, `row --png`,
//! `cram --proof`),
//! through the real binary: checked before any work, refused with exit
//! status 2 unless they are regular files that can be written (or new
//! files in a folder that can be written), and always either the old file
//! or the complete new one: failures and signals leave no temporary file,
//! and no file of the user's is ever touched but the one named.

#![cfg(unix)]

use crate::common::Bounded;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn grundy() -> Command {
    crate::common::grundy_command()
}

fn run(args: &[&str]) -> Output {
    grundy()
        .args(args)
        .stdin(Stdio::null())
        .bounded_output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Asserts exit status 2 and one line `error: cannot write PATH: WHY`
/// with `why` in it.
fn refused(out: &Output, why: &str) {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(stderr.contains(why), "{why}: {stderr}");
    assert!(
        out.stdout.is_empty(),
        "nothing computed: {}",
        text(&out.stdout)
    );
}

/// The commands that write `path`: a table, two pictures and proofs.
fn writers(path: &str) -> Vec<Vec<String>> {
    let args = |list: &[&str]| list.iter().map(|s| s.to_string()).collect();
    vec![
        args(&["octal", ".6", "--to", "300", "--online", "--out", path]),
        args(&["knight", "--grid", "0..20", "0..20", "--png", path]),
        args(&["row", "--grid", "--width", "6", "--png", path]),
        args(&["cram", "3x3", "--proof", path]),
        args(&["chomp", "3x4", "--proof", path]),
    ]
}

fn run_strings(args: &[String]) -> Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&args)
}

#[test]
fn targets_that_are_not_writable_regular_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);
    fs::write(at("read-only.sgt"), b"the user's").unwrap();
    fs::set_permissions(at("read-only.sgt"), fs::Permissions::from_mode(0o444)).unwrap();
    std::os::unix::fs::symlink("read-only.sgt", at("link.sgt")).unwrap();
    std::os::unix::fs::symlink("nowhere.sgt", at("dangling.sgt")).unwrap();
    fs::create_dir(at("folder.sgt")).unwrap();
    let fifo = crate::common::command("mkfifo")
        .arg(at("fifo.sgt"))
        .bounded_status()
        .unwrap();
    assert!(fifo.success());
    // A copy of /dev/null where the test may make one (as root); elsewhere
    // /dev/null itself, which a process that cannot make device nodes
    // cannot replace either.
    let made = crate::common::command("mknod")
        .arg(at("null.sgt"))
        .args(["c", "1", "3"])
        .stderr(Stdio::null())
        .bounded_status()
        .is_ok_and(|s| s.success());
    let device = if made {
        at("null.sgt")
    } else {
        PathBuf::from("/dev/null")
    };
    let cases: [(PathBuf, &str); 8] = [
        (at("read-only.sgt"), "it is read-only"),
        (at("link.sgt"), "it is a symbolic link"),
        (at("dangling.sgt"), "it is a symbolic link"),
        (at("folder.sgt"), "it is a folder"),
        (at("fifo.sgt"), "it is a FIFO, not a regular file"),
        (device.clone(), "it is a device, not a regular file"),
        (at("missing/new.sgt"), "does not exist"),
        (at("read-only.sgt/new.sgt"), "is not a folder"),
    ];
    let before = names(dir.path());
    for (path, why) in &cases {
        for args in writers(path.to_str().unwrap()) {
            refused(&run_strings(&args), why);
        }
    }
    // Nothing changed: the same names, kinds, contents and mode.
    assert_eq!(names(dir.path()), before);
    assert_eq!(fs::read(at("read-only.sgt")).unwrap(), b"the user's");
    let mode = fs::metadata(at("read-only.sgt"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o444);
    assert!(fs::symlink_metadata(at("link.sgt")).unwrap().is_symlink());
    assert!(
        fs::symlink_metadata(at("dangling.sgt"))
            .unwrap()
            .is_symlink()
    );
    use std::os::unix::fs::FileTypeExt;
    assert!(fs::metadata(at("fifo.sgt")).unwrap().file_type().is_fifo());
    assert!(fs::metadata(&device).unwrap().file_type().is_char_device());
    // A folder that cannot be written (where permissions apply: not root).
    let locked = at("locked");
    fs::create_dir(&locked).unwrap();
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o555)).unwrap();
    if fs::write(locked.join("probe"), b"").is_err() {
        let path = locked.join("new.sgt");
        for args in writers(path.to_str().unwrap()) {
            refused(&run_strings(&args), "is not writable");
        }
    }
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn a_picture_too_large_is_refused_before_the_file_is_touched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("precious.png");
    fs::write(&path, b"the user's picture").unwrap();
    let png = path.to_str().unwrap();
    let cases: [(&[&str], &str); 4] = [
        (
            &[
                "knight", "--grid", "0..4096", "0..4096", "--png", png, "--scale", "8",
            ],
            "a picture of 32768 x 32768 pixels",
        ),
        (
            &[
                "row", "--grid", "--width", "24", "--png", png, "--scale", "5",
            ],
            "a picture of 20480 x 20480 pixels",
        ),
        // Too large a grid, with or without a picture.
        (
            &["knight", "--grid", "0..4097", "0..2", "--png", png],
            "a grid of 4097 x 2 cells",
        ),
        (
            &["knight", "--grid", "0..2", "5..5000"],
            "a grid of 2 x 4995 cells",
        ),
    ];
    for (args, why) in cases {
        let started = Instant::now();
        let out = run(args);
        refused(&out, why);
        // Refused at once, before the values are computed.
        assert!(started.elapsed() < Duration::from_secs(20), "{args:?}");
        assert_eq!(fs::read(&path).unwrap(), b"the user's picture");
    }
    assert_eq!(names(dir.path()), ["precious.png"]);
}

/// The temporary files of writes of `name` in `dir` (`.NAME.XXXXXX.tmp`).
fn temporaries(dir: &Path, name: &str) -> Vec<String> {
    names(dir)
        .into_iter()
        .filter(|n| n.starts_with(&format!(".{name}.")) && n.ends_with(".tmp"))
        .collect()
}

/// Starts a picture that takes seconds to encode into `dir/picture.png`,
/// and waits until its temporary file is there.
fn start_a_long_picture(dir: &Path) -> std::process::Child {
    let path = dir.join("picture.png");
    let child = grundy()
        .args([
            "knight", "--grid", "0..4096", "0..4096", "--scale", "4", "--png",
        ])
        .arg(&path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while temporaries(dir, "picture.png").is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no temporary file"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    child
}

#[test]
fn a_signal_during_a_write_leaves_the_old_file_and_no_temporary() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("picture.png");
    fs::write(&path, b"the old picture").unwrap();
    fs::write(dir.path().join("picture.png.tmp"), b"the user's").unwrap();
    for (name, number) in [("INT", 2), ("TERM", 15), ("HUP", 1)] {
        let child = start_a_long_picture(dir.path());
        crate::common::signal(&child, name);
        let status = crate::common::finish(child, "a picture stopped").status;
        assert_eq!(status.signal(), Some(number), "SIG{name}: {status:?}");
        assert_eq!(fs::read(&path).unwrap(), b"the old picture", "SIG{name}");
        assert_eq!(names(dir.path()), ["picture.png", "picture.png.tmp"]);
    }
    // SIGKILL cannot be caught: its temporary file stays, under a name that
    // no later write takes for anything; the user's files are untouched.
    let child = start_a_long_picture(dir.path());
    crate::common::signal(&child, "KILL");
    crate::common::finish(child, "a picture killed");
    let left = temporaries(dir.path(), "picture.png");
    assert_eq!(left.len(), 1, "{left:?}");
    assert_eq!(fs::read(&path).unwrap(), b"the old picture");
    let out = run(&[
        "knight",
        "--grid",
        "0..8",
        "0..8",
        "--png",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(fs::read(&path).unwrap().starts_with(b"\x89PNG"));
    assert_eq!(temporaries(dir.path(), "picture.png"), left);
    assert_eq!(
        fs::read(dir.path().join("picture.png.tmp")).unwrap(),
        b"the user's"
    );
}

/// Runs `grundy ARGS` with writes of more than about 4 KiB failing with
/// "File too large" (`ulimit -f`, with `SIGXFSZ` ignored), as on a full
/// disk.
fn run_with_little_space(args: &[&str]) -> Output {
    let script = "trap '' XFSZ; ulimit -f 8 && exec \"$0\" \"$@\"";
    crate::common::command("sh")
        .arg("-c")
        .arg(script)
        .arg(assert_cmd::cargo::cargo_bin("grundy"))
        .args(args)
        .stdin(Stdio::null())
        .bounded_output()
        .unwrap()
}

#[test]
fn a_failed_write_keeps_the_old_file_and_leaves_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("run.sgt");
    let picture = dir.path().join("run.png");
    let proof = dir.path().join("run.proof");
    let (table_arg, picture_arg) = (table.to_str().unwrap(), picture.to_str().unwrap());
    let proof_arg = proof.to_str().unwrap();
    for path in [&table, &picture, &proof] {
        fs::write(path, b"the old file").unwrap();
        fs::set_permissions(path, fs::Permissions::from_mode(0o600)).unwrap();
    }
    // The user's own FILE.tmp is never taken for a temporary file.
    fs::write(dir.path().join("run.sgt.tmp"), b"the user's").unwrap();
    for args in [
        &[
            "octal", ".6", "--to", "20000", "--online", "--out", table_arg,
        ][..],
        &["knight", "--grid", "0..800", "0..800", "--png", picture_arg],
        // A proof of 10 KB.
        &["cram", "3x9", "--proof", proof_arg],
    ] {
        let out = run_with_little_space(args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        // The cause, once.
        assert_eq!(stderr.matches("File too large").count(), 1, "{stderr}");
        assert!(stderr.starts_with("error: cannot write "), "{stderr}");
    }
    assert_eq!(
        names(dir.path()),
        ["run.png", "run.proof", "run.sgt", "run.sgt.tmp"]
    );
    for path in [&table, &picture, &proof] {
        assert_eq!(fs::read(path).unwrap(), b"the old file");
    }
    // With room, the new file replaces the old one with the old one's mode.
    let out = run(&["octal", ".6", "--to", "300", "--online", "--out", table_arg]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let info = run(&["tables", "verify", table_arg]);
    assert!(info.status.success(), "{}", text(&info.stdout));
    let mode = fs::metadata(&table).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    assert_eq!(
        fs::read(dir.path().join("run.sgt.tmp")).unwrap(),
        b"the user's"
    );
    assert_eq!(
        names(dir.path()),
        ["run.png", "run.proof", "run.sgt", "run.sgt.tmp"]
    );
}

/// A folder that refuses new files although it looks writable (sysfs and
/// procfs, even to root): the message names the user's file and the cause,
/// never the temporary file, and the exit status is 1 (a failed write).
#[test]
fn a_folder_that_refuses_new_files_names_the_users_file() {
    let Some(folder) = ["/sys/kernel", "/proc"].into_iter().find(|f| {
        let probe = Path::new(f).join("grundy-probe");
        match fs::File::create_new(&probe) {
            Ok(_) => {
                let _ = fs::remove_file(&probe);
                false
            }
            Err(_) => Path::new(f).is_dir(),
        }
    }) else {
        return;
    };
    let table = format!("{folder}/x.sgt");
    let proof = format!("{folder}/x.proof");
    for args in [
        &["octal", ".6", "--to", "100", "--out", table.as_str()][..],
        &["cram", "3x3", "--proof", proof.as_str()],
    ] {
        let out = run(args);
        let stderr = text(&out.stderr);
        let target = args.last().unwrap();
        assert_ne!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.contains(target), "{args:?}: {stderr}");
        assert!(!stderr.contains(".tmp"), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}
