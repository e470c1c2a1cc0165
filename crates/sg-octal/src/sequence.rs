//! [`Sequence`]: the incremental engine. Values arrive heap by heap (each
//! heap needs all smaller ones), each computed by the sparse-space method;
//! the run stops as soon as a period is certified.
//!
//! # Parallelism
//!
//! Heap `h` depends on heaps `h - 1, h - 2, ...` only through a few
//! options: once the values below some `n` are known, nearly all the work
//! for the heaps just above `n` (every option whose heaps are all below
//! `n`) is independent of the rest, and is shared by a crew of threads (the
//! `crew` module; feature `parallel`, on by default; the caller's rayon
//! pool sets the number of threads), a chunk of 32 heaps at a time, each
//! from the latest state the calling thread published (after each chunk
//! it settles; the rare lists are shared by the states while they do not
//! change: a copy per chunk, allocated on one thread and freed on
//! another, cost as much as it saved). The calling thread settles the
//! heaps in order: it adds the few options that involve heaps at or above
//! the `n` of the chunk's state (see `heap`). Each value costs only a few
//! microseconds, far too little to share out on its own; the chunks
//! amortise the hand-over. Small heaps (where a chunk would be mostly such
//! options) and cheap values are computed one by one. The values do not
//! depend on the chunks or the thread count. (`.106`, whose values are
//! cheap, computed in chunks was twice as slow as heap by heap.)

use std::ops::{ControlFlow, Range};
use std::sync::Arc;

use super::crew;
use super::heap::{Candidates, RareMarks, Scratch, first_unreached, settle};
use super::moves::Moves;
use super::period::{Period, PeriodicSequence, Tracker};
use super::sparse::Sparse;
use super::{OctalError, Rules, check_heap_limit};

/// The largest value allowed (`u16::MAX`; tests lower it).
type ValueLimit = u32;

/// Heaps below this are computed one at a time.
const BATCH_FROM: usize = 2048;

/// The most candidates sought for the heaps of a batch (see
/// `heap::Candidates`): a second one spares a recomputation when the first
/// is reached by an option into the batch (on `.354`, 35% of the heaps of
/// a batch), at the price of a short search for the values between them.
/// A run seeks it while it pays: while it settles at least
/// [`SECOND_PAYS`] of the heaps of batches, and after
/// [`SECOND_RETRY`] heaps with one candidate, once recomputations exceed
/// [`RECOMPUTED_MANY`].
const CANDIDATES: usize = 2;

/// See [`CANDIDATES`] (fractions in percent).
const SECOND_PAYS: u64 = 5;
/// See [`CANDIDATES`].
const RECOMPUTED_MANY: u64 = 15;
/// See [`CANDIDATES`].
const SECOND_RETRY: usize = 1 << 19;

/// Below this many rare splits to enumerate per heap, heaps are computed one
/// by one.
const CHEAP_WORK: usize = 128;

/// How often (in heaps) the candidates sought are reviewed.
const REVIEW_EVERY: usize = 1 << 16;

/// How often (in heaps, about: after the heap or chunk that passes a
/// multiple) [`Sequence::extend_watched`] shows its caller the values.
const REPORT_EVERY: u64 = 1 << 10;

/// The least room for values had at a time (then twice the values
/// computed): the memory grows with the values computed, not with the
/// heap asked for, and a crew runs until the room is full.
const MIN_ROOM: usize = 1 << 16;

/// The crew's threads besides the caller: the caller's rayon pool sets
/// the number of threads, except on a thread of a rayon pool, where the
/// pool's other threads are presumed busy (e.g. with other games).
#[cfg(feature = "parallel")]
fn helpers() -> usize {
    match rayon::current_thread_index() {
        Some(_) => 0,
        None => rayon::current_num_threads().saturating_sub(1),
    }
}

/// The cores this process may run on (`std::thread::available_parallelism`:
/// its CPU affinity and CPU quota), read once: the crew has no more
/// threads, since beyond them threads only take turns on the cores while
/// the others wait for their chunks (`.354` to 2,200,000 on 2 cores:
/// 8 threads 1.5x and 16 threads 2.4x the time of one thread).
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// No threads besides the caller without feature `parallel`.
#[cfg(not(feature = "parallel"))]
fn helpers() -> usize {
    0
}

/// The values known when a state was published to the crew, read by the
/// crew while the leader appends later values after them (to the same
/// vector, whose capacity is reserved beforehand, so that it is not moved).
#[derive(Debug, Clone, Copy)]
struct Known {
    ptr: *const u16,
    len: usize,
}

// SAFETY: a `Known` is only read through `Known::values`, whose caller
// promises that the values are neither moved nor written meanwhile; `u16`
// values may be read from any thread.
unsafe impl Send for Known {}
// SAFETY: as for `Send`.
unsafe impl Sync for Known {}

impl Known {
    /// The values of `values` so far.
    fn new(values: &[u16]) -> Known {
        Known {
            ptr: values.as_ptr(),
            len: values.len(),
        }
    }

    /// The values.
    ///
    /// # Safety
    /// The vector the `Known` was made from must not have been dropped,
    /// moved (reallocated) or written below `len` since, nor be while the
    /// slice returned lives: it may only grow within its capacity.
    unsafe fn values(&self) -> &[u16] {
        // SAFETY: `ptr` and `len` describe the first `len` values of a
        // vector, which are still there, unchanged (the caller's promise).
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

/// What the crew reads for a chunk's first pass: the state the leader
/// last published (it settles heaps meanwhile, changing its own).
#[derive(Debug, Clone)]
struct View<'m> {
    /// The splits and rare lists (shared by the states published while
    /// they do not change).
    sparse: Arc<Sparse>,
    moves: &'m Moves,
    /// The values known.
    known: Known,
    /// Candidates per heap, but for the heap right after the values known.
    want: usize,
}

/// The first pass of the heaps `heaps` of a batch (a crew's work): the
/// marks of the rare splits for their split sizes once, shared by the
/// takes (heaps `h` and `h + 1` with takes `i` and `i + 1` split the same
/// `r`), then each heap's candidates.
fn first_pass(view: &View, heaps: Range<usize>, scratch: &mut Scratch, out: &mut Vec<Candidates>) {
    // SAFETY: the leader publishes a `View` only with the values it has
    // (`known`), in a vector with room for every heap of the crew's run;
    // until the run ends (and the crew's threads with it), it only appends
    // to that vector.
    let values = unsafe { view.known.values() };
    let (sparse, moves) = (&view.sparse, view.moves);
    let n = values.len();
    let marks = match (moves.pair.first(), moves.pair.last()) {
        // Worth it when rows are bits (values below 512), or when takes
        // share split sizes and rows are short (values below 4096).
        (Some(&lo), Some(&hi))
            if sparse.bits <= 9 || (moves.pair.len() > 1 && sparse.bits <= 12) =>
        {
            Some(RareMarks::new(
                sparse,
                moves,
                values,
                heaps.start.saturating_sub(hi as usize),
                heaps.end - lo as usize,
            ))
        }
        _ => None,
    };
    // Heaps after the first may be reached by options into the batch:
    // a spare candidate spares most of them a recomputation.
    for h in heaps {
        let want = if h == n { 1 } else { view.want };
        out.push(first_unreached(
            sparse,
            moves,
            values,
            h,
            want,
            marks.as_ref(),
            scratch,
        ));
    }
}

/// Why [`Sequence::extend_to`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// A period is certified ([`Sequence::period`]); no more values are
    /// needed, and none were computed past the certificate.
    Certified(Period),
    /// The values reach the requested heap and no period is certified yet.
    LimitReached,
    /// The caller of [`Sequence::extend_watched`] stopped the run; the
    /// values are those of a run to `values().len() - 1`, ready to be
    /// stored and resumed ([`Sequence::resume`]).
    Stopped,
}

/// Why [`Sequence::extend_part`] returned early.
enum Halt {
    Certified(Period),
    Stopped,
}

/// The Grundy sequence of a game, computed incrementally.
///
/// ```
/// use sg_octal::{Rules, Sequence, Status};
/// let mut kayles = Sequence::new(Rules::parse("0.77").unwrap());
/// let Status::Certified(p) = kayles.extend_to(1000, &mut |_| {}).unwrap() else { panic!() };
/// assert_eq!((p.preperiod, p.period), (71, 12));
/// assert_eq!(kayles.value(1 << 62), Some(kayles.values()[71 + ((1 << 62) - 71) % 12]));
/// ```
#[derive(Debug, Clone)]
pub struct Sequence {
    rules: Rules,
    moves: Moves,
    values: Vec<u16>,
    sparse: Sparse,
    tracker: Tracker,
    period: Option<Period>,
    limit: ValueLimit,
    max_value: u16,
    scratch: Scratch,
    /// Heaps below this are computed one at a time ([`BATCH_FROM`]).
    batch_from: usize,
    /// Heaps with less work than this are computed one at a time
    /// ([`CHEAP_WORK`]).
    cheap_work: usize,
    /// The crew's threads besides the caller, when set
    /// ([`Sequence::with_threads`]).
    helpers: Option<usize>,
    /// The crew may have more threads than [`cores`] (tests: chunks claimed
    /// in every order).
    beyond_cores: bool,
    /// Whether the crew's threads help, as measured so far.
    crew_measure: crew::Measure,
    /// The candidates sought for the heaps of a batch (1 or
    /// [`CANDIDATES`]), how the heaps of batches were settled since the last
    /// review (by `heap::Settled` in order), and the heap after which one
    /// candidate may be tried with two again.
    want: usize,
    tally: [u64; 3],
    retry_at: usize,
}

impl Sequence {
    /// A sequence with no value computed yet.
    pub fn new(rules: Rules) -> Sequence {
        let moves = Moves::new(&rules);
        Sequence {
            sparse: Sparse::new(&moves),
            moves,
            rules,
            values: Vec::new(),
            scratch: Scratch::default(),
            batch_from: BATCH_FROM,
            cheap_work: CHEAP_WORK,
            helpers: None,
            beyond_cores: false,
            crew_measure: crew::Measure::default(),
            want: CANDIDATES,
            tally: [0; 3],
            retry_at: 0,
            tracker: Tracker::default(),
            period: None,
            limit: ValueLimit::from(u16::MAX),
            max_value: 0,
        }
    }

    /// Continues a stored run: `values` must be `G(0), G(1), ...` of
    /// `rules` as an earlier [`Sequence`] computed them (they are trusted,
    /// not recomputed; only `G(0) = 0` is checked). The period search runs
    /// at once, so a stored run long enough to certify is certified here.
    pub fn resume(rules: Rules, values: Vec<u16>) -> Result<Sequence, OctalError> {
        if values.first().is_some_and(|&g| g != 0) {
            return Err(OctalError::BadValues {
                reason: "G(0) must be 0".into(),
            });
        }
        check_heap_limit(values.len() as u64)?;
        let mut s = Sequence::new(rules);
        s.sparse = Sparse::try_rebuild(&s.moves, &values).map_err(|_| OctalError::OutOfMemory {
            heap: values.len() as u64,
        })?;
        s.max_value = values.iter().copied().max().unwrap_or(0);
        s.values = values;
        if s.rules.has_periodicity_theorem() {
            for len in 1..=s.values.len() {
                if let Some(p) = s.tracker.push(&s.moves, &s.values[..len]) {
                    s.period = Some(p);
                    break;
                }
            }
        }
        Ok(s)
    }

    /// Computes values up to heap `to` (inclusive), stopping early as soon
    /// as a period is certified. `progress` is called now and then with
    /// the number of values computed so far. Never [`Status::Stopped`].
    pub fn extend_to(
        &mut self,
        to: u64,
        progress: &mut dyn FnMut(u64),
    ) -> Result<Status, OctalError> {
        self.extend_watched(to, &mut |values| {
            progress(values.len() as u64);
            ControlFlow::Continue(())
        })
    }

    /// [`Sequence::extend_to`], showing `watch` the values computed so far
    /// about every 1024 heaps and when the run ends (to store
    /// them, or tell the progress); when `watch` breaks, the run stops there
    /// ([`Status::Stopped`]). The values do not depend on when it is
    /// stopped: a run stopped, stored and resumed any number of times
    /// computes the values, and certifies the period, of a run that never
    /// stopped.
    pub fn extend_watched(
        &mut self,
        to: u64,
        watch: &mut dyn FnMut(&[u16]) -> ControlFlow<()>,
    ) -> Result<Status, OctalError> {
        check_heap_limit(to)?;
        if let Some(p) = self.period {
            return Ok(Status::Certified(p));
        }
        let end = to as usize + 1;
        while self.values.len() < end {
            match self.extend_part(end, watch)? {
                Some(Halt::Certified(p)) => {
                    let _ = watch(&self.values);
                    return Ok(Status::Certified(p));
                }
                Some(Halt::Stopped) => return Ok(Status::Stopped),
                None => {}
            }
        }
        let _ = watch(&self.values);
        Ok(Status::LimitReached)
    }

    /// After the values from `from` on were added: every
    /// [`REVIEW_EVERY`] heaps, reviews the candidates sought (`Continue`
    /// says whether it did), and every [`REPORT_EVERY`] heaps shows the
    /// values to `watch`, which may stop the run (`Break`).
    fn checkpoint(
        &mut self,
        from: usize,
        watch: &mut dyn FnMut(&[u16]) -> ControlFlow<()>,
    ) -> ControlFlow<(), bool> {
        let len = self.values.len();
        let every = REPORT_EVERY as usize;
        if from / every != len / every {
            watch(&self.values)?;
        }
        let passed = from / REVIEW_EVERY != len / REVIEW_EVERY;
        if passed {
            self.review_candidates();
        }
        ControlFlow::Continue(passed)
    }

    /// Computes values towards heap `end - 1`, or until a period is
    /// certified (returned). Heaps computed one at a time come first,
    /// without a crew; the heaps after them are shared with one (see the
    /// `crew` module), until `end`, or until a checkpoint finds the values
    /// cheap enough to compute one at a time again. A crew lasts as long as
    /// it can: each one starts its threads and fills its pipeline (`.354`
    /// with 2 threads: a crew per 2^16 heaps took 1.06x the time).
    fn extend_part(
        &mut self,
        end: usize,
        watch: &mut dyn FnMut(&[u16]) -> ControlFlow<()>,
    ) -> Result<Option<Halt>, OctalError> {
        while self.values.len() < end && self.one_by_one() {
            if self.values.len() == self.values.capacity() {
                self.make_room(end)?;
            }
            let n = self.values.len();
            let first = first_unreached(
                &self.sparse,
                &self.moves,
                &self.values,
                n,
                1,
                None,
                &mut self.scratch,
            );
            if let Some(p) = self.settle_batch(n, &[first], false)? {
                return Ok(Some(Halt::Certified(p)));
            }
            if self.checkpoint(n, watch).is_break() {
                return Ok(Some(Halt::Stopped));
            }
        }
        if self.values.len() >= end {
            return Ok(None);
        }
        let helpers = match self.helpers {
            Some(helpers) if cfg!(feature = "parallel") => helpers,
            _ => helpers(),
        };
        let helpers = if self.beyond_cores {
            helpers
        } else {
            helpers.min(cores() - 1)
        };
        // The values of the run are appended without moving those the
        // crew reads (`Known`): the crew stops where the room ends.
        let stop = self.make_room(end)?;
        let moves = self.moves.clone();
        let out_of_memory = |s: &Sequence| OctalError::OutOfMemory {
            heap: s.values.len() as u64,
        };
        let mut sparse = Arc::new(self.sparse.for_reading().map_err(|_| out_of_memory(self))?);
        let mut view = |s: &Sequence| -> Result<View<'_>, OctalError> {
            if sparse.version != s.sparse.version {
                sparse = Arc::new(s.sparse.for_reading().map_err(|_| out_of_memory(s))?);
            }
            Ok(View {
                sparse: Arc::clone(&sparse),
                moves: &moves,
                known: Known::new(&s.values),
                want: s.want,
            })
        };
        let first = view(self)?;
        // Out of `self` while the crew runs, back after.
        let mut measure = std::mem::take(&mut self.crew_measure);
        let settled = crew::run(
            first,
            self.values.len()..stop,
            helpers,
            &first_pass,
            &mut measure,
            |crew| {
                crew.settle_all(|from: &View, first| {
                    let start = self.values.len();
                    match self.settle_batch(from.known.len, first, true) {
                        Ok(None) => match self.checkpoint(start, watch) {
                            ControlFlow::Break(()) => ControlFlow::Break(Ok(Some(Halt::Stopped))),
                            ControlFlow::Continue(true) if self.one_by_one() => {
                                // Cheap values now: the rest heap by heap.
                                ControlFlow::Break(Ok(None))
                            }
                            ControlFlow::Continue(_) => match view(self) {
                                Ok(next) => ControlFlow::Continue(next),
                                Err(e) => ControlFlow::Break(Err(e)),
                            },
                        },
                        done => ControlFlow::Break(done.map(|p| p.map(Halt::Certified))),
                    }
                })
            },
        );
        self.crew_measure = measure;
        match settled {
            ControlFlow::Continue(()) => Ok(None),
            ControlFlow::Break(done) => done,
        }
    }

    /// Makes room for more values towards heap `end - 1`, fallibly: twice
    /// the values computed (at least [`MIN_ROOM`] more), never beyond
    /// `end`; returns where the room ends (at most `end`).
    fn make_room(&mut self, end: usize) -> Result<usize, OctalError> {
        let len = self.values.len();
        let target = end.min(len.saturating_mul(2).max(len + MIN_ROOM));
        if self.values.capacity() < target {
            self.values
                .try_reserve_exact(target - len)
                .map_err(|_| OctalError::OutOfMemory { heap: len as u64 })?;
        }
        Ok(self.values.capacity().min(end))
    }

    /// Chooses the candidates of the next batches from how the last ones
    /// were settled (see [`CANDIDATES`]).
    fn review_candidates(&mut self) {
        let [first, later, recomputed] = std::mem::take(&mut self.tally);
        let all = first + later + recomputed;
        if all < 1024 {
            self.tally = [first, later, recomputed];
            return;
        }
        if self.want > 1 && later * 100 < SECOND_PAYS * all {
            self.want = 1;
            self.retry_at = self.values.len() + SECOND_RETRY;
        } else if self.want == 1
            && recomputed * 100 > RECOMPUTED_MANY * all
            && self.values.len() >= self.retry_at
        {
            self.want = CANDIDATES;
        }
    }

    /// Whether the next heap is computed on its own (not by the crew):
    /// small heaps, and cheap values (few rare splits to enumerate), for
    /// which the crew's hand-over and the options to add when settling
    /// cost more than they share (`.106`: twice the time in batches).
    fn one_by_one(&self) -> bool {
        self.values.len() < self.batch_from || self.sparse.rare_work() < self.cheap_work
    }

    /// Settles the next heaps (`values.len()` on), in order, from their
    /// first pass (`first`) with the values below `n`, and records their
    /// values (counted in the tally of the crew's heaps if `batch`);
    /// returns the period as soon as one is certified.
    fn settle_batch(
        &mut self,
        n: usize,
        first: &[Candidates],
        batch: bool,
    ) -> Result<Option<Period>, OctalError> {
        for candidates in first {
            let h = self.values.len();
            let (g, how) = settle(
                &self.sparse,
                &self.moves,
                &self.values,
                n,
                candidates,
                None,
                &mut self.scratch,
            );
            if batch {
                self.tally[how as usize] += 1;
            }
            if g > self.limit as usize {
                return Err(OctalError::ValueOverflow { heap: h as u64 });
            }
            // Room made beforehand (`make_room`): no reallocation here.
            debug_assert!(self.values.len() < self.values.capacity());
            self.values.push(g as u16);
            self.max_value = self.max_value.max(g as u16);
            self.sparse
                .push(&self.values)
                .map_err(|_| OctalError::OutOfMemory { heap: h as u64 })?;
            if self.rules.has_periodicity_theorem()
                && let Some(p) = self.tracker.push(&self.moves, &self.values)
            {
                self.period = Some(p);
                return Ok(Some(p));
            }
        }
        Ok(None)
    }

    /// The game.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// `G(0), G(1), ...` as far as computed.
    pub fn values(&self) -> &[u16] {
        &self.values
    }

    /// `G(0), G(1), ...` as far as computed, taken out of the sequence
    /// (no copy).
    pub fn into_values(self) -> Vec<u16> {
        self.values
    }

    /// The certified period, if any (smallest period and preperiod).
    pub fn period(&self) -> Option<Period> {
        self.period
    }

    /// The certified sequence, answering any heap in O(1), if a period is
    /// certified.
    pub fn periodic(&self) -> Option<PeriodicSequence> {
        self.period.map(|p| PeriodicSequence::new(p, &self.values))
    }

    /// `G(heap)`: computed, or through the certified period; `None` beyond
    /// the computed values when no period is certified.
    pub fn value(&self, heap: u64) -> Option<u16> {
        match self.period {
            Some(p) => Some(p.value(&self.values, heap)),
            None => self.values.get(usize::try_from(heap).ok()?).copied(),
        }
    }

    /// The largest value computed (0 before any).
    pub fn max_value(&self) -> u16 {
        self.max_value
    }

    /// The mask of the sparse-space split in use: a heap `a >= 1` is rare
    /// when `popcount(G(a) & mask)` is even. 0 means no split (every heap
    /// rare), e.g. while too few values are known.
    pub fn rare_mask(&self) -> u16 {
        self.sparse.mask()
    }

    /// The number of rare heaps under [`Sequence::rare_mask`].
    pub fn rare_count(&self) -> u64 {
        self.sparse.rare().len() as u64
    }

    /// The largest rare heap under [`Sequence::rare_mask`], if any.
    pub fn last_rare(&self) -> Option<u64> {
        self.sparse.rare().last().map(|&a| u64::from(a))
    }

    /// Starts batches at heap `from` instead of [`BATCH_FROM`], however
    /// cheap the values, so that tests on small heaps go through the batch
    /// path.
    #[cfg(test)]
    pub(crate) fn with_batches_from(mut self, from: usize) -> Sequence {
        self.batch_from = from;
        self.cheap_work = 0;
        self
    }

    /// Computes with `threads` threads in all, the caller's included (0
    /// counts as 1). Without it: as many as the current rayon pool has
    /// (the global pool's size when called outside any pool), and only the
    /// caller's when called on a thread of a rayon pool, whose other
    /// threads are presumed busy (e.g. with other games). Without feature
    /// `parallel`, always the caller's alone. Any count works; the crew
    /// runs at most as many threads as the cores this process may run on
    /// (`std::thread::available_parallelism`: its CPU affinity and quota)
    /// and at most 31 (more would not pay), and it measures whether its
    /// threads help, running without them while they do not (on a
    /// machine whose cores are taken by other programs; see the `crew`
    /// module). The values do not depend on it.
    pub fn with_threads(mut self, threads: usize) -> Sequence {
        self.helpers = Some(threads.saturating_sub(1));
        self
    }

    /// [`Sequence::with_threads`], even beyond the cores, and the crew
    /// always running (tests: chunks claimed in every order, threads
    /// descheduled in the middle of one).
    #[cfg(test)]
    pub(crate) fn with_threads_beyond_cores(mut self, threads: usize) -> Sequence {
        self.beyond_cores = true;
        self.crew_measure = crew::Measure::always_crew();
        self.with_threads(threads)
    }

    /// Lowers the largest value allowed (tests of the overflow error).
    #[cfg(test)]
    pub(crate) fn with_value_limit(mut self, limit: u16) -> Sequence {
        self.limit = ValueLimit::from(limit);
        self
    }
}
