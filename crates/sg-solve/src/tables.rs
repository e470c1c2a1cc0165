//! Table files for `grundy tables` and `--tables DIR`: finding the table
//! of a kind in a folder, listing a folder's table files, and the
//! `tables info|verify` report.

use crate::error::escape_bytes;
use sg_tables::format::TableKind;
use sg_tables::{Table, TableError};
use sg_text::{escape_lines, shown_path};
use std::fmt::Write;
use std::io;
use std::path::{Path, PathBuf};

/// Why no table could be found in a folder.
#[derive(Debug, thiserror::Error)]
pub enum FindError {
    /// The folder could not be read. (The underlying error is shown in the
    /// message, so it is not a `source()`: a chain prints each cause once.)
    #[error("cannot read {}: {error}", shown_path(.path))]
    Io {
        /// The folder.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// No valid `.sgt` file of that kind.
    #[error(
        "no {kind} table (*.sgt) in {}; make one with `cargo xtask gen --out {}`",
        shown_path(.dir),
        shown_path(.dir)
    )]
    NotFound {
        /// The folder.
        dir: PathBuf,
        /// The kind looked for.
        kind: TableKind,
    },
}

/// The table files of a folder that may hold a table of some kind.
#[derive(Debug, Default)]
pub struct Found {
    /// The `.sgt` files whose header says that kind, the most entries
    /// first (for rows: the widest).
    pub candidates: Vec<PathBuf>,
    /// The `.sgt` files that are not table files at all (not a regular
    /// file, or no valid header), with why.
    pub skipped: Vec<(PathBuf, TableError)>,
}

/// The `.sgt` files of `dir` that hold a table of `kind`, judged by their
/// headers only, the most entries first; the files that are not tables are
/// listed apart. Only regular files are opened, without blocking.
pub fn find_tables(dir: &Path, kind: TableKind) -> Result<Found, FindError> {
    let mut found = Found::default();
    let mut sized = Vec::new();
    for path in table_files_of(dir).map_err(|error| FindError::Io {
        path: dir.to_owned(),
        error,
    })? {
        match sg_tables::read_header(&path) {
            Ok(header) if header.kind == kind => sized.push((header.payload_len, path)),
            Ok(_) => {}
            Err(e) => found.skipped.push((path, e)),
        }
    }
    // The largest first; among equals, by name (deterministic).
    sized.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    found.candidates = sized.into_iter().map(|(_, path)| path).collect();
    Ok(found)
}

/// A description of the table file `bytes` (named `name`) for
/// `grundy tables info`: kind, version, metadata, sizes and checksums.
/// Fails only if the file cannot be read as a table at all; a payload
/// checksum mismatch is reported in the text.
pub fn describe(name: &str, bytes: &[u8]) -> Result<String, TableError> {
    let table = Table::from_bytes_unverified(bytes)?;
    let info = table.info();
    let h = &info.header;
    let actual = crc32fast_hash(table.payload());
    let crc_state = if actual == h.payload_crc {
        "matches the payload".to_owned()
    } else {
        format!("MISMATCH: the payload's is {actual:#010x}")
    };
    let mut out = String::new();
    let w = &mut out;
    let _ = writeln!(w, "{}", escape_lines(name));
    let _ = writeln!(w, "  kind:            {} (code {})", h.kind, h.kind.code());
    let _ = writeln!(w, "  format version:  {}", h.version);
    let _ = writeln!(w, "  game:            {}", info.metadata.game);
    // Text from the file: escaped, as anything it says could be.
    let _ = writeln!(
        w,
        "  generator:       {}",
        escape_bytes(info.metadata.generator.as_bytes(), 200)
    );
    match h.kind {
        TableKind::Row | TableKind::Knight => {
            let _ = writeln!(w, "  entries:         {} (one byte each)", h.payload_len);
        }
        TableKind::OctalSequence => {
            let _ = writeln!(w, "  entries:         {} (u16 each)", h.payload_len / 2);
        }
        // A pattern's or catalogue's payload is encoded, not entries.
        TableKind::KnightPattern | TableKind::OctalCatalogue | TableKind::OctalRuns => {}
        TableKind::MisereQuotient => {}
        TableKind::CramEndgame => describe_cram(w, &table),
    }
    let _ = writeln!(
        w,
        "  metadata:        {} bytes at offset 64 (postcard), CRC-32 {:#010x}",
        h.metadata_len, h.metadata_crc
    );
    let _ = writeln!(
        w,
        "  payload:         {} bytes at offset {}",
        h.payload_len, h.payload_offset
    );
    let _ = writeln!(
        w,
        "  payload CRC-32:  {:#010x} ({crc_state})",
        h.payload_crc
    );
    let _ = writeln!(w, "  file size:       {} bytes", bytes.len());
    Ok(out)
}

/// The lines of `grundy tables info` about a Cram endgame table: its
/// polyominoes by size and its index, or why its records are invalid.
fn describe_cram(w: &mut String, table: &Table<'_>) {
    if let sg_tables::format::Game::CramEndgame {
        slots,
        nimber_bits,
        fingerprint_bits,
        ..
    } = table.info().metadata.game
    {
        let _ = writeln!(
            w,
            "  index:           a static function per size, {slots} slots of {} bits \
             ({nimber_bits}-bit nimber, {fingerprint_bits}-bit fingerprint)",
            nimber_bits + fingerprint_bits
        );
        let _ = writeln!(
            w,
            "  keys not held:   said not held, except one in 2^{fingerprint_bits}"
        );
    }
    match table.cram_endgame() {
        Ok(cram) => {
            let counts: Vec<String> = (1..=cram.max_cells())
                .map(|n| cram.count(n).unwrap_or(0).to_string())
                .collect();
            let _ = writeln!(
                w,
                "  polyominoes:     {} in all; by size from 1 cell: {}",
                cram.len(),
                counts.join(" ")
            );
        }
        Err(e) => {
            let _ = writeln!(w, "  records:         INVALID: {e}");
        }
    }
}

/// For `grundy tables info` (`verify` false: [`describe`]) and `grundy
/// tables verify` (every check, checksum included): writes the report of
/// the table `bytes` named `name` to `out`; returns whether it is valid.
pub fn report(
    name: &str,
    bytes: &[u8],
    verify: bool,
    out: &mut impl io::Write,
) -> io::Result<bool> {
    let checked = if verify {
        verify_table(bytes).map(|summary| format!("{name}: ok ({summary})\n"))
    } else {
        describe(name, bytes)
    };
    match &checked {
        Ok(text) => out.write_all(escape_lines(text).as_bytes())?,
        Err(e) => writeln!(out, "{}", escape_lines(&format!("{name}: INVALID: {e}")))?,
    }
    Ok(checked.is_ok())
}

/// Every check of the table `bytes`, checksum and values included (a
/// knight pattern is certified): a one-line summary of what it holds, or
/// why it is invalid.
fn verify_table(bytes: &[u8]) -> Result<String, TableError> {
    let t = Table::from_bytes(bytes)?;
    t.verify_values()?;
    Ok(match t.kind() {
        TableKind::Row => format!("row table, width {}, values checked", t.row()?.width()),
        TableKind::Knight => format!("knight table, size {}, values checked", t.knight()?.size()),
        TableKind::KnightPattern => format!(
            "knight pattern, {} bytes, certificate checked",
            t.knight_pattern()?.to_bytes().len()
        ),
        TableKind::OctalSequence => {
            let s = t.octal_sequence()?;
            format!(
                "octal sequence of {}, {} values, values checked",
                s.rules(),
                s.values().len()
            )
        }
        TableKind::OctalCatalogue => {
            let c = t.octal_catalogue()?;
            let solved = c.entries().iter().filter(|e| e.period.is_some()).count();
            format!(
                "octal catalogue, {} games, {solved} solved, heaps up to {}, values checked",
                c.entries().len(),
                c.limit()
            )
        }
        TableKind::CramEndgame => {
            let c = t.cram_endgame()?;
            format!(
                "Cram endgame, every polyomino of at most {} cells, {} polyominoes, values checked",
                c.max_cells(),
                c.len()
            )
        }
        TableKind::MisereQuotient => {
            let q = t.misere_quotient()?;
            format!(
                "misère quotient of {}, heaps 0..={}, order {}, proven",
                q.rules(),
                q.stored().pretending.len() - 1,
                q.stored().order
            )
        }
        TableKind::OctalRuns => {
            let runs = t.octal_runs()?;
            let solved = runs.entries().iter().filter(|e| e.period.is_some()).count();
            format!(
                "octal runs, {} games, {solved} certified, values checked",
                runs.entries().len()
            )
        }
    })
}

/// A table file's report as one JSON object (`grundy tables info|verify
/// --json`): what its header and metadata say, and whether it is valid.
#[derive(Debug, serde::Serialize)]
pub struct JsonReport {
    /// The file's name.
    pub file: String,
    /// With `verify`: every check passed; otherwise: the header and the
    /// metadata are valid and the payload's checksum matches.
    pub ok: bool,
    /// Why not, when not `ok`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// What the header and metadata say, when they can be read.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub info: Option<JsonInfo>,
}

/// The header and metadata of a table file, for [`JsonReport`].
#[derive(Debug, serde::Serialize)]
pub struct JsonInfo {
    /// The table kind (`row`, `knight`, `knight pattern`, ...).
    pub kind: String,
    /// The format version.
    pub format_version: u32,
    /// The game and its parameters, as `grundy tables info` prints them.
    pub game: String,
    /// The program that wrote the table.
    pub generator: String,
    /// Bytes of payload.
    pub payload_len: u64,
    /// The payload's CRC-32 recorded in the header.
    pub payload_crc: u32,
    /// The file's length in bytes.
    pub file_len: u64,
}

/// The report of the table `bytes` named `name` as JSON ([`report`]'s
/// checks: all of them with `verify`).
pub fn report_json(name: &str, bytes: &[u8], verify: bool) -> JsonReport {
    let table = Table::from_bytes_unverified(bytes);
    let info = table.as_ref().ok().map(|t| {
        let (h, metadata) = (&t.info().header, &t.info().metadata);
        JsonInfo {
            kind: h.kind.to_string(),
            format_version: h.version,
            game: metadata.game.to_string(),
            generator: metadata.generator.clone(),
            payload_len: h.payload_len,
            payload_crc: h.payload_crc,
            file_len: bytes.len() as u64,
        }
    });
    let checked = if verify {
        verify_table(bytes).map(drop)
    } else {
        table.and_then(|t| {
            let (want, actual) = (t.info().header.payload_crc, crc32fast_hash(t.payload()));
            if want == actual {
                Ok(())
            } else {
                Table::from_bytes(bytes).map(drop)
            }
        })
    };
    JsonReport {
        file: name.to_owned(),
        ok: checked.is_ok(),
        error: checked.err().map(|e| e.to_string()),
        info,
    }
}

/// The table files `path` names: itself, or the `.sgt` files of a folder,
/// sorted; a folder without any is an error.
pub fn table_files(path: &Path) -> io::Result<Vec<PathBuf>> {
    if !path.is_dir() {
        return Ok(vec![path.to_owned()]);
    }
    let files = table_files_of(path)?;
    if files.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("no table file (*.sgt) in {}", shown_path(path)),
        ));
    }
    Ok(files)
}

/// The `.sgt` entries of the folder `dir`, sorted.
fn table_files_of(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let file = entry?.path();
        if file.extension().is_some_and(|e| e == "sgt") {
            files.push(file);
        }
    }
    files.sort();
    Ok(files)
}

fn crc32fast_hash(bytes: &[u8]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(bytes);
    hasher.finalize()
}
