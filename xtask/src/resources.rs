//! Will it fit? Available memory (`/proc/meminfo`) and disk space.

use anyhow::{Result, bail};
use std::path::Path;

fn mib(bytes: u64) -> u64 {
    bytes.div_ceil(1 << 20)
}

/// `MemAvailable` of `/proc/meminfo` in bytes, where there is one.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Fails, saying why, if `bytes` of working memory for `what` would not fit.
pub(crate) fn check_memory(what: &str, bytes: u64) -> Result<()> {
    // Leave a margin for everything else.
    if let Some(available) = available_memory()
        && bytes > available / 10 * 9
    {
        bail!(
            "generating {what} needs {} MiB of memory but only {} MiB are available \
             (MemAvailable in /proc/meminfo); choose a smaller table",
            mib(bytes),
            mib(available)
        );
    }
    Ok(())
}

/// Free space for unprivileged users on the file system of `dir`.
#[cfg(unix)]
fn available_disk(dir: &Path) -> Option<u64> {
    let stat = rustix::fs::statvfs(dir).ok()?;
    Some(stat.f_bavail.saturating_mul(stat.f_frsize))
}

#[cfg(not(unix))]
fn available_disk(_dir: &Path) -> Option<u64> {
    None
}

/// Fails, saying why, if `bytes` of files would not fit in `dir`.
pub(crate) fn check_disk(dir: &Path, bytes: u64) -> Result<()> {
    if let Some(available) = available_disk(dir)
        && bytes > available
    {
        bail!(
            "the tables take {} MiB but only {} MiB are free on the disk of {}",
            mib(bytes),
            mib(available),
            sg_text::shown_path(dir)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_does_not_fit() {
        let err = check_memory("a huge table", u64::MAX)
            .unwrap_err()
            .to_string();
        if available_memory().is_some() {
            assert!(err.contains("MiB of memory but only"), "{err}");
        }
        check_memory("a tiny table", 1).unwrap();
        let dir = std::env::temp_dir();
        if available_disk(&dir).is_some() {
            let err = check_disk(&dir, u64::MAX).unwrap_err().to_string();
            assert!(err.contains("MiB are free on the disk"), "{err}");
        }
        check_disk(&dir, 1).unwrap();
    }
}
