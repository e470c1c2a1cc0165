//! The search: [`search`] reads a description off a computed table of
//! values and returns it only once its certificate passes.
//!
//! How the description is read off is in the documentation of [`search()`];
//! every failure has a [`FitError`] naming the step that failed.

use super::{
    CHECK_LIMIT, CertificateError, CertificateReport, KnightPattern, Layer, PatternError, Sector,
};
use super::{MAX_BLOCK, cross, gcd, lcm};
use crate::knight::{MoveSet, TriangleTable};

/// Why [`search`] found no certified description.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SearchError {
    /// Nothing certifiable was found with tables up to `max_sum`.
    #[error("no certificate found up to x + y <= {max_sum}: {reason}")]
    NotFound {
        /// The largest table diagonal tried.
        max_sum: u64,
        /// Why the attempt with that table failed (shown in the message,
        /// so not a `source`).
        reason: FitError,
    },
    /// The options leave no table size to try.
    #[error(
        "no certificate found: no table size tried (the first, {first_sum}, is above the largest, {max_sum})"
    )]
    NothingTried {
        /// The first table size, raised to at least 64.
        first_sum: u64,
        /// The largest table size allowed.
        max_sum: u64,
    },
}

/// Why one table gave no certified description: which step of the search
/// (see [`search()`]) failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FitError {
    /// Step 1: the far half of the table is narrower than the largest
    /// period tried.
    #[error("the table is too small for the largest period")]
    TableTooSmall,
    /// Step 1: no angular bucket repeats with a period up to `max`.
    #[error("no period up to {max} makes 90% of any far angular bucket repeat")]
    NoBucketPeriod {
        /// `SearchOptions::max_period`.
        max: u64,
    },
    /// Step 1: the lcm of the buckets' periods exceeds `max`.
    #[error("the sectors' periods have an lcm above {max}")]
    CommonPeriodTooLarge {
        /// `SearchOptions::max_common_period`.
        max: u64,
    },
    /// Step 2: the common period leaves no far square to compare.
    #[error("period {period} is too large for the table")]
    PeriodTooLarge {
        /// The common period.
        period: u64,
    },
    /// Step 3: no widening of the bands lets every far square fit.
    #[error(
        "period {period}, rays {rays:?}, bands {bands:?}: no widening fits the far half of the table ({last})"
    )]
    NoWidening {
        /// The common period.
        period: u64,
        /// The rays' directions.
        rays: Vec<(u32, u32)>,
        /// The bands before widening.
        bands: Vec<(i64, i64)>,
        /// Why the widest attempt failed.
        last: Box<FitError>,
    },
    /// Step 3: a layer has no period up to `SearchOptions::max_layer_period`.
    #[error("layer {0} has no period up to the limit")]
    LayerPeriod(usize),
    /// Step 3: a sector has no rectangle of divisors of the common period.
    #[error("sector {0} has no period up to the limit")]
    SectorPeriod(usize),
    /// Step 4: the block would exceed the largest a description may hold.
    #[error("the block would be too large")]
    BlockTooLarge,
    /// The description read off breaks an invariant of the format.
    #[error(transparent)]
    Pattern(#[from] PatternError),
    /// Step 5: the description does not pass its certificate.
    #[error("certificate failed: {0}")]
    Certificate(CertificateError),
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
            check_limit: CHECK_LIMIT,
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

/// Finds a certified description of the Grundy values of `moves`, or says
/// that none was found within `opts`.
///
/// # How
///
/// [`search`] finds a description for any [`MoveSet`] from a computed table
/// of diagonals up to some `N` (doubling `N` on failure), looking only at
/// the far half `N/2 <= x + y <= N` to read off rules:
///
/// 1. *Period.* The far half is cut into angular buckets; in each, the
///    smallest `P` such that 90% of its squares equal their translates by
///    `(P, 0)` and `(0, P)`. Buckets crossed by a layer usually have none.
///    The common period is the lcm of those found.
/// 2. *Rays.* Squares that differ from a translate by the common period
///    ("defects") lie near the layers. Their angles are binned; each run
///    of occupied bins becomes one ray, whose direction is the simplest
///    rational `(a, b)` (with `a, b <= max_direction`) inside the run. The
///    axes are always rays.
/// 3. *Bands, periods, tiles.* Each defect goes to the nearest ray; a band
///    is the spread of `t` over its defects (widened if the next step
///    fails). Every far square is classified exactly as the evaluator
///    does; a layer gets the smallest period along its ray, and a sector
///    the smallest rectangle of divisors of the common period, under which
///    all its far squares agree. The bands are then narrowed (galloping) as
///    long as the rules still fit and the encoding does not grow, and inner
///    rays with an empty band between two equal sectors are dropped.
/// 4. *Block.* `B` is one more than the last diagonal where the rules
///    disagree with the table; the block is copied from the table.
/// 5. *Certificate.* Only a description whose [`KnightPattern::check`]
///    passes is returned. Nothing found by steps 1 to 4 is trusted.
pub fn search(moves: &MoveSet, opts: &SearchOptions) -> Result<SearchOutcome, SearchError> {
    let mut table = TriangleTable::new(moves.clone(), opts.max_sum);
    let mut n = opts.first_sum.max(64);
    let mut failed = None;
    while n <= opts.max_sum {
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
                Err(e) => failed = Some((n, FitError::Certificate(e))),
            },
            Err(e) => failed = Some((n, e)),
        }
        n *= 2;
    }
    Err(match failed {
        Some((max_sum, reason)) => SearchError::NotFound { max_sum, reason },
        None => SearchError::NothingTried {
            first_sum: opts.first_sum.max(64),
            max_sum: opts.max_sum,
        },
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
fn common_period(table: &TriangleTable, n: u64, opts: &SearchOptions) -> Result<u64, FitError> {
    let lo_sum = n / 2;
    if lo_sum + opts.max_period > n {
        return Err(FitError::TableTooSmall);
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
            return Err(FitError::CommonPeriodTooLarge {
                max: opts.max_common_period,
            });
        }
        period = Some(l);
    }
    period.ok_or(FitError::NoBucketPeriod {
        max: opts.max_period,
    })
}

/// The description read off a table with diagonals `0..=n`, not yet certified.
fn fit_table(
    table: &TriangleTable,
    n: u64,
    opts: &SearchOptions,
) -> Result<KnightPattern, FitError> {
    let lo_sum = n / 2;
    let period = common_period(table, n, opts)?;
    if lo_sum + period > n {
        return Err(FitError::PeriodTooLarge { period });
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
    let widened = |widen: i64| {
        let w = widen * period.min(8) as i64;
        let trial: Vec<(i64, i64)> = bands
            .iter()
            .map(|&(lo, hi)| if lo > hi { (lo, hi) } else { (lo - w, hi + w) })
            .collect();
        fit_bands(table, n, period, &dirs, &trial, opts).map(|p| (p, trial))
    };
    let mut fitted = widened(0);
    for widen in 1..4 {
        if fitted.is_ok() {
            break;
        }
        fitted = widened(widen);
    }
    let (mut pattern, mut bands) = fitted.map_err(|last| FitError::NoWidening {
        period,
        rays: dirs.clone(),
        bands: bands.clone(),
        last: Box::new(last),
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
) -> Result<KnightPattern, FitError> {
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
            return Err(FitError::LayerPeriod(i));
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
        sectors.push(found.ok_or(FitError::SectorPeriod(j))?);
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
        return Err(FitError::BlockTooLarge);
    }
    pattern.block = block;
    pattern.block_values = (0..block)
        .flat_map(|d| (0..=d).map(move |x| (x, d - x)))
        .map(|(x, y)| tv(table, x, y))
        .collect();
    pattern.validate()?;
    Ok(pattern)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knight::HYPER_KNIGHT;
    use crate::knight_pattern::tests::{assert_matches_definition, hyper};
    use rand_xoshiro::SplitMix64;
    use rand_xoshiro::rand_core::{Rng, SeedableRng};

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
            Err(SearchError::NotFound { max_sum: 1024, .. })
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

    #[test]
    fn options_that_leave_no_table_to_try_say_so() {
        let opts = SearchOptions {
            first_sum: 2048,
            max_sum: 1024,
            ..SearchOptions::default()
        };
        assert_eq!(
            search(&MoveSet::hyper_knight(), &opts).unwrap_err(),
            SearchError::NothingTried {
                first_sum: 2048,
                max_sum: 1024
            }
        );
    }
}
