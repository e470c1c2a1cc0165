//! How the table takes a new entry: into its bucket, in place of the
//! cheapest one, or after its shard grows to an array of twice the
//! buckets (see the module documentation of the table).

use std::hash::{BuildHasher, Hash};
use std::sync::atomic::Ordering;

use crossbeam_epoch::{Guard, Owned};

use super::knowledge::Knowledge;
use super::shard::{Bucket, Buckets};
use super::{Packed, SMALL_SHARD_BUCKETS, Table, WAYS};

impl<P: Clone + Eq + Hash + Default> Table<P> {
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
}

/// How [`Table::insert`] went.
enum Inserted {
    /// Stored; `new` if in a way that was empty.
    Done { new: bool },
    /// The bucket is full and the shard small: grow first.
    Full,
}
