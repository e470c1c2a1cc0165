//! The exceptions of the module and how the library's errors become them:
//! a bad argument is a `ValueError` with the command's message, a file
//! that cannot be written or read an `OSError` of the subclass its cause
//! has (`FileNotFoundError`, `IsADirectoryError`, `PermissionError`...),
//! a certificate that does not check a `ProofError`, a game whose moves
//! loop a `CycleError`.

use pyo3::create_exception;
use pyo3::exceptions::{PyMemoryError, PyOSError, PyValueError};
use pyo3::prelude::*;
use sg_tables::safe_write::{Refusal, WriteError};
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
/// `path`; a plain `OSError` without an errno.
fn os_error(errno: Option<i32>, message: String, path: &Path) -> PyErr {
    let filename = path.to_string_lossy().into_owned();
    match errno {
        Some(code) => PyOSError::new_err((code, message, filename)),
        None => PyOSError::new_err(message),
    }
}

/// The `OSError` for a file that cannot be written: the message of the
/// command (`cannot write PATH: it is a folder`), the subclass of its
/// cause.
pub(crate) fn write_error(error: WriteError) -> PyErr {
    let message = error.to_string();
    match &error {
        WriteError::Refused { path, why } => {
            let errno = match why {
                Refusal::Folder => Some(libc_errno::EISDIR),
                Refusal::ReadOnly | Refusal::FolderNotWritable(_) => Some(libc_errno::EACCES),
                Refusal::NoFolder(_) => Some(libc_errno::ENOENT),
                Refusal::NotAFolder(_) => Some(libc_errno::ENOTDIR),
                _ => None,
            };
            os_error(errno, message, path)
        }
        WriteError::Io { path, error } => os_error(error.raw_os_error(), message, path),
        _ => PyOSError::new_err(message),
    }
}

/// The `OSError` for a file that cannot be read: `message`, of the
/// subclass of `error`.
pub(crate) fn read_error(path: &Path, error: &std::io::Error, message: String) -> PyErr {
    os_error(error.raw_os_error(), message, path)
}

/// The errno values the refusals map to (the same on every Unix and in
/// Python's `errno` module on Windows).
mod libc_errno {
    pub(super) const ENOENT: i32 = 2;
    pub(super) const EACCES: i32 = 13;
    pub(super) const ENOTDIR: i32 = 20;
    pub(super) const EISDIR: i32 = 21;
}
