//! Which vector kernels the octal engine may use: those the CPU has,
//! unless the environment variable `GRUNDY_OCTAL_SIMD` lowers them, to
//! measure what a CPU without them gets (for benchmarking: the values
//! never depend on it). `GRUNDY_OCTAL_SIMD=avx2` uses no AVX-512 kernel
//! (as on most laptops, AMD CPUs before Zen 4 and many servers);
//! `GRUNDY_OCTAL_SIMD=portable` none of the x86-64 kernels (AVX-512 nor
//! AVX2: the portable code compiled for the baseline x86-64, as on a CPU
//! with neither); unset, empty or `avx512`, every kernel the CPU has. It
//! is read once, when the engine first chooses a kernel. On other
//! targets than x86-64 the portable code is all there is.
//!
//! This is also the one place that chooses, for each operation of the
//! engine, the kernel that runs it (the functions below the levels): the
//! best the level allows, AVX-512, then AVX2, then the portable code, with
//! the exceptions measured where a lower kernel is faster (each says why).
//! The engine's modules (`heap`, `search`) call these functions and never
//! a kernel of `avx512/`, `avx2/` or `portable/` directly; the tests call
//! each kernel directly, to compare them.

#[cfg(target_arch = "x86_64")]
use crate::avx2::{self, Avx2};
#[cfg(target_arch = "x86_64")]
use crate::avx512::{self, Avx512};
use crate::moves::Moves;
use crate::portable::hit::{Splits, TARGETS};
use crate::portable::{self, Slots};
use crate::sparse::Split;
use crate::splits::{TakeSplits, ValueBits};
use std::sync::OnceLock;

/// The environment variable that lowers the kernels used.
pub const SIMD_VARIABLE: &str = "GRUNDY_OCTAL_SIMD";

/// The most vector instructions the engine's kernels may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Simd {
    /// The portable code alone.
    Portable,
    /// AVX2 kernels, no AVX-512 one.
    Avx2,
    /// Every kernel (AVX-512 F and BW where the CPU has them).
    Avx512,
}

impl Simd {
    /// The value of [`SIMD_VARIABLE`] that selects it.
    pub fn name(self) -> &'static str {
        match self {
            Simd::Portable => "portable",
            Simd::Avx2 => "avx2",
            Simd::Avx512 => "avx512",
        }
    }

    /// The level a value of [`SIMD_VARIABLE`] names, in any case (`AVX2`
    /// is `avx2`; unset and empty: every kernel); `Err` with the value for
    /// any other. The input decoder's variable (`GRUNDY_SCAN_SIMD`, in
    /// `sg-solve`) takes the same values by the same rule.
    pub fn parse(value: Option<&str>) -> Result<Simd, String> {
        let Some(value) = value.filter(|v| !v.is_empty()) else {
            return Ok(Simd::Avx512);
        };
        [Simd::Portable, Simd::Avx2, Simd::Avx512]
            .into_iter()
            .find(|simd| simd.name().eq_ignore_ascii_case(value))
            .ok_or_else(|| value.to_owned())
    }
}

/// The kernels allowed by [`SIMD_VARIABLE`] (an unknown value allows
/// every kernel; `grundy octal` refuses it before the run).
pub fn simd_allowed() -> Simd {
    static ALLOWED: OnceLock<Simd> = OnceLock::new();
    *ALLOWED.get_or_init(|| {
        let value = std::env::var(SIMD_VARIABLE).ok();
        Simd::parse(value.as_deref()).unwrap_or(Simd::Avx512)
    })
}

/// The kernels the engine uses on this CPU: [`simd_allowed`], and what
/// the CPU has. The kernels' tokens (`Avx512::detect`, `Avx2::detect`)
/// are made from it alone, so it is what runs.
pub fn simd_used() -> Simd {
    static USED: OnceLock<Simd> = OnceLock::new();
    *USED.get_or_init(|| simd_allowed().min(simd_of_cpu()))
}

/// The most the CPU has.
pub(crate) fn simd_of_cpu() -> Simd {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
        {
            return Simd::Avx512;
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            return Simd::Avx2;
        }
    }
    Simd::Portable
}

/// The rows of bits of the rare marks of a batch (`heap::RareMarks`;
/// see `portable::word_rows`): AVX-512 (eight rows at a time, each value's
/// bit made in its lane), AVX2 for values below 128 (four rows at a time,
/// one compare per word of a row), and the portable kernel otherwise (a
/// byte store per mark: with AVX2 and values up to 511, `.6` to 2^20 on one
/// thread took 0.75x the time of the AVX2 kernel's eight compares per
/// mark).
#[inline]
pub(crate) fn word_rows(
    words: usize,
    split: &Split,
    moves: &Moves,
    values: &[u16],
    lo: usize,
    table: &mut [u64],
) {
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = Avx512::detect() {
        return avx512::word_rows(cpu, words, split, moves, values, lo, table);
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = Avx2::detect().filter(|_| words <= 2) {
        return avx2::word_rows(cpu, words, split, moves, values, lo, table);
    }
    portable::word_rows(words, split, moves, values, lo, table)
}

/// The values of the first splits of `r` as bits (see
/// `portable::first_found`): AVX-512; AVX2's for rows of at most 128
/// values only, as for [`word_rows`]: on rows of 256 or 512 the portable
/// kernel takes half its instructions (`.6` to 2^20,
/// `GRUNDY_OCTAL_SIMD=avx2`, one thread pinned: 0.96x the time, median of
/// 5 interleaved runs, 0.85-0.99x; `.354` unchanged).
#[inline]
pub(crate) fn first_found(moves: &Moves, values: &[u16], r: usize, row: &mut [u64]) {
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = Avx512::detect() {
        return avx512::first_found(cpu, moves, values, r, row);
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = Avx2::detect().filter(|_| row.len() <= 2) {
        return avx2::first_found(cpu, moves, values, r, row);
    }
    portable::first_found(moves, values, r, row)
}

/// The settling's check of the splits `{a, r - a}`, `1 <= a <= m`, into
/// the heaps settled since a chunk's state, against every candidate (see
/// `portable::splits_reach`): AVX-512 where its blocks fit inside
/// `values`, else AVX2, else the portable kernel.
#[inline]
pub(crate) fn splits_reach(values: &[u16], r: usize, m: usize, candidates: &[u32]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = Avx512::detect()
        && let Some(hits) = avx512::splits_reach(cpu, values, r, m, candidates)
    {
        return hits;
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = Avx2::detect() {
        return avx2::splits_reach(cpu, values, r, m, candidates);
    }
    portable::splits_reach(values, r, m, candidates)
}

/// The search of the splits of heap `h` for the values sought below 1024
/// (the contract of `avx512::missing`): AVX-512, AVX2 or the portable
/// kernel (`slots` is the portable kernel's scratch space, `cursors` every
/// kernel's).
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn missing(
    moves: &Moves,
    values: &[u16],
    h: usize,
    top: usize,
    all: &ValueBits,
    exact: &ValueBits,
    skip: usize,
    budget: usize,
    cursors: &mut Vec<TakeSplits>,
    slots: &mut Slots,
) -> (ValueBits, bool) {
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = Avx512::detect() {
        return avx512::missing(
            cpu, moves, values, h, top, all, exact, skip, budget, cursors,
        );
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = Avx2::detect() {
        return avx2::missing(
            cpu, moves, values, h, top, all, exact, skip, budget, cursors,
        );
    }
    portable::missing(
        moves, values, h, top, all, exact, skip, budget, cursors, slots,
    )
}

/// The values below 64 that the splits `{small[j], large[len - 1 - j]}`
/// reach, as bits, for the small-value path (`search::missing_small`),
/// when a kernel does it faster than that path's table lookups: AVX-512
/// (32 splits at a time, for slices of a multiple of 32); `None` without
/// it, and the path looks the splits up itself.
#[inline]
pub(crate) fn found_small(small: &[u16], large: &[u16]) -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = Avx512::detect() {
        return Some(avx512::found_small(cpu, small, large));
    }
    let _ = (small, large);
    None
}

/// The first `a` of `splits` with `G(a) ^ G(r - a)` among `targets`, for
/// the list search (`search::list`): its portable scan compiled for AVX2
/// when the CPU has it (about 25% less CPU than the baseline build on
/// `.376` to 2^18, 5% on `.6`), else as built for the target.
#[inline]
pub(crate) fn first_hit(splits: Splits<'_>, targets: &[u16; TARGETS]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = Avx2::detect() {
        return avx2::first_hit(cpu, splits, targets);
    }
    portable::hit::first_hit(splits, targets)
}

/// Tests lower this to run lower kernels on every CPU (the results are
/// the same either way, so tests running meanwhile are not disturbed):
/// 0 portable, 1 AVX2, 2 AVX-512 (the default: what the CPU has).
#[cfg(test)]
static TEST_LEVEL: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(2);

/// The most vector instructions the tests allow now (see [`TEST_LEVEL`]).
#[cfg(test)]
pub(crate) fn test_level() -> Simd {
    match TEST_LEVEL.load(std::sync::atomic::Ordering::Relaxed) {
        0 => Simd::Portable,
        1 => Simd::Avx2,
        _ => Simd::Avx512,
    }
}

/// Sets [`test_level`].
#[cfg(test)]
pub(crate) fn set_test_level(level: Simd) {
    let value = match level {
        Simd::Portable => 0,
        Simd::Avx2 => 1,
        Simd::Avx512 => 2,
    };
    TEST_LEVEL.store(value, std::sync::atomic::Ordering::Relaxed);
}

/// Tests: runs the ignored test `test` of this test binary in a child
/// process with [`SIMD_VARIABLE`] set to `value` (read once per process),
/// and returns its standard output, asserting that it passed.
#[cfg(test)]
pub(crate) fn run_ignored_test_with(test: &str, value: &str) -> String {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .env(SIMD_VARIABLE, value)
        .args([
            "--exact",
            test,
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success() && text.contains("1 passed"),
        "{SIMD_VARIABLE}={value:?}: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_named_and_parsed() {
        for simd in [Simd::Portable, Simd::Avx2, Simd::Avx512] {
            assert_eq!(Simd::parse(Some(simd.name())), Ok(simd));
        }
        assert_eq!(Simd::parse(None), Ok(Simd::Avx512));
        assert_eq!(Simd::parse(Some("")), Ok(Simd::Avx512));
        assert_eq!(Simd::parse(Some("sse")), Err("sse".to_owned()));
        assert_eq!(Simd::parse(Some("AVX2")), Ok(Simd::Avx2));
        assert_eq!(Simd::parse(Some("Portable")), Ok(Simd::Portable));
        assert_eq!(Simd::parse(Some("avx2 ")), Err("avx2 ".to_owned()));
        assert!(Simd::Portable < Simd::Avx2 && Simd::Avx2 < Simd::Avx512);
        assert_eq!(simd_used(), simd_allowed().min(simd_of_cpu()));
    }

    /// The kernels' tokens are given exactly when [`simd_used`] allows
    /// them, under the value of the variable this process has (run by
    /// [`tokens_follow_the_variable`] in a child process per value).
    #[test]
    #[ignore = "run by tokens_follow_the_variable, with the variable set"]
    fn tokens_under_the_variable() {
        let wanted = Simd::parse(std::env::var(SIMD_VARIABLE).ok().as_deref()).unwrap();
        assert_eq!(simd_allowed(), wanted);
        let used = wanted.min(simd_of_cpu());
        assert_eq!(simd_used(), used);
        #[cfg(target_arch = "x86_64")]
        {
            use crate::avx2::Avx2;
            use crate::avx512::Avx512;
            assert_eq!(Avx512::detect().is_some(), used == Simd::Avx512);
            assert_eq!(Avx2::detect().is_some(), used >= Simd::Avx2);
        }
    }

    /// Each value of the variable, in a child process (the variable is
    /// read once per process), gives the tokens it names and no more: on
    /// a CPU with AVX-512, `portable` and `avx2` take tokens away, and this
    /// test fails if the variable is ignored.
    #[test]
    fn tokens_follow_the_variable() {
        for value in ["portable", "avx2", "avx512", ""] {
            run_ignored_test_with("kernels::tests::tokens_under_the_variable", value);
        }
    }
}
