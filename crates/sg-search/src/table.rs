//! The transposition table: what the search knows of each component it
//! has met, shared by all threads, in a bounded amount of memory.
//!
//! An entry holds a component (its canonical form, the full key: there are
//! no false hits) and a [`Knowledge`]: the exact nimber, or a lower bound
//! and a set of values known not to be the nimber. The table is split
//! into shards, each behind its own lock (two threads rarely want the same
//! shard at once); a shard is an array of buckets of [`WAYS`] entries,
//! indexed by the hash of the key.
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
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

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

/// What a slot holds besides its key, in one word: bit 63 used, bit 62
/// exact, bits 32 to 61 the nimber or its lower bound, bits 8 to 31 the
/// values `low + 1` to `low + 24` known not to be the nimber, bits 0 to 7
/// the work (`log2` of the positions expanded, plus one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
struct Packed(u64);

const USED: u64 = 1 << 63;
const EXACT: u64 = 1 << 62;
/// The largest nimber or bound an entry holds (larger ones are not kept:
/// only the speed of games with such nimbers suffers).
const MAX_LOW: Nimber = (1 << 30) - 1;
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

#[derive(Clone, Default)]
struct Slot<P> {
    key: P,
    data: Packed,
}

/// A bucket: the ways that one hash selects, on a cache line of their own
/// when the keys are 8 bytes.
#[derive(Clone, Default)]
#[repr(align(64))]
struct Bucket<P> {
    slots: [Slot<P>; WAYS],
}

struct Shard<P> {
    buckets: Vec<Bucket<P>>,
    entries: usize,
}

/// A shard's lock on a cache line of its own (two threads on two shards
/// do not share a line), with where its buckets are, for prefetching
/// without the lock.
#[repr(align(64))]
struct ShardLock<P> {
    shard: Mutex<Shard<P>>,
    /// The address of the first bucket and the number of buckets minus
    /// one, updated under the lock when the buckets move. Read only to
    /// prefetch: a stale address costs a useless prefetch, nothing else.
    first: AtomicUsize,
    mask: AtomicUsize,
}

/// The transposition table (see the module documentation).
pub(crate) struct Table<P> {
    shards: Box<[ShardLock<P>]>,
    shard_bits: u32,
    hasher: FixedHasher,
    /// Bytes of buckets allocated, and the most allowed.
    bytes: AtomicUsize,
    budget: usize,
    /// Entries stored (kept apart from the shards' counts, to be read
    /// without their locks).
    entries: AtomicU64,
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
    /// A table of at most `budget` bytes of buckets, with 64 shards per
    /// thread (at most 4096).
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
                let buckets = vec![Bucket::default(); initial];
                let first = AtomicUsize::new(buckets.as_ptr() as usize);
                ShardLock {
                    shard: Mutex::new(Shard {
                        buckets,
                        entries: 0,
                    }),
                    first,
                    mask: AtomicUsize::new(initial - 1),
                }
            })
            .collect();
        Table {
            shards,
            shard_bits: shard_count.trailing_zeros(),
            hasher: FixedHasher,
            bytes: AtomicUsize::new(shard_count * initial * bucket),
            budget,
            entries: AtomicU64::new(0),
        }
    }

    pub(crate) fn hash(&self, key: &P) -> u64 {
        self.hasher.hash_one(key)
    }

    fn shard_lock(&self, hash: u64) -> &ShardLock<P> {
        let index = if self.shard_bits == 0 {
            0
        } else {
            (hash >> (64 - self.shard_bits)) as usize
        };
        &self.shards[index]
    }

    fn shard(&self, hash: u64) -> std::sync::MutexGuard<'_, Shard<P>> {
        self.shard_lock(hash)
            .shard
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Asks the processor to bring `hash`'s bucket into the cache, so that
    /// a `get` soon after does not wait for memory.
    pub(crate) fn prefetch(&self, hash: u64) {
        let lock = self.shard_lock(hash);
        let first = lock.first.load(Ordering::Relaxed);
        let offset =
            (hash as usize & lock.mask.load(Ordering::Relaxed)) * std::mem::size_of::<Bucket<P>>();
        prefetch_address(first.wrapping_add(offset));
    }

    /// What the table knows of `key` (its hash is `hash`).
    pub(crate) fn get(&self, key: &P, hash: u64) -> Option<Knowledge> {
        let shard = self.shard(hash);
        let bucket = &shard.buckets[hash as usize & (shard.buckets.len() - 1)];
        // Every way compared, without a branch per way (which way holds a
        // key is not predictable): at most one matches.
        let mut data = Packed(0);
        for slot in &bucket.slots {
            if slot.data.used() & (slot.key == *key) {
                data = slot.data;
            }
        }
        data.used().then(|| data.knowledge())
    }

    /// Adds what is now known of `key` to what the table knows.
    pub(crate) fn put(&self, key: &P, hash: u64, knowledge: Knowledge, work: u64) {
        let Some(data) = Packed::new(&knowledge, work) else {
            return;
        };
        let lock = self.shard_lock(hash);
        let mut shard = lock.shard.lock().unwrap_or_else(PoisonError::into_inner);
        if shard.entries >= shard.buckets.len() * WAYS / 2 {
            self.grow(&mut shard, lock);
        }
        let mut bucket = hash as usize & (shard.buckets.len() - 1);
        if let Some(slot) = shard.buckets[bucket]
            .slots
            .iter_mut()
            .find(|slot| slot.data.used() && slot.key == *key)
        {
            let mut merged = slot.data.knowledge();
            merged.merge(&knowledge);
            let work = slot.data.work().max(data.work());
            if let Some(packed) = Packed::new(&merged, 0) {
                slot.data = Packed(packed.0 & !0xff | work);
            }
            return;
        }
        // A full bucket of a small shard: the shard grows rather than lose
        // an entry (see the module documentation).
        while shard.buckets[bucket]
            .slots
            .iter()
            .all(|slot| slot.data.used())
            && shard.buckets.len() < SMALL_SHARD_BUCKETS
            && self.grow(&mut shard, lock)
        {
            bucket = hash as usize & (shard.buckets.len() - 1);
        }
        let bucket = &mut shard.buckets[bucket];
        if let Some(empty) = bucket.slots.iter_mut().find(|slot| !slot.data.used()) {
            *empty = Slot {
                key: key.clone(),
                data,
            };
            shard.entries += 1;
            self.entries.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let cheapest = bucket
            .slots
            .iter_mut()
            .min_by_key(|slot| slot.data.work())
            .expect("a bucket has ways");
        *cheapest = Slot {
            key: key.clone(),
            data,
        };
    }

    /// Doubles the shard's buckets if the budget allows; whether it did.
    fn grow(&self, shard: &mut Shard<P>, lock: &ShardLock<P>) -> bool {
        let bucket = std::mem::size_of::<Bucket<P>>();
        let old = shard.buckets.len();
        let extra = old * bucket;
        let reserved = self
            .bytes
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |bytes| {
                (bytes + extra <= self.budget).then_some(bytes + extra)
            });
        if reserved.is_err() {
            return false;
        }
        let mut buckets: Vec<Bucket<P>> = Vec::new();
        if buckets.try_reserve_exact(old * 2).is_err() {
            self.bytes.fetch_sub(extra, Ordering::Relaxed);
            return false;
        }
        buckets.resize(old * 2, Bucket::default());
        let mask = old * 2 - 1;
        let mut kept = 0;
        for slot in std::mem::take(&mut shard.buckets)
            .into_iter()
            .flat_map(|b| b.slots)
        {
            if !slot.data.used() {
                continue;
            }
            let hash = self.hasher.hash_one(&slot.key);
            if let Some(way) = buckets[hash as usize & mask]
                .slots
                .iter_mut()
                .find(|way| !way.data.used())
            {
                *way = slot;
                kept += 1;
            }
        }
        self.entries
            .fetch_sub((shard.entries - kept) as u64, Ordering::Relaxed);
        shard.entries = kept;
        lock.first
            .store(buckets.as_ptr() as usize, Ordering::Relaxed);
        lock.mask.store(mask, Ordering::Relaxed);
        shard.buckets = buckets;
        true
    }

    /// Entries stored.
    pub(crate) fn len(&self) -> usize {
        self.entries() as usize
    }

    /// Entries stored, without taking the locks.
    pub(crate) fn entries(&self) -> u64 {
        self.entries.load(Ordering::Relaxed)
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
            table.put(key, table.hash(key), Knowledge::exact(1), 1);
        }
        for key in &keys {
            assert_eq!(table.get(key, table.hash(key)), Some(Knowledge::exact(1)));
        }
    }

    #[test]
    fn a_full_table_replaces_the_cheapest_entry() {
        let bucket = std::mem::size_of::<Bucket<u64>>();
        let table: Table<u64> = Table::new(bucket, 1);
        for key in 0..100u64 {
            table.put(&key, 0, Knowledge::exact(1), 1 << (key / 8));
        }
        assert!(table.bytes() <= bucket);
        // The most expensive survive in the one bucket.
        for key in 96..100u64 {
            assert_eq!(table.get(&key, 0), Some(Knowledge::exact(1)));
        }
        assert_eq!(table.get(&0, 0), None);
    }
}
