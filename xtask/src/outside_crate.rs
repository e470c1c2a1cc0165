//! `cargo xtask outside-crate`: builds a crate outside the workspace that
//! depends on the library crates as a user's crate does, on the packaged
//! crates rather than on the workspace's sources.
//!
//! 1. `cargo package --no-verify --offline` of the published crates.
//! 2. Their `.crate` files unpacked into a new temporary folder, and
//!    checked there as one workspace with all their targets (`cargo check
//!    --workspace --all-targets`: tests, examples and benches compile from
//!    the packaged files alone; `cargo package` verifies the library and
//!    binaries only), their dependencies on one another patched to the
//!    unpacked ones. Not cargo's own verification: that builds the unpacked copy cargo keeps from an
//!    earlier run of the same version (`~/.cargo/registry/src/-HASH/`), so
//!    a change made since would go unseen.
//! 3. A small crate beside them that depends on `sg-core`, `sg-octal`,
//!    `sg-search` and `sg-tables` by version, with `[patch.crates-io]` pointing at the unpacked crates
//!    (what a user gets from crates.io), built and run (offline, on the
//!    workspace's lock file): it computes a few values through the
//!    libraries and reads a table file of the workspace's `data/`; its
//!    output must be the expected one.

use anyhow::{Context, Result, bail, ensure};
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The crates that `cargo package` packages, each after those it depends on.
const PUBLISHED: [&str; 8] = [
    "sg-text",
    "sg-nimber",
    "sg-files",
    "sg-core",
    "sg-octal",
    "sg-search",
    "sg-tables",
    "sg-solve",
];

/// The crates the outside crate depends on.
const DEPENDENCIES: [&str; 4] = ["sg-core", "sg-octal", "sg-search", "sg-tables"];

/// The version of the workspace's crates (xtask shares it).
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The outside crate's program: the first things a user writes.
const MAIN_RS: &str = r#"//! A user's program: values through sg-core, sg-octal, sg-search and sg-tables.

use sg_core::knight::{MoveSet, TriangleTable};
use sg_core::row::{row_from_columns, row_grundy};
use sg_core::{Graph, Outcome, generalized_grundy};
use sg_search::Solver;
use sg_search::games::cram::Cram;
use sg_tables::{
    embedded_cram_endgame, embedded_knight_pattern, embedded_knight_table, embedded_row_table,
};
use std::sync::Arc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let row = row_from_columns(20, &[1, 19]).ok_or("not a row")?;
    let in_table = embedded_row_table().get(row).ok_or("not in the table")?;
    println!("row {row:#b}: closed form {}, table {in_table}", row_grundy(row));

    let mut knight = TriangleTable::new(MoveSet::hyper_knight(), 100);
    let by_definition = knight.value(2, 5)?;
    let in_table = embedded_knight_table().get(2, 5).ok_or("not in the table")?;
    let pattern = embedded_knight_pattern();
    println!(
        "knight (2, 5): definition {by_definition}, table {in_table}, pattern {}",
        pattern.value(2, 5)
    );
    println!("knight (2^62, 7): pattern {}", pattern.value(1 << 62, 7));

    let path = std::env::args().nth(1).ok_or("usage: outside-crate TABLE_FILE")?;
    let file = sg_tables::read_file(&path)?;
    let rows = file.table().row()?;
    println!("table file: width {}, row value {:?}", rows.width(), rows.get(row));

    let graph = Graph::from_edges(4, &[0, 1, 1, 3], &[1, 0, 2, 3])?;
    let values = generalized_grundy(&graph);
    let outcomes: Vec<&str> = [0, 1, 3]
        .iter()
        .map(|&node| match values.outcome(&[node]) {
            Outcome::Win => "WIN",
            Outcome::Lose => "LOSE",
            Outcome::Draw => "DRAW",
        })
        .collect();
    println!("graph: {}", outcomes.join(" "));

    let kayles = sg_octal::Rules::parse("kayles")?;
    let mut sequence = sg_octal::Sequence::new(kayles.clone());
    sequence.extend_to(11, &mut |_| {})?;
    let by_definition = sg_octal::grundy_by_definition(&kayles, 11)?;
    println!(
        "kayles: G(11) {:?}, definition {:?}",
        sequence.value(11),
        by_definition
    );

    let plain = Cram::<u64>::new(4, 5)?;
    let with_table = plain.clone().with_endgame(Arc::new(embedded_cram_endgame()));
    println!(
        "cram 4x5: nimber {}, with the endgame table {}",
        Solver::new(&plain).nimber(&plain.start())?,
        Solver::new(&with_table).nimber(&with_table.start())?
    );
    Ok(())
}
"#;

/// What the outside crate prints.
const EXPECTED: &str = "row 0b10000000000000000010: closed form 1, table 1
knight (2, 5): definition 3, table 3, pattern 3
knight (2^62, 7): pattern 3
table file: width 20, row value Some(1)
graph: LOSE WIN DRAW
kayles: G(11) Some(6), definition [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
cram 4x5: nimber 2, with the endgame table 2
";

/// The outside crate's manifest: dependencies by version, as from
/// crates.io, patched to the unpacked packages.
fn manifest() -> String {
    let mut text = String::from(
        "[package]\nname = \"outside-crate\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
         publish = false\n\n# Not a member of any workspace.\n[workspace]\n\n[dependencies]\n",
    );
    for name in DEPENDENCIES {
        text += &format!("{name} = \"{VERSION}\"\n");
    }
    // Every packaged library, those the dependencies depend on too.
    text += "\n";
    text += &patches("../vendor/", |name| name != "sg-solve");
    text
}

/// The `[patch.crates-io]` section that points each packaged crate
/// `wanted` at its unpacked folder `{folder}NAME-VERSION`.
fn patches(folder: &str, wanted: impl Fn(&str) -> bool) -> String {
    let mut text = String::from("[patch.crates-io]\n");
    for name in PUBLISHED.into_iter().filter(|name| wanted(name)) {
        text += &format!("{name} = {{ path = \"{folder}{name}-{VERSION}\" }}\n");
    }
    text
}

/// The manifest of the workspace of the unpacked packages `members`
/// (folders `NAME-VERSION`), each dependency among them patched to its
/// folder.
fn vendor_manifest(members: &[String]) -> String {
    let mut text = String::from(
        "# The packaged crates, unpacked (cargo xtask outside-crate).\n[workspace]\nresolver = \"3\"\nmembers = [\n",
    );
    for member in members {
        text += &format!("    {member:?},\n");
    }
    text += "]\n\n";
    text += &patches("", |_| true);
    text
}

/// Runs `cargo ARGS` in `dir`; fails with `what` if it does not succeed.
fn cargo(dir: &Path, args: &[&str], target_dir: &Path, what: &str) -> Result<Vec<u8>> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    eprintln!(
        "xtask outside-crate: cargo {} (in {})",
        args.join(" "),
        sg_text::shown_path(dir)
    );
    let output = Command::new(cargo)
        .current_dir(dir)
        .args(args)
        .env("CARGO_TARGET_DIR", target_dir)
        .stderr(std::process::Stdio::inherit())
        .output()
        .with_context(|| format!("cannot run cargo to {what}"))?;
    ensure!(output.status.success(), "cannot {what} ({})", output.status);
    Ok(output.stdout)
}

/// The workspace's target folder, as cargo sees it.
fn target_dir(root: &Path) -> Result<PathBuf> {
    let json = cargo(
        root,
        &[
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ],
        &std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from),
        "read the workspace's metadata",
    )?;
    let metadata: serde_json::Value = serde_json::from_slice(&json)?;
    metadata["target_directory"]
        .as_str()
        .map(PathBuf::from)
        .context("cargo metadata names no target directory")
}

/// Gives every file below `dir` the current time as its modification
/// time. `cargo package` stamps the files of a `.crate` with one fixed old
/// time, and the packages' builds share a target folder across runs: a
/// build of a package changed since an earlier run would look up to date
/// to cargo (its sources older than the earlier build) and not be rebuilt.
fn touch_tree(dir: &Path) -> Result<()> {
    let now = std::time::SystemTime::now();
    let mut pending = vec![dir.to_owned()];
    while let Some(dir) = pending.pop() {
        for entry in fs::read_dir(&dir)
            .with_context(|| format!("cannot read {}", sg_text::shown_path(&dir)))?
        {
            let path = entry?.path();
            if path.is_dir() {
                pending.push(path);
            } else {
                fs::File::options()
                    .write(true)
                    .open(&path)
                    .and_then(|file| file.set_modified(now))
                    .with_context(|| format!("cannot touch {}", sg_text::shown_path(&path)))?;
            }
        }
    }
    Ok(())
}

/// `cargo xtask outside-crate`: package, unpack, build and run.
pub(crate) fn run(keep: bool) -> Result<()> {
    let root = crate::tables::default_data_dir()
        .parent()
        .expect("data/ is in the workspace")
        .to_owned();
    let target = target_dir(&root)?;
    let mut package = vec!["package", "--no-verify", "--offline", "--allow-dirty"];
    for name in PUBLISHED {
        package.extend(["-p", name]);
    }
    cargo(&root, &package, &target, "package the library crates")?;

    // Removed when this function returns, on failure too, unless --keep.
    let temporary = tempfile::Builder::new()
        .prefix("grundy-outside-crate-")
        .tempdir()
        .context("cannot create a temporary folder")?;
    let result = build_and_run(&root, &target, temporary.path());
    let folder = if keep {
        let dir = temporary.keep();
        eprintln!("xtask outside-crate: kept {}", sg_text::shown_path(&dir));
        format!("kept in {}", sg_text::shown_path(&dir))
    } else {
        "--keep keeps its folder".to_owned()
    };
    result.with_context(|| format!("the outside crate failed ({folder})"))?;
    eprintln!("xtask outside-crate: the packaged crates build and work as dependencies");
    Ok(())
}

/// Unpacks and builds the packages of `target/package` in `dir`, then
/// builds and runs the outside crate there.
fn build_and_run(root: &Path, target: &Path, dir: &Path) -> Result<()> {
    let (vendor, user) = (dir.join("vendor"), dir.join("user"));
    fs::create_dir_all(user.join("src"))
        .and_then(|()| fs::create_dir_all(&vendor))
        .with_context(|| format!("cannot create {}", sg_text::shown_path(dir)))?;
    // The packages' own builds share a target folder across runs.
    let verify_target = target.join("outside-crate");
    let mut members = Vec::new();
    for name in PUBLISHED {
        let krate = target
            .join("package")
            .join(format!("{name}-{VERSION}.crate"));
        let status = Command::new("tar")
            .arg("-xzf")
            .arg(&krate)
            .arg("-C")
            .arg(&vendor)
            .status()
            .context("cannot run tar to unpack the packaged crates")?;
        ensure!(
            status.success(),
            "cannot unpack {}",
            sg_text::shown_path(&krate)
        );
        touch_tree(&vendor.join(format!("{name}-{VERSION}")))?;
        members.push(format!("{name}-{VERSION}"));
    }
    // All targets of every package, checked in one workspace of the
    // unpacked packages (their dependencies on one another patched to
    // them, the dependencies resolved and compiled once, on the
    // workspace's lock file): the packaged tests, examples and benches
    // compile from the packaged files alone. Checked, not built: the
    // libraries are built, and run, by the outside crate below; code
    // generation for every test and bench took minutes of CI for what the
    // workspace's own build already covers.
    fs::write(vendor.join("Cargo.toml"), vendor_manifest(&members))?;
    fs::copy(root.join("Cargo.lock"), vendor.join("Cargo.lock"))?;
    cargo(
        &vendor,
        &[
            "check",
            "--workspace",
            "--all-targets",
            "--offline",
            "--quiet",
        ],
        &verify_target,
        "check the packaged crates",
    )?;
    fs::write(user.join("Cargo.toml"), manifest())?;
    fs::write(user.join("src/main.rs"), MAIN_RS)?;
    // The workspace's versions of the dependencies, offline.
    fs::copy(root.join("Cargo.lock"), user.join("Cargo.lock"))?;

    let table = root.join("data/row20.sgt");
    let table = table.to_str().context("the workspace path is not UTF-8")?;
    let stdout = cargo(
        &user,
        &["run", "--offline", "--quiet", "--", table],
        &verify_target,
        "build and run the outside crate",
    )?;
    let stdout = String::from_utf8_lossy(&stdout);
    if stdout != EXPECTED {
        bail!("it printed\n{stdout}instead of\n{EXPECTED}");
    }
    print!("{stdout}");
    Ok(())
}
