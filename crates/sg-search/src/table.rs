//! The transposition table: what the search knows of each component it
//! has met, shared by all threads, in a bounded amount of memory.
//!
//! An entry holds a component (its canonical form, the full key: there are
//! no false hits) and a [`Knowledge`]: the exact nimber, or a lower bound
//! and a set of values known not to be the nimber. The table is split
//! into shards; a shard is an array of buckets of [`WAYS`] entries,
//! indexed by the hash of the key.
//!
//! # Threads
//!
//! Each bucket has its own lock, a bit of its first entry's word: a
//! lookup locks only the bucket it reads, on the cache line it reads
//! anyway, so two threads contend only when they want the same bucket
//! (two in millions), and no line is written by every lookup. A lock per
//! shard, in a line of its own, was written by every lookup of that shard:
//! with two threads each line moved from core to core at almost every
//! lookup, and two threads took 2.0x the CPU time of one for 1.15x the
//! positions (`cram_time 5x8 2`: 7.0 s by the clock, 13.1 s of CPU).
//!
//! A shard grows by a new array of twice its buckets, made the current one
//! at once; the entries of the old array are then moved into it bucket by
//! bucket, each old bucket marked moved under its lock (a thread that
//! finds its bucket moved looks again in the current array). Meanwhile a
//! lookup may miss an entry not moved yet, which costs a search, never a
//! wrong answer. The old array is freed once no thread can still be
//! reading it (`crossbeam-epoch`: a worker of the search stays pinned,
//! and repins every few hundred expansions, so that a lookup's pin is only
//! a counter).
//!
//! # Memory
//!
//! The table never holds more than its budget of bytes (the option
//! `--memory`): it counts the buckets it allocates, `size_of` of the
//! bucket each. A shard starts small and doubles while the budget allows
//! (so a small search touches little memory): when half its ways are
//! used, and, while it has fewer than [`SMALL_SHARD_BUCKETS`] buckets,
//! when a new entry finds its bucket full. Once the budget is spent, it
//! stops growing and replaces entries.
//!
//! A small shard holds few entries, and one of its buckets often has more
//! keys than ways long before half its ways are used: a game of a few
//! hundred positions then lost the same entries over and over, each
//! computed again by every position that needs it (a Nim heap of 450,
//! whose 451 positions each need all those below: 802,392 positions
//! expanded, 17.7 s; 451 once small shards grow instead). Growing on any
//! full bucket whatever the shard's size was tried and dropped: a large
//! table always has full buckets, and Cram 4 x 9's grew from 8 to 96 MB
//! (0.38 to 0.50 s).
//!
//! # Replacement
//!
//! A new entry goes into an empty way of its bucket; in a full bucket it
//! replaces the entry whose computation cost the least *work* (the number
//! of positions the search expanded to obtain it), so that the results of
//! long computations stay and those of cheap ones, quick to redo, go.
//! An update of an entry already present keeps the larger work.

use std::cell::UnsafeCell;
use std::hash::{BuildHasher, Hash};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use crossbeam_epoch::{self as epoch, Atomic, Guard, Owned};

use crate::game::Nimber;

/// Entries per bucket.
pub(crate) const WAYS: usize = 4;

/// Shards per thread of the search: enough that two threads rarely want
/// the same lock, few enough that a large table's shards are large arrays
/// (which the kernel backs with huge pages, sparing misses of the TLB).
const SHARDS_PER_THREAD: usize = 8;

/// Buckets a shard starts with.
const INITIAL_BUCKETS: usize = 8;

/// Below this many buckets (256 KiB of buckets of 64 bytes), a shard
/// grows when a new entry finds its bucket full, whatever its load. The
/// tables of Cram and Node-Kayles pass this size early. A search that
/// expands each heap of Nim once lost entries of heaps of 6000 with 1024
/// (257,116 positions expanded for 6001), of heaps of 10,000 with 4096
/// (11,666 for 10,001).
const SMALL_SHARD_BUCKETS: usize = 4096;

/// What is known of a component's nimber: exact, or a lower bound and a
/// few values above it that are known not to be the nimber.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Knowledge {
    /// The nimber is at least `low` (every value below it is the nimber of
    /// an option); with `exact`, it is `low`.
    pub(crate) low: Nimber,
    /// The nimber is `low`.
    pub(crate) exact: bool,
    /// Bit `i`: the nimber is not `low + i` (bit 0 is always clear: `low`
    /// excluded raises `low`).
    pub(crate) excluded: u64,
}

impl Knowledge {
    /// The nimber is `n`.
    pub(crate) fn exact(n: Nimber) -> Self {
        Knowledge {
            low: n,
            exact: true,
            excluded: 0,
        }
    }

    /// The nimber if known.
    pub(crate) fn nimber(&self) -> Option<Nimber> {
        self.exact.then_some(self.low)
    }

    /// Whether the nimber is known not to be `t`.
    pub(crate) fn excludes(&self, t: Nimber) -> bool {
        if self.exact {
            return t != self.low;
        }
        if t < self.low {
            return true;
        }
        let above = t - self.low;
        above < 64 && self.excluded >> above & 1 == 1
    }

    /// Records that the nimber is not `t`.
    pub(crate) fn exclude(&mut self, t: Nimber) {
        if self.exact || t < self.low || t - self.low >= 64 {
            return;
        }
        self.excluded |= 1 << (t - self.low);
        self.normalize();
    }

    /// Records that the nimber is at least `low`.
    pub(crate) fn raise(&mut self, low: Nimber) {
        if self.exact || low <= self.low {
            return;
        }
        let shift = low - self.low;
        self.excluded = if shift >= 64 {
            0
        } else {
            self.excluded >> shift
        };
        self.low = low;
        self.normalize();
    }

    /// `low` excluded: the nimber is above it.
    fn normalize(&mut self) {
        while self.excluded & 1 == 1 {
            self.excluded >>= 1;
            self.low += 1;
        }
    }

    /// What both say.
    pub(crate) fn merge(&mut self, other: &Knowledge) {
        if self.exact {
            return;
        }
        if other.exact {
            *self = *other;
            return;
        }
        self.raise(other.low);
        for i in 0..64 {
            if other.excluded >> i & 1 == 1 {
                self.exclude(other.low + i);
            }
        }
    }
}

/// What the table knows of a component, as [`Solver::facts`](crate::Solver::facts)
/// gives it and a checkpoint stores it: the exact nimber, or a lower
/// bound and values above it that are not the nimber.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fact {
    knowledge: Knowledge,
}

impl Fact {
    /// The nimber, if the fact is exact.
    pub fn nimber(&self) -> Option<Nimber> {
        self.knowledge.nimber()
    }

    /// The nimber is at least this.
    pub fn at_least(&self) -> Nimber {
        self.knowledge.low
    }

    /// Whether the nimber is known not to be `t`.
    pub fn excludes(&self, t: Nimber) -> bool {
        self.knowledge.excludes(t)
    }

    /// The fact as one word (the layout of the table's entries, without
    /// the work): what a checkpoint stores.
    pub fn to_word(&self) -> u64 {
        Packed::new(&self.knowledge, 0).map_or(0, |p| p.0)
    }

    /// The fact a word of [`to_word`](Self::to_word) holds, if it is one:
    /// marked used, none of the lock's bits, no work, and an exact nimber
    /// with no values excluded.
    pub fn from_word(word: u64) -> Option<Fact> {
        let packed = Packed(word);
        let knowledge = packed.knowledge();
        let valid = packed.used()
            && word & !ENTRY_BITS == 0
            && packed.work() == 0
            && Packed::new(&knowledge, 0) == Some(packed)
            && !(knowledge.exact && knowledge.excluded != 0);
        valid.then_some(Fact { knowledge })
    }

    pub(crate) fn knowledge(&self) -> Knowledge {
        self.knowledge
    }

    pub(crate) fn of(knowledge: Knowledge) -> Fact {
        Fact { knowledge }
    }
}

/// What a slot holds besides its key, in one word: bit 63 used, bit 62
/// exact, bits 32 to 59 the nimber or its lower bound, bits 8 to 31 the
/// values `low + 1` to `low + 24` known not to be the nimber, bits 0 to 7
/// the work (`log2` of the positions expanded, plus one). Bits 60 and 61
/// of a bucket's first word are its lock ([`LOCKED`], [`MOVED`]), never
/// part of an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
struct Packed(u64);

const USED: u64 = 1 << 63;
const EXACT: u64 = 1 << 62;
/// A bucket's lock is held (in its first word).
const LOCKED: u64 = 1 << 61;
/// A bucket's entries were moved to the shard's next array (in its first
/// word; the bucket is never used again).
const MOVED: u64 = 1 << 60;
/// The bits of a word that are an entry's.
const ENTRY_BITS: u64 = !(LOCKED | MOVED);
/// The largest nimber or bound an entry holds (larger ones are not kept:
/// only the speed of games with such nimbers suffers).
const MAX_LOW: Nimber = (1 << 28) - 1;
/// Values above the bound an entry can exclude.
const EXCLUDED_BITS: u32 = 24;

impl Packed {
    fn new(knowledge: &Knowledge, work: u64) -> Option<Packed> {
        if knowledge.low > MAX_LOW {
            return None;
        }
        let work = u64::from(64 - work.leading_zeros()).min(255);
        let excluded = (knowledge.excluded >> 1) & ((1 << EXCLUDED_BITS) - 1);
        let exact = if knowledge.exact { EXACT } else { 0 };
        Some(Packed(
            USED | exact | u64::from(knowledge.low) << 32 | excluded << 8 | work,
        ))
    }

    fn used(self) -> bool {
        self.0 & USED != 0
    }

    fn work(self) -> u64 {
        self.0 & 0xff
    }

    fn knowledge(self) -> Knowledge {
        Knowledge {
            low: (self.0 >> 32) as Nimber & MAX_LOW,
            exact: self.0 & EXACT != 0,
            excluded: (self.0 >> 8 & ((1 << EXCLUDED_BITS) - 1)) << 1,
        }
    }
}

/// A bucket: the ways that one hash selects, on a cache line of their own
/// when the keys are 8 bytes; its lock is in the first word.
#[repr(align(64))]
struct Bucket<P> {
    /// Per way, its [`Packed`] entry (and in the first, the lock).
    words: [AtomicU64; WAYS],
    /// Per way, its key: read and written only under the bucket's lock.
    keys: UnsafeCell<[P; WAYS]>,
}

impl<P: Default> Default for Bucket<P> {
    fn default() -> Self {
        Bucket {
            words: Default::default(),
            keys: UnsafeCell::new(std::array::from_fn(|_| P::default())),
        }
    }
}

// SAFETY: the keys are reached only through a `Locked`, which exists only
// while its thread holds the bucket's lock (an atomic bit, acquired with
// `Acquire` and released with `Release`): no two threads touch them at
// once, so a bucket is as shareable as its keys are sendable.
unsafe impl<P: Send> Sync for Bucket<P> {}

/// A bucket's lock, held: its entries, to read and write.
struct Locked<'b, P> {
    bucket: &'b Bucket<P>,
}

impl<P> Bucket<P> {
    /// Takes the bucket's lock (spinning while another thread holds it:
    /// a lookup holds it for a few comparisons); `None` if the bucket was
    /// moved to a newer array.
    #[inline]
    fn lock(&self) -> Option<Locked<'_, P>> {
        let first = &self.words[0];
        loop {
            let word = first.load(Ordering::Relaxed);
            if word & MOVED != 0 {
                return None;
            }
            if word & LOCKED == 0
                && first
                    .compare_exchange_weak(
                        word,
                        word | LOCKED,
                        Ordering::Acquire,
                        Ordering::Relaxed,
                    )
                    .is_ok()
            {
                return Some(Locked { bucket: self });
            }
            std::hint::spin_loop();
        }
    }
}

impl<P> Locked<'_, P> {
    /// The entry of way `i`.
    #[inline]
    fn data(&self, i: usize) -> Packed {
        Packed(self.bucket.words[i].load(Ordering::Relaxed) & ENTRY_BITS)
    }

    /// Sets the entry of way `i` (the lock bit kept).
    #[inline]
    fn set_data(&self, i: usize, data: Packed) {
        let lock = if i == 0 { LOCKED } else { 0 };
        self.bucket.words[i].store(data.0 | lock, Ordering::Relaxed);
    }

    /// The keys.
    #[inline]
    fn keys(&mut self) -> &mut [P; WAYS] {
        // SAFETY: this thread holds the bucket's lock (a `Locked` exists
        // only then), so no other thread reads or writes the keys, and
        // `&mut self` makes this the only reference through this lock.
        unsafe { &mut *self.bucket.keys.get() }
    }

    /// Releases the lock, marking the bucket moved (its entries were taken
    /// to a newer array).
    fn release_moved(self) {
        let first = &self.bucket.words[0];
        first.store(MOVED, Ordering::Release);
        std::mem::forget(self);
    }
}

impl<P> Drop for Locked<'_, P> {
    #[inline]
    fn drop(&mut self) {
        // Only the lock's holder writes the first word: a plain store
        // releases it (a read-modify-write would cost as much again).
        let first = &self.bucket.words[0];
        first.store(first.load(Ordering::Relaxed) & !LOCKED, Ordering::Release);
    }
}

/// A shard's array of buckets.
struct Buckets<P> {
    buckets: Box<[Bucket<P>]>,
}

impl<P> Buckets<P> {
    #[inline]
    fn bucket(&self, hash: u64) -> &Bucket<P> {
        &self.buckets[hash as usize & (self.buckets.len() - 1)]
    }
}

/// A shard: its current array, and for prefetching without a pin, where
/// it is (read by every lookup, written only when the shard grows: on a
/// line of its own, which every core keeps).
#[repr(align(64))]
struct Shard<P> {
    current: Atomic<Buckets<P>>,
    /// The address of the current array's first bucket and its number of
    /// buckets minus one. Read only to prefetch: a stale address costs a
    /// useless prefetch, nothing else.
    first: AtomicUsize,
    mask: AtomicUsize,
}

/// What a shard's inserts write: on a line apart from [`Shard`], so that
/// lookups do not miss on it.
#[repr(align(64))]
#[derive(Default)]
struct ShardCount {
    /// Entries in the current array (an estimate while it grows).
    entries: AtomicUsize,
    /// A thread is growing the shard.
    growing: AtomicBool,
}

/// The transposition table (see the module documentation).
pub(crate) struct Table<P> {
    shards: Box<[Shard<P>]>,
    counts: Box<[ShardCount]>,
    shard_bits: u32,
    hasher: FixedHasher,
    /// Bytes of buckets allocated, and the most allowed.
    bytes: AtomicUsize,
    budget: usize,
}

/// A fixed, fast hasher: the table's layout does not depend on a random
/// seed, so runs are reproducible.
#[derive(Clone, Copy, Default)]
pub(crate) struct FixedHasher;

impl BuildHasher for FixedHasher {
    type Hasher = MixHasher;
    fn build_hasher(&self) -> MixHasher {
        MixHasher(0)
    }
}

/// A multiply-rotate hasher (as FxHash) with a final mix, so that both the
/// high bits (the shard) and the low bits (the bucket) are well spread.
pub(crate) struct MixHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl std::hash::Hasher for MixHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(SEED);
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
    fn write_u16(&mut self, n: u16) {
        self.write_u64(u64::from(n));
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }
    fn write_u128(&mut self, n: u128) {
        self.write_u64(n as u64);
        self.write_u64((n >> 64) as u64);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h
    }
}

impl<P: Clone + Eq + Hash + Default> Table<P> {
    /// A table of at most `budget` bytes of buckets, with
    /// [`SHARDS_PER_THREAD`] shards per thread (at most 4096).
    pub(crate) fn new(budget: usize, threads: usize) -> Self {
        let wanted = (threads.max(1) * SHARDS_PER_THREAD)
            .next_power_of_two()
            .clamp(SHARDS_PER_THREAD, 1 << 12);
        let bucket = std::mem::size_of::<Bucket<P>>();
        // A budget smaller than the shards' first buckets gets fewer shards.
        let mut shard_count = wanted;
        while shard_count > 1 && shard_count * INITIAL_BUCKETS * bucket > budget {
            shard_count /= 2;
        }
        let initial = if shard_count * INITIAL_BUCKETS * bucket <= budget {
            INITIAL_BUCKETS
        } else {
            1
        };
        let shards = (0..shard_count)
            .map(|_| {
                let buckets = Buckets {
                    buckets: (0..initial).map(|_| Bucket::default()).collect(),
                };
                let first = AtomicUsize::new(buckets.buckets.as_ptr() as usize);
                Shard {
                    current: Atomic::new(buckets),
                    first,
                    mask: AtomicUsize::new(initial - 1),
                }
            })
            .collect();
        Table {
            shards,
            counts: (0..shard_count).map(|_| ShardCount::default()).collect(),
            shard_bits: shard_count.trailing_zeros(),
            hasher: FixedHasher,
            bytes: AtomicUsize::new(shard_count * initial * bucket),
            budget,
        }
    }

    pub(crate) fn hash(&self, key: &P) -> u64 {
        self.hasher.hash_one(key)
    }

    fn shard_index(&self, hash: u64) -> usize {
        if self.shard_bits == 0 {
            0
        } else {
            (hash >> (64 - self.shard_bits)) as usize
        }
    }

    /// Asks the processor to bring `hash`'s bucket into the cache, so that
    /// a `get` soon after does not wait for memory.
    pub(crate) fn prefetch(&self, hash: u64) {
        let shard = &self.shards[self.shard_index(hash)];
        let first = shard.first.load(Ordering::Relaxed);
        let offset =
            (hash as usize & shard.mask.load(Ordering::Relaxed)) * std::mem::size_of::<Bucket<P>>();
        prefetch_address(first.wrapping_add(offset));
    }

    /// Runs `f` on `hash`'s bucket of its shard's current array, locked
    /// (`guard` pins this thread: see the module documentation).
    #[inline]
    fn with_bucket<T>(&self, hash: u64, guard: &Guard, mut f: impl FnMut(Locked<'_, P>) -> T) -> T {
        let shard = &self.shards[self.shard_index(hash)];
        loop {
            let current = shard.current.load(Ordering::Acquire, guard);
            // SAFETY: `current` is never null (every shard has an array
            // from `new` on, and `grow` replaces it by another), and the
            // array it points to is freed only after every thread pinned
            // when it was replaced has unpinned (`defer_destroy` in
            // `grow`); this one is pinned by `guard`.
            let buckets = unsafe { current.deref() };
            // A moved bucket: its shard has a newer array (made current
            // before any bucket was marked moved).
            if let Some(locked) = buckets.bucket(hash).lock() {
                return f(locked);
            }
        }
    }

    /// What the table knows of `key` (its hash is `hash`), `guard`
    /// pinning this thread.
    pub(crate) fn get(&self, key: &P, hash: u64, guard: &Guard) -> Option<Knowledge> {
        self.with_bucket(hash, guard, |mut locked| {
            // Every way compared, without a branch per way (which way
            // holds a key is not predictable): at most one matches.
            let mut data = Packed(0);
            let words: [Packed; WAYS] = std::array::from_fn(|i| locked.data(i));
            for (way, key_here) in locked.keys().iter().enumerate() {
                if words[way].used() & (key_here == key) {
                    data = words[way];
                }
            }
            data.used().then(|| data.knowledge())
        })
    }

    /// Adds what is now known of `key` to what the table knows, `guard`
    /// pinning this thread.
    pub(crate) fn put(&self, key: &P, hash: u64, knowledge: Knowledge, work: u64, guard: &Guard) {
        let Some(data) = Packed::new(&knowledge, work) else {
            return;
        };
        let index = self.shard_index(hash);
        loop {
            match self.insert(index, key, hash, data, true, guard) {
                Inserted::Done { new } => {
                    if new {
                        let count = &self.counts[index];
                        let entries = count.entries.fetch_add(1, Ordering::Relaxed) + 1;
                        let len = self.shards[index].mask.load(Ordering::Relaxed) + 1;
                        if entries >= len * WAYS / 2 {
                            self.grow(index, guard);
                        }
                    }
                    return;
                }
                // A full bucket of a small shard: the shard grows rather
                // than lose an entry (see the module documentation).
                Inserted::Full => {
                    if !self.grow(index, guard) {
                        self.insert(index, key, hash, data, false, guard);
                        return;
                    }
                }
            }
        }
    }

    /// Puts `data` of `key` into its bucket of shard `index`: merged with
    /// the entry already there, in an empty way, or (unless `grow_first`
    /// and the shard is small) in place of the entry that cost least.
    fn insert(
        &self,
        index: usize,
        key: &P,
        hash: u64,
        data: Packed,
        grow_first: bool,
        guard: &Guard,
    ) -> Inserted {
        let small = self.shards[index].mask.load(Ordering::Relaxed) + 1 < SMALL_SHARD_BUCKETS;
        self.with_bucket(hash, guard, |mut locked| {
            let words: [Packed; WAYS] = std::array::from_fn(|i| locked.data(i));
            if let Some(way) = (0..WAYS).find(|&i| words[i].used() && locked.keys()[i] == *key) {
                let mut merged = words[way].knowledge();
                merged.merge(&data.knowledge());
                let work = words[way].work().max(data.work());
                if let Some(packed) = Packed::new(&merged, 0) {
                    locked.set_data(way, Packed(packed.0 & !0xff | work));
                }
                return Inserted::Done { new: false };
            }
            if let Some(way) = (0..WAYS).find(|&i| !words[i].used()) {
                locked.keys()[way].clone_from(key);
                locked.set_data(way, data);
                return Inserted::Done { new: true };
            }
            if grow_first && small {
                return Inserted::Full;
            }
            let way = (0..WAYS)
                .min_by_key(|&i| words[i].work())
                .expect("a bucket has ways");
            locked.keys()[way].clone_from(key);
            locked.set_data(way, data);
            Inserted::Done { new: false }
        })
    }

    /// Doubles shard `index`'s buckets if the budget allows and no other
    /// thread is growing it; whether it grew.
    fn grow(&self, index: usize, guard: &Guard) -> bool {
        let count = &self.counts[index];
        if count.growing.swap(true, Ordering::Acquire) {
            return false;
        }
        let grew = self.grow_now(index, guard);
        count.growing.store(false, Ordering::Release);
        grew
    }

    /// [`grow`](Self::grow), with the shard's `growing` flag held.
    fn grow_now(&self, index: usize, guard: &Guard) -> bool {
        let shard = &self.shards[index];
        let old = shard.current.load(Ordering::Acquire, guard);
        // SAFETY: as in `with_bucket` (pinned by `guard`; and only this
        // thread, holding `growing`, replaces the array).
        let old_buckets = unsafe { old.deref() };
        let bucket = std::mem::size_of::<Bucket<P>>();
        let len = old_buckets.buckets.len();
        let extra = 2 * len * bucket;
        // Both arrays while the entries move: the budget holds them both.
        let reserved = self
            .bytes
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |bytes| {
                (bytes + extra <= self.budget).then_some(bytes + extra)
            });
        if reserved.is_err() {
            return false;
        }
        let mut buckets: Vec<Bucket<P>> = Vec::new();
        if buckets.try_reserve_exact(2 * len).is_err() {
            self.bytes.fetch_sub(extra, Ordering::Relaxed);
            return false;
        }
        buckets.resize_with(2 * len, Bucket::default);
        let next = Owned::new(Buckets {
            buckets: buckets.into_boxed_slice(),
        });
        let first = next.buckets.as_ptr() as usize;
        shard.current.store(next, Ordering::Release);
        shard.first.store(first, Ordering::Relaxed);
        shard.mask.store(2 * len - 1, Ordering::Relaxed);
        self.counts[index].entries.store(0, Ordering::Relaxed);
        // The old entries into the new array, bucket by bucket.
        let mut moved: Vec<(P, Packed)> = Vec::with_capacity(WAYS);
        let mut kept = 0;
        for old_bucket in old_buckets.buckets.iter() {
            let Some(mut locked) = old_bucket.lock() else {
                continue;
            };
            moved.clear();
            for way in 0..WAYS {
                let data = locked.data(way);
                if data.used() {
                    moved.push((std::mem::take(&mut locked.keys()[way]), data));
                }
            }
            locked.release_moved();
            for (key, data) in moved.drain(..) {
                let hash = self.hasher.hash_one(&key);
                if let Inserted::Done { new: true } =
                    self.insert(index, &key, hash, data, false, guard)
                {
                    kept += 1;
                }
            }
        }
        self.counts[index]
            .entries
            .fetch_add(kept, Ordering::Relaxed);
        // The old array: freed once no thread can be reading it.
        self.bytes.fetch_sub(len * bucket, Ordering::Relaxed);
        // SAFETY: `old` is no longer reachable from the table (the shard's
        // current array was replaced above, and only this thread replaces
        // it), so only threads pinned now can hold it; `defer_destroy`
        // frees it once all of them have unpinned.
        unsafe { guard.defer_destroy(old) };
        true
    }

    /// Calls `f` with each entry whose computation expanded at least
    /// `min_work` positions, and that work (each bucket locked in turn
    /// while the search goes on: an entry moved by a shard growing
    /// meanwhile may be missed).
    pub(crate) fn for_each(
        &self,
        min_work: u64,
        guard: &Guard,
        mut f: impl FnMut(&P, Knowledge, u64),
    ) {
        let stored = u64::from(64 - min_work.leading_zeros()).min(255);
        for shard in self.shards.iter() {
            let current = shard.current.load(Ordering::Acquire, guard);
            // SAFETY: as in `with_bucket`.
            let buckets = unsafe { current.deref() };
            for bucket in buckets.buckets.iter() {
                let Some(mut locked) = bucket.lock() else {
                    continue;
                };
                for way in 0..WAYS {
                    let data = locked.data(way);
                    if data.used() && data.work() >= stored {
                        let work = if data.work() == 0 {
                            0
                        } else {
                            1 << (data.work() - 1)
                        };
                        f(&locked.keys()[way], data.knowledge(), work);
                    }
                }
            }
        }
    }

    /// Entries stored.
    pub(crate) fn len(&self) -> usize {
        self.entries() as usize
    }

    /// Entries stored (an estimate while a shard grows), without locks.
    pub(crate) fn entries(&self) -> u64 {
        self.counts
            .iter()
            .map(|c| c.entries.load(Ordering::Relaxed) as u64)
            .sum()
    }

    /// The most bytes of buckets allowed.
    pub(crate) fn budget(&self) -> usize {
        self.budget
    }

    /// Bytes of buckets allocated.
    pub(crate) fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }
}

impl<P> Drop for Table<P> {
    fn drop(&mut self) {
        for shard in self.shards.iter() {
            // SAFETY: `&mut self`: no other thread uses the table, so the
            // current arrays can be taken and freed at once.
            unsafe {
                let current = shard.current.load(Ordering::Relaxed, epoch::unprotected());
                drop(current.into_owned());
            }
        }
    }
}

/// How [`Table::insert`] went.
enum Inserted {
    /// Stored; `new` if in a way that was empty.
    Done { new: bool },
    /// The bucket is full and the shard small: grow first.
    Full,
}

/// Prefetches the cache line at `address` (which need not be valid: a
/// prefetch never faults).
#[inline]
fn prefetch_address(address: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch is a hint that reads nothing the program sees
        // and never faults, whatever the address.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(address as *const i8) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knowledge_raises_through_excluded_values() {
        let mut k = Knowledge::default();
        k.exclude(2);
        k.exclude(3);
        assert!(k.excludes(2) && k.excludes(3) && !k.excludes(1));
        k.exclude(0);
        assert_eq!(k.low, 1);
        k.exclude(1);
        assert_eq!(k.low, 4);
        assert!(!k.excludes(4));
        assert!(k.excludes(3));
    }

    #[test]
    fn packed_knowledge_round_trips() {
        let mut k = Knowledge::default();
        k.raise(7);
        k.exclude(9);
        k.exclude(31);
        assert_eq!(Packed::new(&k, 100).unwrap().knowledge(), k);
        let e = Knowledge::exact(12345);
        assert_eq!(Packed::new(&e, 1).unwrap().knowledge(), e);
        // Exclusions beyond the packed ones are dropped, never invented.
        let mut far = Knowledge::default();
        far.exclude(40);
        assert_eq!(
            Packed::new(&far, 1).unwrap().knowledge(),
            Knowledge::default()
        );
        assert!(Packed::new(&Knowledge::exact(MAX_LOW + 1), 1).is_none());
    }

    #[test]
    fn a_small_shard_grows_rather_than_lose_an_entry() {
        let table: Table<u64> = Table::new(1 << 20, 1);
        // Five keys of one bucket while the shards have their first 8
        // buckets: the same shard (the top bits of the hash), the same
        // low 3 bits.
        let place = |key: &u64| {
            let hash = table.hash(key);
            (hash >> (64 - table.shard_bits), hash & 7)
        };
        let keys: Vec<u64> = (1..)
            .filter(|key| place(key) == place(&0))
            .take(4)
            .chain([0])
            .collect();
        for key in &keys {
            table.put(key, table.hash(key), Knowledge::exact(1), 1, &epoch::pin());
        }
        for key in &keys {
            assert_eq!(
                table.get(key, table.hash(key), &epoch::pin()),
                Some(Knowledge::exact(1))
            );
        }
    }

    #[test]
    fn a_full_table_replaces_the_cheapest_entry() {
        let bucket = std::mem::size_of::<Bucket<u64>>();
        let table: Table<u64> = Table::new(bucket, 1);
        for key in 0..100u64 {
            table.put(&key, 0, Knowledge::exact(1), 1 << (key / 8), &epoch::pin());
        }
        assert!(table.bytes() <= bucket);
        // The most expensive survive in the one bucket.
        for key in 96..100u64 {
            assert_eq!(table.get(&key, 0, &epoch::pin()), Some(Knowledge::exact(1)));
        }
        assert_eq!(table.get(&0, 0, &epoch::pin()), None);
    }

    /// Four threads putting and getting keys at once, in a table small
    /// enough that its shards grow (their entries moved while others read
    /// them) and then replace entries: a key never gets another's
    /// knowledge, what is read is what was put for that key, and the
    /// budget holds.
    #[test]
    fn threads_growing_and_replacing_never_mix_keys() {
        let budget = 1 << 18;
        let table: Table<u64> = Table::new(budget, 4);
        let claim = |key: u64| {
            let mut k = Knowledge::default();
            k.raise((key % 97) as Nimber);
            k.exclude((key % 97) as Nimber + 1 + (key % 5) as Nimber);
            k
        };
        std::thread::scope(|scope| {
            for thread in 0..4u64 {
                let (table, claim) = (&table, &claim);
                scope.spawn(move || {
                    let mut guard = epoch::pin();
                    let mut x = 0x9e37_79b9_7f4a_7c15_u64.wrapping_mul(thread + 1);
                    for i in 0..200_000u64 {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        let key = x % 60_000;
                        table.put(&key, table.hash(&key), claim(key), i % 300, &guard);
                        let other = (x >> 20) % 60_000;
                        if let Some(k) = table.get(&other, table.hash(&other), &guard) {
                            assert_eq!(k, claim(other), "key {other}");
                        }
                        if i % 256 == 0 {
                            guard.repin();
                        }
                    }
                });
            }
        });
        assert!(table.bytes() <= budget);
        assert!(table.len() > 1000);
    }
}
