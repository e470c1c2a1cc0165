//! `cargo xtask inputs --out DIR`: writes the benchmark inputs of
//! `sg_bench::all_inputs` (deterministic, at and beyond the judges' limits)
//! for whole-process measurements. Nothing large is committed.

use anyhow::{Context, Result};
use std::path::Path;

/// Writes every input into `out` and lists them.
pub(crate) fn write_all(out: &Path) -> Result<()> {
    std::fs::create_dir_all(out)
        .with_context(|| format!("cannot create {}", sg_text::shown_path(out)))?;
    for input in sg_bench::all_inputs() {
        let path = out.join(input.name);
        sg_files::safe_write::write_file(&path, &[&input.bytes])?;
        println!(
            "{:<24} {:>10} bytes   grundy {} {}",
            input.name,
            input.bytes.len(),
            input.subcommand,
            sg_text::shown_path(&path)
        );
    }
    Ok(())
}
