//! `grundy sweep merge`: the runs of sweep folders checked and written
//! as one table of kind "octal runs".

use super::MergeArgs;
use super::specs::name;
use crate::cmd::shared::{destination, print_error};
use anyhow::{Context, Result, bail};
use sg_tables::format::{Game, Metadata, encode};
use sg_tables::octal::CatalogueEntry;
use sg_tables::octal_runs::{encode_octal_runs, octal_runs_count, run_entry};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The generator named in the tables written.
const GENERATOR: &str = concat!("grundy ", env!("CARGO_PKG_VERSION"));

/// `grundy sweep merge`: every run of the folders checked, their results
/// written as one table; a file that is not a valid run is refused with
/// its name, and nothing is written.
pub(super) fn merge(args: MergeArgs) -> Result<ExitCode> {
    let out = destination(&args.out)?;
    if let Some(parent) = args.out.parent().map(|p| {
        if p.as_os_str().is_empty() {
            Path::new(".")
        } else {
            p
        }
    }) && let Ok(parent) = parent.canonicalize()
    {
        for dir in &args.dirs {
            if dir
                .join("runs")
                .canonicalize()
                .is_ok_and(|runs| runs == parent)
            {
                bail!(
                    "--out {}: in the runs folder of {}, which holds runs only: write the \
                     table elsewhere",
                    sg_text::shown_path(&args.out),
                    sg_text::shown_path(dir)
                );
            }
        }
    }
    crate::cmd::threads::start_global_pool(args.threads)?;
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in &args.dirs {
        let runs = dir.join("runs");
        let listing = std::fs::read_dir(&runs)
            .with_context(|| format!("cannot read the runs of {}", sg_text::shown_path(dir)))?;
        let mut here: Vec<PathBuf> = listing
            .map(|e| e.map(|e| e.path()))
            .collect::<std::io::Result<_>>()
            .with_context(|| format!("cannot read {}", sg_text::shown_path(&runs)))?;
        here.retain(|p| p.extension().is_some_and(|e| e == "sgt"));
        here.sort();
        files.extend(here);
    }
    let mut entries: Vec<CatalogueEntry> = Vec::new();
    for path in &files {
        let shown = sg_text::shown_path(path);
        let table = sg_tables::read_file(path).with_context(|| format!("{shown}: refused"))?;
        let sequence = table
            .table()
            .octal_sequence()
            .with_context(|| format!("{shown}: refused: not a run of a sweep"))?;
        let rules = sequence.rules().clone();
        let named = path.file_stem().and_then(|s| s.to_str());
        if named != Some(name(&rules).as_str()) {
            bail!("{shown}: refused: it holds the game {rules}, which its name does not say");
        }
        let values = sequence.values().to_vec();
        sg_octal::check_values(&rules, &values, &mut |_| {})
            .with_context(|| format!("{shown}: refused: its values are not those of {rules}"))?;
        let entry = run_entry(&rules, values).with_context(|| format!("{shown}: refused"))?;
        entries.push(entry);
    }
    if entries.is_empty() {
        bail!("no runs to merge in the folders given");
    }
    // One record a game: of two runs of one game (two sweeps), the one
    // that went further.
    entries.sort_by(|a, b| {
        (a.rules.to_string(), a.period.is_some(), a.computed).cmp(&(
            b.rules.to_string(),
            b.period.is_some(),
            b.computed,
        ))
    });
    let payload = encode_octal_runs(&entries);
    let metadata = Metadata {
        game: Game::OctalRuns {
            games: octal_runs_count(&entries),
            len: payload.len() as u64,
        },
        generator: GENERATOR.to_owned(),
    };
    let bytes = encode(&metadata, &payload)?;
    out.write(|w| {
        w.write_all(&bytes)
            .with_context(|| format!("cannot write {}", sg_text::shown_path(&args.out)))
    })?;
    print_error(format_args!(
        "merged {} runs of {} games into {}",
        files.len(),
        octal_runs_count(&entries),
        sg_text::shown_path(&args.out)
    ));
    Ok(ExitCode::SUCCESS)
}
