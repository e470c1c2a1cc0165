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
//! park, and a thread that is slow to wake (on a loaded machine) costs
//! nothing: the others take its chunks.
//!
//! Tried and dropped (no gain, or slower, on `.354` and `.376` with two
//! threads): a second pass that brings a computed chunk up to the latest
//! state on its own thread before handing it over (the leader's settling
//! did not get cheaper); the leader computing its later chunks in pieces,
//! settling ready chunks between them; the shared words on cache lines of
//! their own; unparking only the threads that announced they park; values
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
}

/// Runs `lead` with a crew of `helpers` more threads (at most
/// [`MAX_THREADS`] in all) sharing the first passes of `heaps` (none: the
/// leader does them alone), starting from state `first`.
pub(crate) fn run<S: Send + Sync + Clone, R>(
    first: S,
    heaps: Range<usize>,
    helpers: usize,
    work: &Work<S>,
    lead: impl FnOnce(&Crew<'_, S>) -> R,
) -> R {
    let helpers = helpers.min(MAX_THREADS - 1);
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
                    state: None,
                    first: Vec::with_capacity(CHUNK),
                })
                .collect(),
        ),
        ready: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        failed: AtomicBool::new(false),
        threads: Mutex::new(Vec::new()),
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
struct Dismiss<'c, 'a, S: Send + Sync + Clone>(&'c Crew<'a, S>);

impl<S: Send + Sync + Clone> Drop for Dismiss<'_, '_, S> {
    fn drop(&mut self) {
        self.0.stop.store(true, Ordering::Release);
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

impl<S: Send + Sync + Clone> Crew<'_, S> {
    fn wake(&self) {
        for t in lock(&self.threads).iter() {
            t.unpark();
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
        let mut settle_chunk = |next: &mut usize, state: &S, first: &[Candidates]| {
            let publish = settle(state, first)?;
            *lock(&self.state) = publish;
            *next += 1;
            self.settled.store(*next, Ordering::Release);
            self.wake();
            ControlFlow::Continue(())
        };
        // The first chunk not settled.
        let mut next = 0;
        let mut waiting = None;
        while next < self.chunks {
            let slot = next % SLOTS;
            if self.ready.load(Ordering::Acquire) >> slot & 1 != 0 {
                let state = {
                    let mut results = lock(&self.results);
                    let computed = &mut results[slot];
                    first.clear();
                    first.extend_from_slice(&computed.first);
                    computed.state.take().expect("a ready slot holds a chunk")
                };
                self.ready.fetch_and(!(1 << slot), Ordering::Relaxed);
                waiting = None;
                settle_chunk(&mut next, &state, &first)?;
            } else if let Some(chunk) = self.claim_chunk() {
                let state = self.compute(chunk, &mut scratch, &mut first);
                if chunk == next {
                    waiting = None;
                    settle_chunk(&mut next, &state, &first)?;
                } else {
                    self.put(chunk, state, &first);
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

    /// Puts a computed chunk in its slot for the leader.
    fn put(&self, chunk: usize, state: S, first: &[Candidates]) {
        let slot = chunk % SLOTS;
        {
            let mut results = lock(&self.results);
            let computed = &mut results[slot];
            computed.state = Some(state);
            computed.first.clear();
            computed.first.extend_from_slice(first);
        }
        self.ready.fetch_or(1 << slot, Ordering::Release);
    }

    /// A helper thread: claims and computes chunks while there are any.
    fn serve(&self) {
        let _failed = Failed(&self.failed);
        let mut scratch = Scratch::default();
        let mut first = Vec::with_capacity(CHUNK);
        let mut idle = None;
        loop {
            if self.stop.load(Ordering::Acquire) {
                return;
            }
            if let Some(chunk) = self.claim_chunk() {
                let state = self.compute(chunk, &mut scratch, &mut first);
                self.put(chunk, state, &first);
                idle = None;
            } else if self.claim.load(Ordering::Acquire) >= self.chunks {
                return;
            } else if idle.get_or_insert_with(Instant::now).elapsed() < SPIN {
                std::hint::spin_loop();
            } else {
                // The leader unparks after each chunk it settles (a token
                // kept if this thread is not parked yet).
                thread::park();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A state: the number of chunks settled when it was published.
    type Settled = usize;

    /// Each heap's candidates: the heap itself.
    fn heaps(_: &Settled, heaps: Range<usize>, _: &mut Scratch, out: &mut Vec<Candidates>) {
        out.extend(heaps.map(|h| Candidates::only(h as u32)));
    }

    /// Every heap is computed once and settled once, in order, each chunk
    /// from a state published at most the lookahead before it, whatever
    /// the crew's size and the range's length.
    #[test]
    fn every_heap_settled_once_in_order() {
        for helpers in [0, 1, 3, MAX_THREADS - 1, MAX_THREADS, 1023] {
            for len in [0, 1, 15, 16, 17, 100, 1000, 100 * CHUNK] {
                let start = 1000 * len;
                let mut settled = Vec::new();
                let mut chunks = 0;
                let threads = (helpers + 1).min(MAX_THREADS);
                let flow = run(0, start..start + len, helpers, &heaps, |crew| {
                    crew.settle_all(|&published, first| {
                        let lag = chunks - published;
                        assert!(lag <= LOOKAHEAD_PER_THREAD * threads, "lag {lag}");
                        settled.extend(first.iter().map(|c| c.first()));
                        chunks += 1;
                        ControlFlow::<(), _>::Continue(chunks)
                    })
                });
                assert_eq!(flow, ControlFlow::Continue(()));
                assert_eq!(settled, (start..start + len).collect::<Vec<_>>());
            }
        }
    }

    /// A `Break` stops at once.
    #[test]
    fn a_break_stops_the_run() {
        for helpers in [0, 1, 3] {
            let mut calls = 0;
            let flow = run(0, 0..1000, helpers, &heaps, |crew| {
                crew.settle_all(|_, _| {
                    calls += 1;
                    if calls == 3 {
                        ControlFlow::Break(calls)
                    } else {
                        ControlFlow::Continue(calls)
                    }
                })
            });
            assert_eq!(flow, ControlFlow::Break(3));
            assert_eq!(calls, 3);
        }
    }

    /// A panic in any thread ends the run with a panic (not a hang).
    #[test]
    fn a_panic_is_passed_on() {
        fn fail(_: &(), heaps: Range<usize>, _: &mut Scratch, _: &mut Vec<Candidates>) {
            if heaps.start == 2 * CHUNK {
                panic!("chunk 2 fails");
            }
        }
        for helpers in [0, 1, 3] {
            let result = std::panic::catch_unwind(|| {
                run((), 0..10 * CHUNK, helpers, &fail, |crew| {
                    let _ = crew.settle_all(|_, _| ControlFlow::<(), ()>::Continue(()));
                });
            });
            assert!(result.is_err(), "{helpers} helpers");
        }
    }
}
