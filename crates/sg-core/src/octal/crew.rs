//! The crew: the threads that share the first pass of each batch of heaps
//! (`heap::first_unreached` for every heap of the batch, independent of
//! each other), while the calling thread (the leader) also settles the
//! batch's heaps in order (a sequential step): each chunk as soon as the
//! chunks before it are settled and its own first pass is done, so that
//! the other threads go on with the batch's later chunks meanwhile.
//!
//! A batch's first pass takes tens of microseconds, and there is one
//! every few dozen heaps: a thread pool that puts idle threads to sleep
//! (rayon's) spends about as long waking them as the pass itself takes.
//! The crew's threads instead wait for the next batch spinning for a
//! while (about [`SPIN`]) before they park, and the leader hands out the
//! batch in chunks of [`CHUNK`] heaps that any thread claims, so a thread
//! that is slow to wake (on a loaded machine) costs nothing: the others
//! take its chunks. The shared state is behind a [`RwLock`]: the threads
//! read it during a pass, the leader writes it between passes (what it
//! settles during a pass is its own, not the shared state).

use std::ops::{ControlFlow, Range};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

use super::heap::{Candidates, Scratch};

/// Heaps claimed at once.
pub(crate) const CHUNK: usize = 16;

/// How long an idle thread spins before it parks.
const SPIN: Duration = Duration::from_micros(200);

/// One batch's first pass: heaps `n..n + len` from the values below `n`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Batch {
    /// The first heap, and the number of values known.
    pub(crate) n: usize,
    /// The number of heaps.
    pub(crate) len: usize,
}

/// The first pass of the heaps `heaps` of `batch` from the state,
/// appended to the list.
pub(crate) type Work<S> =
    dyn Fn(&S, Batch, Range<usize>, &mut Scratch, &mut Vec<Candidates>) + Sync;

/// What the leader shares with the other threads.
pub(crate) struct Crew<'a, S> {
    state: &'a RwLock<S>,
    work: &'a Work<S>,
    /// The current batch and its number.
    job: Mutex<(u64, Batch)>,
    /// Bumped (after `job`) for each batch.
    epoch: AtomicU64,
    /// `epoch << 32 | next chunk`: a thread claims a chunk by a
    /// compare-and-swap that fails if the batch has changed.
    claim: AtomicU64,
    /// The results of the chunks of batch `.0` that are computed and not
    /// yet settled, by chunk (a chunk of an earlier batch, left when its
    /// pass stopped, finds another number there and is dropped).
    results: Mutex<(u64, Vec<Option<Vec<Candidates>>>)>,
    /// Bit `k`: chunk `k`'s result is in `results` (set after it is put
    /// there, so that the leader, waiting for a chunk, reads this word and
    /// not the lock that the other threads take to put theirs).
    ready: AtomicU64,
    stop: AtomicBool,
    /// A thread of the crew panicked (the leader then stops waiting for
    /// its chunk; the scope passes the panic on).
    failed: AtomicBool,
    threads: Mutex<Vec<Thread>>,
    /// The leader's scratch space.
    scratch: Mutex<Scratch>,
}

/// Runs `lead` with a crew of `helpers` more threads sharing the first
/// passes (none: the leader does them alone).
pub(crate) fn run<S: Send + Sync, R>(
    state: &RwLock<S>,
    helpers: usize,
    work: &Work<S>,
    lead: impl FnOnce(&Crew<'_, S>) -> R,
) -> R {
    let crew = Crew {
        state,
        work,
        job: Mutex::new((0, Batch::default())),
        epoch: AtomicU64::new(0),
        claim: AtomicU64::new(0),
        results: Mutex::new((0, Vec::new())),
        ready: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        failed: AtomicBool::new(false),
        threads: Mutex::new(Vec::new()),
        scratch: Mutex::new(Scratch::default()),
    };
    thread::scope(|scope| {
        let crew = &crew;
        let handles: Vec<_> = (0..helpers)
            .map(|_| scope.spawn(move || crew.serve()))
            .collect();
        *lock(&crew.threads) = handles.iter().map(|h| h.thread().clone()).collect();
        // Dismissed however `lead` ends (a panic too), or the scope would
        // wait for them forever.
        let _dismiss = Dismiss(crew);
        lead(crew)
    })
}

/// Tells the crew's threads to stop when dropped.
struct Dismiss<'c, 'a, S: Send + Sync>(&'c Crew<'a, S>);

impl<S: Send + Sync> Drop for Dismiss<'_, '_, S> {
    fn drop(&mut self) {
        self.0.stop.store(true, Ordering::Release);
        self.0.epoch.fetch_add(1, Ordering::Release);
        self.0.wake();
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

impl<S: Send + Sync> Crew<'_, S> {
    /// The state, for the leader's sequential steps.
    pub(crate) fn write(&self) -> RwLockWriteGuard<'_, S> {
        self.state.write().unwrap_or_else(PoisonError::into_inner)
    }

    fn read(&self) -> RwLockReadGuard<'_, S> {
        self.state.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn wake(&self) {
        for t in lock(&self.threads).iter() {
            t.unpark();
        }
    }

    /// The first pass of `batch`, shared by the crew; the candidates of
    /// each chunk are handed to `settle` in heap order, as soon as those of
    /// every chunk before it were, and the pass stops at the first `Break`
    /// (the chunks being computed by other threads are then dropped). The
    /// leader computes chunks too, and settles those that are ready
    /// whenever it can.
    pub(crate) fn pass<B>(
        &self,
        batch: Batch,
        mut settle: impl FnMut(Vec<Candidates>) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let chunks = batch.len.div_ceil(CHUNK);
        assert!(chunks <= 64, "a batch of at most 64 chunks");
        let epoch = self.epoch.load(Ordering::Relaxed) + 1;
        *lock(&self.job) = (epoch, batch);
        {
            let mut results = lock(&self.results);
            results.0 = epoch;
            results.1.clear();
            results.1.resize_with(chunks, || None);
            self.ready.store(0, Ordering::Relaxed);
        }
        self.claim.store(epoch << 32, Ordering::Release);
        self.epoch.store(epoch, Ordering::Release);
        self.wake();
        let mut scratch = lock(&self.scratch);
        // The next chunk to settle.
        let mut next = 0;
        let mut waiting = None;
        while next < chunks {
            let ready = self.ready.load(Ordering::Acquire) >> next & 1 != 0;
            if let Some(out) = ready.then(|| lock(&self.results).1[next].take()).flatten() {
                next += 1;
                waiting = None;
                settle(out)?;
            } else if let Some(chunk) = self.claim_chunk(epoch, chunks) {
                let mut out = Vec::with_capacity(CHUNK);
                (self.work)(
                    &self.read(),
                    batch,
                    chunk_heaps(batch, chunk),
                    &mut scratch,
                    &mut out,
                );
                if chunk == next {
                    next += 1;
                    waiting = None;
                    settle(out)?;
                } else {
                    lock(&self.results).1[chunk] = Some(out);
                    self.ready.fetch_or(1 << chunk, Ordering::Release);
                }
            } else {
                // Wait for a chunk that another thread claimed (short: it
                // computes one chunk).
                assert!(
                    !self.failed.load(Ordering::Acquire),
                    "a thread of the octal crew panicked"
                );
                let start = *waiting.get_or_insert_with(Instant::now);
                if start.elapsed() < SPIN {
                    std::hint::spin_loop();
                } else {
                    thread::yield_now();
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Claims chunks of batch `epoch` while any is left, computes each and
    /// hands its result to `done`.
    fn take_chunks(
        &self,
        state: &S,
        epoch: u64,
        batch: Batch,
        scratch: &mut Scratch,
        mut done: impl FnMut(usize, Vec<Candidates>),
    ) {
        let chunks = batch.len.div_ceil(CHUNK);
        while let Some(chunk) = self.claim_chunk(epoch, chunks) {
            let mut out = Vec::with_capacity(CHUNK);
            (self.work)(state, batch, chunk_heaps(batch, chunk), scratch, &mut out);
            done(chunk, out);
        }
    }

    /// Claims the next chunk of batch `epoch`, if any is left.
    fn claim_chunk(&self, epoch: u64, chunks: usize) -> Option<usize> {
        let mut claim = self.claim.load(Ordering::Acquire);
        loop {
            let next = (claim & 0xffff_ffff) as usize;
            if claim >> 32 != epoch || next >= chunks {
                return None;
            }
            match self.claim.compare_exchange_weak(
                claim,
                claim + 1,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return Some(next),
                Err(now) => claim = now,
            }
        }
    }

    /// A helper thread: waits for each batch and takes chunks of it.
    fn serve(&self) {
        let _failed = Failed(&self.failed);
        let mut seen = 0;
        let mut scratch = Scratch::default();
        loop {
            let start = Instant::now();
            loop {
                let epoch = self.epoch.load(Ordering::Acquire);
                if self.stop.load(Ordering::Acquire) {
                    return;
                }
                if epoch != seen {
                    seen = epoch;
                    break;
                }
                if start.elapsed() < SPIN {
                    std::hint::spin_loop();
                } else {
                    // The leader unparks after each new batch (a token kept
                    // if this thread is not parked yet).
                    thread::park();
                }
            }
            let state = self.read();
            let (epoch, batch) = *lock(&self.job);
            self.take_chunks(&state, epoch, batch, &mut scratch, |chunk, out| {
                let mut results = lock(&self.results);
                if results.0 == epoch {
                    results.1[chunk] = Some(out);
                    self.ready.fetch_or(1 << chunk, Ordering::Release);
                }
            });
            seen = seen.max(epoch);
        }
    }
}

/// The heaps of chunk `chunk` of `batch`.
fn chunk_heaps(batch: Batch, chunk: usize) -> Range<usize> {
    let first = batch.n + chunk * CHUNK;
    first..(first + CHUNK).min(batch.n + batch.len)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The heaps each batch's chunks covered, in any order.
    type Seen = Mutex<Vec<usize>>;

    fn record(
        seen: &Seen,
        _: Batch,
        heaps: Range<usize>,
        _: &mut Scratch,
        _: &mut Vec<Candidates>,
    ) {
        lock(seen).extend(heaps);
    }

    /// Every heap of every batch is computed exactly once, whatever the
    /// crew's size and the batch's length.
    #[test]
    fn every_heap_once() {
        for helpers in [0, 1, 3] {
            let state = RwLock::new(Mutex::new(Vec::new()));
            run(&state, helpers, &record, |crew| {
                for (k, len) in [1, 15, 16, 17, 100, 256, 3]
                    .iter()
                    .cycle()
                    .take(60)
                    .enumerate()
                {
                    let batch = Batch {
                        n: 1000 * k,
                        len: *len,
                    };
                    let _ = crew.pass(batch, |_| ControlFlow::<()>::Continue(()));
                    let mut seen = std::mem::take(&mut *lock(&crew.write()));
                    seen.sort_unstable();
                    assert_eq!(seen, (batch.n..batch.n + batch.len).collect::<Vec<_>>());
                }
            });
        }
    }

    /// The chunks reach `settle` in heap order, each whole, and a `Break`
    /// stops the pass at once, whatever the crew's size.
    #[test]
    fn chunks_are_settled_in_order() {
        fn first_heaps(
            _: &(),
            _: Batch,
            heaps: Range<usize>,
            _: &mut Scratch,
            out: &mut Vec<Candidates>,
        ) {
            out.extend(heaps.map(|h| Candidates::only(h as u32)));
        }
        for helpers in [0, 1, 3] {
            let state = RwLock::new(());
            run(&state, helpers, &first_heaps, |crew| {
                for (k, len) in [1, 15, 16, 17, 100, 256, 3]
                    .iter()
                    .cycle()
                    .take(40)
                    .enumerate()
                {
                    let batch = Batch {
                        n: 1000 * k,
                        len: *len,
                    };
                    let mut settled = Vec::new();
                    let flow = crew.pass(batch, |out| {
                        settled.extend(out.iter().map(|c| c.first()));
                        ControlFlow::<()>::Continue(())
                    });
                    assert_eq!(flow, ControlFlow::Continue(()));
                    assert_eq!(settled, (batch.n..batch.n + batch.len).collect::<Vec<_>>());
                    // Stopped after the second chunk (of those that have one).
                    let mut calls = 0;
                    let flow = crew.pass(batch, |_| {
                        calls += 1;
                        if calls == 2 {
                            ControlFlow::Break(calls)
                        } else {
                            ControlFlow::Continue(())
                        }
                    });
                    let chunks = batch.len.div_ceil(CHUNK);
                    assert_eq!(calls, chunks.min(2), "{helpers} helpers, {batch:?}");
                    assert_eq!(flow.is_break(), chunks >= 2);
                }
            });
        }
    }

    /// A panic in any thread ends the run with a panic (not a hang).
    #[test]
    fn a_panic_is_passed_on() {
        fn fail(
            _: &(),
            batch: Batch,
            heaps: Range<usize>,
            _: &mut Scratch,
            _: &mut Vec<Candidates>,
        ) {
            if heaps.start == batch.n + 2 * CHUNK {
                panic!("chunk 2 fails");
            }
        }
        for helpers in [0, 1, 3] {
            let state = RwLock::new(());
            let result = std::panic::catch_unwind(|| {
                run(&state, helpers, &fail, |crew| {
                    let _ = crew.pass(
                        Batch {
                            n: 0,
                            len: 10 * CHUNK,
                        },
                        |_| ControlFlow::<()>::Continue(()),
                    );
                });
            });
            assert!(result.is_err(), "{helpers} helpers");
        }
    }
}
