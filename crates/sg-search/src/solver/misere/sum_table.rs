//! The transposition table of the misère search: whether each whole
//! position met (a sum, keyed by the sorted list of its canonical
//! components, the full key: no false hits) is a misère loss for the
//! player to move, in a bounded amount of memory.
//!
//! The keys have as many components as the position, so they live on the
//! heap; the table counts them with its hash tables' own allocations
//! against its budget (each key's bytes plus [`KEY_OVERHEAD`] for the
//! allocator). It is split into shards, each behind its own lock and with
//! an equal part of the budget. A shard that would outgrow its part drops
//! about half its entries, those whose computation cost the least *work*
//! (positions expanded, as `log2`), so that long computations stay.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use hashbrown::HashTable;

/// Bytes the allocator is taken to add to each key it holds.
const KEY_OVERHEAD: usize = 16;

/// The smallest share of the budget a shard gets: smaller budgets get
/// fewer shards.
const MIN_SHARD_BYTES: usize = 64 << 10;

/// An entry: the position's components, and what is known of it.
struct Entry<P> {
    hash: u64,
    parts: Box<[P]>,
    lose: bool,
    /// `log2` of the positions expanded to learn it, plus one.
    work: u8,
}

struct Shard<P> {
    table: HashTable<Entry<P>>,
    /// Bytes of the keys on the heap (with their overhead).
    heap: usize,
}

impl<P> Shard<P> {
    fn bytes(&self) -> usize {
        self.table.allocation_size() + self.heap
    }
}

/// A shard's lock on a cache line of its own.
#[repr(align(64))]
struct ShardLock<P> {
    shard: Mutex<Shard<P>>,
}

/// The table (see the module documentation).
pub(crate) struct SumTable<P> {
    shards: Box<[ShardLock<P>]>,
    shard_bits: u32,
    shard_budget: usize,
    bytes: AtomicUsize,
    entries: AtomicU64,
}

/// Whether entry `e` is the position of the components `of` gives of
/// `key`.
fn same<P: Eq, Q>(e: &Entry<P>, key: &[Q], hash: u64, of: &impl Fn(&Q) -> &P) -> bool {
    e.hash == hash && e.parts.len() == key.len() && e.parts.iter().zip(key).all(|(a, b)| a == of(b))
}

/// The heap bytes of a key of `len` components.
fn key_bytes<P>(len: usize) -> usize {
    len * std::mem::size_of::<P>() + KEY_OVERHEAD
}

impl<P: Clone + Eq> SumTable<P> {
    /// A table of at most `budget` bytes, for `threads` threads.
    pub(crate) fn new(budget: usize, threads: usize) -> Self {
        let mut count = (threads.max(1) * 8).next_power_of_two().min(1 << 12);
        while count > 1 && budget / count < MIN_SHARD_BYTES {
            count /= 2;
        }
        let shards = (0..count)
            .map(|_| ShardLock {
                shard: Mutex::new(Shard {
                    table: HashTable::new(),
                    heap: 0,
                }),
            })
            .collect();
        SumTable {
            shards,
            shard_bits: count.trailing_zeros(),
            shard_budget: budget / count,
            bytes: AtomicUsize::new(0),
            entries: AtomicU64::new(0),
        }
    }

    fn shard(&self, hash: u64) -> std::sync::MutexGuard<'_, Shard<P>> {
        let index = if self.shard_bits == 0 {
            0
        } else {
            (hash >> (64 - self.shard_bits)) as usize
        };
        self.shards[index]
            .shard
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether the position of the components `of` gives of `key` (hash
    /// `hash`) is a misère loss for the player to move, if known.
    pub(crate) fn get<Q>(&self, key: &[Q], hash: u64, of: impl Fn(&Q) -> &P) -> Option<bool> {
        let shard = self.shard(hash);
        shard
            .table
            .find(hash, |e| same(e, key, hash, &of))
            .map(|e| e.lose)
    }

    /// Records the outcome of a position, learnt by `work` expansions.
    pub(crate) fn put<Q>(
        &self,
        key: &[Q],
        hash: u64,
        lose: bool,
        work: u64,
        of: impl Fn(&Q) -> &P,
    ) {
        let work = (64 - work.leading_zeros()) as u8;
        let mut shard = self.shard(hash);
        if let Some(e) = shard.table.find_mut(hash, |e| same(e, key, hash, &of)) {
            e.work = e.work.max(work);
            return;
        }
        let before = shard.bytes();
        let bytes = key_bytes::<P>(key.len());
        if shard.table.len() == shard.table.capacity() {
            // Room for one more: twice the buckets, if the budget allows.
            let grown =
                (2 * shard.table.allocation_size()).max(4 * std::mem::size_of::<Entry<P>>() + 64);
            if grown + shard.heap + bytes > self.shard_budget
                || shard.table.try_reserve(1, |e| e.hash).is_err()
            {
                self.evict(&mut shard);
            }
        }
        if shard.table.len() < shard.table.capacity() && shard.bytes() + bytes > self.shard_budget {
            self.evict(&mut shard);
        }
        if shard.table.len() < shard.table.capacity() && shard.bytes() + bytes <= self.shard_budget
        {
            shard.table.insert_unique(
                hash,
                Entry {
                    hash,
                    parts: key.iter().map(|q| of(q).clone()).collect(),
                    lose,
                    work,
                },
                |e| e.hash,
            );
            shard.heap += bytes;
            self.entries.fetch_add(1, Ordering::Relaxed);
        }
        self.account(before, shard.bytes());
    }

    /// Drops about half the shard's entries, the cheapest.
    fn evict(&self, shard: &mut Shard<P>) {
        let len = shard.table.len();
        if len == 0 {
            return;
        }
        let mut counts = [0usize; 66];
        for e in shard.table.iter() {
            counts[usize::from(e.work)] += 1;
        }
        // The work `limit` below which fewer than half are, and how many of
        // work `limit` go too.
        let mut below = 0;
        let mut limit = 0;
        while below + counts[limit] < len.div_ceil(2) {
            below += counts[limit];
            limit += 1;
        }
        let mut extra = len.div_ceil(2) - below;
        let mut freed = 0;
        let mut removed = 0;
        shard.table.retain(|e| {
            let work = usize::from(e.work);
            let drop = work < limit || (work == limit && extra > 0);
            if work == limit && drop {
                extra -= 1;
            }
            if drop {
                freed += key_bytes::<P>(e.parts.len());
                removed += 1;
            }
            !drop
        });
        shard.heap -= freed;
        self.entries.fetch_sub(removed, Ordering::Relaxed);
        // A table of the entries left, without the marks of those removed
        // (which count against its capacity until it is rebuilt).
        let left = shard.table.len();
        shard.table.shrink_to(left, |e| e.hash);
    }

    fn account(&self, before: usize, after: usize) {
        if after >= before {
            self.bytes.fetch_add(after - before, Ordering::Relaxed);
        } else {
            self.bytes.fetch_sub(before - after, Ordering::Relaxed);
        }
    }

    /// Entries stored.
    pub(crate) fn entries(&self) -> u64 {
        self.entries.load(Ordering::Relaxed)
    }

    /// Bytes held (the hash tables and the keys).
    pub(crate) fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_found_by_their_whole_key() {
        let table: SumTable<u64> = SumTable::new(1 << 20, 1);
        table.put(&[1, 2], 7, true, 10, id);
        table.put(&[1, 3], 7, false, 10, id);
        assert_eq!(table.get(&[1, 2], 7, id), Some(true));
        assert_eq!(table.get(&[1, 3], 7, id), Some(false));
        assert_eq!(table.get(&[1, 4], 7, id), None);
        assert_eq!(table.get(&[1], 7, id), None);
        assert_eq!(table.get(&[1, 2], 8, id), None);
        assert_eq!(table.entries(), 2);
    }

    fn id(p: &u64) -> &u64 {
        p
    }

    #[test]
    fn a_full_table_stays_in_its_budget_and_keeps_the_costliest() {
        for budget in [0, 100, 1000, 10_000, 1 << 20] {
            let table: SumTable<u64> = SumTable::new(budget, 2);
            for key in 0..20_000u64 {
                let hash = key.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                table.put(&[key, key, key], hash, key % 2 == 0, key, id);
                assert!(table.bytes() <= budget, "{budget}: {}", table.bytes());
            }
            if budget >= 10_000 {
                let last = 19_999u64;
                let hash = last.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                assert_eq!(table.get(&[last, last, last], hash, id), Some(false));
                assert!(table.entries() > 10);
            }
        }
    }
}
