//! The table's knowledge, packing, growth and replacement, and threads
//! using it at once.

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
