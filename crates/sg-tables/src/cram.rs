//! The Cram endgame table (kind 7): the nimber of every polyomino of at
//! most `K` cells (a connected set of cells, up to the eight symmetries of
//! the square), keyed by its canonical form in sg-search's Cram, so that
//! the solver answers small components without search
//! ([`sg_search::games::cram::Cram::with_endgame`]).
//!
//! # The index: a static function per size, with fingerprints
//! Storing the keys would take 16 bytes a polyomino. The table stores
//! instead, for the polyominoes of each size `n`, a *static function*
//! (a retrieval structure: it gives each of its keys its value): an array
//! of `3 b` slots of 16 bits, `3 b` about `1.23` times the keys, where the
//! XOR of three slots, one in each third, picked by a hash of the key,
//! gives the key's nimber in its low 4 bits and the key's *fingerprint*
//! in its high 12 bits: 12 bits of a second mix of the same hash,
//! independent of the bits that pick the slots. It is built as an XOR
//! filter (Graf and Lemire, "Xor filters: faster and smaller than Bloom
//! and cuckoo filters", JEA 2020) whose fingerprints carry the nimber: the
//! keys are peeled off the 3-hypergraph of their slots (a slot of one key
//! is set last, so that the key's XOR is its value; Botelho, Pagh and
//! Ziviani, WADS 2007), with the next seed when the peeling fails (rarely,
//! with 1.23 slots a key).
//!
//! # Keys it does not hold
//! A lookup computes the key's fingerprint and answers only when the XOR
//! of the key's three slots carries it ([`CramEndgameTable::get`] gives
//! `None` otherwise). A key the table does not hold (a set that is not
//! the canonical form of a polyomino: another orientation of a held
//! shape, a set that is not connected, the canonical form of a polyomino
//! after a change of the canonical form since the table was built, a
//! bug) gets the XOR of three slots that do not depend on its
//! fingerprint: it is accepted, with some other shape's nimber, with
//! probability `2^-12` (1 in 4096) per key, and said not held otherwise.
//! The tests (`tests/suite/cram_unheld.rs`) look up 539 001 keys that
//! tables of 10 and 14 cells do not hold: 112 were accepted, where
//! `539 001 / 4096`, about 132, were expected. A Cram board that finds a
//! component not held searches it, and stops consulting the table (see
//! [`sg_search::games::cram::Cram::with_endgame`]): a table built with
//! another canonical form is caught at its first miss, and gives a wrong
//! nimber before it with probability about `2^-12` in all.
//!
//! # Size and speed
//! A table takes `16 * 1.23`, about 19.7 bits a polyomino: 3 021 424
//! bytes for the 1 227 708 polyominoes of at most 14 cells (the same
//! static function with 4-bit slots and no fingerprint took 755 635
//! bytes, and answered a key it did not hold with some value below 16).
//! Each fingerprint bit halves the false acceptances and costs 1.23 bits
//! a polyomino: 12 bits make slots of two bytes, read whole. A lookup is
//! one hash, three reads that do not depend on each other, and one more
//! mix for the fingerprint, which runs while the reads wait. The reads
//! cost more than before, as the arrays of 13 and 14 cells (2.8 MB) no
//! longer fit in a 1 MB second-level cache: the search of 5 x 7 and 5 x 8
//! on one thread took about 5% more CPU with the table (3% to 13% over
//! five interleaved series; docs/TABLES.md). The keys
//! themselves, sorted, would take 16 bytes a polyomino (20 MB for 14
//! cells). A minimal perfect hash (the levels of bit arrays of BBHash,
//! Limasset et al., SEA 2017) with the nimbers indexed by its rank was
//! tried first: it took more room, and a lookup needed a dependent read
//! (the nimber, once the rank was known) which cost more than the table
//! saved in the search of a 5 x 7 board.
//!
//! The records are checked against each other when a table is loaded
//! ([`CramEndgameTable::new`]), so that every lookup stays inside the
//! table whatever the file holds; whether the nimbers and fingerprints
//! are the right ones is what [`CramEndgameTable::verify_values`] checks,
//! from the rules.

use crate::error::TableError;
use crate::layout::{check_payload, u32_at, u64_at, wrong_kind};
use crate::metadata::{Game, TableKind};
use crate::polyomino::{self, Canonical};
use sg_search::Nimber;
use sg_search::games::cram::CramEndgame;
use std::borrow::Cow;

/// The largest `K` of a table: every polyomino of at most 16 cells has a
/// canonical form in a `u128`.
pub const MAX_CELLS: u32 = polyomino::MAX_CELLS;

/// Bytes of a size record in the payload.
const SIZE_RECORD: u64 = 16;

/// Bits of a nimber in the table: the low bits of a slot.
pub const NIMBER_BITS: u32 = 4;

/// Bits of a key's fingerprint in the table: the high bits of a slot. A
/// key the table does not hold is accepted with probability
/// `2^-FINGERPRINT_BITS`.
pub const FINGERPRINT_BITS: u32 = 12;

/// Bytes of a slot (little-endian): the nimber, then the fingerprint.
const SLOT_BYTES: u64 = 2;

/// The nimber's bits of a slot.
const NIMBER_MASK: u16 = (1 << NIMBER_BITS) - 1;

/// The seeds the builder tries for a size before giving up (the peeling
/// fails with a probability far below one in a thousand at each).
const MAX_ATTEMPTS: u32 = 64;

/// The payload length of a table of polyominoes of `1..=max_cells` cells
/// whose arrays have `slots` slots in all, of `bits` (the nimber's, the
/// fingerprint's) each, after checking the parameters: `max_cells`, fewer
/// than 2^32 polyominoes and slots, and the slots this reader knows.
pub(crate) fn payload_len(
    max_cells: u32,
    polyominoes: u64,
    slots: u64,
    bits: (u32, u32),
) -> Result<u64, TableError> {
    if !(1..=MAX_CELLS).contains(&max_cells) {
        return Err(TableError::CramMaxCells {
            max_cells,
            max: MAX_CELLS,
        });
    }
    if bits != (NIMBER_BITS, FINGERPRINT_BITS) {
        return Err(TableError::CramSlotBits {
            nimber_bits: bits.0,
            fingerprint_bits: bits.1,
            known_nimber_bits: NIMBER_BITS,
            known_fingerprint_bits: FINGERPRINT_BITS,
        });
    }
    if polyominoes > u64::from(u32::MAX) || slots > u64::from(u32::MAX) {
        return Err(TableError::CramCounts { polyominoes, slots });
    }
    Ok(slots * SLOT_BYTES + u64::from(max_cells) * SIZE_RECORD)
}

/// The hash of `key` with seed `seed`: the SplitMix64 finaliser
/// (`mix`) of the high word mixed with the seed, XOR the low word,
/// mixed again. Spelled out in FORMAT.md: it is part of the format.
#[inline]
pub fn hash(key: u128, seed: u64) -> u64 {
    let high = (key >> 64) as u64;
    mix(mix(high ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)) ^ key as u64)
}

/// The SplitMix64 finaliser (Steele, Lea and Flood, 2014): a bijection of
/// 64-bit words that spreads every input bit over the output.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of attempt `attempt` for the polyominoes of `cells` cells.
#[inline]
fn seed(cells: u32, attempt: u32) -> u64 {
    u64::from(cells) << 32 | u64::from(attempt)
}

/// `h` reduced to `0..n` (Lemire's multiply-shift: the high word of
/// `h * n`).
#[inline]
fn reduce(h: u64, n: u64) -> u64 {
    ((u128::from(h) * u128::from(n)) >> 64) as u64
}

/// The three slots of the key of hash `h` in an array of three thirds of
/// `third` slots: one in each third, from 21-bit rotations of the hash.
#[inline]
fn slots_of(h: u64, third: u64) -> [u64; 3] {
    [
        reduce(h, third),
        third + reduce(h.rotate_left(21), third),
        2 * third + reduce(h.rotate_left(42), third),
    ]
}

/// The fingerprint of the key of hash `h`: the high
/// [`FINGERPRINT_BITS`] of SplitMix64's next output after `h` (`mix` of
/// `h` plus its increment), bits that do not depend on those that pick
/// the slots. Spelled out in FORMAT.md.
#[inline]
fn fingerprint(h: u64) -> u16 {
    (mix(h.wrapping_add(0x9E37_79B9_7F4A_7C15)) >> (64 - FINGERPRINT_BITS)) as u16
}

/// The polyominoes of one size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Size {
    /// How many.
    count: u32,
    /// The seed's attempt.
    attempt: u32,
    /// A third of its array, in slots.
    third: u32,
    /// Its first slot in the slots of all sizes.
    start: u64,
}

/// The nimbers of every polyomino of at most [`max_cells`](Self::max_cells)
/// cells (see the module documentation).
#[derive(Debug, Clone)]
pub struct CramEndgameTable<'a> {
    max_cells: u32,
    sizes: Vec<Size>,
    /// The slots of all sizes, two bytes each, little-endian.
    slots: Cow<'a, [u8]>,
}

impl<'a> CramEndgameTable<'a> {
    /// The table of a validated file's `game` and `payload`: every record
    /// checked against the others (see FORMAT.md), so that lookups stay in
    /// the table; the nimbers themselves are checked by
    /// [`verify_values`](Self::verify_values). The arrays are read in
    /// place.
    pub fn new(game: &Game, payload: &'a [u8]) -> Result<Self, TableError> {
        let &Game::CramEndgame {
            max_cells,
            polyominoes,
            slots: total_slots,
            nimber_bits,
            fingerprint_bits,
        } = game
        else {
            return Err(wrong_kind(TableKind::CramEndgame, game));
        };
        let expected = payload_len(
            max_cells,
            polyominoes,
            total_slots,
            (nimber_bits, fingerprint_bits),
        )?;
        check_payload(expected, payload)?;
        // The length matches the metadata's counts (check_payload), so the
        // records are inside the payload.
        let mut sizes = Vec::with_capacity(max_cells as usize);
        let (mut polyominoes_so_far, mut start) = (0u64, 0u64);
        for (cells, at) in (1..=max_cells).zip((0..).step_by(SIZE_RECORD as usize)) {
            let count = u64_at(payload, at);
            let attempt = u32_at(payload, at + 8);
            let third = u32_at(payload, at + 12);
            if third == 0 {
                return Err(TableError::CramSizeRecord { cells, third });
            }
            // `polyominoes_so_far <= polyominoes` and `start <= total_slots`.
            if count > polyominoes - polyominoes_so_far {
                return Err(TableError::CramTotals {
                    what: "polyominoes",
                    metadata: polyominoes,
                    records: polyominoes_so_far.saturating_add(count),
                });
            }
            let size_slots = 3 * u64::from(third);
            if size_slots > total_slots - start {
                return Err(TableError::CramTotals {
                    what: "slots",
                    metadata: total_slots,
                    records: start + size_slots,
                });
            }
            sizes.push(Size {
                count: count as u32,
                attempt,
                third,
                start,
            });
            polyominoes_so_far += count;
            start += size_slots;
        }
        for (what, metadata, records) in [
            ("polyominoes", polyominoes, polyominoes_so_far),
            ("slots", total_slots, start),
        ] {
            if metadata != records {
                return Err(TableError::CramTotals {
                    what,
                    metadata,
                    records,
                });
            }
        }
        Ok(Self {
            max_cells,
            sizes,
            slots: Cow::Borrowed(&payload[max_cells as usize * SIZE_RECORD as usize..]),
        })
    }

    /// The table of every polyomino of `1..=max_cells` cells, computed
    /// from the rules on the calling thread (the generator of the feature
    /// `generate`, `generate::cram_endgame`, does the same in parallel).
    pub fn by_definition(max_cells: u32) -> Result<CramEndgameTable<'static>, TableError> {
        if !(1..=MAX_CELLS).contains(&max_cells) {
            return Err(TableError::CramMaxCells {
                max_cells,
                max: MAX_CELLS,
            });
        }
        let canonical = Canonical::default();
        let mut table = Self::builder();
        for keys in polyomino::free_polyominoes(max_cells) {
            let nimbers = keys
                .iter()
                .map(|&key| table.nimber_by_definition(key, &canonical))
                .collect::<Result<Vec<u8>, TableError>>()?;
            table.push_size(&keys, &nimbers)?;
        }
        Ok(table)
    }

    /// The nimber of the polyomino `key` from the rules (see
    /// [`polyomino::nimber_by_definition`]), its pieces' nimbers from this
    /// table: fails if a piece has more cells than the table.
    pub fn nimber_by_definition(&self, key: u128, canonical: &Canonical) -> Result<u8, TableError> {
        polyomino::nimber_by_definition(key, canonical, |piece| self.get(piece))
            .map_err(|piece| TableError::CramMissing { key: piece })
    }

    /// An empty table, to which [`push_size`](Self::push_size) adds the
    /// polyominoes of 1, 2, ... cells.
    pub fn builder() -> CramEndgameTable<'static> {
        CramEndgameTable {
            max_cells: 0,
            sizes: Vec::new(),
            slots: Cow::Owned(Vec::new()),
        }
    }

    /// The table as owned data, free of the bytes it was read from.
    pub fn into_owned(self) -> CramEndgameTable<'static> {
        CramEndgameTable {
            max_cells: self.max_cells,
            sizes: self.sizes,
            slots: Cow::Owned(self.slots.into_owned()),
        }
    }

    /// The largest polyominoes of the table: it holds every polyomino of
    /// `1..=max_cells()` cells.
    pub fn max_cells(&self) -> u32 {
        self.max_cells
    }

    /// The polyominoes of the table, of all sizes.
    pub fn len(&self) -> u64 {
        self.sizes.iter().map(|s| u64::from(s.count)).sum()
    }

    /// Whether the table holds no polyomino (a builder before its first
    /// size).
    pub fn is_empty(&self) -> bool {
        self.sizes.is_empty()
    }

    /// The polyominoes of `cells` cells in the table (`None` beyond
    /// [`max_cells`](Self::max_cells)).
    pub fn count(&self, cells: u32) -> Option<u64> {
        let size = self.sizes.get((cells as usize).checked_sub(1)?)?;
        Some(size.count.into())
    }

    /// The slot `at` (the records keep every lookup's slots in the array).
    #[inline]
    fn slot(&self, at: u64) -> Option<u16> {
        let at = usize::try_from(at).ok()?.checked_mul(SLOT_BYTES as usize)?;
        let bytes = self.slots.get(at..at + SLOT_BYTES as usize)?;
        Some(u16::from_le_bytes([bytes[0], bytes[1]]))
    }

    /// The nimber of the polyomino whose canonical form is `key`: the low
    /// bits of the XOR of its three slots in the array of its size, when
    /// the high bits are the key's fingerprint. `None` when `key` has no
    /// cell or more than [`max_cells`](Self::max_cells), or when the
    /// table does not hold it: a key of that many cells that is not the
    /// canonical form of a polyomino gets `None` except with probability
    /// `2^-`[`FINGERPRINT_BITS`] (then some nimber below 16).
    #[inline]
    pub fn get(&self, key: u128) -> Option<u8> {
        let cells = key.count_ones();
        let size = self.sizes.get((cells as usize).checked_sub(1)?)?;
        let h = hash(key, seed(cells, size.attempt));
        let [a, b, c] = slots_of(h, size.third.into());
        let value =
            self.slot(size.start + a)? ^ self.slot(size.start + b)? ^ self.slot(size.start + c)?;
        (value >> NIMBER_BITS == fingerprint(h)).then_some((value & NIMBER_MASK) as u8)
    }

    /// Adds the polyominoes of the next size, `self.max_cells() + 1`
    /// cells: their canonical forms `keys` (distinct) and their nimbers,
    /// `nimbers[i]` that of `keys[i]`, below 16. The table depends on the
    /// set of pairs only, not on their order.
    pub fn push_size(&mut self, keys: &[u128], nimbers: &[u8]) -> Result<(), TableError> {
        let cells = self.max_cells + 1;
        assert_eq!(keys.len(), nimbers.len(), "a nimber per key");
        if cells > MAX_CELLS || keys.iter().any(|k| k.count_ones() != cells) {
            return Err(TableError::CramBuild {
                cells,
                reason: "the keys are not all of this many cells, or too many cells",
            });
        }
        if let Some(i) = nimbers.iter().position(|&n| n >= 1 << NIMBER_BITS) {
            return Err(TableError::CramNimberTooLarge {
                key: keys[i],
                nimber: nimbers[i],
            });
        }
        let count = u32::try_from(keys.len())
            .ok()
            .filter(|&c| self.len() + u64::from(c) <= u64::from(u32::MAX))
            .ok_or(TableError::CramBuild {
                cells,
                reason: "more than 2^32 polyominoes",
            })?;
        let mut pairs: Vec<(u128, u8)> =
            keys.iter().copied().zip(nimbers.iter().copied()).collect();
        pairs.sort_unstable();
        let (attempt, third, values) = build(&pairs, cells)?;
        let start = self.slots.len() as u64 / SLOT_BYTES;
        self.sizes.push(Size {
            count,
            attempt,
            third: u32::try_from(third).map_err(|_| TableError::CramBuild {
                cells,
                reason: "more than 2^32 slots in a third of its array",
            })?,
            start,
        });
        self.max_cells = cells;
        let store = self.slots.to_mut();
        store.extend(values.iter().flat_map(|value| value.to_le_bytes()));
        Ok(())
    }

    /// The game of the table's metadata.
    pub fn game(&self) -> Game {
        Game::CramEndgame {
            max_cells: self.max_cells,
            polyominoes: self.len(),
            slots: self.slots.len() as u64 / SLOT_BYTES,
            nimber_bits: NIMBER_BITS,
            fingerprint_bits: FINGERPRINT_BITS,
        }
    }

    /// The payload of the table's file (the layout of FORMAT.md).
    pub fn to_payload(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for size in &self.sizes {
            out.extend_from_slice(&u64::from(size.count).to_le_bytes());
            out.extend_from_slice(&size.attempt.to_le_bytes());
            out.extend_from_slice(&size.third.to_le_bytes());
        }
        out.extend_from_slice(&self.slots);
        out
    }

    /// Checks every nimber against the rules of Cram: lists every free
    /// polyomino of `1..=max_cells()` cells anew (Redelmeier's algorithm,
    /// [`crate::polyomino`]) and, size by size, checks that the table has
    /// as many, and that the nimber it gives each is the mex of the
    /// options' nimbers computed from the table's smaller polyominoes,
    /// already checked. By induction on the size, every nimber the table
    /// gives a polyomino is then its nimber. Fails at the first difference,
    /// in order of size. On one thread; see
    /// [`verify_values_with`](Self::verify_values_with).
    pub fn verify_values(&self) -> Result<(), TableError> {
        let canonical = Canonical::default();
        let found = polyomino::free_polyominoes(self.max_cells);
        self.verify_values_with(&found, &canonical, |keys, check| {
            keys.iter().try_for_each(|&key| check(key))
        })
    }

    /// [`verify_values`](Self::verify_values) for the polyominoes `found`
    /// (by size, as [`polyomino::free_polyominoes`] lists them), each
    /// size's checks run by `each` (`each(keys, check)` must call `check`
    /// on every key and fail when one fails; the generator runs them in
    /// parallel).
    pub fn verify_values_with(
        &self,
        found: &[Vec<u128>],
        canonical: &Canonical,
        each: impl Fn(
            &[u128],
            &(dyn Fn(u128) -> Result<(), TableError> + Sync),
        ) -> Result<(), TableError>,
    ) -> Result<(), TableError> {
        for (size, cells) in self.sizes.iter().zip(1..) {
            let keys = found.get(cells as usize - 1).map_or(&[][..], Vec::as_slice);
            if keys.len() as u64 != u64::from(size.count) {
                return Err(TableError::CramCount {
                    cells,
                    stored: size.count.into(),
                    listed: keys.len() as u64,
                });
            }
            let check = |key: u128| -> Result<(), TableError> {
                let stored = self.get(key).ok_or(TableError::CramMissing { key })?;
                let expected = self.nimber_by_definition(key, canonical)?;
                if stored != expected {
                    return Err(TableError::CramValue {
                        key,
                        stored,
                        expected,
                    });
                }
                Ok(())
            };
            each(keys, &check)?;
        }
        Ok(())
    }
}

/// The static function of `pairs` (sorted, distinct keys of `cells` cells):
/// the attempt of the seed that worked, a third of the array in slots,
/// and the array, in which the XOR of each key's three slots is its nimber
/// and its fingerprint. Peels the 3-hypergraph whose
/// edges are the keys' slots: a slot of one key only is that key's (it is
/// set last, after the key's other two slots); the key is removed and the
/// peeling goes on, until every key has a slot of its own (then the array
/// is filled in the reverse order) or none is left (then the next seed).
fn build(pairs: &[(u128, u8)], cells: u32) -> Result<(u32, u64, Vec<u16>), TableError> {
    let n = pairs.len() as u64;
    let third = (n * 123 / 100 + 32).div_ceil(3);
    let len = 3 * third as usize;
    for attempt in 0..MAX_ATTEMPTS {
        let seed = seed(cells, attempt);
        let mut degree = vec![0u32; len];
        // Per slot, the XOR of the indices of its keys: the index of its
        // key when it has one left.
        let mut owner = vec![0u32; len];
        let hashes: Vec<u64> = pairs.iter().map(|&(key, _)| hash(key, seed)).collect();
        for (i, &h) in (0u32..).zip(&hashes) {
            for slot in slots_of(h, third) {
                degree[slot as usize] += 1;
                owner[slot as usize] ^= i;
            }
        }
        let mut ready: Vec<usize> = (0..len).filter(|&slot| degree[slot] == 1).collect();
        let mut peeled: Vec<(u32, usize)> = Vec::with_capacity(pairs.len());
        while let Some(slot) = ready.pop() {
            if degree[slot] != 1 {
                continue;
            }
            let i = owner[slot];
            peeled.push((i, slot));
            for other in slots_of(hashes[i as usize], third) {
                let other = other as usize;
                degree[other] -= 1;
                owner[other] ^= i;
                if degree[other] == 1 {
                    ready.push(other);
                }
            }
        }
        if peeled.len() < pairs.len() {
            continue;
        }
        let mut values = vec![0u16; len];
        for &(i, own) in peeled.iter().rev() {
            let (h, nimber) = (hashes[i as usize], pairs[i as usize].1);
            // The key's other slots are set (keys peeled after it) or
            // stay 0; its own slot is not set yet.
            let others = slots_of(h, third)
                .iter()
                .filter(|&&c| c as usize != own)
                .fold(0, |x, &c| x ^ values[c as usize]);
            values[own] = (u16::from(nimber) | fingerprint(h) << NIMBER_BITS) ^ others;
        }
        return Ok((attempt, third, values));
    }
    Err(TableError::CramBuild {
        cells,
        reason: "no seed of 64 gives a static function (are the keys distinct?)",
    })
}

impl CramEndgame for CramEndgameTable<'_> {
    fn max_cells(&self) -> u32 {
        self.max_cells
    }

    #[inline]
    fn nimber(&self, canonical: u128) -> Option<Nimber> {
        self.get(canonical).map(Nimber::from)
    }
}
