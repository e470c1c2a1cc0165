//! A byte buffer shared by the threads of a wavefront: each cell is written
//! by one tile and read only by that tile or by tiles that start after it
//! has finished.

use std::sync::atomic::{AtomicU8, Ordering};

/// `bytes` as cells that threads can share. Relaxed loads and stores of a
/// byte are plain moves on every common target. The order between a write
/// and a read in another tile comes from the wavefront (see `wavefront`):
/// a tile starts only after the tiles before it have finished, through the
/// acquire-release count of its unfinished predecessors; and the end of
/// the `rayon::scope` orders every write before the table is returned.
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
