//! What the subcommands share, written once: reading the input, choosing
//! where table values come from (`--tables DIR`, `--online` or the
//! compiled-in tables), the one place that memory-maps a table file, and
//! printing the answers before the input error with exit status 2.

use anyhow::{Context, Result};
use sg_solve::InputError;
use sg_solve::tables::find_table;
use sg_solve::values::{KnightValues, RowValues};
use sg_tables::format::TableKind;
use sg_tables::{MappedTable, TableError};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Exit status for bad input (a usage error from clap is also 2).
const EXIT_BAD_INPUT: u8 = 2;

/// The input file argument of the judge subcommands.
#[derive(clap::Args, Debug)]
pub(crate) struct InputArg {
    /// Input file; standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
}

impl InputArg {
    /// The whole input: the file, or standard input when absent or `-`.
    pub(crate) fn read(&self) -> Result<Vec<u8>> {
        match &self.file {
            Some(path) if path.as_os_str() != "-" => {
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
            }
            _ => {
                let mut buf = Vec::new();
                std::io::stdin()
                    .lock()
                    .read_to_end(&mut buf)
                    .context("cannot read standard input")?;
                Ok(buf)
            }
        }
    }

    /// Reads the input, runs `solve(input, answers)` on it and prints the
    /// answers, then the input error if any (see [`print_answers`]).
    pub(crate) fn answer(
        &self,
        solve: impl FnOnce(&[u8], &mut Vec<u8>) -> Result<(), InputError>,
    ) -> Result<ExitCode> {
        let input = self.read()?;
        let mut out = Vec::new();
        let result = solve(&input, &mut out);
        print_answers(&out, result)
    }
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

/// Reports bad input (or a bad usage) on standard error as one line
/// `error: ...`; the exit status 2 to return.
pub(crate) fn bad_input(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(EXIT_BAD_INPUT)
}

/// Memory-maps the table file `path`: the one place `grundy` maps a file.
pub(crate) fn map_table(path: &Path, verify_checksum: bool) -> Result<MappedTable> {
    // SAFETY: grundy never writes table files and `cargo xtask gen` replaces
    // them by rename, never in place; whoever passes a table file to grundy
    // promises not to modify or truncate it while grundy runs (see --tables
    // and README, "Precomputed tables").
    let mapped = unsafe {
        if verify_checksum {
            sg_tables::open_mmap(path)
        } else {
            sg_tables::open_mmap_unverified(path)
        }
    };
    mapped.map_err(|e| match e {
        TableError::Io { .. } => e.into(),
        _ => anyhow::Error::new(e).context(format!("invalid table {}", path.display())),
    })
}

/// Where `hdu5724` and `lightoj1315` get Grundy values (default: the
/// tables compiled into `grundy`, computing what they do not cover).
#[derive(clap::Args, Debug)]
pub(crate) struct TableArgs {
    /// Use the tables of DIR (made by `cargo xtask gen --out DIR`),
    /// memory-mapped, instead of the compiled-in ones. The files must not
    /// change while grundy runs.
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
    /// `--tables DIR`: the largest table of the kind in `DIR`, mapped.
    Mapped(MappedTable),
    /// `--online`: no table.
    Online,
    /// The default: the tables compiled into `grundy`.
    CompiledIn,
}

impl TableArgs {
    /// Opens the source of tables of `kind` (maps the file, if from a folder).
    pub(crate) fn open(&self, kind: TableKind) -> Result<TableSource> {
        if let Some(dir) = &self.tables {
            return Ok(TableSource::Mapped(map_table(
                &find_table(dir, kind)?,
                true,
            )?));
        }
        Ok(if self.online {
            TableSource::Online
        } else {
            TableSource::CompiledIn
        })
    }
}

impl TableSource {
    /// Row values from this source (the closed form beyond its table).
    pub(crate) fn row_values(&self) -> Result<RowValues<'_>> {
        Ok(RowValues::new(match self {
            Self::Mapped(m) => Some(m.table().row()?),
            Self::Online => None,
            Self::CompiledIn => Some(*sg_tables::embedded_row_table()),
        }))
    }

    /// Hyper-knight values from this source: beyond its table, the
    /// certified description of the whole board, except with `--online`
    /// (on-demand diagonals).
    pub(crate) fn knight_values(&self) -> Result<KnightValues<'_>> {
        let table = match self {
            Self::Mapped(m) => Some(m.table().knight()?),
            Self::Online => None,
            Self::CompiledIn => Some(sg_tables::embedded_knight_table().clone()),
        };
        let values = KnightValues::new(table)?;
        Ok(match self {
            Self::Online => values,
            // Squares beyond the table, up to 2^63: the certified description.
            _ => values.with_pattern(sg_tables::embedded_knight_pattern().clone())?,
        })
    }
}
