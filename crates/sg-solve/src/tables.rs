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
    match h.kind {
        TableKind::Row | TableKind::Knight => {
            let _ = writeln!(w, "  entries:         {} (one byte each)", h.payload_len);
        }
        TableKind::OctalSequence => {
            let _ = writeln!(w, "  entries:         {} (u16 each)", h.payload_len / 2);
        }
        // A pattern's or catalogue's payload is encoded, not entries.
        TableKind::KnightPattern | TableKind::OctalCatalogue => {}
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
        Table::from_bytes(bytes).and_then(|t| match t.kind() {
            TableKind::Row => t
                .row()
                .map(|r| format!("{name}: ok (row table, width {})\n", r.width())),
            TableKind::Knight => t
                .knight()
                .map(|k| format!("{name}: ok (knight table, size {})\n", k.size())),
            TableKind::KnightPattern => t.knight_pattern().map(|p| {
                format!(
                    "{name}: ok (knight pattern, {} bytes, certificate checked)\n",
                    p.to_bytes().len()
                )
            }),
            TableKind::OctalSequence => t.octal_sequence().map(|s| {
                format!(
                    "{name}: ok (octal sequence of {}, {} values)\n",
                    s.rules(),
                    s.values().len()
                )
            }),
            TableKind::OctalCatalogue => t.octal_catalogue().map(|c| {
                let solved = c.entries().iter().filter(|e| e.period.is_some()).count();
                format!(
                    "{name}: ok (octal catalogue, {} games, {solved} solved, heaps up to {})\n",
                    c.entries().len(),
                    c.limit()
                )
            }),
        })
    } else {
        describe(name, bytes)
    };
    match &checked {
        Ok(text) => out.write_all(text.as_bytes())?,
        Err(e) => writeln!(out, "{name}: INVALID: {e}")?,
    }
    Ok(checked.is_ok())
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
