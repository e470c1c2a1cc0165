//! `cargo xtask results`: the catalogue of values grundy has settled
//! (`data/results.tsv`, one row per value, and its table in
//! `docs/RESULTS.md`), each with a certificate that two checkers confirm:
//! `sg_search::proof::check` (the library behind `grundy proof check`)
//! and `checker/grundy_proof_check.py`, written apart from it in Python.
//!
//! - `--verify` (CI): every certificate kept in the repository
//!   (`data/certificates/*.proof.gz`) is the one the catalogue names (its
//!   SHA-256, size and claims) and proves the catalogue's value by both
//!   checkers; the table of `docs/RESULTS.md` is the one the catalogue
//!   makes.
//! - `--compute`: runs each row's command (`grundy ... --proof FILE`,
//!   one thread) with the release build, measures its time and peak
//!   memory, checks the certificate it writes with both checkers and
//!   compares the value; `--write` then stores the figures, the
//!   certificates kept in the repository, and the table.
//!
//! A certificate is the same file for the same command and the same
//! grundy (the search on one thread is deterministic); another version of
//! the search may write another certificate of the same value, which
//! `--compute` reports and `--write` records.

use anyhow::{Context, Result, bail, ensure};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The catalogue, relative to the workspace.
const CATALOGUE: &str = "data/results.tsv";
/// The document whose table the catalogue makes.
const DOCUMENT: &str = "docs/RESULTS.md";
/// The marks around the generated table in the document.
const BEGIN: &str = "<!-- The table below is written by `cargo xtask results --compute --write` from data/results.tsv: do not edit it. -->";
const END: &str = "<!-- End of the generated table. -->";
/// The columns of the catalogue.
const COLUMNS: [&str; 13] = [
    "id",
    "game",
    "position",
    "value",
    "published",
    "command",
    "certificate",
    "claims",
    "bytes",
    "sha256",
    "seconds",
    "peak_mib",
    "cpu",
];

/// A row of the catalogue.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Row {
    pub(crate) id: String,
    pub(crate) game: String,
    pub(crate) position: String,
    pub(crate) value: u32,
    /// Where the value was published before, or `new`.
    pub(crate) published: String,
    /// The command, `FILE` standing for the certificate.
    pub(crate) command: String,
    /// `data/certificates/ID.proof.gz`, or `regenerate` for one too large
    /// to keep.
    pub(crate) certificate: String,
    pub(crate) claims: u64,
    pub(crate) bytes: u64,
    pub(crate) sha256: String,
    pub(crate) seconds: f64,
    pub(crate) peak_mib: f64,
    pub(crate) cpu: String,
}

impl Row {
    fn kept(&self) -> bool {
        self.certificate != "regenerate"
    }

    fn to_line(&self) -> String {
        [
            self.id.clone(),
            self.game.clone(),
            self.position.clone(),
            self.value.to_string(),
            self.published.clone(),
            self.command.clone(),
            self.certificate.clone(),
            self.claims.to_string(),
            self.bytes.to_string(),
            self.sha256.clone(),
            format!("{:.2}", self.seconds),
            format!("{:.1}", self.peak_mib),
            self.cpu.clone(),
        ]
        .join("\t")
    }
}

/// The rows of the catalogue's text.
pub(crate) fn parse(text: &str) -> Result<Vec<Row>> {
    let mut lines = text.lines().enumerate();
    let (_, header) = lines.next().context("the catalogue is empty")?;
    ensure!(
        header.split('\t').eq(COLUMNS),
        "the catalogue's header is not {}",
        COLUMNS.join(" ")
    );
    let mut rows: Vec<Row> = Vec::new();
    for (index, line) in lines {
        let at = || format!("{CATALOGUE}, line {}", index + 1);
        let fields: Vec<&str> = line.split('\t').collect();
        ensure!(
            fields.len() == COLUMNS.len(),
            "{}: {} fields, not {}",
            at(),
            fields.len(),
            COLUMNS.len()
        );
        let number = |i: usize| -> Result<f64> {
            fields[i]
                .parse()
                .with_context(|| format!("{}: {} is not a number", at(), COLUMNS[i]))
        };
        let row = Row {
            id: fields[0].to_owned(),
            game: fields[1].to_owned(),
            position: fields[2].to_owned(),
            value: fields[3]
                .parse()
                .with_context(|| format!("{}: value", at()))?,
            published: fields[4].to_owned(),
            command: fields[5].to_owned(),
            certificate: fields[6].to_owned(),
            claims: fields[7]
                .parse()
                .with_context(|| format!("{}: claims", at()))?,
            bytes: fields[8]
                .parse()
                .with_context(|| format!("{}: bytes", at()))?,
            sha256: fields[9].to_owned(),
            seconds: number(10)?,
            peak_mib: number(11)?,
            cpu: fields[12].to_owned(),
        };
        ensure!(
            row.command.starts_with("grundy ") && row.command.contains(" FILE"),
            "{}: the command must be `grundy ... FILE`",
            at()
        );
        ensure!(
            !rows.iter().any(|r| r.id == row.id),
            "{}: the id {} is listed twice",
            at(),
            row.id
        );
        if row.kept() {
            ensure!(
                row.certificate == format!("data/certificates/{}.proof.gz", row.id),
                "{}: a kept certificate is data/certificates/ID.proof.gz",
                at()
            );
        }
        rows.push(row);
    }
    Ok(rows)
}

/// The catalogue's text for `rows`.
fn render(rows: &[Row]) -> String {
    let mut out = COLUMNS.join("\t");
    out.push('\n');
    for row in rows {
        out.push_str(&row.to_line());
        out.push('\n');
    }
    out
}

/// The table of the document for `rows`.
pub(crate) fn table(rows: &[Row]) -> String {
    let mut out = String::new();
    out.push_str("| game | position | value | published before | certificate | claims | time | peak memory |\n");
    out.push_str("|---|---|---:|---|---|---:|---:|---:|\n");
    for row in rows {
        let certificate = if row.kept() {
            format!(
                "[kept](../{}) ({} KB)",
                row.certificate,
                row.bytes.div_ceil(1000)
            )
        } else {
            format!("regenerated ({} KB)", row.bytes.div_ceil(1000))
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {:.2} s | {:.0} MiB |",
            row.game,
            row.position,
            row.value,
            if row.published == "new" {
                "**new**"
            } else {
                &row.published
            },
            certificate,
            row.claims,
            row.seconds,
            row.peak_mib.max(1.0),
        );
    }
    out
}

/// The document with its generated table replaced by `table`.
fn with_table(document: &str, table: &str) -> Result<String> {
    let begin = document
        .find(BEGIN)
        .context("docs/RESULTS.md lacks the table's first mark")?;
    let end = document
        .find(END)
        .context("docs/RESULTS.md lacks the table's last mark")?;
    ensure!(begin < end, "docs/RESULTS.md's marks are out of order");
    Ok(format!(
        "{}{BEGIN}\n\n{table}\n{}",
        &document[..begin],
        &document[end..]
    ))
}

/// The workspace's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn gunzip(path: &Path) -> Result<Vec<u8>> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(file)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot decompress {}", path.display()))?;
    Ok(bytes)
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).expect("compressing to memory");
    encoder.finish().expect("compressing to memory")
}

/// What `checker/grundy_proof_check.py` says of `files`: the nimber of
/// each, in order; an error when it refuses one or cannot run. The files
/// are shared among as many processes as there are CPUs.
fn python_nimbers(python: &str, files: &[PathBuf]) -> Result<Vec<u32>> {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = files.len().div_ceil(cpus).max(1);
    let script = root().join("checker/grundy_proof_check.py");
    let children = files
        .chunks(chunk)
        .map(|part| {
            Command::new(python)
                .arg(&script)
                .args(part)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .with_context(|| format!("cannot run {python} (the second checker needs Python 3)"))
        })
        .collect::<Result<Vec<_>>>()?;
    let mut nimbers = Vec::new();
    for child in children {
        nimbers.extend(python_output(child.wait_with_output()?)?);
    }
    Ok(nimbers)
}

/// The nimbers one run of the second checker printed.
fn python_output(out: std::process::Output) -> Result<Vec<u32>> {
    let stdout = String::from_utf8_lossy(&out.stdout);
    ensure!(
        out.status.success(),
        "the second checker refuses: {}{}",
        stdout,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
        .lines()
        .map(|line| {
            let nimber = line
                .rsplit_once(": nimber ")
                .and_then(|(_, rest)| rest.split(' ').next())
                .with_context(|| format!("the second checker printed {line:?}"))?;
            Ok(nimber.parse()?)
        })
        .collect()
}

/// Checks `bytes` with the library's checker, as a certificate of the
/// game of `row` (a certificate of another game, or of another grid, is
/// refused): (nimber, claims).
fn rust_check(bytes: &[u8], row: &Row) -> Result<(u32, u64)> {
    use sg_search::bits::U256;
    use sg_search::games::node_kayles::NodeKayles;
    use sg_search::proof::check_game;
    let (rows, cols) = grid_of(row)?;
    let vertices = rows * cols;
    let checked = if vertices <= 64 {
        check_game(bytes, Some(&NodeKayles::<u64>::grid(rows, cols)?))
    } else if vertices <= 128 {
        check_game(bytes, Some(&NodeKayles::<u128>::grid(rows, cols)?))
    } else {
        check_game(bytes, Some(&NodeKayles::<U256>::grid(rows, cols)?))
    }
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok((checked.nimber, checked.claims))
}

/// The grid of a row: the catalogue holds Node-Kayles on `RxC grid`s.
fn grid_of(row: &Row) -> Result<(u32, u32)> {
    let grid = (row.game == "node-kayles")
        .then(|| row.position.strip_suffix(" grid")?.split_once('x'))
        .flatten()
        .and_then(|(r, c)| Some((r.parse::<u32>().ok()?, c.parse::<u32>().ok()?)))
        .filter(|&(r, c)| r > 0 && c > 0 && u64::from(r) * u64::from(c) <= 256);
    grid.with_context(|| {
        format!(
            "{}: {} on {:?} is not a game the catalogue checks (node-kayles on an RxC grid)",
            row.id, row.game, row.position
        )
    })
}

/// The options of the task.
pub(crate) struct Options {
    pub(crate) verify: bool,
    pub(crate) compute: bool,
    pub(crate) write: bool,
    pub(crate) only: Vec<String>,
    pub(crate) grundy: Option<PathBuf>,
    pub(crate) python: String,
    pub(crate) timeout: Option<u64>,
}

pub(crate) fn run(options: &Options) -> Result<()> {
    let root = root();
    let text = std::fs::read_to_string(root.join(CATALOGUE))
        .with_context(|| format!("cannot read {CATALOGUE}"))?;
    let mut rows = parse(&text)?;
    for id in &options.only {
        ensure!(
            rows.iter().any(|r| &r.id == id),
            "no row {id} in {CATALOGUE}"
        );
    }
    let selected = |row: &Row| options.only.is_empty() || options.only.contains(&row.id);
    if options.verify {
        verify(&root, &rows, &options.python, &selected)?;
    }
    if options.compute {
        let grundy = match &options.grundy {
            Some(path) => path.clone(),
            None => build_grundy(&root)?,
        };
        for index in 0..rows.len() {
            if !selected(&rows[index]) {
                continue;
            }
            compute(&root, &mut rows[index], &grundy, options)?;
            if options.write {
                // After each row: a long run stopped keeps what it did.
                write_atomically(&root.join(CATALOGUE), render(&rows).as_bytes())?;
            }
        }
    }
    if options.write {
        write_atomically(&root.join(CATALOGUE), render(&rows).as_bytes())?;
        let document = std::fs::read_to_string(root.join(DOCUMENT))?;
        write_atomically(
            &root.join(DOCUMENT),
            with_table(&document, &table(&rows))?.as_bytes(),
        )?;
        println!("wrote {CATALOGUE} and the table of {DOCUMENT}");
    }
    Ok(())
}

/// Writes `path` through a temporary file in its folder, renamed.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().context("a file in a folder")?;
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    file.write_all(bytes)?;
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// The checks of `--verify`.
fn verify(root: &Path, rows: &[Row], python: &str, selected: &dyn Fn(&Row) -> bool) -> Result<()> {
    let document = std::fs::read_to_string(root.join(DOCUMENT))?;
    ensure!(
        with_table(&document, &table(rows))? == document,
        "the table of {DOCUMENT} is not the catalogue's: run cargo xtask results --write (which writes it from {CATALOGUE})"
    );
    let kept: Vec<&Row> = rows.iter().filter(|r| r.kept() && selected(r)).collect();
    let mut files = Vec::new();
    for row in &kept {
        let path = root.join(&row.certificate);
        let bytes = gunzip(&path)?;
        ensure!(
            bytes.len() as u64 == row.bytes,
            "{}: {} bytes, the catalogue says {}",
            row.id,
            bytes.len(),
            row.bytes
        );
        ensure!(
            sha256_hex(&bytes) == row.sha256,
            "{}: its SHA-256 is not the catalogue's",
            row.id
        );
        let (nimber, claims) = rust_check(&bytes, row)
            .with_context(|| format!("{}: grundy's checker refuses it", row.id))?;
        ensure!(
            nimber == row.value,
            "{}: the certificate proves {nimber}, the catalogue says {}",
            row.id,
            row.value
        );
        ensure!(
            claims == row.claims,
            "{}: {claims} claims, the catalogue says {}",
            row.id,
            row.claims
        );
        files.push(path);
    }
    let started = Instant::now();
    let nimbers = python_nimbers(python, &files)?;
    for (row, nimber) in kept.iter().zip(&nimbers) {
        ensure!(
            *nimber == row.value,
            "{}: the second checker finds {nimber}, the catalogue says {}",
            row.id,
            row.value
        );
    }
    println!(
        "{} kept certificates of {} values confirmed by both checkers (the second in {:.1} s); {} more are regenerated by --compute",
        kept.len(),
        rows.len(),
        started.elapsed().as_secs_f64(),
        rows.iter().filter(|r| !r.kept()).count()
    );
    Ok(())
}

/// Builds the release `grundy` and returns its path.
fn build_grundy(root: &Path) -> Result<PathBuf> {
    let status = Command::new(env!("CARGO"))
        .args(["build", "--release", "--locked", "-p", "sg-solve"])
        .current_dir(root)
        .status()?;
    ensure!(status.success(), "cargo build --release -p sg-solve failed");
    Ok(root.join("target/release/grundy"))
}

/// Runs `row`'s command, checks its certificate and updates the row's
/// figures.
fn compute(root: &Path, row: &mut Row, grundy: &Path, options: &Options) -> Result<()> {
    let dir = tempfile::tempdir()?;
    let file = dir.path().join(format!("{}.proof", row.id));
    let args: Vec<String> = row
        .command
        .split_whitespace()
        .skip(1)
        .map(|word| {
            if word == "FILE" {
                file.display().to_string()
            } else {
                word.to_owned()
            }
        })
        .collect();
    let measured = measure(grundy, &args, options.timeout)?;
    ensure!(measured.success, "{}: `{}` failed", row.id, row.command);
    let bytes =
        std::fs::read(&file).with_context(|| format!("{}: no certificate written", row.id))?;
    let (nimber, claims) = rust_check(&bytes, row)
        .with_context(|| format!("{}: grundy's checker refuses it", row.id))?;
    let python = python_nimbers(&options.python, std::slice::from_ref(&file))?;
    ensure!(
        python == [nimber],
        "{}: the second checker finds {python:?}, grundy's {nimber}",
        row.id
    );
    if nimber != row.value {
        bail!(
            "{}: computed {nimber}, the catalogue says {}",
            row.id,
            row.value
        );
    }
    let sha = sha256_hex(&bytes);
    let same = if sha == row.sha256 {
        "the same certificate"
    } else {
        "another certificate"
    };
    println!(
        "{}: {} = {nimber} in {:.2} s, {:.1} MiB, {claims} claims, {} bytes ({same}), both checkers agree",
        row.id,
        row.position,
        measured.seconds,
        measured.peak_mib,
        bytes.len()
    );
    if options.write {
        row.claims = claims;
        row.bytes = bytes.len() as u64;
        row.sha256 = sha;
        row.seconds = measured.seconds;
        row.peak_mib = measured.peak_mib;
        row.cpu = cpu_name();
        if row.kept() {
            let path = root.join(&row.certificate);
            std::fs::create_dir_all(path.parent().expect("data/certificates"))?;
            write_atomically(&path, &gzip(&bytes))?;
        }
    }
    Ok(())
}

/// A command's time and peak memory.
struct Measured {
    success: bool,
    seconds: f64,
    peak_mib: f64,
}

/// Runs `grundy args` in a child of a child of this process, so that the
/// child's resource usage of its children (`getrusage(RUSAGE_CHILDREN)`)
/// is that one command's (see [`run_one`]).
fn measure(grundy: &Path, args: &[String], timeout: Option<u64>) -> Result<Measured> {
    let mut command = Command::new(std::env::current_exe()?);
    command.arg("results-run-one");
    if let Some(seconds) = timeout {
        command.args(["--timeout", &seconds.to_string()]);
    }
    let out = command.arg("--").arg(grundy).args(args).output()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .last()
        .context("the measuring child printed nothing")?;
    let fields: Vec<&str> = line.split_whitespace().collect();
    ensure!(fields.len() == 3, "the measuring child printed {line:?}");
    Ok(Measured {
        success: fields[0] == "ok",
        seconds: fields[1].parse()?,
        peak_mib: fields[2].parse::<f64>()? / 1024.0,
    })
}

/// `cargo xtask results-run-one -- COMMAND...`: runs the command, then
/// prints `ok|failed SECONDS PEAK_KIB` (its wall time and its peak
/// resident memory). A command past `timeout` seconds is killed.
pub(crate) fn run_one(command: &[String], timeout: Option<u64>) -> Result<()> {
    let (program, args) = command.split_first().context("no command")?;
    let started = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .stdout(std::process::Stdio::null())
        .spawn()?;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if timeout.is_some_and(|t| started.elapsed().as_secs() >= t) {
            child.kill()?;
            break child.wait()?;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let seconds = started.elapsed().as_secs_f64();
    // SAFETY: getrusage writes the struct it is given, which a zeroed
    // `rusage` is (plain integers); RUSAGE_CHILDREN is a valid target.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    println!(
        "{} {seconds:.3} {}",
        if status.success() { "ok" } else { "failed" },
        usage.ru_maxrss
    );
    Ok(())
}

/// The CPU's model as /proc/cpuinfo names it, with whether it has
/// AVX-512 (`?` where it cannot be read).
fn cpu_name() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = info
        .lines()
        .find_map(|l| {
            l.strip_prefix("model name")
                .map(|m| m.trim_start_matches([' ', '\t', ':']).trim().to_owned())
        })
        .unwrap_or_else(|| "?".to_owned());
    let avx512 = info
        .lines()
        .any(|l| l.starts_with("flags") && l.split_whitespace().any(|f| f == "avx512f"));
    format!("{model}, {}", if avx512 { "AVX-512" } else { "no AVX-512" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_reads_back_and_its_table_is_the_documents() {
        let text = std::fs::read_to_string(root().join(CATALOGUE)).unwrap();
        let rows = parse(&text).unwrap();
        assert!(!rows.is_empty());
        assert_eq!(render(&rows), text);
        let document = std::fs::read_to_string(root().join(DOCUMENT)).unwrap();
        assert_eq!(with_table(&document, &table(&rows)).unwrap(), document);
    }

    #[test]
    fn bad_catalogues_are_refused() {
        let header = COLUMNS.join("\t");
        let good = "nk-3x1\tnode-kayles\t3x1 grid\t2\tOEIS A316632\tgrundy node-kayles --grid 3x1 --proof FILE\tdata/certificates/nk-3x1.proof.gz\t0\t64\tab\t0.01\t2.0\tcpu";
        assert!(parse(&format!("{header}\n{good}\n")).is_ok());
        for bad in [
            good.replace("\t2\tOEIS", "\ttwo\tOEIS"),
            good.replace("--proof FILE", "--proof out.proof"),
            good.replace("nk-3x1.proof.gz", "other.proof.gz"),
            good.replace("\tcpu", ""),
            format!("{good}\n{good}"),
        ] {
            assert!(parse(&format!("{header}\n{bad}\n")).is_err(), "{bad}");
        }
        assert!(parse("id\tgame\n").is_err());
    }

    /// A certificate is checked as one of its row's grid: the certificate
    /// of 3 x 18 passes for its row, not for 3 x 17's.
    #[test]
    fn a_certificate_of_another_grid_is_refused() {
        let root = root();
        let rows = parse(&std::fs::read_to_string(root.join(CATALOGUE)).unwrap()).unwrap();
        let row = |id: &str| rows.iter().find(|r| r.id == id).unwrap();
        let bytes = gunzip(&root.join(&row("nk-3x18").certificate)).unwrap();
        assert_eq!(
            rust_check(&bytes, row("nk-3x18")).unwrap().0,
            row("nk-3x18").value
        );
        let e = format!("{:#}", rust_check(&bytes, row("nk-3x17")).unwrap_err());
        assert!(e.contains("not node-kayles, 51 vertices"), "{e}");
        let mut cram = row("nk-3x18").clone();
        cram.game = "cram".to_owned();
        assert!(rust_check(&bytes, &cram).is_err());
    }
}
