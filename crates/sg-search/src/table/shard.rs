//! The table's shards: arrays of buckets, each bucket locked by a bit
//! of its first word, and what a shard's inserts count.

use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use crossbeam_epoch::Atomic;

use super::{ENTRY_BITS, LOCKED, MOVED, Packed, WAYS};

/// A bucket: the ways that one hash selects, on a cache line of their own
/// when the keys are 8 bytes; its lock is in the first word.
#[repr(align(64))]
pub(super) struct Bucket<P> {
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
pub(super) struct Locked<'b, P> {
    bucket: &'b Bucket<P>,
}

impl<P> Bucket<P> {
    /// Takes the bucket's lock (spinning while another thread holds it:
    /// a lookup holds it for a few comparisons); `None` if the bucket was
    /// moved to a newer array.
    #[inline]
    pub(super) fn lock(&self) -> Option<Locked<'_, P>> {
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
    pub(super) fn data(&self, i: usize) -> Packed {
        Packed(self.bucket.words[i].load(Ordering::Relaxed) & ENTRY_BITS)
    }

    /// Sets the entry of way `i` (the lock bit kept).
    #[inline]
    pub(super) fn set_data(&self, i: usize, data: Packed) {
        let lock = if i == 0 { LOCKED } else { 0 };
        self.bucket.words[i].store(data.0 | lock, Ordering::Relaxed);
    }

    /// The keys.
    #[inline]
    pub(super) fn keys(&mut self) -> &mut [P; WAYS] {
        // SAFETY: this thread holds the bucket's lock (a `Locked` exists
        // only then), so no other thread reads or writes the keys, and
        // `&mut self` makes this the only reference through this lock.
        unsafe { &mut *self.bucket.keys.get() }
    }

    /// Releases the lock, marking the bucket moved (its entries were taken
    /// to a newer array).
    pub(super) fn release_moved(self) {
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
pub(super) struct Buckets<P> {
    pub(super) buckets: Box<[Bucket<P>]>,
}

impl<P> Buckets<P> {
    #[inline]
    pub(super) fn bucket(&self, hash: u64) -> &Bucket<P> {
        &self.buckets[hash as usize & (self.buckets.len() - 1)]
    }
}

/// A shard: its current array, and for prefetching without a pin, where
/// it is (read by every lookup, written only when the shard grows: on a
/// line of its own, which every core keeps).
#[repr(align(64))]
pub(super) struct Shard<P> {
    pub(super) current: Atomic<Buckets<P>>,
    /// The address of the current array's first bucket and its number of
    /// buckets minus one. Read only to prefetch: a stale address costs a
    /// useless prefetch, nothing else.
    pub(super) first: AtomicUsize,
    pub(super) mask: AtomicUsize,
}

/// What a shard's inserts write: on a line apart from [`Shard`], so that
/// lookups do not miss on it.
#[repr(align(64))]
#[derive(Default)]
pub(super) struct ShardCount {
    /// Entries in the current array (an estimate while it grows).
    pub(super) entries: AtomicUsize,
    /// A thread is growing the shard.
    pub(super) growing: AtomicBool,
}
