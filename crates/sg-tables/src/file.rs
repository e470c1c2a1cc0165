//! Tables in files: [`read_file`] into an aligned buffer, [`open_mmap`],
//! or [`open`], which reads small files and maps only large ones;
//! [`read_cram_endgame`] for a Cram endgame table of its own. Every
//! one opens regular files only: a FIFO, a device or a folder is refused
//! before anything is read from it (opening a FIFO without a writer would
//! block forever).

use crate::aligned::AlignedBytes;
use crate::cram::CramEndgameTable;
use crate::error::TableError;
use crate::layout::{HEADER_LEN, Header};
use crate::table::{Checksums, Table, Validated, validate};
use memmap2::Mmap;
use sg_files::file_type::describe_type;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

fn io_error(path: &Path, error: std::io::Error) -> TableError {
    TableError::Io {
        path: path.to_owned(),
        error,
    }
}

/// Opens `path` for reading if it is a regular file. The open itself does
/// not block (`O_NONBLOCK`, which has no effect on regular files), and the
/// type is checked on the opened file, so a path swapped for a FIFO in
/// between is refused too.
fn open_regular(path: &Path) -> Result<File, TableError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32);
    }
    let file = options.open(path).map_err(|e| io_error(path, e))?;
    let file_type = file.metadata().map_err(|e| io_error(path, e))?.file_type();
    if !file_type.is_file() {
        return Err(TableError::NotRegularFile {
            path: path.to_owned(),
            what: describe_type(file_type),
        });
    }
    Ok(file)
}

/// The header of the table file `path`, checked (see [`Header::parse`]),
/// read without reading the rest. Only regular files are opened.
pub fn read_header(path: impl AsRef<Path>) -> Result<Header, TableError> {
    let path = path.as_ref();
    let file = open_regular(path)?;
    let mut header = Vec::with_capacity(HEADER_LEN);
    file.take(HEADER_LEN as u64)
        .read_to_end(&mut header)
        .map_err(|e| io_error(path, e))?;
    Header::parse(&header)
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
    let file = open_regular(path)?;
    read_opened(file, path, true)
}

/// The Cram endgame table of the file `path` (a user's, say): read,
/// validated (checksums and records) and held in memory of its own, ready
/// for `Cram::with_endgame(Arc::new(table))`. Its nimbers are not
/// recomputed here: [`CramEndgameTable::verify_values`] does that (a few
/// seconds of CPU for 14 cells).
pub fn read_cram_endgame(path: impl AsRef<Path>) -> Result<CramEndgameTable<'static>, TableError> {
    let file = read_file(path)?;
    let table = file.table().cram_endgame()?.into_owned();
    Ok(table)
}

/// The checksums compared when opening a file: the payload's only if asked.
fn checksums(verify_payload: bool) -> Checksums {
    if verify_payload {
        Checksums::Both
    } else {
        Checksums::Metadata
    }
}

fn read_opened(
    mut file: File,
    path: &Path,
    verify_checksum: bool,
) -> Result<OwnedTable, TableError> {
    let len = file.metadata().map_err(|e| io_error(path, e))?.len();
    // The header first: a file that is no table, or longer than its header
    // says (a disk image, a 10 GB download given by mistake), is refused
    // before it is read whole.
    if len >= HEADER_LEN as u64 {
        let mut prefix = [0u8; HEADER_LEN];
        file.read_exact(&mut prefix)
            .map_err(|e| io_error(path, e))?;
        let header = Header::parse(&prefix)?;
        if let Some(end) = header.payload_offset.checked_add(header.payload_len)
            && end < len
        {
            return Err(TableError::TrailingBytes { extra: len - end });
        }
        file.seek(SeekFrom::Start(0))
            .map_err(|e| io_error(path, e))?;
    }
    let too_large = || {
        let e = std::io::Error::new(
            std::io::ErrorKind::OutOfMemory,
            format!("{len} bytes do not fit in memory"),
        );
        io_error(path, e)
    };
    let len = usize::try_from(len).map_err(|_| too_large())?;
    let mut bytes = AlignedBytes::try_zeroed(len).ok_or_else(too_large)?;
    file.read_exact(bytes.as_mut_slice())
        .map_err(|e| io_error(path, e))?;
    // The file may have grown since its length was read: refuse that too.
    let mut probe = [0u8; 1];
    if file.read(&mut probe).map_err(|e| io_error(path, e))? != 0 {
        return Err(TableError::TrailingBytes { extra: 1 });
    }
    let validated = validate(&bytes, checksums(verify_checksum))?;
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
    let file = open_regular(path)?;
    // SAFETY: the caller's promise is ours.
    unsafe { map_opened(&file, path, verify_checksum) }
}

/// # Safety
///
/// As for [`open_mmap`].
unsafe fn map_opened(
    file: &File,
    path: &Path,
    verify_checksum: bool,
) -> Result<MappedTable, TableError> {
    // SAFETY: the caller promises the file is neither modified nor truncated
    // while the map (owned by the returned `MappedTable`) lives.
    let map = unsafe { Mmap::map(file) }.map_err(|e| io_error(path, e))?;
    let validated = validate(&map, checksums(verify_checksum))?;
    Ok(MappedTable { map, validated })
}

/// Files up to this size are read into memory by [`open`]; larger ones are
/// mapped. 64 MiB: every table `cargo xtask gen` makes by default, and
/// row tables up to 2^26 rows and knight tables up to 8192^2 squares.
pub const COPY_LIMIT: u64 = 64 << 20;

/// A table file opened by [`open`]: read into memory, or mapped if large.
#[derive(Debug)]
pub enum TableFile {
    /// At most [`COPY_LIMIT`] bytes, read.
    Owned(OwnedTable),
    /// Larger, mapped.
    Mapped(MappedTable),
}

impl TableFile {
    /// The table, as validated when opened.
    pub fn table(&self) -> Table<'_> {
        match self {
            Self::Owned(t) => t.table(),
            Self::Mapped(t) => t.table(),
        }
    }

    /// The whole file.
    pub fn bytes(&self) -> &[u8] {
        match self {
            Self::Owned(t) => t.bytes(),
            Self::Mapped(t) => t.bytes(),
        }
    }
}

/// Opens a table file, validated: files up to [`COPY_LIMIT`] bytes are read
/// into memory (nothing can change them afterwards), larger ones are
/// memory-mapped. Without `verify_checksum`, every check but the payload
/// checksum (as [`open_mmap_unverified`]).
///
/// # Safety
///
/// As for [`open_mmap`], for files larger than [`COPY_LIMIT`] only: such a
/// file must not be modified or truncated while the returned
/// [`TableFile`] lives.
pub unsafe fn open(path: impl AsRef<Path>, verify_checksum: bool) -> Result<TableFile, TableError> {
    let path = path.as_ref();
    let file = open_regular(path)?;
    let len = file.metadata().map_err(|e| io_error(path, e))?.len();
    if len <= COPY_LIMIT {
        return read_opened(file, path, verify_checksum).map(TableFile::Owned);
    }
    // SAFETY: the caller's promise, for files above COPY_LIMIT.
    unsafe { map_opened(&file, path, verify_checksum) }.map(TableFile::Mapped)
}
