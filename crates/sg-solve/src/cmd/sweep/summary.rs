//! The summary file of a sweep: a line a game, read back and written
//! whole under its lock, with the lines other sweeps of the folder wrote.

use super::Sweep;
use super::lock::{open_lock, unsupported};
use super::specs::name;
use anyhow::{Context, Result};
use sg_tables::octal::CatalogueEntry;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::time::Instant;

/// How often the summary is rewritten while games end (it is written
/// whole, through a temporary file: after every game, a sweep of
/// thousands of quick games wrote gigabytes); a stopped or finished sweep
/// writes it at once.
pub(super) const SUMMARY_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

impl Sweep<'_> {
    /// Writes the summary file whole: the lines of the games this sweep
    /// has done, and those other sweeps of the folder wrote there (read
    /// and rewritten under the lock `DIR/locks/summary.lock`, so that
    /// sweeps of one folder at once lose none of each other's lines).
    pub(super) fn write_summary(&mut self) -> Result<()> {
        let path = self.locks.join("summary.lock");
        let lock = open_lock(&path)?;
        match lock.lock() {
            Ok(()) => {}
            Err(error) if unsupported(&error) => {}
            Err(error) => {
                return Err(error)
                    .with_context(|| format!("cannot lock {}", sg_text::shown_path(&path)));
            }
        }
        let mut lines: BTreeMap<String, String> =
            previous_lines(&self.summary_path).into_iter().collect();
        for line in &self.lines {
            let code = line.split('\t').next().unwrap_or_default();
            lines.insert(code.to_owned(), line.clone());
        }
        let text = summary_text(&lines);
        self.summary_written = Instant::now();
        self.summary
            .write(|out| out.write_all(text.as_bytes()).map_err(Into::into))
    }
}

/// The most a summary file read back may hold (a line a game: a sweep
/// of a million games writes about 100 MB).
const SUMMARY_LIMIT: u64 = 1 << 30;

/// The lines of the summary file `path` by code (none if it is absent,
/// unreadable, or not a regular file of at most [`SUMMARY_LIMIT`] bytes:
/// the summary is for people, the runs are the record; a FIFO or a device
/// there is never read).
pub(super) fn previous_lines(path: &Path) -> HashMap<String, String> {
    let regular = std::fs::symlink_metadata(path)
        .is_ok_and(|meta| meta.is_file() && meta.len() <= SUMMARY_LIMIT);
    // Read as lossy text: a byte that is not UTF-8 (an editor's Latin-1
    // comment) must not lose the other games' lines.
    let Some(bytes) = regular.then(|| std::fs::read(path).ok()).flatten() else {
        return HashMap::new();
    };
    let text = String::from_utf8_lossy(&bytes);
    text.lines()
        .skip(1)
        .filter_map(|line| Some((line.split_once('\t')?.0.to_owned(), line.to_owned())))
        .collect()
}

/// The header of a summary file.
const SUMMARY_HEADER: &str =
    "code\theaps computed\tpreperiod\tperiod\tcertified\tlargest value\tseconds\tmachine";

/// A game's line of the summary.
pub(super) fn summary_line(entry: &CatalogueEntry, seconds: f64, machine: &str) -> String {
    let (pre, per) = entry.period.map_or(("-".to_owned(), "-".to_owned()), |p| {
        (p.preperiod.to_string(), p.period.to_string())
    });
    format!(
        "{}\t{}\t{pre}\t{per}\t{}\t{}\t{seconds:.3}\t{machine}",
        name(&entry.rules),
        entry.computed,
        if entry.period.is_some() { "yes" } else { "no" },
        entry.max_value
    )
}

/// A summary's lines, header first, by code.
fn summary_text(lines: &BTreeMap<String, String>) -> String {
    let mut text = format!("{SUMMARY_HEADER}\n");
    for line in lines.values() {
        text.push_str(line);
        text.push('\n');
    }
    text
}

/// The machine's name, for the summary (`/proc/sys/kernel/hostname`, or
/// `HOSTNAME`; tabs and line breaks escaped).
pub(super) fn machine() -> String {
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "unknown".to_owned());
    sg_text::escape_line(name.trim()).replace('\t', " ")
}
