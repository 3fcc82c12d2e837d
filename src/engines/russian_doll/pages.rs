//! Zeroed tables taken straight from the system's pages, on huge pages where it allows them.
//!
//! The memos are probed at random over hundreds of megabytes: with 4 KiB pages nearly every
//! probe that misses the caches also misses the TLB and walks the page tables. Backed by
//! 2 MiB pages (Linux's transparent huge pages, asked for with `madvise`), the same probe
//! costs one memory access instead of several.

use std::alloc::Layout;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// A type for which all-zero bytes are a valid value.
///
/// # Safety
/// An implementor must be valid when every byte of it is zero.
pub(super) unsafe trait Zeroable {}

// SAFETY: an atomic word of zero bits is the value 0.
unsafe impl Zeroable for std::sync::atomic::AtomicU64 {}

/// The huge page size asked for, and the alignment of tables at least this large.
const HUGE_PAGE: usize = 2 << 20;

/// `len` values of `T`, all zero bytes to start with, in memory of their own: the system
/// hands over its pages zeroed as they are first touched, so a large table costs nothing
/// until it fills, and on Linux a table of 2 MiB or more is aligned to and advised onto
/// huge pages.
pub(super) struct ZeroedTable<T: Zeroable> {
    start: NonNull<T>,
    len: usize,
    /// What was taken from the system, to give back: its start and layout.
    mapping: (NonNull<u8>, Layout),
}

// SAFETY: the table owns its values as a `Vec` would.
unsafe impl<T: Zeroable + Send> Send for ZeroedTable<T> {}
// SAFETY: shared access gives `&[T]` only.
unsafe impl<T: Zeroable + Sync> Sync for ZeroedTable<T> {}

impl<T: Zeroable> ZeroedTable<T> {
    /// A table of `len` zeroed values.
    pub(super) fn new(len: usize) -> Self {
        let layout = Layout::array::<T>(len.max(1)).expect("a memo table fits in memory");
        let (start, mapping) = map_zeroed(layout);
        ZeroedTable {
            start: start.cast(),
            len,
            mapping,
        }
    }
}

impl<T: Zeroable> Deref for ZeroedTable<T> {
    type Target = [T];

    #[inline(always)]
    fn deref(&self) -> &[T] {
        // SAFETY: `start` holds `len` values, valid zeroed (`Zeroable`) or as written since.
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> DerefMut for ZeroedTable<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.start.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for ZeroedTable<T> {
    fn drop(&mut self) {
        // The values are words and tables of words: nothing to drop one by one.
        unmap(self.mapping);
    }
}

/// Zeroed memory for `layout`: its aligned start and the mapping to give back.
#[cfg(target_os = "linux")]
fn map_zeroed(layout: Layout) -> (NonNull<u8>, (NonNull<u8>, Layout)) {
    assert!(layout.align() <= 4096, "a page aligns the table");
    let huge = layout.size() >= HUGE_PAGE;
    // A huge table is mapped one huge page longer, so that it can start on a huge page.
    let bytes = layout.size() + if huge { HUGE_PAGE } else { 0 };
    // SAFETY: a new private anonymous mapping, touching no memory of the program's.
    let base = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            bytes,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if base == libc::MAP_FAILED {
        std::alloc::handle_alloc_error(layout);
    }
    let base = base.cast::<u8>();
    let start = if huge {
        let start = base.wrapping_add(base.align_offset(HUGE_PAGE));
        // SAFETY: the range lies in the mapping just made. Only advice: if the system
        // declines, the table works on small pages.
        unsafe { libc::madvise(start.cast(), layout.size(), libc::MADV_HUGEPAGE) };
        start
    } else {
        base
    };
    let nonnull = |p: *mut u8| NonNull::new(p).expect("mmap never maps page 0 here");
    let mapping = Layout::from_size_align(bytes, 4096).expect("the mapping's layout");
    (nonnull(start), (nonnull(base), mapping))
}

/// Gives back what [`map_zeroed`] took.
#[cfg(target_os = "linux")]
fn unmap((base, mapping): (NonNull<u8>, Layout)) {
    // SAFETY: the mapping made by `map_zeroed`, given back once.
    unsafe { libc::munmap(base.as_ptr().cast(), mapping.size()) };
}

/// Zeroed memory for `layout` from the global allocator (no huge pages asked for).
#[cfg(not(target_os = "linux"))]
fn map_zeroed(layout: Layout) -> (NonNull<u8>, (NonNull<u8>, Layout)) {
    // SAFETY: the layout is not zero-sized (at least one value of a non-empty type).
    let start = unsafe { std::alloc::alloc_zeroed(layout) };
    let start = NonNull::new(start).unwrap_or_else(|| std::alloc::handle_alloc_error(layout));
    (start, (start, layout))
}

/// Gives back what [`map_zeroed`] took.
#[cfg(not(target_os = "linux"))]
fn unmap((start, layout): (NonNull<u8>, Layout)) {
    // SAFETY: allocated by `map_zeroed` with this layout, freed once.
    unsafe { std::alloc::dealloc(start.as_ptr(), layout) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[test]
    fn a_zeroed_table_starts_zero_and_keeps_what_is_written() {
        // Small (one mapping as it is) and huge (aligned to a huge page).
        for len in [1, 1000, 3 << 18] {
            let table = ZeroedTable::<AtomicU64>::new(len);
            assert_eq!(table.len(), len);
            assert!(table.iter().all(|w| w.load(Ordering::Relaxed) == 0));
            for (i, w) in table.iter().enumerate().step_by(511) {
                w.store(i as u64 + 1, Ordering::Relaxed);
            }
            for (i, w) in table.iter().enumerate() {
                let expected = if i % 511 == 0 { i as u64 + 1 } else { 0 };
                assert_eq!(w.load(Ordering::Relaxed), expected);
            }
            if len * 8 >= HUGE_PAGE {
                assert_eq!(table.as_ptr() as usize % HUGE_PAGE, 0);
            }
        }
    }
}
