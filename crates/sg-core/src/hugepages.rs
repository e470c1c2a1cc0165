//! Large arrays backed by transparent huge pages where the kernel allows.
//!
//! The engine's arrays (CSR offsets and targets, values) are read at random
//! positions. With 4 KiB pages nearly every such read of a large graph also
//! misses the TLB; asking Linux for 2 MiB pages (`MADV_HUGEPAGE`) removes
//! most of those misses. Elsewhere, or if the kernel says no, this is a
//! plain `vec![value; len]`.

/// Below this many bytes, huge pages are not worth asking for.
const MIN_BYTES: usize = 8 << 20;
const HUGE_PAGE: usize = 2 << 20;

/// `vec![value; len]`, advising the kernel to use huge pages for it.
pub(crate) fn filled_vec<T: Copy>(len: usize, value: T) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(len);
    advise_huge(&mut v);
    v.resize(len, value);
    v
}

#[cfg(target_os = "linux")]
fn advise_huge<T>(v: &mut Vec<T>) {
    let bytes = v.capacity() * std::mem::size_of::<T>();
    if bytes < MIN_BYTES {
        return;
    }
    let start = (v.as_mut_ptr() as usize).next_multiple_of(HUGE_PAGE);
    let end = (v.as_mut_ptr() as usize + bytes) & !(HUGE_PAGE - 1);
    if end > start {
        // SAFETY: [start, end) lies inside the vector's own allocation of
        // `bytes` bytes, which nothing else uses yet (its length is 0), and
        // MADV_HUGEPAGE is only advice: it changes neither the contents nor
        // the validity of the memory. The result is ignored on purpose: a
        // kernel without huge pages simply keeps small ones.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge<T>(_: &mut Vec<T>) {}
