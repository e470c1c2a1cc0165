//! The exceptions of the module and how the library's errors become them:
//! a bad argument is a `ValueError` with the command's message, a file
//! that cannot be written or read an `OSError` of the subclass its cause
//! has (`FileNotFoundError`, `IsADirectoryError`, `PermissionError`...),
//! a certificate that does not check a `ProofError`, a game whose moves
//! loop a `CycleError`.

use pyo3::create_exception;
use pyo3::exceptions::{PyMemoryError, PyOSError, PyValueError};
use pyo3::prelude::*;
use sg_files::safe_write::{Refusal, WriteError};
use std::io;
use std::path::Path;

create_exception!(
    grundy,
    ProofError,
    PyValueError,
    "A certificate that does not prove its nimber, or a file that is not a\n\
     well-formed certificate: the message names the first claim that fails.\n\n\
     >>> import grundy\n\
     >>> issubclass(grundy.ProofError, ValueError)\n\
     True"
);

create_exception!(
    grundy,
    CycleError,
    PyValueError,
    "The moves of a game defined in Python lead back to a position being\n\
     examined: the game has no nimber. The position is the exception's\n\
     attribute `position`.\n\n\
     >>> import grundy\n\
     >>> class Loop:\n\
     ...     def options(self, p):\n\
     ...         return [1 - p]\n\
     >>> try:\n\
     ...     grundy.nimber(Loop(), 0)\n\
     ... except grundy.CycleError as e:\n\
     ...     print(e.position in (0, 1))\n\
     True"
);

/// A `ValueError` with `message`.
pub(crate) fn value_error(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

/// A `MemoryError` with `message`.
pub(crate) fn memory_error(message: impl Into<String>) -> PyErr {
    PyMemoryError::new_err(message.into())
}

/// An `OSError` with `message`, of the subclass `errno` selects
/// (`OSError(errno.ENOENT, ...)` is a `FileNotFoundError`), naming
/// `path` (its `filename`); without an errno (a refusal with no cause of
/// the system: a link, a device), a plain `OSError` whose message names
/// the file (a `filename` without an errno would print as `[Errno None]
/// None`).
fn os_error(errno: Option<i32>, message: String, path: &Path) -> PyErr {
    match errno {
        Some(code) => PyOSError::new_err((code, message, path.as_os_str().to_owned())),
        None => PyOSError::new_err(message),
    }
}

/// The system's error under `error`: `error` itself, or an `io::Error`
/// a library wrapped in it and still shows.
fn system_error(error: &io::Error) -> &io::Error {
    let mut current = error;
    while current.raw_os_error().is_none() {
        let inner = current.get_ref().and_then(|inner| {
            inner
                .downcast_ref::<io::Error>()
                .or_else(|| inner.source()?.downcast_ref::<io::Error>())
        });
        match inner {
            Some(inner) => current = inner,
            None => break,
        }
    }
    current
}

/// The errno of `error`: the system's, or the one its kind stands for
/// where the errno was lost (`tempfile` wraps the error of creating the
/// temporary file in one of its own, with the kind of the system's error
/// but not its errno, and hides the original). Only the errnos every Unix
/// numbers alike (those below 35), as Python's `errno` has them.
fn errno_of(error: &io::Error) -> Option<i32> {
    use io::ErrorKind as K;
    error.raw_os_error().or(match error.kind() {
        K::NotFound => Some(libc_errno::ENOENT),
        K::PermissionDenied => Some(libc_errno::EACCES),
        K::Interrupted => Some(libc_errno::EINTR),
        K::OutOfMemory => Some(libc_errno::ENOMEM),
        K::ResourceBusy => Some(libc_errno::EBUSY),
        K::AlreadyExists => Some(libc_errno::EEXIST),
        K::CrossesDevices => Some(libc_errno::EXDEV),
        K::NotADirectory => Some(libc_errno::ENOTDIR),
        K::IsADirectory => Some(libc_errno::EISDIR),
        K::ExecutableFileBusy => Some(libc_errno::ETXTBSY),
        K::FileTooLarge => Some(libc_errno::EFBIG),
        K::StorageFull => Some(libc_errno::ENOSPC),
        K::ReadOnlyFilesystem => Some(libc_errno::EROFS),
        K::TooManyLinks => Some(libc_errno::EMLINK),
        _ => None,
    })
}

/// What went wrong, as the system says it (`Permission denied (os error
/// 13)`), never naming a temporary file the user did not name.
fn cause_text(error: &io::Error, errno: Option<i32>) -> String {
    match (error.raw_os_error(), errno) {
        (Some(_), _) => error.to_string(),
        (None, Some(code)) => io::Error::from_raw_os_error(code).to_string(),
        (None, None) => {
            // tempfile's wrapper: "<error> at path \"<temporary file>\"".
            let text = error.to_string();
            match text.find(" at path \"") {
                Some(at) => text[..at].to_owned(),
                None => text,
            }
        }
    }
}

/// The `OSError` for a file that cannot be written: the message of the
/// command (`cannot write PATH: it is a folder`), the subclass and errno
/// of its cause (`PermissionError`, errno 13, for a folder where no file
/// can be created), the user's path as its `filename` (never the
/// temporary file's).
pub(crate) fn write_error(error: WriteError) -> PyErr {
    match &error {
        WriteError::Refused { path, why } => {
            let errno = match why {
                Refusal::Folder => Some(libc_errno::EISDIR),
                Refusal::ReadOnly | Refusal::FolderNotWritable(_) => Some(libc_errno::EACCES),
                Refusal::NoFolder(_) => Some(libc_errno::ENOENT),
                Refusal::NotAFolder(_) => Some(libc_errno::ENOTDIR),
                _ => None,
            };
            os_error(errno, error.to_string(), path)
        }
        WriteError::Io { path, error } => {
            let cause = system_error(error);
            let errno = errno_of(cause);
            let message = format!(
                "cannot write {}: {}",
                sg_text::shown_path(path),
                cause_text(cause, errno)
            );
            os_error(errno, message, path)
        }
        _ => PyOSError::new_err(error.to_string()),
    }
}

/// The `OSError` for a file that cannot be read: `message`, of the
/// subclass of `error`, naming `path`.
pub(crate) fn read_error(path: &Path, error: &io::Error, message: String) -> PyErr {
    os_error(errno_of(system_error(error)), message, path)
}

/// The errno values the refusals map to (the same on every Unix and in
/// Python's `errno` module on Windows).
mod libc_errno {
    pub(super) const ENOENT: i32 = 2;
    pub(super) const EINTR: i32 = 4;
    pub(super) const ENOMEM: i32 = 12;
    pub(super) const EACCES: i32 = 13;
    pub(super) const EBUSY: i32 = 16;
    pub(super) const EEXIST: i32 = 17;
    pub(super) const EXDEV: i32 = 18;
    pub(super) const ENOTDIR: i32 = 20;
    pub(super) const EISDIR: i32 = 21;
    pub(super) const ETXTBSY: i32 = 26;
    pub(super) const EFBIG: i32 = 27;
    pub(super) const ENOSPC: i32 = 28;
    pub(super) const EROFS: i32 = 30;
    pub(super) const EMLINK: i32 = 31;
}
