//! Which vector kernels the octal engine may use: those the CPU has,
//! unless the environment variable `GRUNDY_OCTAL_SIMD` lowers them, to
//! measure what a CPU without them gets (for benchmarking: the values
//! never depend on it). `GRUNDY_OCTAL_SIMD=avx2` uses no AVX-512 kernel
//! (as on most laptops, AMD CPUs before Zen 4 and many servers);
//! `GRUNDY_OCTAL_SIMD=portable` none of the x86-64 kernels (AVX-512 nor
//! AVX2: the portable code compiled for the baseline x86-64, as on a CPU
//! with neither); unset, empty or `avx512`, every kernel the CPU has. It
//! is read once, when the engine first chooses a kernel. On other
//! targets than x86-64 the portable code is all there is. The kernels'
//! tokens (`Avx512::detect`, `Avx2::detect`) are made from [`simd_used`]
//! alone; `kernels` chooses among them.

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
            run_ignored_test_with("simd::tests::tokens_under_the_variable", value);
        }
    }
}
