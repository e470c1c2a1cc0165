//! A seeded generator for tests and benchmarks (feature `testing`, and in
//! this crate's own tests), shared by every crate's tests. Not part of the
//! stable API.
//!
//! SplitMix64 is a named algorithm (Steele, Lea and Flood 2014), here the
//! implementation of `rand_xoshiro`, checked there against the reference
//! code: the same seed gives the same inputs across dependency upgrades.

use rand_xoshiro::rand_core::{Rng, SeedableRng};

/// SplitMix64 (Steele, Lea and Flood 2014, the implementation of
/// `rand_xoshiro`): a tiny, well-mixed, seeded generator whose output never
/// changes, with a uniform `below`.
#[derive(Debug, Clone)]
pub struct SplitMix64(rand_xoshiro::SplitMix64);

impl SplitMix64 {
    /// A generator with the given seed.
    pub fn new(seed: u64) -> Self {
        Self(rand_xoshiro::SplitMix64::seed_from_u64(seed))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (`n > 0`), by Lemire's multiply-shift.
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}
