//! `grundy tables info|verify`: what table files hold, and whether they are intact.

use super::shared::open_table;
use anyhow::Result;
use sg_solve::error::escape_text;
use sg_solve::tables::{report, table_files};
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
    },
    /// Check table files completely; exit status 1 with the reason if one is corrupt.
    Verify {
        /// A .sgt file or a folder; the compiled-in tables when absent.
        path: Option<PathBuf>,
    },
}

/// Reports on the tables; exit status 1 if any table is invalid.
pub(crate) fn run(args: Args) -> Result<ExitCode> {
    let (path, verify) = match args.command {
        TablesCommand::Info { path } => (path, false),
        TablesCommand::Verify { path } => (path, true),
    };
    let mut ok = true;
    let mut out = std::io::stdout().lock();
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
            ] {
                ok &= report(name, bytes, verify, &mut out)?;
            }
        }
        Some(path) => {
            let files = table_files(&path)?;
            for file in files {
                let name = file.display().to_string();
                ok &= match open_table(&file, false) {
                    Ok(opened) => report(&name, opened.bytes(), verify, &mut out)?,
                    Err(e) => {
                        writeln!(out, "{}", escape_text(&format!("{name}: INVALID: {e}")))?;
                        false
                    }
                };
            }
        }
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
