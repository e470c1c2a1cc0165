//! 64-byte aligned bytes: an owned buffer ([`AlignedBytes`]) and a wrapper
//! for statics ([`AlignAs`], as in regex-automata's `util/wire.rs`).
//!
//! Why: the format promises that a payload sits at a 64-byte aligned
//! address (a multiple of 64 in the file, and a file read, mapped or
//! compiled in at an aligned address), so that a typed view may read a
//! payload of entries wider than a byte in place, as a `&[u16]` or
//! `&[u64]`, or by whole cache lines. Which views need it: the octal
//! sequence reads its `u16` values in place; the others
//! ([`RowTable`](crate::RowTable), [`KnightTable`](crate::KnightTable),
//! the knight pattern, the octal catalogue and the Cram endgame) read
//! bytes.

use std::ops::Deref;

/// A zero-sized type with an alignment of 64 bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Align64;

/// `bytes` placed at an address aligned like `A`: with `A = Align64`,
/// `include_bytes!` data can be read as a table in place.
///
/// ```
/// use sg_tables::aligned::{Align64, AlignAs};
/// static DATA: &AlignAs<Align64, [u8]> = &AlignAs { _align: [], bytes: *b"abc" };
/// assert_eq!(DATA.bytes.as_ptr() as usize % 64, 0);
/// ```
#[derive(Debug)]
#[repr(C)]
pub struct AlignAs<A, B: ?Sized> {
    /// No data, only the alignment of `A`.
    pub _align: [A; 0],
    /// The aligned bytes.
    pub bytes: B,
}

/// One 64-byte block of an [`AlignedBytes`] buffer.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
struct Block([u8; 64]);

/// An owned byte buffer that starts at a 64-byte aligned address.
#[derive(Debug, Clone)]
pub struct AlignedBytes {
    blocks: Vec<Block>,
    len: usize,
}

impl AlignedBytes {
    /// `len` zero bytes.
    pub fn zeroed(len: usize) -> Self {
        Self {
            blocks: vec![Block([0; 64]); len.div_ceil(64)],
            len,
        }
    }

    /// `len` zero bytes, or `None` if the memory cannot be had (instead of
    /// aborting, as [`zeroed`](Self::zeroed) does).
    pub fn try_zeroed(len: usize) -> Option<Self> {
        let mut blocks = Vec::new();
        blocks.try_reserve_exact(len.div_ceil(64)).ok()?;
        blocks.resize(len.div_ceil(64), Block([0; 64]));
        Some(Self { blocks, len })
    }

    /// A copy of `bytes`.
    pub fn copy_from(bytes: &[u8]) -> Self {
        let mut out = Self::zeroed(bytes.len());
        out.as_mut_slice().copy_from_slice(bytes);
        out
    }

    /// The bytes.
    pub fn as_slice(&self) -> &[u8] {
        // SAFETY: `blocks` is `len.div_ceil(64)` initialised `Block`s of 64
        // bytes each with no padding (`[u8; 64]`, size 64, align 64), so its
        // first `len` bytes are initialised `u8`s inside one allocation,
        // borrowed for as long as `self`.
        unsafe { std::slice::from_raw_parts(self.blocks.as_ptr().cast::<u8>(), self.len) }
    }

    /// The bytes, mutably.
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: as in `as_slice`; `&mut self` makes the borrow unique.
        unsafe { std::slice::from_raw_parts_mut(self.blocks.as_mut_ptr().cast::<u8>(), self.len) }
    }
}

impl Deref for AlignedBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_slice()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_are_aligned() {
        for len in [0, 1, 63, 64, 65, 1000] {
            let b = AlignedBytes::copy_from(&vec![7u8; len]);
            assert_eq!(b.len(), len);
            assert!(b.iter().all(|&x| x == 7));
            assert_eq!(b.as_ptr() as usize % 64, 0);
        }
    }
}
