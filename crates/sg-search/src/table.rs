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

use std::hash::{BuildHasher, Hash};
use std::sync::atomic::{AtomicUsize, Ordering};

use crossbeam_epoch::{self as epoch, Atomic, Guard};

use crate::game::Nimber;

mod grow;
mod hasher;
mod knowledge;
mod shard;
pub(crate) use hasher::FixedHasher;
pub use knowledge::Fact;
pub(crate) use knowledge::Knowledge;
use shard::{Bucket, Buckets, Locked, Shard, ShardCount};

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
mod tests;
