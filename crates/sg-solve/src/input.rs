//! Reading the input of a judge subcommand, with bounded memory: a regular
//! file is memory-mapped (the kernel's page cache is the buffer; nothing is
//! copied), anything else (a pipe, a terminal, a character device such as
//! `/dev/zero`) is read into memory, and no input larger than the maximum
//! (`--max-input`, [`DEFAULT_MAX_INPUT`] by default) is accepted: a larger
//! one is refused before it is held, so `grundy floor /dev/zero` stops with
//! a clean error instead of filling the memory.
//!
//! Mapping is what makes whole-process runs on large files fast (no copy
//! and no page faults on a fresh heap buffer); small files are read, which
//! costs nothing measurable and keeps the promise below as narrow as it
//! can be: only files of at least [`MAP_THRESHOLD`] bytes are mapped.
//!
//! The promise: a mapped input file must not be modified or truncated
//! while `grundy` runs (see `--help` and the README, "Errors, exit
//! statuses and files").

use memmap2::Mmap;
use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::ops::Deref;
use std::path::Path;

/// The largest input accepted by default (`--max-input`): 1 GiB.
pub(crate) const DEFAULT_MAX_INPUT: &str = "1G";

/// Regular files of at least this many bytes are memory-mapped; smaller
/// ones are read (which also handles files whose size the kernel reports
/// as 0 or as a page, such as those of `/proc` and `/sys`).
pub(crate) const MAP_THRESHOLD: u64 = 1 << 20;

/// The bytes of an input, mapped or read.
#[derive(Debug)]
pub(crate) enum Input {
    /// A regular file of at least [`MAP_THRESHOLD`] bytes, mapped, with the
    /// offset at which the input starts (standard input may have been read
    /// from before `grundy` started).
    Mapped(Mmap, usize),
    /// Read into memory.
    Read(Vec<u8>),
}

impl Deref for Input {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Self::Mapped(map, start) => &map[*start..],
            Self::Read(bytes) => bytes,
        }
    }
}

/// Why the input could not be had.
#[derive(Debug)]
pub(crate) enum ReadError {
    /// The input is larger than the maximum: bad input (exit status 2).
    TooLarge {
        /// What was read (`standard input` or the file's name).
        what: String,
        /// The maximum, in bytes.
        limit: u64,
    },
    /// The file could not be opened or read (exit status 1).
    Io {
        /// What was read.
        what: String,
        /// Why.
        error: io::Error,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLarge { what, limit } => write!(
                f,
                "{what} is larger than the maximum input size of {}",
                format_size(*limit)
            ),
            Self::Io { what, error } => write!(f, "cannot read {what}: {error}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// `bytes` as `1 GiB`, `512 KiB` or `1000 bytes`, whichever is exact.
pub(crate) fn format_size(bytes: u64) -> String {
    for (shift, unit) in [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if bytes >= 1 << shift && bytes.trailing_zeros() >= shift {
            return format!("{} {unit}", bytes >> shift);
        }
    }
    format!("{bytes} bytes")
}

pub(crate) use sg_solve::numbers::parse_size;

/// The input `path` (standard input when `None`), at most `limit` bytes.
pub(crate) fn read_input(path: Option<&Path>, limit: u64) -> Result<Input, ReadError> {
    match path {
        Some(path) => {
            let what = sg_text::shown_path(path);
            let file = File::open(path).map_err(|error| ReadError::Io {
                what: what.clone(),
                error,
            })?;
            read_file(file, &what, limit)
        }
        None => read_stdin(limit),
    }
}

#[cfg(unix)]
fn read_stdin(limit: u64) -> Result<Input, ReadError> {
    use std::os::fd::AsFd;
    let what = "standard input";
    let io = |error| ReadError::Io {
        what: what.to_owned(),
        error,
    };
    // A duplicate of descriptor 0, so that standard input can be mapped
    // when it is a regular file (`grundy hdu1524 < FILE`).
    let file = File::from(io::stdin().as_fd().try_clone_to_owned().map_err(io)?);
    read_file(file, what, limit)
}

#[cfg(not(unix))]
fn read_stdin(limit: u64) -> Result<Input, ReadError> {
    read_stream(io::stdin().lock(), "standard input", limit)
}

/// Maps `file` if it is a regular file of at least [`MAP_THRESHOLD`]
/// bytes from its current position on; reads it otherwise.
fn read_file(mut file: File, what: &str, limit: u64) -> Result<Input, ReadError> {
    use std::io::{Seek, SeekFrom};
    let io = |error| ReadError::Io {
        what: what.to_owned(),
        error,
    };
    let metadata = file.metadata().map_err(io)?;
    if !metadata.is_file() {
        return read_stream(file, what, limit);
    }
    // Standard input may start anywhere in the file (`{ head -1; grundy; } < F`).
    let start = file.stream_position().map_err(io)?;
    let len = metadata.len().saturating_sub(start);
    if len > limit {
        return Err(ReadError::TooLarge {
            what: what.to_owned(),
            limit,
        });
    }
    if len < MAP_THRESHOLD {
        return read_stream(file, what, limit);
    }
    // SAFETY: the map is only read, as a `&[u8]`. A regular file that is
    // modified or truncated while mapped would change bytes behind that
    // shared reference (undefined behaviour) or make reads fault (SIGBUS):
    // the user promises not to (documented in `--help` of every judge
    // subcommand and in the README, "Errors, exit statuses and files"), as
    // for any program that maps its input. Pipes and devices are never mapped.
    let Ok(map) = (unsafe { Mmap::map(&file) }) else {
        // A file system that cannot map: read it instead.
        return read_stream(file, what, limit);
    };
    let start = usize::try_from(start).map_err(|_| io(io::Error::other("offset too large")))?;
    if map.len() < start || (map.len() - start) as u64 > limit {
        // The file changed between the size check and the map.
        return Err(ReadError::TooLarge {
            what: what.to_owned(),
            limit,
        });
    }
    // Leave the file position at the end, as reading would: a process that
    // shares this standard input after grundy sees it consumed.
    file.seek(SeekFrom::End(0)).map_err(io)?;
    Ok(Input::Mapped(map, start))
}

/// Reads `reader` to its end, refusing more than `limit` bytes (reading
/// at most one byte more than `limit`).
fn read_stream(reader: impl Read, what: &str, limit: u64) -> Result<Input, ReadError> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|error| ReadError::Io {
            what: what.to_owned(),
            error,
        })?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            what: what.to_owned(),
            limit,
        });
    }
    Ok(Input::Read(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_print() {
        assert_eq!(parse_size("1000"), Ok(1000));
        assert_eq!(parse_size("4K"), Ok(4096));
        assert_eq!(parse_size("3MiB"), Ok(3 << 20));
        assert_eq!(parse_size(DEFAULT_MAX_INPUT), Ok(1 << 30));
        assert!(parse_size("0").is_err());
        assert!(parse_size("-1").is_err());
        assert!(parse_size("+1").is_err());
        assert!(parse_size("1X").is_err());
        assert!(parse_size("99999999999T").is_err());
        assert_eq!(format_size(1 << 30), "1 GiB");
        assert_eq!(format_size(3 << 20), "3 MiB");
        assert_eq!(format_size(1000), "1000 bytes");
        assert_eq!(format_size(1025), "1025 bytes");
    }

    #[test]
    fn streams_are_bounded() {
        let data = [b'1'; 100];
        assert_eq!(&*read_stream(&data[..], "x", 100).unwrap(), &data[..]);
        let e = read_stream(&data[..], "x", 99).unwrap_err();
        assert!(matches!(e, ReadError::TooLarge { limit: 99, .. }), "{e}");
        // An endless stream stops one byte past the limit.
        let e = read_stream(io::repeat(0), "zeros", 1 << 16).unwrap_err();
        assert!(e.to_string().contains("64 KiB"), "{e}");
    }
}
