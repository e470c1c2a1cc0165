//! How many threads `grundy` runs: the count asked for (`--threads T`,
//! else the environment's `RAYON_NUM_THREADS`), but never more than one
//! per CPU the process may run on (its CPU affinity and quota): beyond
//! them, threads only take turns on the same cores while the work they
//! share waits on the slowest (`RAYON_NUM_THREADS=4096` made `octal .6
//! --to 100000` 35 times slower on 2 CPUs, and a million threads never
//! ended). A request that is lowered is said on standard error, once.

use std::sync::OnceLock;

/// The variable of the rayon pools' default size.
const RAYON_VARIABLE: &str = "RAYON_NUM_THREADS";

/// The CPUs this process may run on (at least 1), read once.
pub(crate) fn cpus() -> usize {
    static CPUS: OnceLock<usize> = OnceLock::new();
    *CPUS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The threads to run for `asked` (`--threads`; `None`: the environment's
/// request, else one per CPU), at most [`cpus`], with a note on standard
/// error when a request is lowered.
pub(crate) fn capped(asked: Option<u32>) -> usize {
    let cpus = cpus();
    let (wanted, by) = match asked {
        Some(t) => (t as usize, format!("--threads {t}")),
        None => match environment_request() {
            Some(n) => (n, format!("{RAYON_VARIABLE}={n}")),
            None => return cpus,
        },
    };
    if wanted <= cpus {
        return wanted.max(1);
    }
    // Never a panic where standard error cannot be written (`2>/dev/full`).
    super::shared::print_error(format_args!(
        "note: {by} lowered to {cpus}: one thread per CPU this process may run on"
    ));
    cpus
}

/// A positive count in `RAYON_NUM_THREADS` (rayon ignores any other value,
/// as this does).
fn environment_request() -> Option<usize> {
    let value = std::env::var(RAYON_VARIABLE).ok()?;
    value.trim().parse::<usize>().ok().filter(|&n| n > 0)
}

/// Starts rayon's global pool, which the octal engine and the tables'
/// checks share, with [`capped`]`(asked)` threads, so that the environment
/// cannot make it larger. Called once, before the pool is first used.
pub(crate) fn start_global_pool(asked: Option<u32>) -> anyhow::Result<()> {
    use anyhow::Context;
    rayon::ThreadPoolBuilder::new()
        .num_threads(capped(asked))
        .build_global()
        .context("cannot start the worker threads")
}
