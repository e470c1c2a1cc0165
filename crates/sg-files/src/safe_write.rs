//! Writing a file that the user named (a table of `grundy octal --out`, a
//! picture of `--png`, the tables of `cargo xtask gen --out DIR`) so that
//! the file is always either the old one or the complete new one, and
//! nothing but a regular file is ever replaced.
//!
//! [`Destination::check`] looks at the path before any work is done, and
//! refuses (a [`WriteError::Refused`], which the user must fix) a folder, a
//! symbolic link, a device, a FIFO, a socket, a read-only file, a folder
//! that does not exist or cannot be written. A symbolic link is refused
//! rather than followed or replaced: replacing it would break the user's
//! link, and writing to its target would replace a file the user did not
//! name.
//!
//! [`Destination::write`] then writes the new contents to a temporary file
//! of a unique name in the same folder (`.NAME.XXXXXX.tmp`, created with
//! `O_EXCL`, so it can never be a file of the user's), flushes it to the
//! disk (`fsync`), gives it the old file's permissions (a new file gets
//! `0666` less the umask), and renames it over the destination, which is
//! checked once more just before. On every failure the temporary file is
//! removed; on `SIGINT`, `SIGTERM` or `SIGHUP` during a write too: the
//! first write starts the thread of [`signals`](crate::signals) that, on
//! one of these signals, removes the temporary files being written and
//! then ends the process as the signal would have (a signal that was
//! ignored when the process started stays ignored). Only `SIGKILL` or a
//! power loss can leave a temporary file, which the next write never
//! mistakes for anything of the user's ([`leftover_temporaries`] lists
//! them). A long run that checkpoints asks for the first of these signals
//! to be only recorded
//! ([`StopSignals`](crate::signals::StopSignals)), so that it writes its
//! last checkpoint before it ends.

use crate::file_type::describe_type;
use crate::live::live;
use crate::signals::remove_temporaries_on_signals;
use std::ffi::OsString;
use std::fs::{self, File, Permissions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Why a file cannot be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The destination is not one to write: the user must name another.
    #[error("cannot write {}: {why}", sg_text::shown_path(.path))]
    Refused {
        /// The destination.
        path: PathBuf,
        /// Why it is refused.
        why: Refusal,
    },
    /// The system failed (a full disk, an I/O error, permissions).
    #[error("cannot write {}: {error}", sg_text::shown_path(.path))]
    Io {
        /// The destination.
        path: PathBuf,
        /// The underlying error (shown in the message, so not a `source`).
        error: io::Error,
    },
}

impl WriteError {
    /// Whether the user must fix the command (a refused destination),
    /// rather than the environment being at fault.
    pub fn is_refusal(&self) -> bool {
        matches!(self, Self::Refused { .. })
    }
}

/// Why a destination is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// The path ends in `/`, `.` or `..`, or is empty.
    #[error("it names no file")]
    NoFileName,
    /// A folder.
    #[error("it is a folder")]
    Folder,
    /// A symbolic link (never followed, never replaced).
    #[error("it is a symbolic link; name the file itself (links are never followed or replaced)")]
    SymbolicLink,
    /// A device, a FIFO, a socket or another special file.
    #[error("it is {0}, not a regular file")]
    NotRegular(&'static str),
    /// A regular file without write permission.
    #[error("it is read-only")]
    ReadOnly,
    /// The folder of the destination does not exist.
    #[error("the folder {} does not exist", sg_text::shown_path(.0))]
    NoFolder(PathBuf),
    /// What should be the folder of the destination is not a folder.
    #[error("{} is not a folder", sg_text::shown_path(.0))]
    NotAFolder(PathBuf),
    /// The folder of the destination cannot be written.
    #[error("the folder {} is not writable", sg_text::shown_path(.0))]
    FolderNotWritable(PathBuf),
}

/// A path checked by [`Destination::check`], ready to be written.
#[derive(Debug, Clone)]
pub struct Destination {
    path: PathBuf,
    folder: PathBuf,
    /// The existing file's permissions, given to the new one.
    permissions: Option<Permissions>,
}

impl Destination {
    /// Checks that `path` may be written: a regular file that the user can
    /// write, or nothing yet in a folder that exists and can be written.
    /// Anything else is a [`WriteError::Refused`].
    pub fn check(path: impl AsRef<Path>) -> Result<Self, WriteError> {
        let path = path.as_ref();
        let refused = |why| WriteError::Refused {
            path: path.to_owned(),
            why,
        };
        if path.file_name().is_none() || path.as_os_str().as_encoded_bytes().ends_with(b"/") {
            return Err(refused(Refusal::NoFileName));
        }
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
            _ => PathBuf::from("."),
        };
        let permissions = existing_file(path).map_err(|e| e.at(path))?;
        match fs::metadata(&folder) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => return Err(refused(Refusal::NotAFolder(folder))),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(refused(Refusal::NoFolder(folder)));
            }
            Err(error) => {
                return Err(WriteError::Io {
                    path: path.to_owned(),
                    error,
                });
            }
        }
        if !writable(&folder, true) {
            return Err(refused(Refusal::FolderNotWritable(folder)));
        }
        Ok(Self {
            path: path.to_owned(),
            folder,
            permissions,
        })
    }

    /// The destination's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes what `contents` writes into the destination, through a
    /// temporary file and a rename (see the [module](self)). If `contents`
    /// fails because writing failed, the error is that
    /// [`WriteError::Io`]; otherwise its own error. Either way the
    /// destination is left as it was.
    pub fn write<E: From<WriteError>>(
        &self,
        contents: impl FnOnce(&mut dyn Write) -> Result<(), E>,
    ) -> Result<(), E> {
        let io = |error| WriteError::Io {
            path: self.path.clone(),
            error,
        };
        let temporary =
            Temporary::create(&self.folder, &self.path, self.permissions.as_ref()).map_err(io)?;
        let (written, failed) = {
            let mut out = Tracked {
                inner: BufWriter::with_capacity(1 << 16, temporary.file()),
                failed: None,
            };
            let written = contents(&mut out);
            let _ = out.flush();
            (written, out.failed)
        };
        if let Some(error) = failed {
            return Err(io(error).into());
        }
        written?;
        temporary.finish(self).map_err(Into::into)
    }
}

/// Writes `parts`, one after the other, into the file `path`, checked and
/// written as [`Destination`] does.
pub fn write_file(path: impl AsRef<Path>, parts: &[&[u8]]) -> Result<(), WriteError> {
    let path = path.as_ref();
    Destination::check(path)?.write(|out| {
        parts
            .iter()
            .try_for_each(|part| out.write_all(part))
            .map_err(|error| WriteError::Io {
                path: path.to_owned(),
                error,
            })
    })
}

/// The temporary files that writes of `path` killed by `SIGKILL` (or a
/// power loss) left in its folder: `.NAME.XXXXXX.tmp`. A write never
/// leaves one otherwise.
pub fn leftover_temporaries(path: &Path) -> Vec<PathBuf> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let prefix = temporary_prefix(path);
    let Ok(entries) = fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .filter(|entry| {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            name.strip_prefix(prefix.to_string_lossy().as_ref())
                .and_then(|rest| rest.strip_suffix(TEMPORARY_SUFFIX))
                .is_some_and(|random| {
                    random.len() == RANDOM_CHARS
                        && random.bytes().all(|b| b.is_ascii_alphanumeric())
                })
        })
        .map(|entry| entry.path())
        .collect();
    found.sort();
    found
}

/// Random characters in a temporary file's name.
const RANDOM_CHARS: usize = 6;
/// The end of a temporary file's name.
const TEMPORARY_SUFFIX: &str = ".tmp";
/// The most bytes of the destination's name kept in a temporary file's
/// name (a name of 255 bytes must still leave room for the rest).
const NAME_BYTES_KEPT: usize = 64;

/// `.NAME.`: how the temporary files of `path` start.
fn temporary_prefix(path: &Path) -> OsString {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let mut end = name.len().min(NAME_BYTES_KEPT);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    format!(".{}.", &name[..end]).into()
}

/// The permissions of the regular file at `path`, `None` if there is
/// nothing there; a refusal for anything else.
fn existing_file(path: &Path) -> Result<Option<Permissions>, PathlessError> {
    let metadata = match fs::symlink_metadata(path) {
        Ok(m) => m,
        // Nothing there, or no folder above: the check of the folder says.
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
            ) =>
        {
            return Ok(None);
        }
        Err(e) => return Err(PathlessError::Io(e)),
    };
    let file_type = metadata.file_type();
    let why = if file_type.is_symlink() {
        Refusal::SymbolicLink
    } else if file_type.is_dir() {
        Refusal::Folder
    } else if !file_type.is_file() {
        Refusal::NotRegular(describe_type(file_type))
    } else if metadata.permissions().readonly() || !writable(path, false) {
        Refusal::ReadOnly
    } else {
        return Ok(Some(metadata.permissions()));
    };
    Err(PathlessError::Refused(why))
}

/// An error of a check, before the path is attached.
enum PathlessError {
    Refused(Refusal),
    Io(io::Error),
}

impl PathlessError {
    fn at(self, path: &Path) -> WriteError {
        let path = path.to_owned();
        match self {
            Self::Refused(why) => WriteError::Refused { path, why },
            Self::Io(error) => WriteError::Io { path, error },
        }
    }
}

/// Whether this process may write `path` (and, for a folder, enter it),
/// as the system's permission check says.
fn writable(path: &Path, folder: bool) -> bool {
    #[cfg(unix)]
    {
        use rustix::fs::Access;
        let mode = if folder {
            Access::WRITE_OK | Access::EXEC_OK
        } else {
            Access::WRITE_OK
        };
        rustix::fs::access(path, mode).is_ok()
    }
    #[cfg(not(unix))]
    {
        let _ = (path, folder);
        true
    }
}

/// A writer that keeps the first error of its writer, so that a failure
/// of the contents' encoder can be told from a failure of the disk.
struct Tracked<W> {
    inner: W,
    failed: Option<io::Error>,
}

impl<W: Write> Tracked<W> {
    /// Keeps the first error, and gives the caller a copy.
    fn track<T>(&mut self, result: io::Result<T>) -> io::Result<T> {
        result.map_err(|error| {
            let copy = match error.raw_os_error() {
                Some(code) => io::Error::from_raw_os_error(code),
                None => io::Error::new(error.kind(), error.to_string()),
            };
            self.failed.get_or_insert(error);
            copy
        })
    }
}

impl<W: Write> Write for Tracked<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let result = self.inner.write(buf);
        self.track(result)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        let result = self.inner.write_all(buf);
        self.track(result)
    }

    fn flush(&mut self) -> io::Result<()> {
        let result = self.inner.flush();
        self.track(result)
    }
}

/// A temporary file being written, in the list of [`live`] until it is renamed or
/// removed (on drop).
struct Temporary {
    file: Option<tempfile::NamedTempFile>,
}

impl Temporary {
    /// Creates `.NAME.XXXXXX.tmp` in `folder` for the destination `path`,
    /// with `permissions` (`0666` less the umask when `None`).
    fn create(folder: &Path, path: &Path, permissions: Option<&Permissions>) -> io::Result<Self> {
        remove_temporaries_on_signals();
        let prefix = temporary_prefix(path);
        let mut builder = tempfile::Builder::new();
        builder
            .prefix(&prefix)
            .suffix(TEMPORARY_SUFFIX)
            .rand_bytes(RANDOM_CHARS);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(Permissions::from_mode(0o666));
        }
        // Locked while the file is created, so that a signal in between
        // waits for its path to be known.
        let mut live = live();
        // The error without the temporary file's name, which tempfile adds
        // to its message: the user's file is the one to name.
        let file = builder
            .tempfile_in(folder)
            .map_err(|e| match e.raw_os_error() {
                Some(code) => io::Error::from_raw_os_error(code),
                None => io::Error::new(e.kind(), e.kind().to_string()),
            })?;
        live.push(file.path().to_owned());
        drop(live);
        let temporary = Self { file: Some(file) };
        if let Some(permissions) = permissions {
            // Exactly the old file's mode, whatever the umask.
            temporary.file().set_permissions(permissions.clone())?;
        }
        Ok(temporary)
    }

    fn file(&self) -> &File {
        self.file
            .as_ref()
            .expect("present until finished")
            .as_file()
    }

    /// Flushes the file to the disk and renames it over `destination`,
    /// checked once more; then flushes the folder.
    fn finish(mut self, destination: &Destination) -> Result<(), WriteError> {
        let path = &destination.path;
        let io = |error| WriteError::Io {
            path: path.clone(),
            error,
        };
        self.file().sync_all().map_err(io)?;
        let file = self.file.take().expect("present until finished");
        let temporary = file.path().to_owned();
        let mut live = live();
        // On failure the file is dropped, which removes it.
        let renamed = match existing_file(path) {
            Ok(_) => file.persist(path).map(drop).map_err(|e| io(e.error)),
            Err(e) => Err(e.at(path)),
        };
        live.retain(|p| *p != temporary);
        drop(live);
        renamed?;
        // The rename itself to the disk (best effort: some file systems
        // cannot flush a folder).
        if let Ok(folder) = File::open(&destination.folder) {
            let _ = folder.sync_all();
        }
        Ok(())
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if let Some(file) = self.file.take() {
            let path = file.path().to_owned();
            let mut live = live();
            drop(file); // removes it
            live.retain(|p| *p != path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn refusal(path: &Path) -> Refusal {
        match Destination::check(path) {
            Err(WriteError::Refused { why, .. }) => why,
            other => panic!("{}: {other:?}", path.display()),
        }
    }

    #[test]
    fn writes_replace_the_file_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("table.sgt");
        write_file(&path, &[b"first", b" file"]).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"first file");
        write_file(&path, &[b"second"]).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        // A failure of the contents leaves the old file and no temporary.
        let destination = Destination::check(&path).unwrap();
        let failed = destination.write(|out| {
            out.write_all(b"half").unwrap();
            Err(WriteError::Refused {
                path: PathBuf::new(),
                why: Refusal::Folder,
            })
        });
        assert!(failed.is_err());
        assert_eq!(fs::read(&path).unwrap(), b"second");
        assert_eq!(names(dir.path()), ["table.sgt"]);
        assert!(!live().iter().any(|p| p.starts_with(dir.path())));
    }

    #[cfg(unix)]
    #[test]
    fn the_old_files_permissions_are_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("private.sgt");
        fs::write(&path, b"old").unwrap();
        fs::set_permissions(&path, Permissions::from_mode(0o640)).unwrap();
        write_file(&path, &[b"new"]).unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
    }

    #[test]
    fn what_is_not_a_writable_regular_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let at = |name: &str| dir.path().join(name);
        assert_eq!(refusal(dir.path()), Refusal::Folder);
        assert_eq!(refusal(&at("sub/")), Refusal::NoFileName);
        assert_eq!(refusal(&at("..")), Refusal::NoFileName);
        assert_eq!(
            refusal(&at("missing/x.sgt")),
            Refusal::NoFolder(at("missing"))
        );
        fs::write(at("file"), b"").unwrap();
        assert_eq!(refusal(&at("file/x.sgt")), Refusal::NotAFolder(at("file")));
        let mut read_only = fs::metadata(at("file")).unwrap().permissions();
        read_only.set_readonly(true);
        fs::set_permissions(at("file"), read_only).unwrap();
        assert_eq!(refusal(&at("file")), Refusal::ReadOnly);
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("file", at("link")).unwrap();
            assert_eq!(refusal(&at("link")), Refusal::SymbolicLink);
            assert_eq!(
                refusal(Path::new("/dev/null")),
                Refusal::NotRegular("a device")
            );
        }
        assert!(Destination::check(at("new.sgt")).is_ok());
    }

    #[test]
    fn only_leftovers_of_the_file_are_listed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("row8.sgt");
        for name in [
            ".row8.sgt.Ab12yZ.tmp",
            ".row8.sgt.Ab12y.tmp",
            "row8.sgt.tmp",
            ".row8.sgt.Ab12yZ.tmpx",
            ".row9.sgt.Ab12yZ.tmp",
        ] {
            fs::write(dir.path().join(name), b"").unwrap();
        }
        assert_eq!(
            leftover_temporaries(&path),
            [dir.path().join(".row8.sgt.Ab12yZ.tmp")]
        );
        // A long name is cut in the temporary's name, which stays valid.
        let long = dir.path().join("é".repeat(100));
        write_file(&long, &[b"x"]).unwrap();
        assert_eq!(fs::read(&long).unwrap(), b"x");
    }
}
