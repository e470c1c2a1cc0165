//! What the machine offers the searches: the default memory of a search's
//! transposition table (a quarter of the machine's memory), the same for
//! every front end (`grundy cram --memory`, the Python module's `memory=`).

/// The table's memory when the machine's cannot be read: 1 GiB.
pub const FALLBACK_MEMORY: u64 = 1 << 30;

/// A quarter of the machine's memory ([`machine_memory`]), or
/// [`FALLBACK_MEMORY`] where it cannot be read.
pub fn default_table_memory() -> u64 {
    machine_memory().map_or(FALLBACK_MEMORY, |bytes| bytes / 4)
}

/// `MemTotal` of `/proc/meminfo`, in bytes.
pub fn machine_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_machine_has_some_memory() {
        assert!(super::machine_memory().is_none_or(|m| m > 1 << 20));
        assert!(super::default_table_memory() > 0);
    }
}
