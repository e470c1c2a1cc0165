//! The certificate: [`KnightPattern::check`] proves that a description is
//! the Grundy function of its move set on the whole board.
//!
//! The argument is in the documentation of [`KnightPattern::check`], next
//! to the code that carries it out.

use super::{KnightPattern, Layer, PatternError, cross, gcd, lcm};
use crate::knight::MoveSet;
use crate::mex::mex_small;

/// The number of squares a certificate may check by default
/// ([`SearchOptions::check_limit`](super::SearchOptions::check_limit), and
/// what `sg-tables` allows a stored description): it bounds the time a
/// description from an untrusted file can cost (about 2 s at the 45 ns a
/// square measured by `cargo run --example knight_pattern`), while the
/// descriptions the search finds for small move sets need far fewer (the
/// hyper knight's checks 3,664 squares).
pub const CHECK_LIMIT: u64 = 50_000_000;

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

/// What [`KnightPattern::check`] verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CertificateReport {
    /// `B'`: every square with `x + y` below it was checked directly.
    pub direct_bound: u64,
    /// Squares checked in total (directly, along layers and in sectors).
    pub cells_checked: u64,
}

impl KnightPattern {
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
    /// squares that stand for all of them (the argument follows).
    /// `limit` bounds the number of squares checked.
    ///
    /// # Why finitely many checks prove it
    ///
    /// Because every step lowers `x + y`, the Grundy function `g` is the *unique*
    /// function on the board with `g(p) = mex { g(q) : q a move from p on the
    /// board }` for every square `p`: by induction on `x + y`, any function with
    /// this property agrees with `g` on each anti-diagonal once it agrees on the
    /// earlier ones. So to prove `f = g` it is enough to prove that `f` satisfies
    /// the recurrence at *every* square. [`KnightPattern::check`] does this with
    /// finitely many evaluations, using the very evaluator
    /// [`KnightPattern::value`] of the module documentation:
    ///
    /// Let `R` be the largest drop `-(dx + dy)` of a step and, for each ray,
    /// `rho_i = max(1, max_s |t_i(s)|)` the largest change of `t_i` in one step.
    /// Since `t_i` is linear, every target `q = p + s` has
    /// `|t_i(q) - t_i(p)| <= rho_i`. Call ray `i` *near* `p` when
    /// `t_i(p)` lies in the window `[lo_i - rho_i, hi_i + rho_i]`, *above* when
    /// `t_i(p) > hi_i + rho_i` and *below* when `t_i(p) < lo_i - rho_i`; the
    /// *zone* of `p` is this classification together with the exact `t_i(p)`
    /// of every near ray. Take `B'` at least `B + R` and larger than `x + y` at
    /// every point where two windows meet (for rays `i < j` with
    /// `D = r_i x r_j > 0`, writing `p = alpha r_i + beta r_j` gives
    /// `x + y = (t_i (a_j + b_j) - t_j (a_i + b_i)) / D`, bounded on the box
    /// of the two windows). Then:
    ///
    /// 1. Every square with `x + y < B'` is checked directly.
    /// 2. A square `p` with `x + y >= B'` has at most one near ray. Above means
    ///    `t_i > hi_i + rho_i >= 0`, so `p` lies strictly counter-clockwise of
    ///    `r_i`; below means it lies strictly clockwise. So the far rays are
    ///    above up to some index and below after it, ray 0 is never below
    ///    (`t_0 = y >= 0`) and ray `k` is never above (`t_k = -x <= 0`).
    /// 3. *Equivalence.* Let `p`, `p'` have `x + y >= B'`, the same zone, and
    ///    `p' - p` in a lattice `L` described below. All targets of both have
    ///    `x + y >= B`, so they are evaluated by rule, not read from the block.
    ///    Targets are on the board for both or for neither: if ray 0 is above,
    ///    `y > hi_0 + rho_0 >= max |dy| - 1`, so no step leaves through `y = 0`;
    ///    if ray 0 is near, `p` and `p'` have the same `y` (the translation is
    ///    along `r_0`); likewise for `x` with ray `k`. For a far ray, `t_i` of
    ///    every target stays strictly on the same side of the band, so the
    ///    target is not in that layer and counts (or not) towards the sector
    ///    index in the same way for `p` and for `p'`. For a near ray, the
    ///    translation is a multiple of `r_i`, so `t_i` is the same. Hence
    ///    corresponding targets of `p` and `p'` fall into the same region, and
    ///    `L` is chosen so that every rule that can apply is invariant: if ray
    ///    `i` is near, `L = M_i r_i Z` with `M_i` a multiple of `m_i` such that
    ///    `M_i r_i` lies in every sector lattice; if no ray is near (sector `j`),
    ///    `L = px_j Z x py_j Z`. Then `f(p + s) = f(p' + s)` for every step and
    ///    `f(p) = f(p')`: the recurrence holds at `p` iff it holds at `p'`.
    /// 4. *Sector zones.* For each sector, one representative of each class of
    ///    `Z^2 / L` in the zone (found deep inside the cone, and its zone
    ///    verified) is checked.
    /// 5. *Layer zones.* For each ray `i` and each `t` in its window, the squares
    ///    with `t_i = t` and `x + y >= B'` form a half-line `p_n = p_0 + n r_i`.
    ///    Along it every other `t_j` moves monotonically away from ray `i`'s
    ///    side (`t_j(p_n)` changes by `n (r_j x r_i)`, positive for `j < i`), so
    ///    from some `n_1` on the zone is constant. The squares before `n_1`,
    ///    and `M_i` representatives from `n_1` on, are checked directly.
    ///
    /// Every square falls under 1, 4 or 5, so the recurrence holds everywhere
    /// and `f = g`. The checker recomputes each bound above from the
    /// description, checks every representative's zone, and evaluates with
    /// [`KnightPattern::value`] itself, so it proves the evaluator correct, not a
    /// model of it.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knight_pattern::tests::hyper;
    use proptest::prelude::*;

    #[test]
    fn every_corrupted_entry_is_caught() {
        let p = hyper();
        let flip = |v: &mut u8| *v ^= 1;
        for i in 0..p.layers.len() {
            for k in 0..p.layers[i].tile.len() {
                let mut q = p.clone();
                flip(&mut q.layers[i].tile[k]);
                assert!(
                    matches!(q.check(CHECK_LIMIT), Err(CertificateError::Mismatch { .. })),
                    "layer {i} entry {k}"
                );
            }
        }
        for j in 0..p.sectors.len() {
            for k in 0..p.sectors[j].tile.len() {
                let mut q = p.clone();
                flip(&mut q.sectors[j].tile[k]);
                assert!(q.check(CHECK_LIMIT).is_err(), "sector {j} entry {k}");
            }
        }
        for k in (0..p.block_values.len()).step_by(7) {
            let mut q = p.clone();
            flip(&mut q.block_values[k]);
            assert!(q.check(CHECK_LIMIT).is_err(), "block entry {k}");
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
        assert!(q.check(CHECK_LIMIT).is_err());
        // A smaller block.
        let mut q = p.clone();
        q.block -= 1;
        q.block_values
            .truncate((q.block * (q.block + 1) / 2) as usize);
        assert!(q.check(CHECK_LIMIT).is_err());
        // A different move set.
        let mut q = p.clone();
        q.steps.pop();
        assert!(q.check(CHECK_LIMIT).is_err());
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

    proptest! {
        #[test]
        fn recurrence_holds_at_random_huge_squares(x in 0u64..1 << 63, y in 0u64..1 << 63) {
            let p = hyper();
            prop_assert!(p.check_cell(&MoveSet::hyper_knight(), x, y).is_ok());
            prop_assert_eq!(p.value(x, y), p.value(y, x));
        }
    }
}
