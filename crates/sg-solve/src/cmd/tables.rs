//! `grundy tables info|verify`: what table files hold, and whether they are intact.

use super::shared::{UsageError, open_table, wrong_path};
use anyhow::{Context, Result, bail};
use sg_solve::answer::write_json_line;
use sg_solve::tables::{JsonReport, report, report_json, table_files};
use sg_text::escape_lines;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Precomputed tables: what a table file holds, and whether it is intact.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: TablesCommand,
}

#[derive(clap::Subcommand, Debug)]
enum TablesCommand {
    /// Print kind, version, metadata, sizes and checksums of table files
    /// (a file, every .sgt file of a folder, or the compiled-in tables).
    Info {
        /// A .sgt file or a folder; the compiled-in tables when absent.
        path: Option<PathBuf>,
        /// One JSON object per table: file, ok, error, kind, format_version,
        /// game, generator, payload_len, payload_crc, file_len.
        #[arg(long)]
        json: bool,
    },
    /// Check table files completely; exit status 1 with the reason if one is corrupt.
    Verify {
        /// A .sgt file or a folder; the compiled-in tables when absent.
        path: Option<PathBuf>,
        /// One JSON object per table, as for `info`, `ok` after every check.
        #[arg(long)]
        json: bool,
    },
}

/// What a failed write of a report says.
const CANNOT_WRITE: &str = "cannot write the report";

/// Reports on the tables; exit status 1 if any table is invalid.
pub(crate) fn run(args: Args) -> Result<ExitCode> {
    let (path, verify, json) = match args.command {
        TablesCommand::Info { path, json } => (path, false, json),
        TablesCommand::Verify { path, json } => (path, true, json),
    };
    // The checks of octal values share rayon's global pool.
    if verify {
        super::shared::check_simd_variable(sg_octal::SIMD_VARIABLE, "the octal engine", || {
            sg_octal::simd_used().name()
        })?;
        super::threads::start_global_pool(None)?;
    }
    let mut ok = true;
    let mut out = std::io::stdout().lock();
    // Reports on one table (or on why its file cannot be mapped).
    let mut emit = |name: &str, bytes: Result<&[u8], String>| -> Result<()> {
        match (bytes, json) {
            (Ok(bytes), false) => ok &= report(name, bytes, verify, &mut out)?,
            (Ok(bytes), true) => {
                let report = report_json(name, bytes, verify);
                ok &= report.ok;
                json_line(&mut out, &report)?;
            }
            (Err(e), false) => {
                writeln!(out, "{}", escape_lines(&format!("{name}: INVALID: {e}")))?;
                ok = false;
            }
            (Err(e), true) => {
                let report = JsonReport {
                    file: name.to_owned(),
                    ok: false,
                    error: Some(e),
                    info: None,
                };
                json_line(&mut out, &report)?;
                ok = false;
            }
        }
        Ok(())
    };
    match path {
        None => {
            for (name, bytes) in [
                (
                    "compiled-in data/row20.sgt",
                    sg_tables::embedded_row_bytes(),
                ),
                (
                    "compiled-in data/knight.sgt",
                    sg_tables::embedded_knight_bytes(),
                ),
                (
                    "compiled-in data/knight-pattern.sgt",
                    sg_tables::embedded_knight_pattern_bytes(),
                ),
                (
                    "compiled-in data/octal-catalogue.sgt",
                    sg_tables::embedded_octal_catalogue_bytes(),
                ),
                (
                    "compiled-in data/cram-endgame.sgt",
                    sg_tables::embedded_cram_endgame_bytes(),
                ),
            ] {
                emit(name, Ok(bytes)).context(CANNOT_WRITE)?;
            }
        }
        Some(path) => {
            // A path that is not there is the command's mistake (exit
            // status 2), not a table that fails its checks (exit status 1).
            if let Err(error) = std::fs::symlink_metadata(&path)
                && wrong_path(&error)
            {
                bail!(UsageError(format!(
                    "cannot read {}: {error}",
                    sg_text::shown_path(&path)
                )));
            }
            let files = table_files(&path)?;
            for file in files {
                let name = sg_text::shown_path(&file);
                match open_table(&file, false) {
                    Ok(opened) => emit(&name, Ok(opened.bytes())),
                    Err(e) => emit(&name, Err(e.to_string())),
                }
                .context(CANNOT_WRITE)?;
            }
        }
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Writes one JSON line to standard output.
fn json_line(out: &mut impl Write, value: &JsonReport) -> Result<()> {
    let mut line = Vec::new();
    write_json_line(&mut line, value);
    Ok(out.write_all(&line)?)
}
