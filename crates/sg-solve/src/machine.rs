//! What the machine offers the searches: the default memory of a search's
//! transposition table (a quarter of the machine's memory), the same for
//! every front end (`grundy cram --memory`, the Python module's `memory=`);
//! and the one rule of the variables that lower the vector code.

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

/// The value of a variable that lowers the vector code for benchmarking
/// (`GRUNDY_OCTAL_SIMD` for the octal engine, `GRUNDY_SCAN_SIMD` for the
/// input decoder) by their one rule, the same for every front end: unset,
/// `Ok(None)`; empty, or `avx512`, `avx2` or `portable` in any case,
/// `Ok(Some(value))`; anything else `Err` with the message, naming the
/// `engine` the variable lowers.
pub fn simd_variable(variable: &str, engine: &str) -> Result<Option<String>, String> {
    let Some(value) = std::env::var_os(variable) else {
        return Ok(None);
    };
    match value
        .to_str()
        .filter(|text| sg_octal::Simd::parse(Some(text)).is_ok())
    {
        Some(text) => Ok(Some(text.to_owned())),
        None => Err(format!(
            "the environment variable {variable} is {}: expected avx512, avx2 or portable \
             (the most vector instructions {engine} uses), or unset",
            sg_text::quote_bytes(value.as_encoded_bytes())
        )),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_machine_has_some_memory() {
        assert!(super::machine_memory().is_none_or(|m| m > 1 << 20));
        assert!(super::default_table_memory() > 0);
    }
}
