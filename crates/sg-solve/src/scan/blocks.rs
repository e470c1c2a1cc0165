//! Classifies 64 input bytes at a time: which are digits and which are
//! separators, one bit per byte (bit `i` for byte `i`). With SSE2 (part of
//! every x86-64) that is four 16-byte compares per class; elsewhere a plain
//! loop gives the same masks.
//!
//! Where the CPU has AVX-512 VBMI2 or AVX2, a block of digits and
//! separators is also decoded at once ([`decode`]): the values of its
//! numbers of up to four digits, which the scanner then hands out one by
//! one (judge inputs are mostly such numbers: a third of the time of
//! reading them one at a time). The two decoders are about as fast on the
//! judge inputs; `GRUNDY_SCAN_SIMD` ([`SIMD_VARIABLE`]) lowers the choice
//! to measure what other CPUs get.

/// The digit mask and the separator mask of `block`.
#[inline(always)]
pub(super) fn classify(block: &[u8; 64]) -> (u64, u64) {
    #[cfg(target_arch = "x86_64")]
    {
        classify_sse2(block)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        classify_portable(block)
    }
}

/// The definition: the masks byte by byte.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn classify_portable(block: &[u8; 64]) -> (u64, u64) {
    let (mut digits, mut spaces) = (0u64, 0u64);
    for (i, &b) in block.iter().enumerate() {
        digits |= u64::from(b.is_ascii_digit()) << i;
        spaces |= u64::from(super::is_space(b)) << i;
    }
    (digits, spaces)
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn classify_sse2(block: &[u8; 64]) -> (u64, u64) {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8, _mm_sub_epi8,
    };
    let (mut digits, mut spaces) = (0u64, 0u64);
    for (i, part) in block.chunks_exact(16).enumerate() {
        // SAFETY: SSE2 is part of x86-64, so these intrinsics are always
        // available; `part` is 16 readable bytes and the load has no
        // alignment requirement.
        unsafe {
            let x = _mm_loadu_si128(part.as_ptr().cast());
            // Unsigned `b - c < n` as a signed compare: subtract `c + 128`,
            // which maps `c..c + n` to `-128..-128 + n`.
            let below = |c: u8, n: u8| {
                let shifted = _mm_sub_epi8(x, _mm_set1_epi8((c as i8).wrapping_add(i8::MIN)));
                _mm_cmplt_epi8(shifted, _mm_set1_epi8(i8::MIN.wrapping_add(n as i8)))
            };
            let digit = below(b'0', 10);
            // `\t`, `\n`, vertical tab, form feed and `\r` are 9..=13.
            let space = _mm_or_si128(
                below(b'\t', 5),
                _mm_cmpeq_epi8(x, _mm_set1_epi8(b' ' as i8)),
            );
            digits |= u64::from(_mm_movemask_epi8(digit) as u16) << (16 * i);
            spaces |= u64::from(_mm_movemask_epi8(space) as u16) << (16 * i);
        }
    }
    (digits, spaces)
}

/// How the blocks are decoded: by which of the CPU's instructions, or
/// not at all (every token read one at a time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Decoder {
    /// No block decoded at once.
    Portable,
    /// [`decode_avx2`]: AVX2 (and POPCNT).
    Avx2,
    /// [`decode_avx512`]: AVX-512 F, BW, VBMI and VBMI2.
    Avx512,
}

/// The environment variable that lowers the decoder: `avx2` uses no
/// AVX-512 instruction, `portable` decodes no block at once (each token is
/// read one at a time, as on a CPU without AVX2); unset, empty or
/// `avx512`, the best the CPU has; in any case, as `GRUNDY_OCTAL_SIMD`
/// (`sg_octal::Simd::parse`, the one rule of both). The commands
/// refuse any other value before they read their input; here it allows
/// every decoder. Read once, when the first [`super::Scanner`] is made:
/// it is for measuring what other CPUs get, and never changes a value or
/// an error.
pub const SIMD_VARIABLE: &str = "GRUNDY_SCAN_SIMD";

impl Decoder {
    /// The decoder a value of [`SIMD_VARIABLE`] allows at most.
    fn allowed(value: Option<&[u8]>) -> Decoder {
        let text = value.and_then(|v| std::str::from_utf8(v).ok());
        match sg_octal::Simd::parse(text) {
            Ok(sg_octal::Simd::Avx2) => Decoder::Avx2,
            Ok(sg_octal::Simd::Portable) => Decoder::Portable,
            _ => Decoder::Avx512,
        }
    }

    /// Its name, as [`SIMD_VARIABLE`] names it.
    pub(super) fn name(self) -> &'static str {
        match self {
            Decoder::Portable => "portable",
            Decoder::Avx2 => "avx2",
            Decoder::Avx512 => "avx512",
        }
    }
}

/// The decoder used: the best the CPU has, at most what [`SIMD_VARIABLE`]
/// allows (and, in tests, at most [`FORCE`]). Found once, then a load.
pub(super) fn decoder() -> Decoder {
    #[cfg(test)]
    if let Some(forced) = forced() {
        return forced.min(decoder_of_process());
    }
    decoder_of_process()
}

fn decoder_of_process() -> Decoder {
    #[cfg(target_arch = "x86_64")]
    {
        use std::sync::atomic::{AtomicU8, Ordering};
        /// 0: not asked yet; else 1 + the decoder's rank.
        static KNOWN: AtomicU8 = AtomicU8::new(0);
        const ALL: [Decoder; 3] = [Decoder::Portable, Decoder::Avx2, Decoder::Avx512];
        match KNOWN.load(Ordering::Relaxed) {
            0 => {
                let value = std::env::var_os(SIMD_VARIABLE);
                let allowed = Decoder::allowed(value.as_ref().map(|v| v.as_encoded_bytes()));
                let used = allowed.min(cpu_decoder());
                KNOWN.store(1 + used as u8, Ordering::Relaxed);
                used
            }
            known => ALL[usize::from(known - 1).min(2)],
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Decoder::Portable
    }
}

/// The best decoder the CPU and the OS support, from three `cpuid` leaves
/// and `xgetbv`. Not `is_x86_feature_detected!`: its first use reads every
/// leaf std knows, and `cpuid` traps to the hypervisor on a virtual
/// machine (about 6 us a leaf here): 55 us against 18, 2% of a
/// `lightoj1315` input at the judges' limits.
#[cfg(target_arch = "x86_64")]
fn cpu_decoder() -> Decoder {
    use std::arch::x86_64::{__cpuid, __cpuid_count};
    if __cpuid(0).eax < 7 {
        return Decoder::Portable;
    }
    let leaf1 = __cpuid(1);
    // OSXSAVE: the OS manages the extended state, and `xgetbv` exists.
    if leaf1.ecx >> 27 & 1 == 0 {
        return Decoder::Portable;
    }
    /// The OS's enabled state components (XCR0).
    #[target_feature(enable = "xsave")]
    fn enabled_state() -> u64 {
        // SAFETY: `xsave` is enabled for this function, whose caller has
        // seen the OSXSAVE bit.
        unsafe { std::arch::x86_64::_xgetbv(0) }
    }
    // SAFETY: OSXSAVE is set (checked above), so `xgetbv` is available.
    let state = unsafe { enabled_state() };
    // SSE and AVX; then the opmask registers and both halves of the ZMM state.
    const YMM_STATE: u64 = 0b0000_0110;
    const ZMM_STATE: u64 = 0b1110_0110;
    let leaf7 = __cpuid_count(7, 0);
    let popcnt = leaf1.ecx >> 23 & 1 == 1;
    let avx = leaf1.ecx >> 28 & 1 == 1;
    let avx2 = leaf7.ebx >> 5 & 1 == 1;
    let avx512f = leaf7.ebx >> 16 & 1 == 1;
    let avx512bw = leaf7.ebx >> 30 & 1 == 1;
    let vbmi = leaf7.ecx >> 1 & 1 == 1;
    let vbmi2 = leaf7.ecx >> 6 & 1 == 1;
    if state & ZMM_STATE == ZMM_STATE && avx512f && avx512bw && vbmi && vbmi2 {
        Decoder::Avx512
    } else if state & YMM_STATE == YMM_STATE && avx && avx2 && popcnt {
        Decoder::Avx2
    } else {
        Decoder::Portable
    }
}

/// Tests set this to lower the decoder (the results are the same on every
/// path, so tests running meanwhile are not disturbed): 0, none; else 1 +
/// the highest decoder's rank.
#[cfg(test)]
pub(super) static FORCE: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

#[cfg(test)]
fn forced() -> Option<Decoder> {
    match FORCE.load(std::sync::atomic::Ordering::Relaxed) {
        0 => None,
        1 => Some(Decoder::Portable),
        2 => Some(Decoder::Avx2),
        _ => Some(Decoder::Avx512),
    }
}

/// Decodes the numbers of a block of digits and separators (`digits` its
/// digit mask, `next` the byte after it) that end in the block, in order,
/// into `out`; returns the mask of those it decoded: bit `k` for the
/// `k`-th number starting in the block, when it has 1 to 4 digits and
/// ends in the block (the others are left to the caller). With
/// [`Decoder::Portable`], none.
///
/// # Safety
/// `decoder` must be what [`decoder`] returned (the CPU has the
/// instructions).
#[inline(always)]
pub(super) unsafe fn decode(
    decoder: Decoder,
    block: &[u8; 64],
    next: u8,
    digits: u64,
    out: &mut [u32; 64],
) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        match decoder {
            Decoder::Portable => 0,
            // SAFETY: the CPU has AVX2 and POPCNT (the caller's promise),
            // the only requirement of the function.
            Decoder::Avx2 => unsafe { decode_avx2(block, next, digits, out) },
            // SAFETY: the CPU has AVX-512 F, BW, VBMI and VBMI2 (the
            // caller's promise), the only requirement of the function.
            Decoder::Avx512 => unsafe { decode_avx512(block, next, digits, out) },
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (decoder, block, next, digits, out);
        0
    }
}

/// The ends of the numbers that [`decode`] decodes from a block with the
/// digit mask `digits` and the byte `next` after it (a number ending on the
/// block's last byte only if a separator follows: a digit goes on, and
/// anything else is an error).
#[inline(always)]
fn ends_of(digits: u64, next: u8) -> u64 {
    digits & !(digits >> 1 | u64::from(!super::is_space(next)) << 63)
}

/// For each pattern of ends in 8 bytes (the index), the `pshufb` control
/// that gathers those bytes' 16-bit values, in order, to the low words.
#[cfg(target_arch = "x86_64")]
static LEFT_PACK: [[u8; 16]; 256] = {
    let mut table = [[0x80u8; 16]; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if mask >> bit & 1 == 1 {
                table[mask][2 * k] = 2 * bit as u8;
                table[mask][2 * k + 1] = 2 * bit as u8 + 1;
                k += 1;
            }
            bit += 1;
        }
        mask += 1;
    }
    table
};

/// [`decode`] with AVX2, without `pdep`/`pext` (microcoded on AMD before
/// Zen 3) nor a compress: per 16 bytes, the value of the run of digits
/// ending at each byte, limited to its last four digits, in two doubling
/// steps (a byte's digit plus ten times the one before it when both are
/// digits; then that plus a hundred times the pair two bytes before, by a
/// multiply-add on 16-bit words); per 8 bytes, the values at the numbers'
/// last digits are packed to the front by a `pshufb` pattern from a table
/// indexed by the 8 bits of ends, widened to 32 bits and stored after the
/// numbers before them. Numbers of 5 digits or more (rare) are found from
/// the masks and left out of the returned mask.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn decode_avx2(block: &[u8; 64], next: u8, digits: u64, out: &mut [u32; 64]) -> u64 {
    use std::arch::x86_64::*;
    let ends = ends_of(digits, next);
    let count = ends.count_ones() as usize;
    let zero = _mm_set1_epi8(b'0' as i8);
    let nine = _mm_set1_epi8(9);
    let weights = _mm_set1_epi16(i16::from_le_bytes([100, 1]));
    // The previous 16 bytes' digit values (0 for other bytes), digit flags
    // and pair values; before the block, no digit.
    let (mut prev_value, mut prev_digit, mut prev_pair) = (
        _mm_setzero_si128(),
        _mm_setzero_si128(),
        _mm_setzero_si128(),
    );
    let mut k = 0usize;
    for (i, part) in block.chunks_exact(16).enumerate() {
        // SAFETY: `part` is 16 readable bytes, and the load has no
        // alignment requirement.
        let bytes = unsafe { _mm_loadu_si128(part.as_ptr().cast()) };
        let d = _mm_sub_epi8(bytes, zero);
        // Digits: `d` at most 9 unsigned.
        let digit = _mm_cmpeq_epi8(_mm_min_epu8(d, nine), d);
        let value = _mm_and_si128(d, digit);
        // Byte `p`: its digit and the one before it, when both are digits.
        let before = _mm_alignr_epi8::<15>(value, prev_value);
        let digit_before = _mm_alignr_epi8::<15>(digit, prev_digit);
        let twice = _mm_add_epi8(before, before);
        let eight = _mm_add_epi8(_mm_add_epi8(twice, twice), _mm_add_epi8(twice, twice));
        let pair = _mm_add_epi8(value, _mm_and_si128(_mm_add_epi8(eight, twice), digit));
        // The pair two bytes before, when bytes `p - 1` and `p` are digits.
        let two_digits = _mm_and_si128(digit, digit_before);
        let pair_before = _mm_and_si128(_mm_alignr_epi8::<14>(pair, prev_pair), two_digits);
        // 16-bit words: 100 times the pair before plus the pair.
        let low = _mm_maddubs_epi16(_mm_unpacklo_epi8(pair_before, pair), weights);
        let high = _mm_maddubs_epi16(_mm_unpackhi_epi8(pair_before, pair), weights);
        (prev_value, prev_digit, prev_pair) = (value, digit, pair);
        for (half, words) in [low, high].into_iter().enumerate() {
            let mask = (ends >> (16 * i + 8 * half) & 0xFF) as usize;
            let packed = _mm_shuffle_epi8(words, {
                // SAFETY: `LEFT_PACK[mask]` is 16 readable bytes.
                unsafe { _mm_loadu_si128(LEFT_PACK[mask].as_ptr().cast()) }
            });
            // SAFETY: the numbers ending before these 8 bytes end on
            // distinct bytes before them, so `k <= 16 * i + 8 * half` and
            // the 8 words stored at `out[k..k + 8]` lie inside `out`.
            unsafe {
                debug_assert!(k + 8 <= out.len());
                _mm256_storeu_si256(
                    out.as_mut_ptr().add(k).cast(),
                    _mm256_cvtepu16_epi32(packed),
                );
            }
            k += mask.count_ones() as usize;
        }
    }
    ready_of(digits, ends, count)
}

/// The mask of the numbers decoded, by their order: the first `count`
/// (those that end in the block) but those of 5 digits or more, which end
/// where the byte and the four before it are digits.
#[inline(always)]
fn ready_of(digits: u64, ends: u64, count: usize) -> u64 {
    let mut long = ends & digits << 1 & digits << 2 & digits << 3 & digits << 4;
    let mut ready = match count {
        0 => 0,
        _ => u64::MAX >> (64 - count),
    };
    while long != 0 {
        let end = long.trailing_zeros();
        long &= long - 1;
        ready &= !(1 << (ends & ((1 << end) - 1)).count_ones());
    }
    ready
}

/// [`decode`] with AVX-512. Per 16 numbers: their first and last digits'
/// places come from the masks by a compress; a byte permute gathers the
/// four bytes that end at each last digit, those before the first are
/// cleared, and two multiply-adds make the value.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2")]
fn decode_avx512(block: &[u8; 64], next: u8, digits: u64, out: &mut [u32; 64]) -> u64 {
    use std::arch::x86_64::*;
    /// The byte places 0 to 63.
    static PLACES: [u8; 64] = {
        let mut p = [0u8; 64];
        let mut i = 0;
        while i < 64 {
            p[i] = i as u8;
            i += 1;
        }
        p
    };
    let starts = digits & !(digits << 1);
    let ends = ends_of(digits, next);
    let count = ends.count_ones() as usize;
    // SAFETY: `block` and `PLACES` are 64 readable bytes.
    let (bytes, places) = unsafe {
        (
            _mm512_loadu_si512(block.as_ptr().cast()),
            _mm512_loadu_si512(PLACES.as_ptr().cast()),
        )
    };
    let digit_values = _mm512_sub_epi8(bytes, _mm512_set1_epi8(b'0' as i8));
    // Number `k`'s first and last digit places, in byte `k`.
    let firsts = _mm512_maskz_compress_epi8(starts, places);
    let lasts = _mm512_maskz_compress_epi8(ends, places);
    // Each dword's low byte copied to its four bytes.
    let broadcast = _mm512_set_epi8(
        12, 12, 12, 12, 8, 8, 8, 8, 4, 4, 4, 4, 0, 0, 0, 0, 12, 12, 12, 12, 8, 8, 8, 8, 4, 4, 4, 4,
        0, 0, 0, 0, 12, 12, 12, 12, 8, 8, 8, 8, 4, 4, 4, 4, 0, 0, 0, 0, 12, 12, 12, 12, 8, 8, 8, 8,
        4, 4, 4, 4, 0, 0, 0, 0,
    );
    // The places 3, 2, 1 and 0 before the last digit, in a dword's bytes 0-3.
    let back = _mm512_set1_epi32(i32::from_le_bytes([
        (-3i8) as u8,
        (-2i8) as u8,
        (-1i8) as u8,
        0,
    ]));
    let tens = _mm512_set1_epi32(i32::from_le_bytes([10, 1, 10, 1]));
    let hundreds = _mm512_set1_epi32(0x0001_0064);
    let mut ready = 0u64;
    let mut chunk = |k: usize, first: __m128i, last: __m128i| {
        let first = _mm512_shuffle_epi8(_mm512_cvtepu8_epi32(first), broadcast);
        let last = _mm512_shuffle_epi8(_mm512_cvtepu8_epi32(last), broadcast);
        // Places before 0 wrap to 253-255 (negative as signed bytes: before
        // every first digit), and are cleared with the other places before
        // the number's first digit.
        let window = _mm512_add_epi8(last, back);
        let keep = _mm512_cmpge_epi8_mask(window, first);
        let gathered = _mm512_maskz_permutexvar_epi8(keep, window, digit_values);
        let pairs = _mm512_maddubs_epi16(gathered, tens);
        let values = _mm512_madd_epi16(pairs, hundreds);
        // SAFETY: `out[k..k + 16]` is inside `out` (`k <= 48`).
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(k).cast(), values) };
        // At most four digits: the first digit within three places of the last.
        let length = _mm512_sub_epi32(last, first);
        let short = _mm512_cmplt_epi32_mask(
            _mm512_and_si512(length, _mm512_set1_epi32(0xff)),
            _mm512_set1_epi32(4),
        );
        ready |= u64::from(short) << k;
    };
    chunk(
        0,
        _mm512_castsi512_si128(firsts),
        _mm512_castsi512_si128(lasts),
    );
    if count > 16 {
        chunk(
            16,
            _mm512_extracti32x4_epi32::<1>(firsts),
            _mm512_extracti32x4_epi32::<1>(lasts),
        );
    }
    if count > 32 {
        chunk(
            32,
            _mm512_extracti32x4_epi32::<2>(firsts),
            _mm512_extracti32x4_epi32::<2>(lasts),
        );
    }
    if count > 48 {
        chunk(
            48,
            _mm512_extracti32x4_epi32::<3>(firsts),
            _mm512_extracti32x4_epi32::<3>(lasts),
        );
    }
    // Only the numbers that end in the block.
    match count {
        0 => 0,
        _ => ready & u64::MAX >> (64 - count),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn simd_matches_the_definition(block in proptest::array::uniform32(any::<u8>()), rest in proptest::array::uniform32(any::<u8>())) {
            let mut bytes = [0u8; 64];
            bytes[..32].copy_from_slice(&block);
            bytes[32..].copy_from_slice(&rest);
            prop_assert_eq!(classify(&bytes), classify_portable(&bytes));
        }
    }

    /// Every decoder the CPU has but the portable one.
    fn decoders() -> Vec<Decoder> {
        [Decoder::Avx2, Decoder::Avx512]
            .into_iter()
            .filter(|&d| d <= decoder_of_process())
            .collect()
    }

    /// The numbers decoded from `block`, by the definition: for the `k`-th
    /// number starting in the block, its value if it has 1 to 4 digits and
    /// ends in the block (before a separator).
    fn reference(block: &[u8; 64], next: u8) -> Vec<Option<u32>> {
        let mut numbers = vec![];
        let mut i = 0;
        while i < 64 {
            if !block[i].is_ascii_digit() {
                i += 1;
                continue;
            }
            let start = i;
            while i < 64 && block[i].is_ascii_digit() {
                i += 1;
            }
            let ends_here = i < 64 || super::super::is_space(next);
            numbers.push((ends_here && i - start <= 4).then(|| {
                std::str::from_utf8(&block[start..i])
                    .unwrap()
                    .parse()
                    .unwrap()
            }));
        }
        numbers
    }

    fn check_decoders(block: &[u8; 64], next: u8) -> Result<(), TestCaseError> {
        let want = reference(block, next);
        let (digits, _) = classify(block);
        for decoder in decoders() {
            let mut out = [0u32; 64];
            // SAFETY: `decoders` has only those the CPU has.
            let ready = unsafe { decode(decoder, block, next, digits, &mut out) };
            for (k, want) in want.iter().enumerate() {
                prop_assert_eq!(
                    ready >> k & 1 == 1,
                    want.is_some(),
                    "{:?}: number {}",
                    decoder,
                    k
                );
                if let Some(value) = *want {
                    prop_assert_eq!(out[k], value, "{:?}: number {}", decoder, k);
                }
            }
            prop_assert_eq!(ready >> want.len(), 0, "{:?}", decoder);
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// Every decoder the CPU has: exactly the numbers of 1 to 4 digits
        /// that end in the block (before a separator) are decoded, with
        /// their values, numbered in order of their starts.
        #[test]
        fn decode_matches_the_definition(
            bytes in proptest::collection::vec(
                prop_oneof![3 => b'0'..=b'9', 1 => Just(b' '), 1 => Just(b'\n')],
                64,
            ),
            next in prop_oneof![Just(b' '), Just(b'7'), any::<u8>()],
        ) {
            check_decoders(&bytes.try_into().unwrap(), next)?;
        }

        /// Numbers of every length, short ones most often, with single
        /// separators (the most numbers in a block).
        #[test]
        fn decode_matches_the_definition_on_dense_blocks(
            lengths in proptest::collection::vec(prop_oneof![4 => 1usize..=4, 1 => 5usize..=9], 40),
            digits in proptest::collection::vec(b'0'..=b'9', 64),
            lead in 0usize..3,
            next in prop_oneof![Just(b' '), Just(b'7'), Just(b'x')],
        ) {
            let mut block = [b' '; 64];
            let mut i = lead;
            for len in lengths {
                for _ in 0..len {
                    if i < 64 {
                        block[i] = digits[i];
                    }
                    i += 1;
                }
                i += 1;
            }
            check_decoders(&block, next)?;
        }
    }

    #[test]
    fn decode_every_number_of_up_to_four_digits() {
        // Each value, with and without leading zeros, at every place that
        // matters in a 16-byte part and across parts.
        for v in 0..10_000u32 {
            for width in 1..=4 {
                let text = format!("{v:0width$}");
                if text.len() > 4 {
                    continue;
                }
                for at in [0, 5, 13, 14, 15, 29, 60] {
                    let mut block = [b' '; 64];
                    block[at..at + text.len()].copy_from_slice(text.as_bytes());
                    check_decoders(&block, b' ').unwrap();
                }
            }
        }
    }

    /// The three leaves say what std's detection says.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn cpu_detection_agrees_with_std() {
        use std::arch::is_x86_feature_detected as has;
        let want =
            if has!("avx512f") && has!("avx512bw") && has!("avx512vbmi") && has!("avx512vbmi2") {
                Decoder::Avx512
            } else if has!("avx2") && has!("popcnt") {
                Decoder::Avx2
            } else {
                Decoder::Portable
            };
        assert_eq!(cpu_decoder(), want);
    }

    #[test]
    fn the_variable_lowers_the_decoder() {
        assert_eq!(Decoder::allowed(None), Decoder::Avx512);
        assert_eq!(Decoder::allowed(Some(b"")), Decoder::Avx512);
        assert_eq!(Decoder::allowed(Some(b"avx512")), Decoder::Avx512);
        assert_eq!(Decoder::allowed(Some(b"avx2")), Decoder::Avx2);
        assert_eq!(Decoder::allowed(Some(b"portable")), Decoder::Portable);
        assert_eq!(Decoder::allowed(Some(b"sse")), Decoder::Avx512);
    }

    #[test]
    fn every_byte_value() {
        for b in 0..=255u8 {
            let block = [b; 64];
            let (d, s) = classify(&block);
            assert_eq!(d, if b.is_ascii_digit() { u64::MAX } else { 0 }, "{b}");
            assert_eq!(
                s,
                if matches!(b, b' ' | 9..=13) {
                    u64::MAX
                } else {
                    0
                },
                "{b}"
            );
        }
    }
}
