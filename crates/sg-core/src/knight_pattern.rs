//! Certified finite descriptions of knight Grundy values on the unbounded
//! quarter board, answering any square in O(1).
//!
//! # The description
//!
//! A [`KnightPattern`] describes a function `f(x, y)` on all squares
//! `x, y >= 0` by finitely many numbers:
//!
//! - a *block*: the value of every square with `x + y < B`, stored
//!   explicitly (anti-diagonal order, as in [`TriangleTable`]);
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
//! # The certificate
//!
//! Because every step lowers `x + y`, the Grundy function `g` is the *unique*
//! function on the board with `g(p) = mex { g(q) : q a move from p on the
//! board }` for every square `p`: by induction on `x + y`, any function with
//! this property agrees with `g` on each anti-diagonal once it agrees on the
//! earlier ones. So to prove `f = g` it is enough to prove that `f` satisfies
//! the recurrence at *every* square. [`KnightPattern::check`] does this with
//! finitely many evaluations, using the very evaluator above:
//!
//! Let `R` be the largest drop `-(dx + dy)` of a step and, for each ray,
//! `rho_i = max(1, max_s |t_i(s)|)` the largest change of `t_i` in one step.
//! Since `t_i` is linear, every target `q = p + s` has
//! `|t_i(q) - t_i(p)| <= rho_i`. Call ray `i` *near* `p` when
//! `t_i(p)` lies in the window `[lo_i - rho_i, hi_i + rho_i]`, *above* when
//! `t_i(p) > hi_i + rho_i` and *below* when `t_i(p) < lo_i - rho_i`; the
//! *zone* of `p` is this classification together with the exact `t_i(p)`
//! of every near ray. Take `B'` at least `B + R` and larger than `x + y` at
//! every point where two windows meet (for rays `i < j` with
//! `D = r_i x r_j > 0`, writing `p = alpha r_i + beta r_j` gives
//! `x + y = (t_i (a_j + b_j) - t_j (a_i + b_i)) / D`, bounded on the box
//! of the two windows). Then:
//!
//! 1. Every square with `x + y < B'` is checked directly.
//! 2. A square `p` with `x + y >= B'` has at most one near ray. Above means
//!    `t_i > hi_i + rho_i >= 0`, so `p` lies strictly counter-clockwise of
//!    `r_i`; below means it lies strictly clockwise. So the far rays are
//!    above up to some index and below after it, ray 0 is never below
//!    (`t_0 = y >= 0`) and ray `k` is never above (`t_k = -x <= 0`).
//! 3. *Equivalence.* Let `p`, `p'` have `x + y >= B'`, the same zone, and
//!    `p' - p` in a lattice `L` described below. All targets of both have
//!    `x + y >= B`, so they are evaluated by rule, not read from the block.
//!    Targets are on the board for both or for neither: if ray 0 is above,
//!    `y > hi_0 + rho_0 >= max |dy| - 1`, so no step leaves through `y = 0`;
//!    if ray 0 is near, `p` and `p'` have the same `y` (the translation is
//!    along `r_0`); likewise for `x` with ray `k`. For a far ray, `t_i` of
//!    every target stays strictly on the same side of the band, so the
//!    target is not in that layer and counts (or not) towards the sector
//!    index in the same way for `p` and for `p'`. For a near ray, the
//!    translation is a multiple of `r_i`, so `t_i` is the same. Hence
//!    corresponding targets of `p` and `p'` fall into the same region, and
//!    `L` is chosen so that every rule that can apply is invariant: if ray
//!    `i` is near, `L = M_i r_i Z` with `M_i` a multiple of `m_i` such that
//!    `M_i r_i` lies in every sector lattice; if no ray is near (sector `j`),
//!    `L = px_j Z x py_j Z`. Then `f(p + s) = f(p' + s)` for every step and
//!    `f(p) = f(p')`: the recurrence holds at `p` iff it holds at `p'`.
//! 4. *Sector zones.* For each sector, one representative of each class of
//!    `Z^2 / L` in the zone (found deep inside the cone, and its zone
//!    verified) is checked.
//! 5. *Layer zones.* For each ray `i` and each `t` in its window, the squares
//!    with `t_i = t` and `x + y >= B'` form a half-line `p_n = p_0 + n r_i`.
//!    Along it every other `t_j` moves monotonically away from ray `i`'s
//!    side (`t_j(p_n)` changes by `n (r_j x r_i)`, positive for `j < i`), so
//!    from some `n_1` on the zone is constant. The squares before `n_1`,
//!    and `M_i` representatives from `n_1` on, are checked directly.
//!
//! Every square falls under 1, 4 or 5, so the recurrence holds everywhere
//! and `f = g`. The checker recomputes each bound above from the
//! description, checks every representative's zone, and evaluates with
//! [`KnightPattern::value`] itself, so it proves the evaluator correct, not a
//! model of it.
//!
//! # The search
//!
//! [`search`] finds a description for any [`MoveSet`] from a computed table
//! of diagonals up to some `N` (doubling `N` on failure), looking only at
//! the far half `N/2 <= x + y <= N` to read off rules:
//!
//! 1. *Period.* The far half is cut into angular buckets; in each, the
//!    smallest `P` such that 90% of its squares equal their translates by
//!    `(P, 0)` and `(0, P)`. Buckets crossed by a layer usually have none.
//!    The common period is the lcm of those found.
//! 2. *Rays.* Squares that differ from a translate by the common period
//!    ("defects") lie near the layers. Their angles are binned; each run
//!    of occupied bins becomes one ray, whose direction is the simplest
//!    rational `(a, b)` (with `a, b <= max_direction`) inside the run. The
//!    axes are always rays.
//! 3. *Bands, periods, tiles.* Each defect goes to the nearest ray; a band
//!    is the spread of `t` over its defects (widened if the next step
//!    fails). Every far square is classified exactly as the evaluator
//!    does; a layer gets the smallest period along its ray, and a sector
//!    the smallest rectangle of divisors of the common period, under which
//!    all its far squares agree. The bands are then narrowed (galloping) as
//!    long as the rules still fit and the encoding does not grow, and inner
//!    rays with an empty band between two equal sectors are dropped.
//! 4. *Block.* `B` is one more than the last diagonal where the rules
//!    disagree with the table; the block is copied from the table.
//! 5. *Certificate.* Only a description whose [`KnightPattern::check`]
//!    passes is returned. Nothing found by steps 1 to 4 is trusted.

use crate::knight::{KnightError, MoveSet, TriangleTable, triangle_index};
use crate::mex::mex_small;

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

/// Why a description is not a proof.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CertificateError {
    /// The recurrence fails at `(x, y)`.
    #[error("the recurrence fails at ({x}, {y}): described {described}, mex of the moves {mex}")]
    Mismatch {
        /// The square's x.
        x: u64,
        /// The square's y.
        y: u64,
        /// The value the description gives.
        described: u8,
        /// The mex of the described values of its moves.
        mex: u32,
    },
    /// The checked region would be too large to enumerate.
    #[error("the certificate would need more than {limit} direct checks")]
    TooLarge {
        /// The limit that was exceeded.
        limit: u64,
    },
    /// The description breaks an invariant the argument relies on (ray
    /// order, `lo <= 1`, `hi >= -1`, tile sizes).
    #[error(transparent)]
    Malformed(#[from] PatternError),
    /// No representative of every residue class was found in a sector.
    #[error("no representatives found deep inside sector {0}")]
    NoRepresentatives(usize),
}

/// Why [`search`] found no certified description.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// Nothing certifiable was found with tables up to `max_sum`.
    #[error("no certificate found up to x + y <= {max_sum}: {reason}")]
    NotFound {
        /// The largest table diagonal tried.
        max_sum: u64,
        /// Why the last attempt failed.
        reason: String,
    },
}

/// What [`KnightPattern::check`] verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CertificateReport {
    /// `B'`: every square with `x + y` below it was checked directly.
    pub direct_bound: u64,
    /// Squares checked in total (directly, along layers and in sectors).
    pub cells_checked: u64,
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
const MAGIC: &[u8; 4] = b"KPAT";
const VERSION: u8 = 1;

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

    /// The encoded description: a header, the steps, the rays with their
    /// bands and periods, then every stored value packed in 4 bits (or 8 when
    /// some value exceeds 15).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        put_u(&mut out, self.steps.len() as u64);
        for &(dx, dy) in &self.steps {
            put_i(&mut out, dx.into());
            put_i(&mut out, dy.into());
        }
        put_u(&mut out, self.block);
        put_u(&mut out, self.layers.len() as u64);
        for l in &self.layers {
            put_u(&mut out, l.a.into());
            put_u(&mut out, l.b.into());
            put_i(&mut out, l.lo);
            put_i(&mut out, l.hi);
            put_u(&mut out, l.period);
        }
        for s in &self.sectors {
            put_u(&mut out, s.px);
            put_u(&mut out, s.py);
        }
        let values = self.all_values();
        let wide = values.iter().any(|&v| v > 15);
        out.push(if wide { 8 } else { 4 });
        if wide {
            out.extend(values);
        } else {
            out.extend(
                values
                    .chunks(2)
                    .map(|c| c[0] | c.get(1).map_or(0, |v| v << 4)),
            );
        }
        out
    }

    fn all_values(&self) -> Vec<u8> {
        let mut v = self.block_values.clone();
        for l in &self.layers {
            v.extend_from_slice(&l.tile);
        }
        for s in &self.sectors {
            v.extend_from_slice(&s.tile);
        }
        v
    }

    /// Decodes and validates [`KnightPattern::to_bytes`]. A decoded pattern
    /// is well formed but not yet proved: run [`KnightPattern::check`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, PatternError> {
        let mut r = Reader { bytes, pos: 0 };
        if r.take(4)? != MAGIC || r.byte()? != VERSION {
            return Err(PatternError::Malformed("bad header"));
        }
        let n = r.u(64)?;
        let mut steps = Vec::with_capacity(n as usize);
        for _ in 0..n {
            let dx = r.i(i32::MAX.into())? as i32;
            let dy = r.i(i32::MAX.into())? as i32;
            steps.push((dx, dy));
        }
        let block = r.u(MAX_BLOCK)?;
        let rays = r.u(1 << 10)? as usize;
        let mut layers = Vec::with_capacity(rays);
        for _ in 0..rays {
            let a = r.u(MAX_DIRECTION.into())? as u32;
            let b = r.u(MAX_DIRECTION.into())? as u32;
            let lo = r.i(MAX_BAND)?;
            let hi = r.i(MAX_BAND)?;
            let period = r.u(MAX_PERIOD)?;
            layers.push(Layer {
                a,
                b,
                lo,
                hi,
                period,
                tile: Vec::new(),
            });
        }
        let mut sectors = Vec::new();
        for _ in 1..rays.max(1) {
            let px = r.u(MAX_PERIOD)?;
            let py = r.u(MAX_PERIOD)?;
            sectors.push(Sector {
                px,
                py,
                tile: Vec::new(),
            });
        }
        let mut total = block * (block + 1) / 2;
        for l in &layers {
            total += (l.hi - l.lo + 1).max(0) as u64 * l.period;
        }
        for s in &sectors {
            total += s.px * s.py;
        }
        if total > MAX_TILE {
            return Err(PatternError::Invalid("too many stored values"));
        }
        let width = r.byte()?;
        let values: Vec<u8> = match width {
            8 => r.take(total as usize)?.to_vec(),
            4 => {
                let packed = r.take(total.div_ceil(2) as usize)?;
                (0..total as usize)
                    .map(|i| (packed[i / 2] >> (4 * (i % 2))) & 15)
                    .collect()
            }
            _ => return Err(PatternError::Malformed("bad value width")),
        };
        if r.pos != bytes.len() {
            return Err(PatternError::Malformed("trailing bytes"));
        }
        let mut it = values.into_iter();
        let block_values: Vec<u8> = it
            .by_ref()
            .take((block * (block + 1) / 2) as usize)
            .collect();
        for l in &mut layers {
            l.tile = it.by_ref().take(l.rows() * l.period as usize).collect();
        }
        for s in &mut sectors {
            s.tile = it.by_ref().take((s.px * s.py) as usize).collect();
        }
        let p = Self {
            steps,
            block,
            block_values,
            layers,
            sectors,
        };
        p.validate()?;
        Ok(p)
    }

    /// Whether `f(x, y) = mex { f(q) : q a move from (x, y) }`.
    fn check_cell(&self, moves: &MoveSet, x: u64, y: u64) -> Result<(), CertificateError> {
        let mex = mex_small(
            moves
                .moves_from(x, y)
                .map(|(a, b)| u32::from(self.value(a, b))),
        );
        let described = self.value(x, y);
        if u32::from(described) == mex {
            Ok(())
        } else {
            Err(CertificateError::Mismatch {
                x,
                y,
                described,
                mex,
            })
        }
    }

    /// Proves that this description is the Grundy function of its move set
    /// on the whole board, by checking the recurrence at finitely many
    /// squares that stand for all of them (see the module documentation).
    /// `limit` bounds the number of squares checked.
    pub fn check(&self, limit: u64) -> Result<CertificateReport, CertificateError> {
        self.validate()?;
        let moves = self.moves();
        let steps = moves.steps();
        let too_large = CertificateError::TooLarge { limit };
        let reach: i128 = steps
            .iter()
            .map(|&(dx, dy)| -(i128::from(dx) + i128::from(dy)))
            .max()
            .unwrap_or(1);
        let dirs: Vec<(u32, u32)> = self.layers.iter().map(Layer::direction).collect();
        let rho: Vec<i128> = self
            .layers
            .iter()
            .map(|l| {
                steps
                    .iter()
                    .map(|&(dx, dy)| {
                        (i128::from(l.a) * i128::from(dy) - i128::from(l.b) * i128::from(dx)).abs()
                    })
                    .max()
                    .unwrap_or(0)
                    .max(1)
            })
            .collect();
        // Windows [lo - rho, hi + rho] outside which a ray is far.
        let win: Vec<(i128, i128)> = self
            .layers
            .iter()
            .zip(&rho)
            .map(|(l, &r)| (i128::from(l.lo) - r, i128::from(l.hi) + r))
            .collect();
        let mut bound = i128::from(self.block) + reach;
        for i in 0..dirs.len() {
            for j in i + 1..dirs.len() {
                let d = cross(dirs[i], dirs[j]);
                let (si, sj) = (
                    i128::from(dirs[i].0 + dirs[i].1),
                    i128::from(dirs[j].0 + dirs[j].1),
                );
                let top = (win[i].1 * sj - win[j].0 * si).div_euclid(d);
                bound = bound.max(top + 1);
            }
        }
        let bound = bound.max(0);
        if bound > 1 << 16 || (bound * (bound + 1) / 2) as u64 > limit {
            return Err(too_large);
        }
        let bound = bound as u64;
        let mut checked = 0u64;
        // 1. Every square below B'.
        for d in 0..bound {
            for x in 0..=d {
                self.check_cell(&moves, x, d - x)?;
            }
        }
        checked += bound * (bound + 1) / 2;
        // The zone of a square, as (above?, below?) per ray; near = neither.
        let t_of =
            |i: usize, x: i128, y: i128| i128::from(dirs[i].0) * y - i128::from(dirs[i].1) * x;
        // 5. Layer zones: each line t_i = t in the window, from x + y >= B'.
        for i in 0..dirs.len() {
            let (a, b) = (i128::from(dirs[i].0), i128::from(dirs[i].1));
            let mut m = self.layers[i].period;
            for s in &self.sectors {
                m = lcm(m, s.px / gcd(s.px, dirs[i].0.into()));
                m = lcm(m, s.py / gcd(s.py, dirs[i].1.into()));
            }
            let m = i128::from(m);
            for t in win[i].0..=win[i].1 {
                // A point (x0, y0) with a y0 - b x0 = t and 0 <= x0 < max(a, 1).
                let start = if a == 0 {
                    Some((-t, 0))
                } else {
                    (0..a)
                        .find(|x0| (t + b * x0) % a == 0)
                        .map(|x0| (x0, (t + b * x0) / a))
                };
                let Some((x0, y0)) = start else { continue };
                if x0 < 0 || (b == 0 && y0 < 0) {
                    continue; // the line misses the board
                }
                let mut n0: i128 = 0;
                if b > 0 && y0 < 0 {
                    n0 = n0.max((-y0 + b - 1) / b);
                }
                let need = i128::from(bound) - x0 - y0;
                if need > 0 {
                    n0 = n0.max((need + a + b - 1) / (a + b));
                }
                let (px0, py0) = (x0 + n0 * a, y0 + n0 * b);
                // From n1 on every other ray is far, on a fixed side.
                let mut n1 = n0;
                for j in 0..dirs.len() {
                    if j == i {
                        continue;
                    }
                    let c = cross(dirs[j], dirs[i]); // > 0 iff j < i
                    let tj = t_of(j, px0, py0);
                    let k = if c > 0 {
                        if tj > win[j].1 {
                            0
                        } else {
                            (win[j].1 - tj).div_euclid(c) + 1
                        }
                    } else if tj < win[j].0 {
                        0
                    } else {
                        (tj - win[j].0).div_euclid(-c) + 1
                    };
                    n1 = n1.max(n0 + k);
                }
                let count = n1 - n0 + m;
                checked += count as u64;
                if checked > limit {
                    return Err(too_large);
                }
                for n in n0..n1 + m {
                    self.check_cell(&moves, (x0 + n * a) as u64, (y0 + n * b) as u64)?;
                }
            }
        }
        // 4. Sector zones: one representative per residue class, deep inside.
        for (j, s) in self.sectors.iter().enumerate() {
            checked += s.px * s.py;
            if checked > limit {
                return Err(too_large);
            }
            let w = (
                i128::from(dirs[j].0 + dirs[j + 1].0),
                i128::from(dirs[j].1 + dirs[j + 1].1),
            );
            let in_zone = |x: i128, y: i128| {
                x + y >= i128::from(bound)
                    && (0..dirs.len()).all(|l| {
                        let tl = t_of(l, x, y);
                        if l <= j { tl > win[l].1 } else { tl < win[l].0 }
                    })
            };
            let mut k: i128 = 1;
            let base = loop {
                let (bx, by) = (k * w.0, k * w.1);
                let px = i128::from(s.px);
                let py = i128::from(s.py);
                // The zone is convex, so the four corners suffice.
                if in_zone(bx, by)
                    && in_zone(bx + px - 1, by)
                    && in_zone(bx, by + py - 1)
                    && in_zone(bx + px - 1, by + py - 1)
                {
                    break (bx as u64, by as u64);
                }
                k *= 2;
                if k > 1 << 40 {
                    return Err(CertificateError::NoRepresentatives(j));
                }
            };
            for u in 0..s.px {
                for v in 0..s.py {
                    self.check_cell(&moves, base.0 + u, base.1 + v)?;
                }
            }
        }
        Ok(CertificateReport {
            direct_bound: bound,
            cells_checked: checked,
        })
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], PatternError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or(PatternError::Malformed("unexpected end"))?;
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    fn byte(&mut self) -> Result<u8, PatternError> {
        Ok(self.take(1)?[0])
    }

    /// A LEB128 unsigned integer of at most `max`.
    fn u(&mut self, max: u64) -> Result<u64, PatternError> {
        let mut v: u64 = 0;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return if v <= max {
                    Ok(v)
                } else {
                    Err(PatternError::Malformed("number out of range"))
                };
            }
        }
        Err(PatternError::Malformed("overlong number"))
    }

    /// A zigzag LEB128 signed integer of absolute value at most `max`.
    fn i(&mut self, max: i64) -> Result<i64, PatternError> {
        let z = self.u(u64::MAX)?;
        let v = ((z >> 1) as i64) ^ -((z & 1) as i64);
        if v.unsigned_abs() <= max.unsigned_abs() {
            Ok(v)
        } else {
            Err(PatternError::Malformed("number out of range"))
        }
    }
}

fn put_u(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn put_i(out: &mut Vec<u8>, v: i64) {
    put_u(out, ((v << 1) ^ (v >> 63)) as u64);
}

/// Limits for [`search`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchOptions {
    /// The first table size tried (largest `x + y`); doubled on failure.
    pub first_sum: u64,
    /// The largest table size tried.
    pub max_sum: u64,
    /// Largest period tried in each angular bucket of the far table.
    pub max_period: u64,
    /// Largest common period (lcm of the buckets' periods); sector periods
    /// divide it.
    pub max_common_period: u64,
    /// Candidate rays are primitive `(a, b)` with `a, b <= max_direction`.
    pub max_direction: u32,
    /// Largest period tried along a layer.
    pub max_layer_period: u64,
    /// Largest number of squares the certificate may check.
    pub check_limit: u64,
}

impl Default for SearchOptions {
    fn default() -> Self {
        Self {
            first_sum: 512,
            max_sum: 4096,
            max_period: 32,
            max_common_period: 256,
            max_direction: 6,
            max_layer_period: 64,
            check_limit: 50_000_000,
        }
    }
}

/// A certified description and how it was found.
#[derive(Debug, Clone)]
pub struct SearchOutcome {
    /// The description; its certificate passed.
    pub pattern: KnightPattern,
    /// What the certificate checked.
    pub report: CertificateReport,
    /// The table size (largest `x + y`) the description was read from.
    pub table_sum: u64,
}

/// Finds a certified description of the Grundy values of `moves` (see the
/// module documentation), or says that none was found within `opts`.
pub fn search(moves: &MoveSet, opts: &SearchOptions) -> Result<SearchOutcome, SearchError> {
    let mut table = TriangleTable::new(moves.clone(), opts.max_sum);
    let mut n = opts.first_sum.max(64);
    let mut reason = String::from("no table size tried");
    let mut last = n;
    while n <= opts.max_sum {
        last = n;
        table.grow_to(n);
        match fit_table(&table, n, opts) {
            Ok(pattern) => match pattern.check(opts.check_limit) {
                Ok(report) => {
                    return Ok(SearchOutcome {
                        pattern,
                        report,
                        table_sum: n,
                    });
                }
                Err(e) => reason = format!("certificate failed: {e}"),
            },
            Err(e) => reason = e,
        }
        n *= 2;
    }
    Err(SearchError::NotFound {
        max_sum: last,
        reason,
    })
}

/// The table value of a square known to be in it.
#[inline]
fn tv(table: &TriangleTable, x: u64, y: u64) -> u8 {
    table.get(x, y).expect("square inside the table")
}

/// All primitive directions `(a, b)` with `a, b <= q`, by increasing angle.
fn candidate_directions(q: u32) -> Vec<(u32, u32)> {
    let mut c: Vec<(u32, u32)> = (0..=q)
        .flat_map(|a| (0..=q).map(move |b| (a, b)))
        .filter(|&(a, b)| gcd(a.into(), b.into()) == 1)
        .collect();
    c.sort_by(|&r, &s| 0.cmp(&cross(r, s)));
    c
}

/// Angular bins used to cluster defects into rays.
const ANGLE_BINS: usize = 2048;

/// Angular buckets used to find the periods of the sectors.
const BUCKETS: usize = 32;

/// The lcm of the smallest periods `P` (square translations `(P, 0)` and
/// `(0, P)`) under which at least 90% of the far squares of an angular
/// bucket repeat, over the buckets that have one. Buckets crossed by a
/// layer usually have none, which is fine.
fn common_period(table: &TriangleTable, n: u64, opts: &SearchOptions) -> Result<u64, String> {
    let lo_sum = n / 2;
    if lo_sum + opts.max_period > n {
        return Err("the table is too small for the largest period".into());
    }
    let mut buckets: Vec<Vec<(u64, u64)>> = vec![Vec::new(); BUCKETS];
    for d in (lo_sum..=n - opts.max_period).step_by(2) {
        for x in 0..=d {
            let y = d - x;
            let angle = (y as f64).atan2(x as f64) / std::f64::consts::FRAC_PI_2;
            buckets[((angle * BUCKETS as f64) as usize).min(BUCKETS - 1)].push((x, y));
        }
    }
    let mut found = vec![None; BUCKETS];
    for p in 1..=opts.max_period {
        for (b, cells) in buckets.iter().enumerate() {
            if found[b].is_some() || cells.is_empty() {
                continue;
            }
            let allowed = cells.len() / 10;
            let mut bad = 0;
            let ok = cells.iter().all(|&(x, y)| {
                let v = tv(table, x, y);
                if v != tv(table, x + p, y) || v != tv(table, x, y + p) {
                    bad += 1;
                }
                bad <= allowed
            });
            if ok {
                found[b] = Some(p);
            }
        }
    }
    let mut period = None;
    for p in found.into_iter().flatten() {
        let l = lcm(period.unwrap_or(1), p);
        if l > opts.max_common_period {
            return Err(format!(
                "the sectors' periods have an lcm above {}",
                opts.max_common_period
            ));
        }
        period = Some(l);
    }
    period.ok_or_else(|| {
        format!(
            "no period up to {} makes 90% of any far angular bucket repeat",
            opts.max_period
        )
    })
}

/// The description read off a table with diagonals `0..=n`, not yet certified.
fn fit_table(table: &TriangleTable, n: u64, opts: &SearchOptions) -> Result<KnightPattern, String> {
    let lo_sum = n / 2;
    let period = common_period(table, n, opts)?;
    if lo_sum + period > n {
        return Err(format!("period {period} is too large for the table"));
    }
    let mut defects = Vec::new();
    for d in lo_sum..=n - period {
        for x in 0..=d {
            let y = d - x;
            let v = tv(table, x, y);
            if v != tv(table, x + period, y) || v != tv(table, x, y + period) {
                defects.push((x, y));
            }
        }
    }
    // Rays: cluster the defects by angle; each cluster gets the simplest
    // candidate direction inside its angular range (or the nearest one).
    let nearest = |dirs: &[(u32, u32)], x: u64, y: u64| {
        let mut best = (f64::INFINITY, 0);
        for (i, &(a, b)) in dirs.iter().enumerate() {
            let t = (f64::from(a) * y as f64 - f64::from(b) * x as f64).abs();
            let dist = t / f64::from(a * a + b * b).sqrt();
            if dist < best.0 {
                best = (dist, i);
            }
        }
        best.1
    };
    let angle = |x: f64, y: f64| y.atan2(x) / std::f64::consts::FRAC_PI_2;
    let mut hot = vec![false; ANGLE_BINS];
    for &(x, y) in &defects {
        hot[((angle(x as f64, y as f64) * ANGLE_BINS as f64) as usize).min(ANGLE_BINS - 1)] = true;
    }
    let cands = candidate_directions(opts.max_direction);
    let mut dirs: Vec<(u32, u32)> = vec![(1, 0), (0, 1)];
    let mut bin = 0;
    while bin < ANGLE_BINS {
        if !hot[bin] {
            bin += 1;
            continue;
        }
        // A run of hot bins, allowing gaps of up to two bins.
        let first = bin;
        let mut last = bin;
        while bin < ANGLE_BINS && bin <= last + 3 {
            if hot[bin] {
                last = bin;
            }
            bin += 1;
        }
        let lo = (first as f64 - 1.0) / ANGLE_BINS as f64;
        let hi = (last as f64 + 2.0) / ANGLE_BINS as f64;
        let mid = (lo + hi) / 2.0;
        let pick = cands
            .iter()
            .filter(|&&(a, b)| (lo..=hi).contains(&angle(a.into(), b.into())))
            .min_by_key(|&&(a, b)| a + b)
            .or_else(|| {
                cands.iter().min_by(|&&(a, b), &&(c, d)| {
                    let da = (angle(a.into(), b.into()) - mid).abs();
                    let dc = (angle(c.into(), d.into()) - mid).abs();
                    da.total_cmp(&dc)
                })
            });
        if let Some(&r) = pick
            && !dirs.contains(&r)
        {
            dirs.push(r);
        }
    }
    dirs.sort_by(|&r, &s| 0.cmp(&cross(r, s)));
    // Bands: the spread of t over the defects of each ray.
    let mut bands: Vec<(i64, i64)> = vec![(0, -1); dirs.len()];
    for &(x, y) in &defects {
        let i = nearest(&dirs, x, y);
        let t = i64::from(dirs[i].0) * y as i64 - i64::from(dirs[i].1) * x as i64;
        let (lo, hi) = &mut bands[i];
        if *lo > *hi {
            (*lo, *hi) = (t.min(0), t.max(0));
        } else {
            *lo = (*lo).min(t);
            *hi = (*hi).max(t);
        }
    }
    // Widen until the far half of the table fits, then narrow greedily.
    let mut best = None;
    let mut why = String::new();
    for widen in 0..4 {
        let w = widen * period.min(8) as i64;
        let trial: Vec<(i64, i64)> = bands
            .iter()
            .map(|&(lo, hi)| if lo > hi { (lo, hi) } else { (lo - w, hi + w) })
            .collect();
        match fit_bands(table, n, period, &dirs, &trial, opts) {
            Ok(p) => {
                best = Some((p, trial));
                break;
            }
            Err(e) => why = e,
        }
    }
    let (mut pattern, mut bands) = best.ok_or_else(|| {
        format!("period {period}, rays {dirs:?}, bands {bands:?}: no widening fits the far half of the table ({why})")
    })?;
    let mut size = pattern.to_bytes().len();
    for i in 0..bands.len() {
        for side in [0, 1] {
            // Galloping: try big steps first, halve the step on failure.
            let mut step: i64 = 1 << 20;
            while step >= 1 {
                let (lo, hi) = bands[i];
                // The band may shrink down to lo = hi + 1 with hi >= -1 and lo <= 1.
                let room = if side == 0 {
                    (hi - (lo - 1).max(-1)).max(0)
                } else {
                    ((hi + 1).min(1) - lo).max(0)
                };
                step = step.min(room);
                if step == 0 {
                    break;
                }
                let mut trial = bands.clone();
                trial[i] = if side == 0 {
                    (lo, hi - step)
                } else {
                    (lo + step, hi)
                };
                match fit_bands(table, n, period, &dirs, &trial, opts) {
                    Ok(p) if p.to_bytes().len() <= size => {
                        size = p.to_bytes().len();
                        pattern = p;
                        bands = trial;
                    }
                    _ => step /= 2,
                }
            }
        }
    }
    merge_redundant_rays(&mut pattern);
    Ok(pattern)
}

/// Removes inner rays with an empty band between two equal sectors. The
/// described function does not change: a square in no layer that was in
/// either sector is now in the merged one, with the same tile.
fn merge_redundant_rays(pattern: &mut KnightPattern) {
    let mut i = 1;
    while i + 1 < pattern.layers.len() {
        let empty = pattern.layers[i].rows() == 0;
        if empty && pattern.sectors[i - 1] == pattern.sectors[i] {
            pattern.layers.remove(i);
            pattern.sectors.remove(i);
        } else {
            i += 1;
        }
    }
}

/// Region of a square under the evaluator's rules: `Ok(layer)` or
/// `Err(sector)`, with the layer's `t`.
fn classify(layers: &[Layer], x: u64, y: u64) -> (Result<usize, usize>, i128) {
    let mut above = 0usize;
    for (i, layer) in layers.iter().enumerate() {
        let t = layer.t(x, y);
        if t < i128::from(layer.lo) {
            continue;
        }
        if t <= i128::from(layer.hi) {
            return (Ok(i), t);
        }
        above += 1;
    }
    (Err(above.saturating_sub(1).min(layers.len() - 2)), 0)
}

/// Periods and tiles for given rays and bands, consistent with diagonals
/// `n/2..=n`, and the block up to the last mismatch below `n/2`.
fn fit_bands(
    table: &TriangleTable,
    n: u64,
    period: u64,
    dirs: &[(u32, u32)],
    bands: &[(i64, i64)],
    opts: &SearchOptions,
) -> Result<KnightPattern, String> {
    let mut layers: Vec<Layer> = dirs
        .iter()
        .zip(bands)
        .map(|(&(a, b), &(lo, hi))| Layer {
            a,
            b,
            lo,
            hi,
            period: 1,
            tile: Vec::new(),
        })
        .collect();
    // Squares of the far half, by region.
    let mut in_layer: Vec<Vec<(u64, u64, i128)>> = vec![Vec::new(); layers.len()];
    let mut in_sector: Vec<Vec<(u64, u64)>> = vec![Vec::new(); layers.len() - 1];
    for d in n / 2..=n {
        for x in 0..=d {
            match classify(&layers, x, d - x) {
                (Ok(i), t) => in_layer[i].push((x, d - x, t)),
                (Err(j), _) => in_sector[j].push((x, d - x)),
            }
        }
    }
    for (i, layer) in layers.iter_mut().enumerate() {
        let rows = layer.rows();
        if rows == 0 {
            continue;
        }
        let mut found = false;
        for m in 1..=opts.max_layer_period.max(period) {
            layer.period = m;
            let mut tile = vec![u8::MAX; rows * m as usize];
            let ok = in_layer[i].iter().all(|&(x, y, t)| {
                let k = layer.key(x, y, t);
                let v = tv(table, x, y);
                let old = std::mem::replace(&mut tile[k], v);
                old == u8::MAX || old == v
            });
            if ok && !tile.contains(&u8::MAX) {
                layer.tile = tile;
                found = true;
                break;
            }
        }
        if !found {
            return Err(format!("layer {i} has no period up to the limit"));
        }
    }
    let mut sectors = Vec::new();
    for (j, cells) in in_sector.iter().enumerate() {
        let divisors: Vec<u64> = (1..=period).filter(|&d| period.is_multiple_of(d)).collect();
        let mut pairs: Vec<(u64, u64)> = divisors
            .iter()
            .flat_map(|&a| divisors.iter().map(move |&b| (a, b)))
            .collect();
        pairs.sort_by_key(|&(a, b)| (a * b, a.max(b)));
        let found = pairs.into_iter().find_map(|(px, py)| {
            let mut tile = vec![u8::MAX; (px * py) as usize];
            let ok = cells.iter().all(|&(x, y)| {
                let v = tv(table, x, y);
                let old = std::mem::replace(&mut tile[((x % px) * py + y % py) as usize], v);
                old == u8::MAX || old == v
            });
            (ok && !tile.contains(&u8::MAX)).then_some(Sector { px, py, tile })
        });
        sectors.push(found.ok_or_else(|| format!("sector {j} has no period up to the limit"))?);
    }
    let mut pattern = KnightPattern {
        steps: table.moves().steps().to_vec(),
        block: 0,
        block_values: Vec::new(),
        layers,
        sectors,
    };
    // The block ends after the last diagonal where the rules disagree.
    let mut block = 0;
    for d in (0..n / 2).rev() {
        if (0..=d).any(|x| pattern.value(x, d - x) != tv(table, x, d - x)) {
            block = d + 1;
            break;
        }
    }
    if block > MAX_BLOCK {
        return Err("the block would be too large".into());
    }
    pattern.block = block;
    pattern.block_values = (0..block)
        .flat_map(|d| (0..=d).map(move |x| (x, d - x)))
        .map(|(x, y)| tv(table, x, y))
        .collect();
    pattern.validate().map_err(|e| e.to_string())?;
    Ok(pattern)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knight::HYPER_KNIGHT;
    use proptest::prelude::*;
    use rand_xoshiro::SplitMix64;
    use rand_xoshiro::rand_core::{Rng, SeedableRng};
    use std::sync::OnceLock;

    fn hyper() -> &'static KnightPattern {
        static P: OnceLock<KnightPattern> = OnceLock::new();
        P.get_or_init(|| {
            search(&MoveSet::hyper_knight(), &SearchOptions::default())
                .expect("the hyper knight certifies")
                .pattern
        })
    }

    fn limit() -> u64 {
        SearchOptions::default().check_limit
    }

    /// `p` equals the definition (diagonal by diagonal) on every square
    /// with `x + y <= max_sum`.
    fn assert_matches_definition(p: &KnightPattern, max_sum: u64) {
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
        assert!(p.check(limit()).is_ok());
        assert_matches_definition(p, 7999);
    }

    #[test]
    fn stored_bytes_certify_and_a_flipped_byte_does_not() {
        let bytes = hyper().to_bytes();
        let (loaded, _) = KnightPattern::load(&bytes, limit()).unwrap();
        assert_eq!(&loaded, hyper());
        let mut bad = bytes;
        let last = bad.len() - 1;
        bad[last] ^= 1;
        assert!(matches!(
            KnightPattern::load(&bad, limit()),
            Err(LoadError::Certificate(_))
        ));
    }

    #[test]
    fn hyper_knight_shape_is_found_not_assumed() {
        let p = hyper();
        assert_eq!(p.moves().steps(), &HYPER_KNIGHT);
        let dirs: Vec<(u32, u32)> = p.layers().iter().map(Layer::direction).collect();
        assert_eq!(dirs, [(1, 0), (2, 1), (1, 1), (1, 2), (0, 1)]);
        assert_eq!(p.common_period(), 4);
        assert!(p.to_bytes().len() < 4096);
    }

    #[test]
    fn every_corrupted_entry_is_caught() {
        let p = hyper();
        let flip = |v: &mut u8| *v ^= 1;
        for i in 0..p.layers.len() {
            for k in 0..p.layers[i].tile.len() {
                let mut q = p.clone();
                flip(&mut q.layers[i].tile[k]);
                assert!(
                    matches!(q.check(limit()), Err(CertificateError::Mismatch { .. })),
                    "layer {i} entry {k}"
                );
            }
        }
        for j in 0..p.sectors.len() {
            for k in 0..p.sectors[j].tile.len() {
                let mut q = p.clone();
                flip(&mut q.sectors[j].tile[k]);
                assert!(q.check(limit()).is_err(), "sector {j} entry {k}");
            }
        }
        for k in (0..p.block_values.len()).step_by(7) {
            let mut q = p.clone();
            flip(&mut q.block_values[k]);
            assert!(q.check(limit()).is_err(), "block entry {k}");
        }
    }

    #[test]
    fn wrong_shapes_are_caught() {
        let p = hyper();
        // A narrower band leaves layer squares to the sector rule.
        let mut q = p.clone();
        let l = &mut q.layers[2];
        let rows = l.rows();
        l.lo += 1;
        l.tile.drain(..l.period as usize);
        assert_eq!(l.rows(), rows - 1);
        assert!(q.validate().is_ok());
        assert!(q.check(limit()).is_err());
        // A smaller block.
        let mut q = p.clone();
        q.block -= 1;
        q.block_values
            .truncate((q.block * (q.block + 1) / 2) as usize);
        assert!(q.check(limit()).is_err());
        // A different move set.
        let mut q = p.clone();
        q.steps.pop();
        assert!(q.check(limit()).is_err());
    }

    #[test]
    fn bytes_round_trip_and_reject_garbage() {
        let p = hyper();
        let bytes = p.to_bytes();
        assert_eq!(KnightPattern::from_bytes(&bytes).as_ref(), Ok(p));
        for cut in 0..bytes.len() {
            assert!(KnightPattern::from_bytes(&bytes[..cut]).is_err());
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(KnightPattern::from_bytes(&longer).is_err());
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert!(KnightPattern::from_bytes(&bad).is_err());
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

    #[test]
    fn spot_values_near_2_pow_62() {
        let p = hyper();
        let e = 1u64 << 62;
        let m = MoveSet::hyper_knight();
        for (x, y) in [
            (e, e),
            (e + 1, e),
            (e, 2 * e - 1),
            (2 * e - 1, 2 * e - 1),
            (e, e / 2),
        ] {
            for (dx, dy) in [(0, 0), (1, 0), (0, 3), (7, 5)] {
                let (x, y) = (x - dx, y - dy);
                assert_eq!(p.value(x, y), p.value(y, x), "symmetry at ({x}, {y})");
                assert!(p.check_cell(&m, x, y).is_ok());
            }
        }
        // Far above y = 2x the value is x mod 4; on the diagonal the layer
        // repeats along (4, 4) from the table's values.
        assert_eq!(p.value(5, e), 1);
        assert_eq!(p.value(e + 3, 2 * e + 100), 3);
        assert_eq!(p.value(e, e), p.value(4000, 4000));
        assert_eq!(p.value(e + 1, e), p.value(4001, 4000));
        // No overflow anywhere in range, or beyond it.
        let _ = p.value(u64::MAX, u64::MAX);
        let _ = p.value(u64::MAX, 0);
    }

    #[test]
    fn other_move_sets() {
        let small = SearchOptions {
            max_sum: 1024,
            ..SearchOptions::default()
        };
        let chess = MoveSet::new(&[(-2, -1), (-1, -2), (-2, 1), (1, -2)]).unwrap();
        let king = MoveSet::new(&[(-1, 0), (0, -1), (-1, -1)]).unwrap();
        let skew = MoveSet::new(&[(-2, -1), (-3, 2)]).unwrap();
        // Sectors of periods (1, 2) and (13, 26).
        let two = MoveSet::new(&[(-4, -1), (1, -3)]).unwrap();
        // Sectors of periods (7, 7) and (12, 2) split along (6, 1).
        let split = MoveSet::new(&[(-3, 0), (0, -1), (-3, -1), (-4, 0), (-1, 0)]).unwrap();
        for m in [chess, king, skew, two, split] {
            let p = search(&m, &small).expect("certifies").pattern;
            let mut t = TriangleTable::new(m.clone(), 3000);
            t.grow_to(3000);
            for d in 0..=3000u64 {
                for x in 0..=d {
                    assert_eq!(Some(p.value(x, d - x)), t.get(x, d - x));
                }
            }
        }
        let hard = MoveSet::new(&[(-4, 1), (0, -4), (-2, 0), (-4, -4), (-2, -3)]).unwrap();
        assert!(matches!(
            search(&hard, &small),
            Err(SearchError::NotFound { .. })
        ));
    }

    /// Whatever the search certifies must agree with the definition: a
    /// guard against an unsound checker, over many random move sets.
    #[test]
    fn certified_random_move_sets_match_the_definition() {
        let opts = SearchOptions {
            first_sum: 256,
            max_sum: 512,
            ..SearchOptions::default()
        };
        let mut rng = SplitMix64::seed_from_u64(0x9e37_79b9_7f4a_7c15);
        let mut next = move || rng.next_u64();
        let mut certified = 0;
        for _ in 0..60 {
            let len = 1 + next() % 5;
            let mut steps = Vec::new();
            while steps.len() < len as usize {
                let (dx, dy) = ((next() % 7) as i32 - 3, (next() % 7) as i32 - 3);
                if dx + dy < 0 && !steps.contains(&(dx, dy)) {
                    steps.push((dx, dy));
                }
            }
            let m = MoveSet::new(&steps).unwrap();
            let Ok(found) = search(&m, &opts) else {
                continue;
            };
            certified += 1;
            let p = found.pattern;
            assert_matches_definition(&p, 1500);
        }
        assert!(certified >= 20, "only {certified} of 60 certified");
    }

    proptest! {
        #[test]
        fn recurrence_holds_at_random_huge_squares(x in 0u64..1 << 63, y in 0u64..1 << 63) {
            let p = hyper();
            prop_assert!(p.check_cell(&MoveSet::hyper_knight(), x, y).is_ok());
            prop_assert_eq!(p.value(x, y), p.value(y, x));
        }
    }
}
