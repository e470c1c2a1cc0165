//! Certified finite descriptions of knight Grundy values on the unbounded
//! quarter board, answering any square in O(1).
//!
//! # The description
//!
//! A [`KnightPattern`] describes a function `f(x, y)` on all squares
//! `x, y >= 0` by finitely many numbers:
//!
//! - a *block*: the value of every square with `x + y < B`, stored
//!   explicitly (anti-diagonal order, as in
//!   [`TriangleTable`](crate::knight::TriangleTable));
//! - *rays* `r_0 = (1, 0) < r_1 < ... < r_k = (0, 1)`: primitive integer
//!   directions `(a, b)` with `a, b >= 0`, strictly increasing in angle. Each
//!   ray has the *transverse coordinate* `t_i(x, y) = a y - b x` (the cross
//!   product `r_i x p`), which is constant on lines parallel to the ray,
//!   positive above it and negative below it;
//! - one *layer* per ray: the band `lo_i <= t_i <= hi_i` (possibly empty,
//!   `lo_i = hi_i + 1`), periodic under the translation `m_i r_i`. Its tile
//!   is indexed by `t_i - lo_i` and by the position along the ray modulo
//!   `m_i`;
//! - one *sector* between consecutive rays: periodic under `(px, 0)` and
//!   `(0, py)`, with a `px * py` tile indexed by `(x mod px, y mod py)`.
//!   Any full-rank lattice contains such a rectangular one, so this is no
//!   loss of generality.
//!
//! [`KnightPattern::value`] evaluates `f` as follows: a square with
//! `x + y < B` is read from the block; otherwise the rays are tried in
//! order, and the first layer that contains the square gives its value;
//! a square in no layer lies in sector `j = #{i : t_i > hi_i} - 1` (clamped
//! to the sectors that exist). The description imposes `lo_i <= 1` and
//! `hi_i >= -1`, so every band contains or touches the ray itself.
//!
//! # Where the rest lives
//!
//! - `codec.rs`: the byte encoding ([`KnightPattern::to_bytes`],
//!   [`KnightPattern::from_bytes`]), which yields a well-formed description
//!   but not yet a proved one.
//! - `certificate.rs`: [`KnightPattern::check`], the proof that a
//!   description is the Grundy function, with the argument that makes
//!   finitely many checks enough.
//! - `search.rs`: [`search()`], which reads a description off a computed
//!   table and returns it only once its certificate passes.

mod certificate;
mod codec;
mod search;

pub use certificate::{CHECK_LIMIT, CertificateError, CertificateReport};
pub use search::{FitError, SearchError, SearchOptions, SearchOutcome, search};

use crate::knight::{KnightError, MoveSet, triangle_index};

/// Why a byte string is not a valid description.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    /// The bytes end early, have a wrong header or trailing bytes.
    #[error("malformed pattern bytes: {0}")]
    Malformed(&'static str),
    /// The description is inconsistent (rays, bands, tile sizes).
    #[error("invalid pattern: {0}")]
    Invalid(&'static str),
}

/// Why stored bytes did not give a certified description.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The bytes are not a well-formed description.
    #[error(transparent)]
    Pattern(#[from] PatternError),
    /// The description does not pass its certificate.
    #[error(transparent)]
    Certificate(#[from] CertificateError),
}

/// The band along one ray and its tile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layer {
    a: u32,
    b: u32,
    lo: i64,
    hi: i64,
    period: u64,
    tile: Vec<u8>,
}

impl Layer {
    /// The ray's direction `(a, b)`.
    pub fn direction(&self) -> (u32, u32) {
        (self.a, self.b)
    }

    /// The band `lo ..= hi` of `t = a y - b x` (empty when `lo > hi`).
    pub fn band(&self) -> (i64, i64) {
        (self.lo, self.hi)
    }

    /// The layer repeats under the translation `period * (a, b)`.
    pub fn period(&self) -> u64 {
        self.period
    }

    /// Number of stored values.
    pub fn tile_len(&self) -> usize {
        self.tile.len()
    }

    /// The values, row `t - lo`, column the position along the ray modulo
    /// the period.
    pub fn tile(&self) -> &[u8] {
        &self.tile
    }

    #[inline]
    fn t(&self, x: u64, y: u64) -> i128 {
        // Both products are below 2^76: widening unsigned multiplies, then
        // an exact signed difference.
        let ay = u128::from(self.a) * u128::from(y);
        let bx = u128::from(self.b) * u128::from(x);
        ay as i128 - bx as i128
    }

    #[inline]
    fn key(&self, x: u64, y: u64, t: i128) -> usize {
        // On a line t = const the squares are p0 + n (a, b); the coordinate
        // z with the larger step c moves by c, and z mod c is constant.
        let (z, c) = if self.a >= self.b {
            (x, u64::from(self.a))
        } else {
            (y, u64::from(self.b))
        };
        let along = rem(z, self.period * c) / c;
        (t - i128::from(self.lo)) as usize * self.period as usize + along as usize
    }

    fn rows(&self) -> usize {
        (self.hi - self.lo + 1).max(0) as usize
    }
}

/// The region between two consecutive layers and its tile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sector {
    px: u64,
    py: u64,
    tile: Vec<u8>,
}

impl Sector {
    /// The sector repeats under `(px, 0)` and `(0, py)`.
    pub fn periods(&self) -> (u64, u64) {
        (self.px, self.py)
    }

    /// The values, index `(x mod px) * py + y mod py`.
    pub fn tile(&self) -> &[u8] {
        &self.tile
    }

    #[inline]
    fn at(&self, x: u64, y: u64) -> u8 {
        self.tile[(rem(x, self.px) * self.py + rem(y, self.py)) as usize]
    }
}

/// A finite description of the Grundy values of a [`MoveSet`] on the whole
/// quarter board; see the module documentation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnightPattern {
    steps: Vec<(i32, i32)>,
    block: u64,
    block_values: Vec<u8>,
    layers: Vec<Layer>,
    sectors: Vec<Sector>,
}

/// Upper bounds that keep a decoded description small and its arithmetic in
/// range.
const MAX_DIRECTION: u32 = 1 << 12;
const MAX_BAND: i64 = 1 << 16;
const MAX_PERIOD: u64 = 1 << 12;
const MAX_BLOCK: u64 = 1 << 13;
const MAX_TILE: u64 = 1 << 22;

/// `x mod d`, with a mask when `d` is a power of two (the usual case), which
/// avoids a 64-bit division.
#[inline]
fn rem(x: u64, d: u64) -> u64 {
    if d.is_power_of_two() {
        x & (d - 1)
    } else {
        x % d
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

fn lcm(a: u64, b: u64) -> u64 {
    a / gcd(a, b) * b
}

/// `r x s` for directions `r = (a, b)`, `s = (c, d)`: `a d - b c`.
fn cross(r: (u32, u32), s: (u32, u32)) -> i128 {
    i128::from(r.0) * i128::from(s.1) - i128::from(r.1) * i128::from(s.0)
}

impl KnightPattern {
    /// Decodes `bytes` and runs the certificate (checking at most `limit`
    /// squares): the only way to trust stored bytes.
    pub fn load(bytes: &[u8], limit: u64) -> Result<(Self, CertificateReport), LoadError> {
        let p = Self::from_bytes(bytes)?;
        let report = p.check(limit)?;
        Ok((p, report))
    }

    /// The move set this description is for.
    pub fn moves(&self) -> MoveSet {
        MoveSet::new(&self.steps).expect("validated on construction")
    }

    /// `B`: squares with `x + y < B` are stored explicitly.
    pub fn block(&self) -> u64 {
        self.block
    }

    /// The layers, one per ray, in increasing angle.
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// The sectors between consecutive rays.
    pub fn sectors(&self) -> &[Sector] {
        &self.sectors
    }

    /// A period `L` such that translating by `L * r` along any ray `r`, or
    /// by `(L, 0)` or `(0, L)` inside a sector, maps every rule to itself.
    pub fn common_period(&self) -> u64 {
        let mut l = 1;
        for layer in &self.layers {
            l = lcm(l, layer.period);
        }
        for s in &self.sectors {
            l = lcm(lcm(l, s.px), s.py);
        }
        l
    }

    /// The described value of `(x, y)`, in O(number of rays). Exact for any
    /// `x, y` (the arithmetic is done in 128 bits); equal to the Grundy value
    /// once [`KnightPattern::check`] has passed.
    #[inline]
    pub fn value(&self, x: u64, y: u64) -> u8 {
        if u128::from(x) + u128::from(y) < u128::from(self.block) {
            return self.block_values[triangle_index(x, y)];
        }
        // Branch-free but for the rare exit into a band: for random squares
        // the side of each ray is unpredictable.
        let mut above = 0usize;
        for layer in &self.layers {
            let t = layer.t(x, y);
            let inside = (t >= i128::from(layer.lo)) & (t <= i128::from(layer.hi));
            if inside {
                return layer.tile[layer.key(x, y, t)];
            }
            above += usize::from(t > i128::from(layer.hi));
        }
        let j = above.saturating_sub(1).min(self.sectors.len() - 1);
        self.sectors[j].at(x, y)
    }

    /// [`KnightPattern::value`] for squares with `x, y < 2^63`, the range
    /// offered to users; larger coordinates are refused.
    pub fn value_checked(&self, x: u64, y: u64) -> Result<u8, KnightError> {
        if x >> 63 != 0 || y >> 63 != 0 {
            return Err(KnightError::OutOfRange { x, y });
        }
        Ok(self.value(x, y))
    }

    fn validate(&self) -> Result<(), PatternError> {
        use PatternError::Invalid;
        MoveSet::new(&self.steps).map_err(|_| Invalid("bad move set"))?;
        if self.layers.len() < 2 || self.sectors.len() + 1 != self.layers.len() {
            return Err(Invalid(
                "need at least two rays and one sector between each pair",
            ));
        }
        if self.layers[0].direction() != (1, 0)
            || self.layers[self.layers.len() - 1].direction() != (0, 1)
        {
            return Err(Invalid("the first ray must be (1, 0) and the last (0, 1)"));
        }
        for w in self.layers.windows(2) {
            if cross(w[0].direction(), w[1].direction()) <= 0 {
                return Err(Invalid("rays must increase strictly in angle"));
            }
        }
        for l in &self.layers {
            if l.a > MAX_DIRECTION || l.b > MAX_DIRECTION || gcd(l.a.into(), l.b.into()) != 1 {
                return Err(Invalid("ray directions must be small and primitive"));
            }
            if l.lo > 1 || l.hi < -1 || l.lo > l.hi + 1 || l.lo < -MAX_BAND || l.hi > MAX_BAND {
                return Err(Invalid("bands need lo <= 1, hi >= -1, lo <= hi + 1"));
            }
            if l.period == 0 || l.period > MAX_PERIOD {
                return Err(Invalid("layer period out of range"));
            }
            if l.tile.len() != l.rows() * l.period as usize {
                return Err(Invalid("layer tile size"));
            }
        }
        for s in &self.sectors {
            if s.px == 0 || s.py == 0 || s.px > MAX_PERIOD || s.py > MAX_PERIOD {
                return Err(Invalid("sector period out of range"));
            }
            if s.tile.len() as u64 != s.px * s.py {
                return Err(Invalid("sector tile size"));
            }
        }
        if self.block > MAX_BLOCK
            || self.block_values.len() as u64 != self.block * (self.block + 1) / 2
        {
            return Err(Invalid("block size"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knight::TriangleTable;
    use rand_xoshiro::SplitMix64;
    use rand_xoshiro::rand_core::{Rng, SeedableRng};
    use std::sync::OnceLock;

    /// The hyper knight's description, searched for once.
    pub(super) fn hyper() -> &'static KnightPattern {
        static P: OnceLock<KnightPattern> = OnceLock::new();
        P.get_or_init(|| {
            search(&MoveSet::hyper_knight(), &SearchOptions::default())
                .expect("the hyper knight certifies")
                .pattern
        })
    }

    /// `p` equals the definition (diagonal by diagonal) on every square
    /// with `x + y <= max_sum`.
    pub(super) fn assert_matches_definition(p: &KnightPattern, max_sum: u64) {
        let mut t = TriangleTable::new(p.moves(), max_sum);
        t.grow_to(max_sum);
        for d in 0..=max_sum {
            for x in 0..=d {
                assert_eq!(
                    Some(p.value(x, d - x)),
                    t.get(x, d - x),
                    "{:?} at ({x}, {})",
                    p.moves().steps(),
                    d - x
                );
            }
        }
    }

    #[test]
    fn hyper_knight_matches_definition_below_8000() {
        let p = hyper();
        assert!(p.check(CHECK_LIMIT).is_ok());
        assert_matches_definition(p, 7999);
    }

    /// A square of the table deep inside a zone, and its translate by
    /// `n * L * r` along a ray of that zone, which the description says is
    /// equivalent.
    #[test]
    fn huge_translates_agree_with_the_table() {
        let p = hyper();
        let l = p.common_period();
        let mut t = TriangleTable::new(MoveSet::hyper_knight(), 8000);
        t.grow_to(7000);
        let mut rng = SplitMix64::seed_from_u64(0x1234_5678_9abc_def0);
        let mut next = move || rng.next_u64();
        for layer in p.layers() {
            let (a, b) = layer.direction();
            let (a, b) = (u64::from(a), u64::from(b));
            for _ in 0..2000 {
                // A square near the ray, with 4000 <= x + y <= 7000.
                let k = 4000 / (a + b) + next() % (2000 / (a + b));
                let (dx, dy) = ((next() % 61) as i64 - 30, (next() % 61) as i64 - 30);
                let (Some(x), Some(y)) = (
                    (k * a).checked_add_signed(dx),
                    (k * b).checked_add_signed(dy),
                ) else {
                    continue;
                };
                let n = (1u64 << 60) / (l * (a + b)) - next() % 1000;
                let (hx, hy) = (x + n * l * a, y + n * l * b);
                assert!(hx < 1 << 63 && hy < 1 << 63);
                assert_eq!(
                    Some(p.value(hx, hy)),
                    t.get(x, y),
                    "({hx}, {hy}) ~ ({x}, {y})"
                );
            }
        }
        for w in p.layers().windows(2) {
            // Deep inside a sector, translate by the sum of its rays.
            let (a, b) = (w[0].direction(), w[1].direction());
            let (a, b) = (u64::from(a.0 + b.0), u64::from(a.1 + b.1));
            for _ in 0..2000 {
                let k = 5000 / (a + b);
                let (x, y) = (k * a + next() % 16, k * b + next() % 16);
                let n = (1u64 << 61) / (l * (a + b)) + next() % 1000;
                let (hx, hy) = (x + n * l * a, y + n * l * b);
                assert_eq!(Some(p.value(hx, hy)), t.get(x, y));
            }
        }
    }
}
