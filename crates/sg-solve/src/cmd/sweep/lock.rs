//! The locks of a sweep's folder: a game's, so that sweeps of one folder
//! compute each game once, and the summary's.

use super::Sweep;
use super::specs::name;
use crate::cmd::shared::print_error;
use anyhow::{Context, Result, bail};
use sg_octal::Rules;
use std::fs::File;
use std::path::Path;

/// A game's lock, or why there is none.
pub(super) enum Claim {
    /// Held until dropped.
    Held(#[allow(dead_code)] File),
    /// Another sweep holds it.
    Busy,
}

impl Sweep<'_> {
    /// The lock of a game's run, waited for if `wait`. On a file system
    /// without locks (some network ones) the sweep goes on without, once
    /// warned.
    pub(super) fn claim(&mut self, rules: &Rules, wait: bool) -> Result<Claim> {
        let path = self.locks.join(format!("{}.lock", name(rules)));
        let file = open_lock(&path)?;
        let locked = if wait {
            file.lock().map_err(std::fs::TryLockError::Error)
        } else {
            file.try_lock()
        };
        match locked {
            Ok(()) => Ok(Claim::Held(file)),
            Err(std::fs::TryLockError::WouldBlock) => Ok(Claim::Busy),
            Err(std::fs::TryLockError::Error(error)) if unsupported(&error) => {
                if !self.unlocked_warned {
                    self.unlocked_warned = true;
                    print_error(format_args!(
                        "sweep: warning: cannot lock {} ({error}): two sweeps of this folder \
                         at once would compute the same games twice",
                        sg_text::shown_path(&path)
                    ));
                }
                Ok(Claim::Held(file))
            }
            Err(std::fs::TryLockError::Error(error)) => {
                Err(error).with_context(|| format!("cannot lock {}", sg_text::shown_path(&path)))
            }
        }
    }
}

/// The lock file `path` (an empty file, made if absent), opened to lock;
/// anything but a regular file there (a FIFO, a folder, a link) is refused.
pub(super) fn open_lock(path: &Path) -> Result<File> {
    if let Ok(meta) = std::fs::symlink_metadata(path)
        && !meta.is_file()
    {
        bail!(
            "{}: not a regular file; remove it (sweeps make it anew)",
            sg_text::shown_path(path)
        );
    }
    File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open {}", sg_text::shown_path(path)))
}

/// Whether a lock failed because the file system has none (`ENOSYS`,
/// `EOPNOTSUPP`; `ENOLCK`, 37 on Linux: NFS without its lock daemon).
pub(super) fn unsupported(error: &std::io::Error) -> bool {
    error.kind() == std::io::ErrorKind::Unsupported
        || (cfg!(target_os = "linux") && error.raw_os_error() == Some(37))
}
