//! The crew: the threads that share the first passes of the heaps
//! (`heap::first_unreached` for each heap, from the values known when it
//! starts), while the calling thread (the leader) settles the heaps in
//! order (a sequential step), and computes first passes too when it has
//! nothing to settle.
//!
//! The heaps go in chunks of [`CHUNK`]. Any thread claims the next chunk,
//! as long as it is at most a few chunks (the *lookahead*) beyond the first
//! chunk not settled yet, and computes it from the latest state the leader
//! published: after each chunk it settles, the leader publishes the state
//! with the values known then. So there is no barrier between batches: a
//! chunk's first pass lacks only the options into the few heaps settled
//! since (the leader adds them when it settles the chunk), and the other
//! threads never wait for the leader's sequential step as long as the
//! lookahead holds work.
//!
//! A chunk's first pass takes microseconds: a thread pool that puts idle
//! threads to sleep (rayon's) spends about as long waking them. The crew's
//! threads wait for work spinning for a while (about [`SPIN`]) before they
//! park; the leader wakes one parked thread for each chunk it settles
//! (each opens one more chunk to claim).
//!
//! # Sharing the machine
//!
//! The crew never has more threads than the cores the process may run on
//! (`Sequence` sees to it). Still, other runs and other programs take
//! cores, and then a thread may be descheduled for a whole time slice of
//! the system's scheduler (milliseconds) in the middle of a chunk. So the
//! leader never waits long for a chunk: after spinning about twice the
//! time it takes itself to compute a chunk, it computes the chunk itself
//! (the other thread's result, when it comes, is recognised as stale by
//! the chunk number of its slot, and dropped). And the crew measures
//! itself ([`Measure`], kept from one run to the next): epochs of at
//! least [`EPOCH`] chunks and [`EPOCH_TIME`], now and then one with the
//! other threads parked (the leader alone, as on one thread), and keeps
//! whichever settles its chunks faster (the crew only when it gains
//! [`CREW_GAIN`] percent), so that a run is not slower than on one thread
//! when the cores are busy, and gets the crew back when they free up.
//! Probes of a crew that loses become rarer, each twice as far as the
//! last.
//!
//! Tried and dropped (no gain, or slower, on `.354` and `.376` with two
//! threads): a second pass that brings a computed chunk up to the latest
//! state on its own thread before handing it over (the leader's settling
//! did not get cheaper); the leader computing its later chunks in pieces,
//! settling ready chunks between them; the shared words on cache lines of
//! their own; unparking only the threads that announced they park (with
//! the cores free: it is what lets threads sleep on a busy machine); values
//! published up to a whole cache line only; lookaheads of 1 to 4 chunks
//! per thread; chunks of 8 or 16 heaps.

use std::ops::{ControlFlow, Range};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

use super::heap::{Candidates, Scratch};

/// Heaps per chunk: each chunk hands values from one core to the other
/// (its state, its first passes), whose cache lines cost more than its
/// heaps' work on `.354` (2 threads: chunks of 32 take 0.74x the time of
/// chunks of 16, `.376` 0.89x; 8 were 1.2x slower).
pub(crate) const CHUNK: usize = 32;

/// How long an idle thread spins before it parks.
const SPIN: Duration = Duration::from_micros(200);

/// The least the leader spins for a chunk claimed by another thread
/// before computing it itself (more when its own chunks take longer: see
/// [`Crew::settle_all`]).
const STEAL_AFTER: Duration = Duration::from_micros(20);

/// Chunks per measured epoch, at least (2^16 heaps).
const EPOCH: usize = 2048;

/// The least time of a measured epoch: the load of other programs moves
/// the time of shorter ones too much.
const EPOCH_TIME: Duration = Duration::from_millis(30);

/// How much faster (in percent of the time per chunk) the leader alone
/// must be to be kept instead of the crew, and the crew to be kept
/// instead of the leader alone: more for the crew, whose gain must pay
/// for the risk of being slower than one thread.
const ALONE_GAIN: u128 = 3;
const CREW_GAIN: u128 = 10;

/// Every this many epochs, one epoch runs the other way (the leader alone
/// when the crew runs, the crew when the leader runs alone); after each
/// probe of the crew that loses, twice as many epochs until the next one,
/// up to [`PROBE_EVERY_MOST`].
const PROBE_EVERY: usize = 8;
const PROBE_EVERY_MOST: usize = 64;

/// Chunks that may be claimed beyond the first one not settled, per
/// thread of the crew.
const LOOKAHEAD_PER_THREAD: usize = 2;

/// Slots of computed chunks not settled yet (more than the lookahead can
/// fill; one bit each in [`Crew::ready`]).
const SLOTS: usize = 64;

/// The most threads a crew runs, the leader's included: their lookahead
/// must fit in the slots. More would not pay: each thread claims chunks
/// further beyond the values known, whose first passes then lack more
/// options that the leader adds when it settles them, and the leader's
/// sequential settling is what bounds the speed long before (`.354` gains
/// little from a second thread). A caller asking for more threads gets
/// this many (the values do not depend on it).
pub(crate) const MAX_THREADS: usize = (SLOTS - 1) / LOOKAHEAD_PER_THREAD;

const _: () = assert!(LOOKAHEAD_PER_THREAD * MAX_THREADS < SLOTS);

/// The first pass of the heaps of a range from a state, appended to the
/// list.
pub(crate) type Work<S> = dyn Fn(&S, Range<usize>, &mut Scratch, &mut Vec<Candidates>) + Sync;

/// A slot for a computed chunk: the state it was computed from, and the
/// first pass of its heaps, copied into a list kept from chunk to chunk.
/// Lists allocated on one thread and freed on the other (and states
/// shared through an `Arc`) cost more than the copies: in the allocator,
/// and in cache misses on memory that the other thread had freed (2
/// threads: `.354` 0.82-0.86x the time without them).
struct Slot<S> {
    /// The chunk it holds (a stale one, computed by a thread while the
    /// leader computed it too, is dropped).
    chunk: usize,
    state: Option<S>,
    first: Vec<Candidates>,
}

/// What the leader shares with the other threads.
pub(crate) struct Crew<'a, S> {
    work: &'a Work<S>,
    /// The heaps, in chunks of [`CHUNK`].
    heaps: Range<usize>,
    chunks: usize,
    /// The latest state published by the leader.
    state: Mutex<S>,
    /// The next chunk to claim.
    claim: AtomicUsize,
    /// The chunks below this are settled.
    settled: AtomicUsize,
    /// Chunks that may be claimed beyond the first one not settled.
    lookahead: usize,
    /// Computed chunks not settled yet: chunk `c` in slot `c % SLOTS`.
    results: Mutex<Vec<Slot<S>>>,
    /// Bit `c % SLOTS`: chunk `c`'s result is in its slot (set after it
    /// is put there, so that the leader, waiting for a chunk, reads this
    /// word and not the lock that the other threads take to put theirs).
    ready: AtomicU64,
    stop: AtomicBool,
    /// A thread of the crew panicked (the leader then stops waiting for
    /// its chunk; the scope passes the panic on).
    failed: AtomicBool,
    threads: Mutex<Vec<Thread>>,
    /// The threads (besides the leader) that may claim chunks: the first
    /// `active` of them; the others park.
    active: AtomicUsize,
    /// Per thread: it is parked, or about to be (cleared by whoever wakes
    /// it); and how many are.
    parked: Vec<AtomicBool>,
    parked_count: AtomicUsize,
    /// The crew measuring itself (the leader's).
    measure: Mutex<&'a mut Measure>,
}

/// Runs `lead` with a crew of `helpers` more threads (at most
/// [`MAX_THREADS`] in all) sharing the first passes of `heaps` (none: the
/// leader does them alone), starting from state `first`.
pub(crate) fn run<S: Send + Sync + Clone, R>(
    first: S,
    heaps: Range<usize>,
    helpers: usize,
    work: &Work<S>,
    measure: &mut Measure,
    lead: impl FnOnce(&Crew<'_, S>) -> R,
) -> R {
    let helpers = helpers.min(MAX_THREADS - 1);
    measure.begin(helpers, Instant::now());
    let lookahead = LOOKAHEAD_PER_THREAD * (helpers + 1);
    let crew = Crew {
        work,
        chunks: heaps.len().div_ceil(CHUNK),
        heaps,
        state: Mutex::new(first),
        claim: AtomicUsize::new(0),
        settled: AtomicUsize::new(0),
        lookahead,
        results: Mutex::new(
            (0..SLOTS)
                .map(|_| Slot {
                    chunk: usize::MAX,
                    state: None,
                    first: Vec::with_capacity(CHUNK),
                })
                .collect(),
        ),
        ready: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        failed: AtomicBool::new(false),
        threads: Mutex::new(Vec::new()),
        active: AtomicUsize::new(measure.active()),
        measure: Mutex::new(measure),
        parked: (0..helpers).map(|_| AtomicBool::new(false)).collect(),
        parked_count: AtomicUsize::new(0),
    };
    thread::scope(|scope| {
        let crew = &crew;
        let handles: Vec<_> = (0..helpers)
            .map(|index| scope.spawn(move || crew.serve(index)))
            .collect();
        *lock(&crew.threads) = handles.iter().map(|h| h.thread().clone()).collect();
        // Dismissed however `lead` ends (a panic too), or the scope would
        // wait for them forever.
        let _dismiss = Dismiss(crew);
        let result = lead(crew);
        lock(&crew.measure).end(Instant::now());
        result
    })
}

/// Tells the crew's threads to stop when dropped.
struct Dismiss<'c, 'a, S: Send + Sync + Clone>(&'c Crew<'a, S>);

impl<S: Send + Sync + Clone> Drop for Dismiss<'_, '_, S> {
    fn drop(&mut self) {
        self.0.stop.store(true, Ordering::Release);
        self.0.wake_all();
    }
}

/// Raises `failed` if dropped while its thread panics.
struct Failed<'a>(&'a AtomicBool);

impl Drop for Failed<'_> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.store(true, Ordering::Release);
        }
    }
}

/// Locks a mutex; a panic elsewhere (which the scope passes on) leaves
/// nothing half-written that the crew would read.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<S: Send + Sync + Clone> Crew<'_, S> {
    fn wake_all(&self) {
        for (t, parked) in lock(&self.threads).iter().zip(&self.parked) {
            if parked.swap(false, Ordering::AcqRel) {
                self.parked_count.fetch_sub(1, Ordering::AcqRel);
            }
            t.unpark();
        }
    }

    /// Wakes one parked thread that may claim chunks, if any.
    fn wake_one(&self) {
        if self.parked_count.load(Ordering::Acquire) == 0 {
            return;
        }
        let active = self.active.load(Ordering::Acquire);
        for (index, parked) in self.parked.iter().enumerate().take(active) {
            if parked.swap(false, Ordering::AcqRel) {
                self.parked_count.fetch_sub(1, Ordering::AcqRel);
                if let Some(t) = lock(&self.threads).get(index) {
                    t.unpark();
                }
                return;
            }
        }
    }

    /// Parks thread `index` until it is woken (or spuriously).
    fn park(&self, index: usize) {
        // Counted before it is flagged: whoever clears the flag finds the
        // count to lower.
        self.parked_count.fetch_add(1, Ordering::AcqRel);
        self.parked[index].store(true, Ordering::Release);
        // The leader unparks after clearing the flag (a token kept if this
        // thread is not parked yet).
        thread::park();
        if self.parked[index].swap(false, Ordering::AcqRel) {
            self.parked_count.fetch_sub(1, Ordering::AcqRel);
        }
    }

    /// Settles every chunk in heap order: `settle` gets the state a chunk
    /// was computed from and its first pass, and returns the state to
    /// publish next, or `Break` to stop at once (the chunks being computed
    /// by other threads are then dropped).
    pub(crate) fn settle_all<B>(
        &self,
        mut settle: impl FnMut(&S, &[Candidates]) -> ControlFlow<B, S>,
    ) -> ControlFlow<B> {
        let mut scratch = Scratch::default();
        let mut first = Vec::with_capacity(CHUNK);
        let mut measure = lock(&self.measure);
        let mut settle_chunk = |next: &mut usize, state: &S, first: &[Candidates]| {
            let publish = settle(state, first)?;
            *lock(&self.state) = publish;
            *next += 1;
            self.settled.store(*next, Ordering::Release);
            if let Some(active) = measure.settled(Instant::now()) {
                self.active.store(active, Ordering::Release);
                if active > 0 {
                    self.wake_all();
                }
            }
            self.wake_one();
            ControlFlow::Continue(())
        };
        // The first chunk not settled.
        let mut next = 0;
        let mut waiting = None;
        // The leader's mean time to compute a chunk, in nanoseconds.
        let mut own = ChunkTime::default();
        while next < self.chunks {
            let slot = next % SLOTS;
            if self.ready.load(Ordering::Acquire) >> slot & 1 != 0 {
                let state = {
                    let mut results = lock(&self.results);
                    let computed = &mut results[slot];
                    let state = computed.state.take().expect("a ready slot holds a chunk");
                    self.ready.fetch_and(!(1 << slot), Ordering::AcqRel);
                    if computed.chunk != next {
                        // Stale: the leader computed that chunk itself.
                        continue;
                    }
                    first.clear();
                    first.extend_from_slice(&computed.first);
                    state
                };
                waiting = None;
                settle_chunk(&mut next, &state, &first)?;
            } else if let Some(chunk) = self.claim_chunk() {
                let state = own.time(|| self.compute(chunk, &mut scratch, &mut first));
                if chunk == next {
                    waiting = None;
                    settle_chunk(&mut next, &state, &first)?;
                } else {
                    self.put(chunk, state, &first);
                }
            } else {
                // Wait for a chunk that another thread claimed (short: it
                // computes one chunk), or compute it here if that thread is
                // slow (descheduled on a busy machine).
                assert!(
                    !self.failed.load(Ordering::Acquire),
                    "a thread of the octal crew panicked"
                );
                let start = *waiting.get_or_insert_with(Instant::now);
                if start.elapsed() < own.patience() {
                    std::hint::spin_loop();
                } else {
                    let state = own.time(|| self.compute(next, &mut scratch, &mut first));
                    waiting = None;
                    settle_chunk(&mut next, &state, &first)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Claims the next chunk, if any is left within the lookahead.
    fn claim_chunk(&self) -> Option<usize> {
        let mut claim = self.claim.load(Ordering::Acquire);
        loop {
            let open = self.settled.load(Ordering::Acquire) + self.lookahead;
            if claim >= self.chunks || claim >= open {
                return None;
            }
            match self.claim.compare_exchange_weak(
                claim,
                claim + 1,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return Some(claim),
                Err(now) => claim = now,
            }
        }
    }

    /// The first pass of chunk `chunk` from the latest state (into `out`),
    /// and that state.
    fn compute(&self, chunk: usize, scratch: &mut Scratch, out: &mut Vec<Candidates>) -> S {
        let state = lock(&self.state).clone();
        let first = self.heaps.start + chunk * CHUNK;
        let heaps = first..(first + CHUNK).min(self.heaps.end);
        out.clear();
        (self.work)(&state, heaps, scratch, out);
        state
    }

    /// Puts a computed chunk in its slot for the leader, unless the
    /// leader is past it (it computed the chunk itself).
    fn put(&self, chunk: usize, state: S, first: &[Candidates]) {
        let slot = chunk % SLOTS;
        let mut results = lock(&self.results);
        let computed = &mut results[slot];
        // Under the lock: a later chunk of the same slot (claimable once
        // this one is settled) is never overwritten by this stale one.
        let later = self.ready.load(Ordering::Acquire) >> slot & 1 != 0 && computed.chunk > chunk;
        if chunk < self.settled.load(Ordering::Acquire) || later {
            return;
        }
        computed.chunk = chunk;
        computed.state = Some(state);
        computed.first.clear();
        computed.first.extend_from_slice(first);
        // Under the lock: the leader clears it under the lock too.
        self.ready.fetch_or(1 << slot, Ordering::Release);
    }

    /// Helper thread `index`: claims and computes chunks while there are
    /// any, and it is one of the active threads.
    fn serve(&self, index: usize) {
        let _failed = Failed(&self.failed);
        let mut scratch = Scratch::default();
        let mut first = Vec::with_capacity(CHUNK);
        let mut idle = None;
        loop {
            if self.stop.load(Ordering::Acquire) {
                return;
            }
            if index >= self.active.load(Ordering::Acquire) {
                idle = None;
                self.park(index);
            } else if let Some(chunk) = self.claim_chunk() {
                let state = self.compute(chunk, &mut scratch, &mut first);
                self.put(chunk, state, &first);
                idle = None;
            } else if self.claim.load(Ordering::Acquire) >= self.chunks {
                return;
            } else if idle.get_or_insert_with(Instant::now).elapsed() < SPIN {
                std::hint::spin_loop();
            } else {
                self.park(index);
            }
        }
    }
}

/// The leader's mean time to compute a chunk, which sets how long it
/// waits for a chunk claimed by another thread.
#[derive(Debug, Default)]
struct ChunkTime {
    /// Nanoseconds, a moving mean over about 16 chunks.
    mean: u64,
}

impl ChunkTime {
    /// Runs `compute`, timing it.
    fn time<T>(&mut self, compute: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let result = compute();
        let took = start.elapsed().as_nanos().min(u128::from(u32::MAX)) as u64;
        self.mean = self.mean - self.mean / 16 + took / 16;
        result
    }

    /// How long to wait for another thread's chunk before computing it.
    fn patience(&self) -> Duration {
        STEAL_AFTER.max(Duration::from_nanos(2 * self.mean))
    }
}

/// The crew measuring itself (see the module doc): the time of each epoch
/// of [`EPOCH`] chunks, with the other threads active or parked. Kept by
/// the caller from one [`run`] to the next (a sequence's run is many:
/// one per room for its values), so that what it learnt carries over.
#[derive(Debug, Clone, Default)]
pub(crate) struct Measure {
    /// The threads besides the leader it measures (another count starts
    /// the measure again).
    helpers: usize,
    /// Chunks settled in the current epoch.
    chunks: usize,
    /// The current epoch's time before `since`.
    took: Duration,
    /// When the current run started, if it runs.
    since: Option<Instant>,
    /// Epochs completed.
    epoch: usize,
    /// Whether the crew is the way kept (the way it starts), else the
    /// leader alone.
    crew_kept: bool,
    /// The least time per chunk of the epochs run the way kept since the
    /// last probe.
    kept: Option<Duration>,
    /// The next epoch run the other way, and the epochs between such
    /// probes.
    next_probe: usize,
    probe_every: usize,
    /// Tests: the crew always runs, never measured.
    #[cfg(test)]
    always_crew: bool,
}

impl Measure {
    /// Tests: a measure that keeps the crew running, so that its threads
    /// take chunks from the first one on.
    #[cfg(test)]
    pub(crate) fn always_crew() -> Measure {
        Measure {
            always_crew: true,
            ..Measure::default()
        }
    }

    /// A run with `helpers` threads besides the leader starts at `now`.
    fn begin(&mut self, helpers: usize, now: Instant) {
        #[cfg(test)]
        if self.always_crew {
            self.helpers = helpers;
            return;
        }
        if helpers != self.helpers {
            *self = Measure {
                helpers,
                crew_kept: true,
                next_probe: 2,
                probe_every: PROBE_EVERY,
                ..Measure::default()
            };
        }
        self.since = Some(now);
    }

    /// The run ends at `now`.
    fn end(&mut self, now: Instant) {
        if let Some(since) = self.since.take() {
            self.took += now.saturating_duration_since(since);
        }
    }

    /// The threads besides the leader that the current epoch runs with.
    fn active(&self) -> usize {
        #[cfg(test)]
        if self.always_crew {
            return self.helpers;
        }
        if self.crew_kept != (self.epoch == self.next_probe) {
            self.helpers
        } else {
            0
        }
    }

    /// A chunk is settled, at `now`: at the end of an epoch, the number
    /// of threads besides the leader to run the next one with, if it
    /// changes.
    fn settled(&mut self, now: Instant) -> Option<usize> {
        self.chunks += 1;
        #[cfg(test)]
        if self.always_crew {
            return None;
        }
        if self.helpers == 0 || self.chunks < EPOCH {
            return None;
        }
        let since = self.since.unwrap_or(now);
        let took = self.took + now.saturating_duration_since(since);
        if took < EPOCH_TIME {
            return None;
        }
        self.since = Some(now);
        self.took = Duration::ZERO;
        let per_chunk = took / self.chunks as u32;
        self.chunks = 0;
        let was = self.active();
        if self.epoch == self.next_probe {
            let gain = if was == 0 { ALONE_GAIN } else { CREW_GAIN };
            if self
                .kept
                .is_some_and(|kept| per_chunk.as_nanos() * 100 < kept.as_nanos() * (100 - gain))
            {
                self.crew_kept = !self.crew_kept;
                self.kept = Some(per_chunk);
                self.probe_every = PROBE_EVERY;
            } else {
                self.kept = None;
                if was > 0 {
                    self.probe_every = (2 * self.probe_every).min(PROBE_EVERY_MOST);
                }
            }
            self.next_probe = self.epoch + self.probe_every;
        } else if self.epoch > 0 {
            // The best epoch since the last probe: the load of other
            // programs only makes epochs slower. (The first epoch warms
            // up: the threads start, the first heaps of a run cost more
            // than the next.)
            self.kept = Some(self.kept.map_or(per_chunk, |kept| kept.min(per_chunk)));
        }
        self.epoch += 1;
        let active = self.active();
        (active != was).then_some(active)
    }
}

#[cfg(test)]
mod tests;
