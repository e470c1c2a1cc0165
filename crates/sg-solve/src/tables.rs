//! Table files for `grundy tables` and `--tables DIR`: finding the table
//! of a kind in a folder, listing a folder's table files, and the
//! `tables info|verify` report.

use sg_tables::format::{Header, TableKind};
use sg_tables::{Table, TableError};
use std::fmt::Write;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// Why no table could be found in a folder.
#[derive(Debug, thiserror::Error)]
pub enum FindError {
    /// The folder or a file in it could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The folder or file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// No `.sgt` file of that kind.
    #[error("no {kind} table (*.sgt) in {dir}; make one with `cargo xtask gen --out {dir}`")]
    NotFound {
        /// The folder.
        dir: PathBuf,
        /// The kind looked for.
        kind: TableKind,
    },
    /// A `.sgt` file whose header is invalid.
    #[error("{path}: {source}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: TableError,
    },
}

/// The `.sgt` file of `dir` holding a table of `kind` with the most
/// entries (for rows: the widest), judged by the headers only.
pub fn find_table(dir: &Path, kind: TableKind) -> Result<PathBuf, FindError> {
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| FindError::Io { path, source }
    };
    let mut best: Option<(u64, PathBuf)> = None;
    for entry in std::fs::read_dir(dir).map_err(io(dir))? {
        let path = entry.map_err(io(dir))?.path();
        if path.extension().is_none_or(|e| e != "sgt") {
            continue;
        }
        let mut header = [0u8; sg_tables::format::HEADER_LEN];
        let mut file = std::fs::File::open(&path).map_err(io(&path))?;
        let read = file.read(&mut header).map_err(io(&path))?;
        let header = Header::parse(&header[..read]).map_err(|source| FindError::Invalid {
            path: path.clone(),
            source,
        })?;
        if header.kind == kind && best.as_ref().is_none_or(|(n, _)| header.payload_len > *n) {
            best = Some((header.payload_len, path));
        }
    }
    best.map(|(_, path)| path)
        .ok_or_else(|| FindError::NotFound {
            dir: dir.to_owned(),
            kind,
        })
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
    let _ = writeln!(w, "{name}");
    let _ = writeln!(w, "  kind:            {} (code {})", h.kind, h.kind.code());
    let _ = writeln!(w, "  format version:  {}", h.version);
    let _ = writeln!(w, "  game:            {}", info.metadata.game);
    let _ = writeln!(w, "  generator:       {}", info.metadata.generator);
    if h.kind != TableKind::KnightPattern {
        // A pattern's payload is its encoded description, not entries.
        let _ = writeln!(w, "  entries:         {} (one byte each)", h.payload_len);
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
        Ok(text) => out.write_all(text.as_bytes())?,
        Err(e) => writeln!(out, "{name}: INVALID: {e}")?,
    }
    Ok(checked.is_ok())
}

/// Every check of the table `bytes`, checksum included (a knight pattern is
/// certified): a one-line summary of what it holds, or why it is invalid.
fn verify_table(bytes: &[u8]) -> Result<String, TableError> {
    let t = Table::from_bytes(bytes)?;
    Ok(match t.kind() {
        TableKind::Row => format!("row table, width {}", t.row()?.width()),
        TableKind::Knight => format!("knight table, size {}", t.knight()?.size()),
        TableKind::KnightPattern => format!(
            "knight pattern, {} bytes, certificate checked",
            t.knight_pattern()?.to_bytes().len()
        ),
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
    /// The table kind (`row`, `knight`, `knight pattern`).
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
/// sorted.
pub fn table_files(path: &Path) -> io::Result<Vec<PathBuf>> {
    if !path.is_dir() {
        return Ok(vec![path.to_owned()]);
    }
    let mut files = Vec::new();
    for entry in std::fs::read_dir(path)? {
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
