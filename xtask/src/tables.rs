//! The `gen` and `bench` commands: which tables, their files and names,
//! writing, checking and timing.

use crate::Sizes;
use crate::embedded_copy;
use crate::manifest;
use crate::octal_md;
use crate::progress::Progress;
use crate::resources::{check_disk, check_memory};
use anyhow::{Context, Result, bail};
use rayon::ThreadPool;
use sg_core::knight::MoveSet;
use sg_core::knight_pattern::{SearchOptions, search};
use sg_files::safe_write::{leftover_temporaries, write_file};
use sg_tables::format::{Game, Header, Metadata, encode_prefix};
use sg_tables::generate::{
    self, NoProgress, cram_endgame, knight, knight_table, octal_catalogue, row_table,
};
use sg_tables::octal::{CATALOGUE_GAMES, OctalCatalogue, encode_catalogue};
use sg_tables::polyomino::FREE_POLYOMINOES;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The default largest heap of the octal catalogue: `cargo xtask gen
/// --check` must stay under a minute on 2 cores (dev profile), and the
/// catalogue takes about 6 s of CPU at this limit (measured with `time
/// cargo xtask gen`: 6.0 s user on 2 cores shared with other builds), and
/// 8192 took four times as long for 17 more games solved (693, not 676).
pub(crate) const OCTAL_LIMIT: u64 = 4096;

/// The default `K` of the Cram endgame table (every polyomino of at most
/// `K` cells). The file of 14 cells is 3 021 424 bytes (1 227 708
/// polyominoes, 19.7 bits each: a 4-bit nimber and a 12-bit fingerprint
/// in 1.23 slots) and takes about 2.7 s of CPU to make (`cargo xtask bench
/// --only cram --cram-cells K`, dev profile); 13 cells would be 802 494
/// bytes, 15 cells 11 450 882 bytes and about 16 s, 16 cells 43 625 928
/// bytes, 60 s and 1.3 GB, for at most 10% to 15% less time in the
/// search of 5 x 7, 5 x 8 and 4 x 11 (docs/TABLES.md).
pub(crate) const CRAM_CELLS: u32 = 14;

/// The file name of the Cram endgame table.
const CRAM_ENDGAME_FILE: &str = "cram-endgame.sgt";

/// The file name of the octal catalogue.
const OCTAL_CATALOGUE_FILE: &str = "octal-catalogue.sgt";

/// The generator named in every table's metadata.
const GENERATOR: &str = concat!("xtask ", env!("CARGO_PKG_VERSION"));

/// `data/` at the root of the workspace.
pub(crate) fn default_data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask is a folder of the workspace")
        .join("data")
}

/// The most worker threads `--threads` accepts: far more than the
/// generators can use, few enough to start without exhausting memory.
pub(crate) const MAX_THREADS: usize = 256;

/// The command that makes the tables of `--out DIR` (the default `data/`
/// when `None`) with these sizes: what `--check` suggests when they are
/// stale (with `DIR` for a folder whose name cannot be shown whole on
/// one line).
pub(crate) fn fix_command(out: Option<&Path>, sizes: Sizes) -> String {
    let mut command = "cargo xtask gen".to_owned();
    if let Some(dir) = out {
        // As a shell reads it; a path that cannot be shown so is named DIR.
        let word = sg_text::shell_word(dir).unwrap_or_else(|| "DIR".to_owned());
        command += &format!(" --out {word}");
    }
    if sizes.row_width != Sizes::DEFAULT.row_width {
        command += &format!(" --row-width {}", sizes.row_width);
    }
    if sizes.knight_size != Sizes::DEFAULT.knight_size {
        command += &format!(" --knight-size {}", sizes.knight_size);
    }
    if sizes.octal_limit != Sizes::DEFAULT.octal_limit {
        command += &format!(" --octal-limit {}", sizes.octal_limit);
    }
    if sizes.cram_cells != Sizes::DEFAULT.cram_cells {
        command += &format!(" --cram-cells {}", sizes.cram_cells);
    }
    command
}

/// A rayon pool of `threads` threads (default: the environment's
/// `RAYON_NUM_THREADS`, else one per CPU), never more than one per CPU
/// the process may run on, as `grundy` does: more only take turns on the
/// same cores. A lowered request is said on standard error.
pub(crate) fn pool(threads: Option<usize>) -> Result<ThreadPool> {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let from_environment = || {
        let value = std::env::var("RAYON_NUM_THREADS").ok()?;
        let n = value.trim().parse::<usize>().ok().filter(|&n| n > 0)?;
        Some((n, format!("RAYON_NUM_THREADS={n}")))
    };
    let asked = match threads {
        Some(n) => Some((n, format!("--threads {n}"))),
        None => from_environment(),
    };
    let threads = match asked {
        Some((n, by)) if n > cpus => {
            eprintln!("note: {by} lowered to {cpus}: one thread per CPU this process may run on");
            cpus
        }
        Some((n, _)) => n,
        None => cpus,
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")
}

/// One table to make.
#[derive(Debug, Clone, Copy)]
enum Spec {
    Row {
        width: u32,
    },
    Knight {
        size: u64,
    },
    /// The hyper knight's certified description of the whole board, found
    /// by `sg_core::knight_pattern::search` (its size does not vary).
    KnightPattern,
    /// Every octal game `0.d1d2d3` and `4.d1d2d3`, each computed up to heap
    /// `limit` unless certified sooner.
    OctalCatalogue {
        limit: u64,
    },
    /// The nimber of every Cram component (polyomino) of at most
    /// `max_cells` cells.
    CramEndgame {
        max_cells: u32,
    },
}

impl Spec {
    fn all(sizes: Sizes) -> [Self; 5] {
        [
            Self::Row {
                width: sizes.row_width,
            },
            Self::Knight {
                size: sizes.knight_size,
            },
            Self::KnightPattern,
            Self::OctalCatalogue {
                limit: sizes.octal_limit,
            },
            Self::CramEndgame {
                max_cells: sizes.cram_cells,
            },
        ]
    }

    /// Whether `cargo xtask bench --only only` times this table.
    fn is(self, only: Only) -> bool {
        matches!(
            (only, self),
            (Only::Row, Self::Row { .. })
                | (Only::Knight, Self::Knight { .. })
                | (Only::Octal, Self::OctalCatalogue { .. })
                | (Only::Cram, Self::CramEndgame { .. })
        )
    }

    /// The free polyominoes of at most `max_cells` cells.
    fn polyominoes(max_cells: u32) -> u64 {
        FREE_POLYOMINOES[..max_cells as usize].iter().sum()
    }

    fn file_name(self) -> String {
        match self {
            Self::Row { width } => format!("row{width}.sgt"),
            Self::Knight { .. } => "knight.sgt".to_owned(),
            Self::KnightPattern => "knight-pattern.sgt".to_owned(),
            Self::OctalCatalogue { .. } => OCTAL_CATALOGUE_FILE.to_owned(),
            Self::CramEndgame { .. } => CRAM_ENDGAME_FILE.to_owned(),
        }
    }

    fn label(self) -> String {
        match self {
            Self::Row { width } => format!("row table, width {width}"),
            Self::Knight { size } => format!("knight table, size {size}"),
            Self::KnightPattern => "knight pattern (whole board, certified)".to_owned(),
            Self::OctalCatalogue { limit } => format!("octal catalogue, heaps up to {limit}"),
            Self::CramEndgame { max_cells } => {
                format!("Cram endgame, polyominoes of at most {max_cells} cells")
            }
        }
    }

    /// Entries of the table (for a pattern and the catalogue: a bound on
    /// its length in bytes).
    fn entries(self) -> u64 {
        match self {
            Self::Row { width } => 1 << width,
            Self::Knight { size } => size * size,
            Self::KnightPattern => 1 << 16,
            Self::OctalCatalogue { limit } => u64::from(CATALOGUE_GAMES) * (64 + 2 * limit),
            // 1.23 slots of two bytes a polyomino, and the records.
            Self::CramEndgame { max_cells } => Self::polyominoes(max_cells) * 5 / 2 + 4096,
        }
    }

    /// A generous estimate of the generation time on one thread, from
    /// measurements (about 20 ns a row, 5 ns a square of the region).
    fn expected_ns(self) -> u64 {
        match self {
            Self::Row { .. } => self.entries() * 40,
            Self::Knight { size } => knight::memory_needed(size) * 10,
            Self::KnightPattern => 200_000_000,
            // About 2.5 s for all games at limit 4096 on one idle core,
            // growing about as limit^1.5.
            Self::OctalCatalogue { limit } => limit.pow(3).isqrt() * 10_000,
            // About 2 us a polyomino of the largest size, with the
            // enumeration.
            Self::CramEndgame { max_cells } => Self::polyominoes(max_cells) * 2_500,
        }
    }

    /// Working memory of the generator.
    fn memory(self) -> u64 {
        match self {
            Self::Row { .. } => self.entries(),
            Self::Knight { size } => knight::memory_needed(size),
            // The search's diagonals up to x + y = max_sum.
            Self::KnightPattern => SearchOptions::default().max_sum.pow(2),
            // Each thread's sequence: values, rare heaps and the period
            // search, a few dozen bytes a heap.
            Self::OctalCatalogue { limit } => limit * 64 * 64,
            // The keys (16 bytes each), and for the largest size the pairs
            // of keys and nimbers, the hashes and the peeling's arrays: a
            // peak of 72 bytes a polyomino measured for 15 and 16 cells
            // (0.34 and 1.28 GB).
            Self::CramEndgame { max_cells } => Self::polyominoes(max_cells) * 80,
        }
    }

    /// The straightforward single-threaded computation of `sg-core`, to
    /// compare with.
    fn generate_sequentially(self) -> Vec<u8> {
        match self {
            Self::Row { width } => sg_core::row::row_table_by_definition(width),
            Self::Knight { size } => {
                sg_core::knight::knight_square_table(&MoveSet::hyper_knight(), size)
            }
            Self::KnightPattern => find_pattern().expect("the hyper knight certifies").1,
            // The games are independent: on one thread, the same generator.
            Self::OctalCatalogue { .. } => {
                pool(Some(1))
                    .expect("one worker thread")
                    .install(|| self.generate(&NoProgress))
                    .expect("the catalogue computes")
                    .1
            }
            // The generator on one thread: there is no other.
            Self::CramEndgame { .. } => {
                pool(Some(1))
                    .expect("one worker thread")
                    .install(|| self.generate(&NoProgress))
                    .expect("the Cram endgame computes")
                    .1
            }
        }
    }

    /// The table's game (with the parameters the generator actually used)
    /// and its payload.
    fn generate(self, progress: &dyn generate::Progress) -> Result<(Game, Vec<u8>)> {
        let hyper_knight = || MoveSet::hyper_knight().steps().to_vec();
        Ok(match self {
            Self::Row { width } => (Game::Row { width }, row_table(width, progress)),
            Self::Knight { size } => (
                Game::Knight {
                    size,
                    moves: hyper_knight(),
                },
                knight_table(&MoveSet::hyper_knight(), size, progress)?,
            ),
            Self::KnightPattern => {
                let (searched_to, payload) = find_pattern()?;
                let game = Game::KnightPattern {
                    moves: hyper_knight(),
                    searched_to,
                    len: payload.len() as u64,
                };
                (game, payload)
            }
            Self::OctalCatalogue { limit } => {
                let payload = encode_catalogue(&octal_catalogue(limit, progress)?);
                let game = Game::OctalCatalogue {
                    limit,
                    games: CATALOGUE_GAMES,
                    len: payload.len() as u64,
                };
                (game, payload)
            }
            Self::CramEndgame { max_cells } => {
                let table = cram_endgame(max_cells, progress)?;
                (table.game(), table.to_payload())
            }
        })
    }
}

/// The hyper knight's description as the search finds it, encoded, and the
/// largest `x + y` of the table it was read from. The search returns only
/// descriptions whose certificate passed.
fn find_pattern() -> Result<(u64, Vec<u8>)> {
    let found = search(&MoveSet::hyper_knight(), &SearchOptions::default())
        .context("searching the hyper knight's description")?;
    Ok((found.table_sum, found.pattern.to_bytes()))
}

/// A table made in memory.
struct Made {
    spec: Spec,
    metadata: Metadata,
    prefix: Vec<u8>,
    payload: Vec<u8>,
    took: Duration,
}

impl Made {
    fn new(spec: Spec, pool: &ThreadPool) -> Result<Self> {
        check_memory(&spec.label(), spec.memory())?;
        let progress = Progress::for_work(&spec.file_name(), spec.expected_ns());
        let start = Instant::now();
        let payload = pool.install(|| spec.generate(&progress));
        let took = start.elapsed();
        progress.finish();
        let (game, payload) = payload?;
        let metadata = Metadata {
            game,
            generator: GENERATOR.to_owned(),
        };
        let prefix = encode_prefix(&metadata, &payload)?;
        Ok(Self {
            spec,
            metadata,
            prefix,
            payload,
            took,
        })
    }

    fn file_len(&self) -> u64 {
        (self.prefix.len() + self.payload.len()) as u64
    }

    fn entry<'a>(&'a self, file_name: &'a str) -> manifest::Entry<'a> {
        manifest::Entry {
            file_name,
            metadata: &self.metadata,
            file_len: self.file_len(),
            payload_crc: Header::parse(&self.prefix)
                .expect("encode_prefix writes a valid header")
                .payload_crc,
        }
    }

    fn report(&self, threads: usize) {
        eprintln!(
            "{}: {} entries in {:.1} ms on {threads} thread(s)",
            self.spec.file_name(),
            self.payload.len(),
            self.took.as_secs_f64() * 1e3
        );
    }
}

/// The temporary files that a killed run of `gen` left in `dir` for the
/// files it writes there (`names`); a run that fails or is interrupted by
/// a signal leaves none (see [`sg_files::safe_write`]).
fn stale_tmp_files(dir: &Path, names: &[String]) -> Vec<PathBuf> {
    names
        .iter()
        .flat_map(|name| leftover_temporaries(&dir.join(name)))
        .collect()
}

/// Removes what [`stale_tmp_files`] finds, saying so.
fn remove_stale_tmp(dir: &Path, names: &[String]) -> Result<()> {
    for path in stale_tmp_files(dir, names) {
        fs::remove_file(&path)
            .with_context(|| format!("cannot remove the stale {}", sg_text::shown_path(&path)))?;
        eprintln!(
            "removed {}, left by an interrupted run",
            sg_text::shown_path(&path)
        );
    }
    Ok(())
}

/// The names of the files `gen` writes into its folder for `specs`.
fn written_names(specs: &[Spec]) -> Vec<String> {
    specs
        .iter()
        .map(|spec| spec.file_name())
        .chain([manifest::FILE_NAME, octal_md::FILE_NAME].map(str::to_owned))
        .collect()
}

/// What `cargo xtask gen` does with the expected contents of each file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Write every file (by a rename, so readers never see half a file).
    Write,
    /// `--check`: compare every file, and fail naming the stale ones.
    Check,
}

/// The output folder of `gen`: each file's expected contents are built
/// once and then written or compared, depending on the [`Mode`] (as
/// rust-analyzer's `ensure_file_contents`), so that what is written and
/// what is checked cannot drift apart.
struct Output<'a> {
    dir: &'a Path,
    mode: Mode,
    stale: Vec<String>,
}

impl Output<'_> {
    /// Makes the file `name` hold `parts`, one after the other; returns
    /// whether it already did.
    fn ensure(&mut self, name: &str, parts: &[&[u8]]) -> Result<bool> {
        let path = self.dir.join(name);
        // Only a regular file is read (reading a FIFO would block): anything
        // else there is stale, and refused when writing.
        let regular = fs::metadata(&path).is_ok_and(|m| m.is_file());
        let same = regular
            && fs::read(&path).is_ok_and(|bytes| {
                let mut rest = &bytes[..];
                parts
                    .iter()
                    .all(|part| match rest.split_at_checked(part.len()) {
                        Some((head, tail)) if head == *part => {
                            rest = tail;
                            true
                        }
                        _ => false,
                    })
                    && rest.is_empty()
            });
        match self.mode {
            Mode::Write if !same => write_file(&path, parts)?,
            Mode::Check if !same => self.stale.push(sg_text::shown_path(&path).to_string()),
            _ => {}
        }
        Ok(same)
    }
}

/// `cargo xtask gen [--check]`: makes the tables and the manifest in
/// memory, then writes them to `out` or checks that `out` holds them; the
/// same for the copies of the compiled-in tables in `copies`, if given.
/// `fix` is the command that makes `out` as wanted, for the message when
/// `--check` finds it stale.
pub(crate) fn ensure_tables(
    out: &Path,
    copies: Option<&Path>,
    sizes: Sizes,
    pool: &ThreadPool,
    mode: Mode,
    fix: &str,
) -> Result<()> {
    let specs = Spec::all(sizes);
    if mode == Mode::Check && !out.is_dir() {
        bail!(
            "{} does not exist (or is not a folder); make it with `{fix}`",
            sg_text::shown_path(out)
        );
    }
    if mode == Mode::Write {
        for dir in std::iter::once(out).chain(copies) {
            fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", sg_text::shown_path(dir)))?;
        }
        remove_stale_tmp(out, &written_names(&specs))?;
        let bytes: u64 = specs.iter().map(|s| s.entries() + 4096).sum();
        check_disk(out, bytes)?;
    }
    let mut output = Output {
        dir: out,
        mode,
        stale: Vec::new(),
    };
    let mut copy_output = copies.map(|dir| Output {
        dir,
        mode,
        stale: Vec::new(),
    });
    let mut lines = Vec::new();
    let mut names = Vec::new();
    for spec in specs {
        let made = Made::new(spec, pool)?;
        if mode == Mode::Write {
            made.report(pool.current_num_threads());
        }
        let name = spec.file_name();
        let same = output.ensure(&name, &[&made.prefix, &made.payload])?;
        if let Some(copy) = copy_output.as_mut()
            && embedded_copy::FILES.contains(&name.as_str())
        {
            copy.ensure(&name, &[&made.prefix, &made.payload])?;
        }
        if same && mode == Mode::Check && matches!(spec, Spec::KnightPattern) {
            // Rerun the certificate on the committed file itself.
            let path = out.join(&name);
            sg_tables::read_file(&path)
                .and_then(|file| file.table().knight_pattern())
                .with_context(|| format!("{} does not certify", sg_text::shown_path(&path)))?;
            eprintln!("{}: certificate checked", sg_text::shown_path(&path));
        }
        if matches!(spec, Spec::OctalCatalogue { .. }) {
            let catalogue = OctalCatalogue::new(&made.metadata.game, &made.payload)?;
            output.ensure(
                octal_md::FILE_NAME,
                &[octal_md::render(&catalogue).as_bytes()],
            )?;
        }
        lines.push(manifest::render_line(&made.entry(&name)));
        names.push(name);
    }
    output.ensure(manifest::FILE_NAME, &[manifest::render(&lines).as_bytes()])?;
    if mode == Mode::Write {
        eprintln!("wrote {}", sg_text::shown_path(out));
        if let Some(copies) = copies {
            eprintln!(
                "wrote the embedded tables' copies in {}",
                sg_text::shown_path(copies)
            );
        }
        return Ok(());
    }
    for path in stale_tmp_files(out, &written_names(&Spec::all(sizes))) {
        output.stale.push(format!(
            "{} (left by an interrupted run)",
            sg_text::shown_path(&path)
        ));
    }
    if let Some(copy) = copy_output {
        output.stale.extend(copy.stale);
        output
            .stale
            .extend(embedded_copy::unexpected_files(copy.dir));
    }
    if let Ok(dir) = fs::read_dir(out) {
        for entry in dir.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.ends_with(".sgt") && !names.contains(&name) {
                output.stale.push(format!(
                    "{} (not generated)",
                    sg_text::shown_path(&entry.path())
                ));
            }
        }
    }
    if !output.stale.is_empty() {
        bail!(
            "stale generated tables:\n  {}\nrun `{fix}` (and commit the result if it is data/)",
            output.stale.join("\n  ")
        );
    }
    eprintln!("{} is up to date", sg_text::shown_path(out));
    if let Some(copies) = copies {
        eprintln!("{} is up to date", sg_text::shown_path(copies));
    }
    Ok(())
}

/// A table to bench alone.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub(crate) enum Only {
    /// The row table.
    Row,
    /// The knight table.
    Knight,
    /// The octal catalogue.
    Octal,
    /// The Cram endgame table.
    Cram,
}

/// `cargo xtask bench`: the fastest of `runs` generations of each table,
/// on one thread and on all (or on `threads`).
pub(crate) fn bench(
    sizes: Sizes,
    runs: u32,
    only: Option<Only>,
    threads: Option<usize>,
    sequential: bool,
) -> Result<()> {
    let pools = match threads {
        Some(n) => vec![pool(Some(n))?],
        None => vec![pool(Some(1))?, pool(None)?],
    };
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    for spec in Spec::all(sizes) {
        if only.is_some_and(|only| !spec.is(only)) {
            continue;
        }
        check_memory(&spec.label(), spec.memory())?;
        let mut line = format!("{}:", spec.label());
        if sequential {
            let mut best = Duration::MAX;
            for _ in 0..runs.max(1) {
                let start = Instant::now();
                drop(spec.generate_sequentially());
                best = best.min(start.elapsed());
            }
            line += &format!(" sg-core sequential {:.2} ms;", ms(best));
        }
        let mut best = vec![Duration::MAX; pools.len()];
        for _ in 0..runs.max(1) {
            for (slot, pool) in pools.iter().enumerate() {
                let start = Instant::now();
                let table = pool.install(|| spec.generate(&NoProgress))?;
                best[slot] = best[slot].min(start.elapsed());
                drop(table);
            }
        }
        for (pool, best) in pools.iter().zip(&best) {
            line += &format!(
                " {} thread(s) {:.2} ms;",
                pool.current_num_threads(),
                ms(*best)
            );
        }
        if best.len() == 2 {
            line += &format!(
                " speed-up {:.2}x",
                best[0].as_secs_f64() / best[1].as_secs_f64()
            );
        }
        eprintln!("{line}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_have_at_most_one_thread_per_cpu() {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(
            pool(Some(MAX_THREADS)).unwrap().current_num_threads(),
            cpus.min(MAX_THREADS)
        );
        assert_eq!(pool(Some(1)).unwrap().current_num_threads(), 1);
        assert!(pool(None).unwrap().current_num_threads() <= cpus);
    }

    fn generate(out: &Path, sizes: Sizes, pool: &ThreadPool) -> Result<()> {
        ensure_tables(out, None, sizes, pool, Mode::Write, "FIX")
    }

    fn check(out: &Path, sizes: Sizes, pool: &ThreadPool) -> Result<()> {
        ensure_tables(out, None, sizes, pool, Mode::Check, "FIX")
    }

    #[test]
    fn check_finds_stale_files() {
        // Removed when the test ends, passed or failed.
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("out");
        let sizes = Sizes {
            row_width: 8,
            knight_size: 40,
            octal_limit: 200,
            cram_cells: 8,
        };
        let pool = pool(Some(2)).unwrap();
        generate(&out, sizes, &pool).unwrap();
        check(&out, sizes, &pool).unwrap();
        // The pattern's metadata records the table the search read, and
        // that table is enough to find the same description again.
        let file = sg_tables::read_file(out.join("knight-pattern.sgt")).unwrap();
        let Game::KnightPattern { searched_to, .. } = file.table().info().metadata.game else {
            panic!("not a knight pattern");
        };
        let again = SearchOptions {
            max_sum: searched_to,
            ..SearchOptions::default()
        };
        let found = search(&MoveSet::hyper_knight(), &again).unwrap();
        assert_eq!(found.table_sum, searched_to);
        assert_eq!(found.pattern.to_bytes(), file.table().payload());
        let manifest = fs::read_to_string(out.join(manifest::FILE_NAME)).unwrap();
        assert!(manifest.starts_with("# Generated by `cargo xtask gen`, do not edit"));

        let path = out.join("knight.sgt");
        let mut bytes = fs::read(&path).unwrap();
        *bytes.last_mut().unwrap() ^= 1;
        fs::write(&path, bytes).unwrap();
        let err = check(&out, sizes, &pool).unwrap_err().to_string();
        assert!(err.contains("knight.sgt"), "{err}");
        assert!(err.contains("run `FIX`"), "{err}");

        generate(&out, sizes, &pool).unwrap();
        fs::write(out.join("extra.sgt"), b"").unwrap();
        let err = check(&out, sizes, &pool).unwrap_err().to_string();
        assert!(err.contains("extra.sgt (not generated)"), "{err}");
        fs::remove_file(out.join("extra.sgt")).unwrap();
        fs::write(out.join(manifest::FILE_NAME), "edited by hand\n").unwrap();
        let err = check(&out, sizes, &pool).unwrap_err().to_string();
        assert!(err.contains(manifest::FILE_NAME), "{err}");
        // Writing repairs exactly what checking found stale.
        generate(&out, sizes, &pool).unwrap();
        check(&out, sizes, &pool).unwrap();
        // What a killed run leaves is found by --check, removed by writing;
        // a file of the user's that looks alike is left alone.
        fs::write(out.join(".row8.sgt.Ab12yZ.tmp"), b"half").unwrap();
        fs::write(out.join("row8.sgt.tmp"), b"the user's").unwrap();
        let err = check(&out, sizes, &pool).unwrap_err().to_string();
        assert!(
            err.contains(".row8.sgt.Ab12yZ.tmp (left by an interrupted run)"),
            "{err}"
        );
        generate(&out, sizes, &pool).unwrap();
        assert!(!out.join(".row8.sgt.Ab12yZ.tmp").exists());
        assert_eq!(fs::read(out.join("row8.sgt.tmp")).unwrap(), b"the user's");
        fs::remove_file(out.join("row8.sgt.tmp")).unwrap();
        check(&out, sizes, &pool).unwrap();
        fs::remove_dir_all(&out).unwrap();
        let err = check(&out, sizes, &pool).unwrap_err().to_string();
        assert!(err.contains("does not exist"), "{err}");
        assert!(err.contains("make it with `FIX`"), "{err}");
    }

    #[test]
    fn the_fix_names_the_folder_and_sizes() {
        let sizes = Sizes {
            row_width: 8,
            knight_size: 40,
            octal_limit: 200,
            cram_cells: 8,
        };
        assert_eq!(
            fix_command(Some(Path::new("/tmp/t")), sizes),
            "cargo xtask gen --out /tmp/t --row-width 8 --knight-size 40 --octal-limit 200 --cram-cells 8"
        );
        assert_eq!(fix_command(None, Sizes::DEFAULT), "cargo xtask gen");
    }

    #[test]
    fn check_covers_the_copies_of_the_embedded_tables() {
        let root = tempfile::tempdir().unwrap();
        let (out, copies) = (root.path().join("data"), root.path().join("copies"));
        // Small tables; knight.sgt and knight-pattern.sgt are embedded names.
        let sizes = Sizes {
            row_width: 8,
            knight_size: 40,
            octal_limit: 200,
            cram_cells: 8,
        };
        let pool = pool(Some(2)).unwrap();
        let ensure = |mode| ensure_tables(&out, Some(&copies), sizes, &pool, mode, "FIX");
        ensure(Mode::Write).unwrap();
        ensure(Mode::Check).unwrap();
        for name in ["knight.sgt", "knight-pattern.sgt"] {
            assert_eq!(
                fs::read(out.join(name)).unwrap(),
                fs::read(copies.join(name)).unwrap()
            );
        }

        fs::write(copies.join("knight.sgt"), b"other").unwrap();
        let err = ensure(Mode::Check).unwrap_err().to_string();
        assert!(err.contains("copies/knight.sgt"), "{err}");
        assert!(err.contains("FIX"), "{err}");

        ensure(Mode::Write).unwrap();
        fs::write(copies.join("row8.sgt"), b"").unwrap();
        let err = ensure(Mode::Check).unwrap_err().to_string();
        assert!(err.contains("row8.sgt (not an embedded table)"), "{err}");
    }
}
