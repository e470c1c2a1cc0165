//! Sharing a frame's pass two between threads near the root of the
//! search: after the first options were searched alone, each other option
//! is examined by a worker of its own (on rayon's threads), and the first
//! that has the value sought stops the others.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::Stop;
use super::worker::Worker;
use crate::game::{Game, Nimber};

/// Frames at most this deep in the search share their pass two between
/// threads.
const PARALLEL_DEPTH: usize = 3;

/// Deeper frames share their pass two too while a thread is idle (fewer
/// workers searching than threads), down to this depth: the work of a
/// search often ends in one long job, which would otherwise stay on one
/// thread while the others wait (Cram 4x11 on two threads: 1.09x the
/// time of one thread without this).
const IDLE_PARALLEL_DEPTH: usize = 16;

/// The options of a shared pass two searched alone first, in order (the
/// "young brothers wait" of parallel alpha-beta): the first options are
/// often the one sought, and the others then need no search; the work
/// under the first ones is shared deeper down.
///
/// Measured with 2 threads (`grundy cram RxC --threads 2`, medians of
/// interleaved runs against sharing every option at once at depth 2):
/// waiting for 2 options and sharing to depth 3 took 0.85x the time on
/// 5x8 and 0.84x on 4x11, 0.93x on 5x7, but 1.1x on 3x14 and 1.3x on 4x9
/// (both under 2 s); waiting for 1 or 3, or sharing to depth 2, 4 or 5,
/// did less well on 5x8.
pub(super) const YOUNG_BROTHERS_WAIT: usize = 2;

impl<G: Game> Worker<'_, '_, G> {
    /// Whether the top frame's pass two is shared between threads: near
    /// the root of the search (where the work under each option is large),
    /// when there are threads to share it with.
    pub(super) fn parallel_here(&self) -> bool {
        let Some(pool) = &self.solver.pool else {
            return false;
        };
        let depth = self.base_depth + self.stack.len();
        depth <= PARALLEL_DEPTH
            || (depth <= IDLE_PARALLEL_DEPTH
                && self.solver.searching.load(Ordering::Relaxed) < pool.current_num_threads())
    }

    /// Pass two of the top frame on all threads: looks for an option of
    /// nimber `t` among those of `order`, each examined by a worker of its
    /// own; the first found stops the others.
    pub(super) fn parallel_scan(&mut self) -> Result<Option<usize>, Stop> {
        let frame = self.stack.last().expect("a frame");
        let t = frame.t;
        let jobs: Vec<(usize, Vec<G::Position>, Nimber)> = self.lists.order
            [frame.order + frame.cursor..frame.order + frame.order_len]
            .iter()
            .map(|&option| {
                let (parts, _, known) = self.lists.option(frame.moves + option as usize);
                (option as usize, parts.to_vec(), known)
            })
            .collect();
        let stop = AtomicBool::new(false);
        let mut stops = self.stops.clone();
        stops.push(&stop);
        let solver = self.solver;
        let base_depth = self.base_depth + self.stack.len();
        // Each job's worker starts with what this one learnt of good
        // replies (a worker without it searches much more).
        // Only near the root: a worker's history is large, and a copy for
        // each of the many short jobs of a deep frame cost more than it
        // saved.
        let history = (base_depth <= PARALLEL_DEPTH).then_some(&self.history);
        // This worker waits for the jobs (its thread runs some of them).
        solver.searching.fetch_sub(1, Ordering::Relaxed);
        let found = jobs
            .par_iter()
            .with_max_len(1)
            .map(|(option, parts, known)| {
                if stop.load(Ordering::Relaxed) {
                    return Ok(None);
                }
                solver.searching.fetch_add(1, Ordering::Relaxed);
                let mut worker = Worker::new(solver, stops.clone(), base_depth);
                if let Some(history) = history {
                    worker.history.clone_from(history);
                }
                let result = worker.sum_has_nimber(parts, t ^ known);
                worker.retire();
                solver.searching.fetch_sub(1, Ordering::Relaxed);
                match result {
                    Ok(true) => {
                        stop.store(true, Ordering::Relaxed);
                        Ok(Some(*option))
                    }
                    Ok(false) => Ok(None),
                    Err(Stop::Cancelled) if stop.load(Ordering::Relaxed) => Ok(None),
                    Err(other) => Err(other),
                }
            })
            .find_map_any(|result: Result<Option<usize>, Stop>| match result {
                Ok(None) => None,
                other => Some(other),
            });
        solver.searching.fetch_add(1, Ordering::Relaxed);
        found.transpose().map(Option::flatten)
    }
}
