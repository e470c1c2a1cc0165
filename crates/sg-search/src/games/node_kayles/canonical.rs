//! Canonical forms of Node-Kayles components, and the symmetric losses
//! found with them: by the symmetries of a grid, or by the automorphisms
//! of another graph.

use super::NodeKayles;
use crate::bits::Bits;

/// How canonical forms are made.
#[derive(Clone, Debug)]
pub(super) enum Symmetry<B> {
    /// The `rows x cols` grid numbered `r * cols + c`; `column` is its
    /// column 0, `diagonal` its cells `(i, i)`.
    Grid {
        rows: u32,
        cols: u32,
        column: B,
        diagonal: B,
    },
    /// The automorphisms other than the identity.
    Images(Vec<Image<B>>),
}

/// An automorphism other than the identity, and for an involution the
/// vertices it maps into their own closed neighbourhood (a set it maps
/// onto itself and that avoids them is a loss: see the module
/// documentation).
#[derive(Clone, Debug)]
pub(super) struct Image<B> {
    pub(super) table: ImageTable<B>,
    pub(super) mirror_blocked: Option<B>,
}

/// The image of a set of vertices under a permutation, by bytes: entry
/// `[k][b]` is the image of the set `b << 8k`.
#[derive(Clone, Debug)]
pub(super) struct ImageTable<B> {
    bytes: Vec<[B; 256]>,
}

impl<B: Bits> ImageTable<B> {
    pub(super) fn new(permutation: &[u32]) -> Self {
        let bytes = (0..permutation.len().div_ceil(8))
            .map(|k| {
                let mut table = [B::ZERO; 256];
                for (byte, image) in table.iter_mut().enumerate() {
                    for bit in 0..8 {
                        let v = 8 * k + bit;
                        if byte >> bit & 1 == 1 && v < permutation.len() {
                            *image |= B::ONE << permutation[v];
                        }
                    }
                }
                table
            })
            .collect();
        ImageTable { bytes }
    }

    #[inline]
    fn image(&self, set: B) -> B {
        let mut image = B::ZERO;
        for (k, table) in self.bytes.iter().enumerate() {
            let byte = (set >> (8 * k as u32)).low_u64() & 0xff;
            image |= table[byte as usize];
        }
        image
    }
}

impl<B: Bits> NodeKayles<B> {
    /// Bit `cols * r + c` of a grid shape, rows of `cols` bits: the
    /// shape moved to the top left corner, with its height and width.
    #[inline]
    fn normalize(shape: B, cols: u32) -> (B, u32, u32) {
        let top = shape.trailing_zeros() / cols;
        let shape = shape >> (top * cols);
        let height = (B::BITS - 1 - shape.leading_zeros()) / cols + 1;
        let row = low_bits::<B>(cols);
        let mut columns = B::ZERO;
        for r in 0..height {
            columns |= (shape >> (r * cols)) & row;
        }
        let left = columns.trailing_zeros();
        let width = B::BITS - columns.leading_zeros() - left;
        (shape >> left, height, width)
    }

    /// A normalized grid shape with its columns reversed.
    #[inline]
    fn mirrored(shape: B, height: u32, width: u32, cols: u32) -> B {
        let mut image = B::ZERO;
        for r in 0..height {
            // The row's `width` low bits, reversed (the bits above are
            // shifted out).
            let reversed = ((shape >> (r * cols)) << (B::BITS - width)).reverse_bits();
            image |= reversed << (r * cols);
        }
        image
    }

    /// A normalized grid shape upside down.
    #[inline]
    fn upside_down(shape: B, height: u32, width: u32, cols: u32) -> B {
        let row = low_bits::<B>(width);
        let mut image = B::ZERO;
        for r in 0..height {
            image |= ((shape >> (r * cols)) & row) << ((height - 1 - r) * cols);
        }
        image
    }

    /// A normalized grid shape transposed (row `r`, column `c` to row
    /// `c`, column `r`); it must fit (`width <= rows`, `height <= cols`).
    fn transposed(shape: B, cols: u32) -> B {
        let mut image = B::ZERO;
        let mut rest = shape;
        while rest != B::ZERO {
            let bit = rest.trailing_zeros();
            rest = rest.without_lowest();
            image |= B::ONE << ((bit % cols) * cols + bit / cols);
        }
        image
    }

    /// The canonical form of a nonempty set of vertices, and whether it is
    /// a symmetric loss (see the module documentation).
    pub(super) fn examine(&self, set: B) -> (B, bool) {
        match &self.symmetry {
            &Symmetry::Grid {
                rows,
                cols,
                column,
                diagonal,
            } => {
                let (shape, height, width) = Self::normalize(set, cols);
                let mirror = Self::mirrored(shape, height, width, cols);
                let flipped = Self::upside_down(shape, height, width, cols);
                let turned = Self::upside_down(mirror, height, width, cols);
                let mut best = shape.min(mirror).min(flipped).min(turned);
                let row = |r: u32| (shape >> (r * cols)) & low_bits::<B>(width);
                let col = |c: u32| (shape >> c) & column;
                let (mid_row, mid_col) = (height / 2, width / 2);
                // Mirrored (columns reversed): nothing on the middle column,
                // or no row holding both middle cells.
                let mut loss = mirror == shape
                    && if width % 2 == 1 {
                        col(mid_col) == B::ZERO
                    } else {
                        col(mid_col - 1) & col(mid_col) == B::ZERO
                    };
                // Upside down: the same with rows.
                loss = loss
                    || flipped == shape
                        && if height % 2 == 1 {
                            row(mid_row) == B::ZERO
                        } else {
                            row(mid_row - 1) & row(mid_row) == B::ZERO
                        };
                // A half turn: not the central cell, nor both central
                // cells of the middle row or column.
                loss = loss
                    || turned == shape
                        && match (height % 2, width % 2) {
                            (1, 1) => !shape.has(mid_row * cols + mid_col),
                            (1, 0) => {
                                !(shape.has(mid_row * cols + mid_col - 1)
                                    && shape.has(mid_row * cols + mid_col))
                            }
                            (0, 1) => {
                                !(shape.has((mid_row - 1) * cols + mid_col)
                                    && shape.has(mid_row * cols + mid_col))
                            }
                            _ => true,
                        };
                if width <= rows && height <= cols && (height > 1 || width > 1) {
                    let transposed = Self::transposed(shape, cols);
                    let transposed_mirror = Self::mirrored(transposed, width, height, cols);
                    let anti = Self::upside_down(transposed_mirror, width, height, cols);
                    best = best
                        .min(transposed)
                        .min(transposed_mirror)
                        .min(Self::upside_down(transposed, width, height, cols))
                        .min(anti);
                    if height == width {
                        // About the diagonal: nothing on it; about the
                        // other diagonal (a transposition and a half turn):
                        // nothing on that one.
                        let other = (0..width)
                            .fold(B::ZERO, |set, i| set | B::ONE << (i * cols + width - 1 - i));
                        loss = loss
                            || transposed == shape && shape & diagonal == B::ZERO
                            || anti == shape && shape & other == B::ZERO;
                    }
                }
                (best, loss)
            }
            Symmetry::Images(images) => {
                let mut best = set;
                let mut loss = false;
                for image in images {
                    let moved = image.table.image(set);
                    best = best.min(moved);
                    loss = loss
                        || moved == set
                            && image
                                .mirror_blocked
                                .is_some_and(|blocked| set & blocked == B::ZERO);
                }
                // When the automorphisms found are not the whole group
                // (not closed under composition), the smallest image may
                // have smaller images still: go on down to a set that has
                // none, so that the canonical form is its own.
                if !self.automorphisms_complete {
                    loop {
                        let lower = images
                            .iter()
                            .map(|image| image.table.image(best))
                            .fold(best, B::min);
                        if lower == best {
                            break;
                        }
                        best = lower;
                    }
                }
                (best, loss)
            }
        }
    }
}

/// The set `{0, ..., width - 1}` (`width` at least 1).
#[inline]
fn low_bits<B: Bits>(width: u32) -> B {
    B::ALL >> (B::BITS - width)
}
