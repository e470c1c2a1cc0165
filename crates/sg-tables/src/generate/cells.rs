//! A byte buffer shared by the threads of a wavefront: each cell is written
//! by one thread and read by others only after a later barrier.

use std::sync::atomic::{AtomicU8, Ordering};

/// `bytes` as cells that threads can share. Relaxed loads and stores of a
/// byte are plain moves on every common target; the order between a write
/// and a later read is given by the join at the end of each wavefront.
pub(crate) fn as_cells(bytes: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: `AtomicU8` has the same size, alignment and bit validity as
    // `u8` (documented), so the pointer cast keeps a valid slice of the same
    // length; the exclusive borrow `&mut [u8]` guarantees that no one else
    // accesses the bytes, non-atomically, while the returned slice lives
    // (this is what the unstable `AtomicU8::from_mut_slice` does).
    unsafe { &*(std::ptr::from_mut::<[u8]>(bytes) as *const [AtomicU8]) }
}

/// Reads a cell.
#[inline]
pub(crate) fn load(cells: &[AtomicU8], index: usize) -> u8 {
    cells[index].load(Ordering::Relaxed)
}

/// Writes a cell.
#[inline]
pub(crate) fn store(cells: &[AtomicU8], index: usize, value: u8) {
    cells[index].store(value, Ordering::Relaxed);
}
