//! The temporary files being written: [`safe_write`](crate::safe_write)
//! adds each one when it creates it and takes it out once it is renamed or
//! removed; the thread of [`signals`](crate::signals) removes those still
//! there before it ends the process.

use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

/// The paths of the temporary files being written.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// [`LIVE`], locked (a panic elsewhere does not stop the cleaning). Held
/// while a temporary file is created or renamed, and by the signal thread
/// to the end, so that no file is created or renamed meanwhile.
pub(crate) fn live() -> MutexGuard<'static, Vec<PathBuf>> {
    LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
