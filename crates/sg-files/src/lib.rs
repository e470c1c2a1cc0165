//! Files that `grundy` writes for its user (a table of `grundy octal
//! --out`, a picture of `--png`, a certificate, the tables of `cargo xtask
//! gen --out DIR`), and the process's stop signals while it writes them.
//!
//! For: replacing a file the user named so that it is always either the
//! old one or the complete new one, refusing anything but a regular file
//! that can be written, and leaving no temporary file behind on a failure
//! or on `SIGINT`, `SIGTERM` or `SIGHUP`. Not for: what the files hold
//! (`sg-tables` encodes the tables, `sg-solve` the pictures and
//! certificates), nor reading them.
//!
//! - The writes, in [`safe_write`]:
//!   [`Destination::check`](safe_write::Destination::check) looks at a
//!   path before any work is done,
//!   [`Destination::write`](safe_write::Destination::write) writes through
//!   a unique temporary file in the same folder, `fsync` and a rename;
//!   [`write_file`](safe_write::write_file) does both for bytes in memory.
//! - The stop signals, in [`signals`]: the thread that removes the
//!   temporary files being written on a stop signal, then ends the process
//!   as the signal would have; [`StopSignals`](signals::StopSignals) for a
//!   long run that writes a last checkpoint before it ends, and
//!   [`leave_signals_to_host`](signals::leave_signals_to_host) for a
//!   library loaded into a program that handles the signals itself (the
//!   Python module).
//! - What a path that is not a regular file is, in words ("a FIFO", "a
//!   device"), in [`file_type`]: the refusals here and `sg-tables`'
//!   readers say it the same way.
//!
//! # Example
//!
//! ```
//! use sg_files::safe_write::{Destination, Refusal, WriteError, write_file};
//! use std::io::Write;
//!
//! let dir = std::env::temp_dir().join(format!("sg-files-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let path = dir.join("values.txt");
//! write_file(&path, &[b"0 1 ", b"2 0\n"])?;
//! assert_eq!(std::fs::read(&path)?, b"0 1 2 0\n");
//!
//! // Checked before the work, written after it.
//! let destination = Destination::check(&path)?;
//! destination.write(|out| {
//!     out.write_all(b"1 2 3\n").map_err(|error| WriteError::Io {
//!         path: path.clone(),
//!         error,
//!     })
//! })?;
//! assert_eq!(std::fs::read(&path)?, b"1 2 3\n");
//!
//! // A folder is refused, and nothing is written.
//! match Destination::check(&dir) {
//!     Err(WriteError::Refused { why, .. }) => assert_eq!(why, Refusal::Folder),
//!     other => panic!("{other:?}"),
//! }
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod file_type;
mod live;
pub mod safe_write;
pub mod signals;

/// The examples of the crate's README.md, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
