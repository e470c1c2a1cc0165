//! Tables in files: [`read_file`] into an aligned buffer, or [`open_mmap`].

use crate::aligned::AlignedBytes;
use crate::error::TableError;
use crate::table::{Table, Validated, validate};
use memmap2::Mmap;
use std::fs::File;
use std::io::Read;
use std::path::Path;

fn io_error(path: &Path, error: std::io::Error) -> TableError {
    TableError::Io {
        path: path.to_owned(),
        error,
    }
}

/// A table file read into memory by [`read_file`], validated once: it keeps
/// the decoded header and metadata.
#[derive(Debug)]
pub struct OwnedTable {
    bytes: AlignedBytes,
    validated: Validated,
}

impl OwnedTable {
    /// The table, as validated when read (this decodes nothing).
    pub fn table(&self) -> Table<'_> {
        Table::borrowing(&self.validated, &self.bytes)
    }

    /// The whole file.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// Reads and validates a table file (checksum included) into a 64-byte
/// aligned buffer: the safe alternative to [`open_mmap`].
pub fn read_file(path: impl AsRef<Path>) -> Result<OwnedTable, TableError> {
    let path = path.as_ref();
    let mut file = File::open(path).map_err(|e| io_error(path, e))?;
    let len = file.metadata().map_err(|e| io_error(path, e))?.len();
    let len = usize::try_from(len).map_err(|_| TableError::Truncated {
        what: "file (too large for this platform)",
        needed: len,
        len,
    })?;
    let mut bytes = AlignedBytes::zeroed(len);
    file.read_exact(bytes.as_mut_slice())
        .map_err(|e| io_error(path, e))?;
    // The file may have grown since its length was read: refuse that too.
    let mut probe = [0u8; 1];
    if file.read(&mut probe).map_err(|e| io_error(path, e))? != 0 {
        return Err(TableError::TrailingBytes { extra: 1 });
    }
    let validated = validate(&bytes, true)?;
    Ok(OwnedTable { bytes, validated })
}

/// A memory-mapped table file, opened by [`open_mmap`], validated once: it
/// keeps the decoded header and metadata.
#[derive(Debug)]
pub struct MappedTable {
    map: Mmap,
    validated: Validated,
}

impl MappedTable {
    /// The table, as validated when mapped (this decodes nothing).
    pub fn table(&self) -> Table<'_> {
        Table::borrowing(&self.validated, &self.map)
    }

    /// The whole mapped file.
    pub fn bytes(&self) -> &[u8] {
        &self.map
    }
}

/// Maps a table file into memory and validates it, payload checksum
/// included (which reads the whole file once).
///
/// # Safety
///
/// The caller promises that, for as long as the returned [`MappedTable`]
/// lives, no process modifies or truncates the file. A memory map reflects
/// changes to the file: a modification would change bytes that Rust
/// assumes immutable behind a `&[u8]` (undefined behaviour), and a
/// truncation makes reads of the lost pages fault (`SIGBUS`). Files that
/// `cargo xtask gen` writes are replaced by rename, never rewritten in
/// place, so regenerating them while mapped is fine.
pub unsafe fn open_mmap(path: impl AsRef<Path>) -> Result<MappedTable, TableError> {
    // SAFETY: the caller's promise is ours.
    unsafe { map(path.as_ref(), true) }
}

/// Like [`open_mmap`] but without the payload checksum, so that pages are
/// read only when looked up; every other check still runs.
///
/// # Safety
///
/// As for [`open_mmap`]: the file must not be modified or truncated while
/// the returned [`MappedTable`] lives.
pub unsafe fn open_mmap_unverified(path: impl AsRef<Path>) -> Result<MappedTable, TableError> {
    // SAFETY: the caller's promise is ours.
    unsafe { map(path.as_ref(), false) }
}

/// # Safety
///
/// As for [`open_mmap`].
unsafe fn map(path: &Path, verify_checksum: bool) -> Result<MappedTable, TableError> {
    let file = File::open(path).map_err(|e| io_error(path, e))?;
    // SAFETY: the caller promises the file is neither modified nor truncated
    // while the map (owned by the returned `MappedTable`) lives.
    let map = unsafe { Mmap::map(&file) }.map_err(|e| io_error(path, e))?;
    let validated = validate(&map, verify_checksum)?;
    Ok(MappedTable { map, validated })
}
