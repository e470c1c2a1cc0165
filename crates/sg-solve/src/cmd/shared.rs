//! What the subcommands share, written once: reading the input, choosing
//! where table values come from (`--tables DIR`, `--online` or the
//! compiled-in tables), the one place that memory-maps a table file,
//! printing the answers before the input error with exit status 2, and
//! checking and writing the files the user names (`--out`, `--png`).

use crate::input::{self, Input, ReadError};
use anyhow::{Context, Result};
use sg_files::safe_write::{Destination, WriteError};
use sg_solve::InputError;
use sg_solve::error::{QUOTED_BYTES, escape_bytes};
use sg_solve::heatmap::{self, Grid};
use sg_solve::tables::{FindError, find_tables};
use sg_solve::values::{KnightValues, RowValues};
use sg_tables::format::TableKind;
use sg_tables::{TableError, TableFile};
use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Exit status for bad input (a usage error from clap is also 2).
const EXIT_BAD_INPUT: u8 = 2;

/// The input file argument of the judge subcommands.
#[derive(clap::Args, Debug)]
pub(crate) struct InputArg {
    /// Input file; standard input when absent or `-`. A regular file of
    /// 1 MiB or more (FILE, or standard input redirected from one) is
    /// memory-mapped: it must not change while grundy runs.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// The largest input accepted, in bytes or with a unit (K, M, G, T:
    /// powers of 1024); a larger input is refused with exit status 2.
    #[arg(long, value_name = "SIZE", default_value = input::DEFAULT_MAX_INPUT, value_parser = input::parse_size)]
    max_input: u64,
}

impl InputArg {
    /// The whole input: the file, or standard input when absent or `-`,
    /// mapped or read (see [`input`]); too large an input is a
    /// [`UsageError`].
    pub(crate) fn read(&self) -> Result<Input> {
        check_simd_variable(
            sg_solve::scan::SIMD_VARIABLE,
            "the input decoder",
            sg_solve::scan::decoder_used,
        )?;
        read_named(self.file.as_deref(), self.max_input, Some("--max-input"))
    }

    /// Reads the input, runs `solve(input, answers)` on it and prints the
    /// answers, then the input error if any (see [`print_answers`]).
    pub(crate) fn answer(
        &self,
        solve: impl FnOnce(&[u8], &mut Vec<u8>) -> Result<(), InputError>,
    ) -> Result<ExitCode> {
        self.answer_streaming(|input, out, _| solve(input, out))
    }

    /// [`answer`](Self::answer) for a solver whose output may be far larger
    /// than its input: it hands its output buffer to `flush` as it grows,
    /// which writes it to standard output and empties it (and stops the
    /// solver if standard output fails).
    pub(crate) fn answer_streaming(
        &self,
        solve: impl FnOnce(&[u8], &mut Vec<u8>, Flush<'_>) -> Result<(), InputError>,
    ) -> Result<ExitCode> {
        let input = self.read()?;
        let mut out = Vec::new();
        let mut stdout = std::io::stdout().lock();
        let mut failed = None;
        let result = solve(&input, &mut out, &mut |out: &mut Vec<u8>| {
            let written = stdout.write_all(out);
            out.clear();
            match written {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    failed = Some(e);
                    ControlFlow::Break(())
                }
            }
        });
        drop(stdout);
        if let Some(e) = failed {
            return Err(anyhow::Error::new(e).context("cannot write the answers"));
        }
        print_answers(&out, result)
    }
}

/// The whole input `file` (standard input when absent or `-`), mapped or
/// read (see [`input`]), at most `limit` bytes: too large an input, or a
/// path that is not there, is a [`UsageError`], whose message names the
/// option `raise_with` that raises the limit, if there is one.
pub(crate) fn read_named(
    file: Option<&Path>,
    limit: u64,
    raise_with: Option<&str>,
) -> Result<Input> {
    let path = file.filter(|p| p.as_os_str() != "-");
    input::read_input(path, limit).map_err(|e| match &e {
        ReadError::TooLarge { .. } => match raise_with {
            Some(option) => UsageError(format!("{e} (raise it with {option})")).into(),
            None => UsageError(e.to_string()).into(),
        },
        ReadError::Io { error, .. } if wrong_path(error) => UsageError(e.to_string()).into(),
        ReadError::Io { .. } => anyhow::Error::new(e),
    })
}

/// The `flush` that [`InputArg::answer_streaming`] hands to a solver.
pub(crate) type Flush<'a> = &'a mut dyn FnMut(&mut Vec<u8>) -> ControlFlow<()>;

/// An error in the command line or the input that the user must fix
/// (not in the environment): exit status 2, like bad input and clap's
/// usage errors. Other errors (a file that cannot be read, an invalid
/// table file) exit with status 1.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct UsageError(pub(crate) String);

/// Whether `error`, met on a path the user named, is the user's to fix
/// (exit status 2) rather than the environment's: nothing is there, or a
/// folder is where a file should be or the other way round.
pub(crate) fn wrong_path(error: &std::io::Error) -> bool {
    use std::io::ErrorKind::{IsADirectory, NotADirectory, NotFound};
    matches!(error.kind(), NotFound | IsADirectory | NotADirectory)
}

/// The exit status for the error `e` that ended a subcommand: 2 for a
/// [`UsageError`], 1 otherwise.
pub(crate) fn exit_status(e: &anyhow::Error) -> ExitCode {
    let refused = |cause: &(dyn std::error::Error + 'static)| {
        cause.is::<UsageError>()
            || cause
                .downcast_ref::<WriteError>()
                .is_some_and(WriteError::is_refusal)
    };
    if e.chain().any(refused) {
        ExitCode::from(EXIT_BAD_INPUT)
    } else {
        ExitCode::FAILURE
    }
}

/// Whether `e` is standard output closed by its reader (a broken pipe,
/// `grundy ... | head -1`): the run then ends quietly. No other file
/// `grundy` writes can be a pipe (see [`destination`]).
pub(crate) fn stdout_closed(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Writes `message` to standard error as one line, escaped (a line break
/// in it too, [`sg_text::escape_line`]): never a panic, even if standard error is closed or full (`2>/dev/full`), where
/// the message is lost and the exit status still tells.
/// Progress lines for a standard error that is not a terminal (a log, a
/// pipe, a file): a long run off a terminal draws no bar, and says where
/// it is once it has lasted [`LOG_EVERY`], then every [`LOG_EVERY`]
/// (`GRUNDY_PROGRESS_EVERY=SECONDS` changes it, 0 for no line), each line
/// starting `progress:` and ending with the time since the start.
pub(crate) struct ProgressLog {
    /// How often lines are written; `None` for none (standard error a
    /// terminal, or `GRUNDY_PROGRESS_EVERY=0`).
    every: Option<std::time::Duration>,
    start: std::time::Instant,
    /// When the next line is due, since `start`.
    next: std::time::Duration,
    /// Why the variable was not used, said with the first line (a run too
    /// short for a line says nothing).
    warning: Option<String>,
}

/// How often a long run writes a progress line off a terminal, unless
/// [`PROGRESS_EVERY_VARIABLE`] says otherwise.
pub(crate) const LOG_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

/// The variable that sets how often, in whole seconds (0: never).
pub(crate) const PROGRESS_EVERY_VARIABLE: &str = "GRUNDY_PROGRESS_EVERY";

impl ProgressLog {
    /// Lines from now, if standard error is not a terminal.
    pub(crate) fn new() -> ProgressLog {
        use std::io::IsTerminal;
        let mut warning = None;
        let every = match std::env::var_os(PROGRESS_EVERY_VARIABLE) {
            None => Some(LOG_EVERY),
            Some(value) => match value.to_str().and_then(|v| v.trim().parse::<u64>().ok()) {
                Some(0) => None,
                Some(seconds) => Some(std::time::Duration::from_secs(seconds)),
                None => {
                    warning = Some(format!(
                        "warning: {PROGRESS_EVERY_VARIABLE}={} is not a number of seconds \
                         from 0 (no line) to {}; a progress line every {} s",
                        sg_text::quote(&value.to_string_lossy()),
                        u64::MAX,
                        LOG_EVERY.as_secs()
                    ));
                    Some(LOG_EVERY)
                }
            },
        };
        let every = every.filter(|_| !std::io::stderr().is_terminal());
        ProgressLog {
            every,
            start: std::time::Instant::now(),
            next: every.unwrap_or(LOG_EVERY),
            warning,
        }
    }

    /// Writes `line()` (with `progress: ` before it and the time since
    /// the start after it) when a line is due.
    pub(crate) fn tick(&mut self, line: impl FnOnce() -> String) {
        let Some(every) = self.every else {
            return;
        };
        let elapsed = self.start.elapsed();
        if elapsed < self.next {
            return;
        }
        self.next = elapsed + every;
        if let Some(warning) = self.warning.take() {
            print_error(warning);
        }
        print_error(format_args!(
            "progress: {} (after {})",
            line(),
            humantime::format_duration(std::time::Duration::from_secs(elapsed.as_secs()))
        ));
    }
}

pub(crate) fn print_error(message: impl std::fmt::Display) {
    let line = format!("{}\n", sg_text::escape_line(&message.to_string()));
    let _ = std::io::stderr().write_all(line.as_bytes());
}

/// The one rule of the variables that lower the vector code for
/// benchmarking (`GRUNDY_OCTAL_SIMD` for the octal engine,
/// `GRUNDY_SCAN_SIMD` for the input decoder), checked by each command that
/// runs that code, before it starts: unset or empty, nothing; `avx512`,
/// `avx2` or `portable` in any case, a note on standard error of what runs
/// (`used`, e.g. `avx2` on a CPU without AVX-512 asked for `avx512`); any
/// other value a usage error (exit status 2). A command that runs neither
/// (`octal --misere`) ignores both.
pub(crate) fn check_simd_variable(
    variable: &str,
    engine: &str,
    used: impl FnOnce() -> &'static str,
) -> Result<(), UsageError> {
    let text = sg_solve::machine::simd_variable(variable, engine).map_err(UsageError)?;
    if let Some(text) = text.filter(|text| !text.is_empty()) {
        print_error(format_args!(
            "note: {variable}={text}: {engine}'s vector kernels: {}",
            used()
        ));
    }
    Ok(())
}

/// The exit status of a run a signal stopped: 128 + its number, as the
/// signal would have ended the process.
pub(crate) fn signal_exit(signal: i32) -> ExitCode {
    ExitCode::from(128u8.saturating_add(signal as u8))
}

/// A stop signal as a message names it: `SIGINT (signal 2)`.
pub(crate) fn signal_name(signal: i32) -> String {
    let name = match signal {
        1 => "SIGHUP",
        2 => "SIGINT",
        15 => "SIGTERM",
        _ => "signal",
    };
    format!("{name} (signal {signal})")
}

/// Reports an error of clap (a usage error, exit status 2) or prints the
/// help or the version it was asked for (exit status 0). The parts of the
/// command line that its message quotes are escaped like input bytes and
/// cut after [`QUOTED_BYTES`] bytes.
pub(crate) fn usage_error(e: &clap::Error) -> ExitCode {
    use clap::error::ContextValue;
    if !e.use_stderr() {
        // --help, --version: to standard output, which may be closed by
        // its reader (quietly, as for any answer) or fail (exit status 1).
        return match e.print() {
            Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
                print_error(format_args!("error: cannot write the help: {error}"));
                ExitCode::FAILURE
            }
            _ => ExitCode::SUCCESS,
        };
    }
    // Plain text: clap's styles and any escape sequence are stripped, so
    // that a value typed with one would be shown without it. Each value
    // quoted from the command line is put back escaped and cut short.
    let mut text = e.to_string();
    for (_, value) in e.context() {
        if let ContextValue::String(typed) = value {
            let shown = clap::builder::StyledStr::from(typed.clone()).to_string();
            let safe = escape_bytes(typed.as_bytes(), QUOTED_BYTES);
            text = text.replacen(&format!("'{shown}'"), &format!("'{safe}'"), 1);
        }
    }
    // clap's own lines (the usage) kept: the values typed are escaped.
    let line = format!("{}\n", sg_text::escape_lines(text.trim_end()));
    let _ = std::io::stderr().write_all(line.as_bytes());
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(EXIT_BAD_INPUT))
}

/// Writes the answers `out` to standard output, then, if the input was
/// bad, its error to standard error: exit status 2. The answers of the
/// test cases completed before the error are thus always printed.
pub(crate) fn print_answers(out: &[u8], result: Result<(), InputError>) -> Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out).context("cannot write the answers")?;
    stdout.flush().context("cannot write the answers")?;
    match result {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => Ok(bad_input(e)),
    }
}

/// Checks the file a subcommand will write (`--out`, `--png`) before any
/// work is done: a regular file that can be written, or a new file in a
/// folder that can be (see [`sg_files::safe_write`]); anything else is
/// refused with exit status 2.
pub(crate) fn destination(path: &Path) -> Result<Destination> {
    Ok(Destination::check(path)?)
}

/// Checks, before any work, a grid of `width` x `height` cells and the
/// file `png` its picture at `scale` goes to (`--png FILE`): a grid or a
/// picture too large is refused with exit status 2, and so is a file that
/// [`destination`] refuses. The checked destination of the picture.
pub(crate) fn check_grid(
    width: usize,
    height: usize,
    png: Option<&Path>,
    scale: u32,
) -> Result<Option<Destination>> {
    heatmap::check_grid(width, height).map_err(|e| UsageError(e.to_string()))?;
    let Some(path) = png else {
        return Ok(None);
    };
    heatmap::picture_size(width, height, scale).map_err(|e| UsageError(e.to_string()))?;
    destination(path).map(Some)
}

/// Writes `grid` as a PNG heatmap into `destination` (`--png FILE`),
/// which is the old file or the complete new one whatever happens.
pub(crate) fn write_png(grid: &Grid, scale: u32, destination: &Destination) -> Result<()> {
    destination.write(|out| {
        grid.write_png(scale, out)
            .with_context(|| format!("cannot write {}", sg_text::shown_path(destination.path())))
    })
}

/// Reports bad input (or a bad usage) on standard error as one line
/// `error: ...`, escaped; the exit status 2 to return.
pub(crate) fn bad_input(message: impl std::fmt::Display) -> ExitCode {
    print_error(format_args!("error: {message}"));
    ExitCode::from(EXIT_BAD_INPUT)
}

/// Opens the table file `path`, validated (the payload checksum only if
/// `verify_checksum`): read into memory up to [`sg_tables::COPY_LIMIT`]
/// (64 MiB), memory-mapped above. The one place `grundy` maps a table.
pub(crate) fn open_table(path: &Path, verify_checksum: bool) -> Result<TableFile, TableError> {
    // SAFETY: only files above COPY_LIMIT are mapped. grundy never writes
    // table files and `cargo xtask gen` replaces them by rename, never in
    // place; whoever passes a large table file to grundy promises not to
    // modify or truncate it while grundy runs (see --tables and
    // docs/TABLES.md).
    unsafe { sg_tables::open(path, verify_checksum) }
}

/// Opens the table file `path` to answer from it: every check, the
/// checksum and the values themselves (against the game's recurrence)
/// included.
fn open_verified(path: &Path) -> Result<TableFile, TableError> {
    let file = open_table(path, true)?;
    file.table().verify_values()?;
    Ok(file)
}

/// Where `hdu5724` and `lightoj1315` get Grundy values (default: the
/// tables compiled into `grundy`, computing what they do not cover).
#[derive(clap::Args, Debug)]
pub(crate) struct TableArgs {
    /// Use the tables of DIR (made by `cargo xtask gen --out DIR`) instead
    /// of the compiled-in ones: the largest valid table of the kind, its
    /// values checked; other .sgt files are skipped with a warning. A file
    /// over 64 MiB is memory-mapped and must not change while grundy runs.
    #[arg(long, value_name = "DIR", conflicts_with = "online")]
    tables: Option<PathBuf>,
    /// Use no table: the closed form for rows, on-demand diagonals for knights.
    #[arg(long)]
    online: bool,
}

/// The source of table values chosen by [`TableArgs`]; it owns the mapped
/// file that the value sources borrow.
#[derive(Debug)]
pub(crate) enum TableSource {
    /// `--tables DIR`: the largest valid table of the kind in `DIR`.
    File(TableFile),
    /// `--online`: no table.
    Online,
    /// The default: the tables compiled into `grundy`.
    CompiledIn,
}

impl TableArgs {
    /// Opens the source of tables of `kind`: with `--tables DIR`, the
    /// largest table of the kind in `DIR` that passes every check (files
    /// that do not are skipped, each with a warning on standard error).
    pub(crate) fn open(&self, kind: TableKind) -> Result<TableSource> {
        if let Some(dir) = &self.tables {
            let found = find_tables(dir, kind).map_err(|e| match &e {
                FindError::Io { error, .. } if wrong_path(error) => {
                    UsageError(e.to_string()).into()
                }
                _ => anyhow::Error::new(e),
            })?;
            for (path, why) in found.skipped {
                warn_skipped(&path, &anyhow::Error::new(why));
            }
            for path in &found.candidates {
                match open_verified(path) {
                    Ok(file) => return Ok(TableSource::File(file)),
                    Err(why) => warn_skipped(path, &why.into()),
                }
            }
            return Err(FindError::NotFound {
                dir: dir.clone(),
                kind,
            }
            .into());
        }
        Ok(if self.online {
            TableSource::Online
        } else {
            TableSource::CompiledIn
        })
    }
}

/// Says on standard error that the table file `path` is not used, and why.
fn warn_skipped(path: &Path, why: &anyhow::Error) {
    print_error(format_args!(
        "warning: skipping {}: {why:#}",
        sg_text::shown_path(path)
    ));
}

impl TableSource {
    /// Row values from this source (the closed form beyond its table).
    /// The default answers rows of up to 20 cells from two compiled-in
    /// half-row tables (22.5 KiB, in cache) rather than the compiled-in 1 MiB
    /// table: the same values (an exhaustive test); hdu5724-large 11%
    /// faster (benches/paired.py).
    pub(crate) fn row_values(&self) -> Result<RowValues<'_>> {
        Ok(match self {
            Self::File(f) => RowValues::new(Some(f.table().row()?)),
            Self::Online => RowValues::new(None),
            Self::CompiledIn => RowValues::by_halves(),
        })
    }

    /// Hyper-knight values from this source: beyond its table, the
    /// certified description of the whole board, except with `--online`
    /// (on-demand diagonals).
    pub(crate) fn knight_values(&self) -> Result<KnightValues<'_>> {
        let table = match self {
            Self::File(f) => Some(f.table().knight()?),
            Self::Online => None,
            Self::CompiledIn => Some(sg_tables::embedded_knight_table().clone()),
        };
        let values = KnightValues::new(table)?;
        Ok(match self {
            Self::Online => values,
            // Squares beyond the table, up to 2^63: the certified description.
            _ => values.with_pattern_on_first_use(sg_tables::embedded_knight_pattern),
        })
    }
}
