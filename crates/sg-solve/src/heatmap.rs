//! Grids of Grundy values, as text and as pictures: a PNG heatmap with the
//! losing positions (value 0) in a colour of their own, as the papers on
//! two-dimensional games draw them. Any game whose positions form a
//! rectangle can use it (knights by `(x, y)`, rows by halves of the mask,
//! a sequence cut into lines).

use std::fmt::Write as _;
use std::io::{self, Write as _};

/// The largest side of a grid, in cells.
pub const MAX_GRID_SIDE: usize = 4096;

/// The largest side of a picture, in pixels.
pub const MAX_IMAGE_SIDE: u64 = 16_384;

/// The colour of the losing positions (value 0): crimson, which the colour
/// scale of the other values never reaches.
pub const LOSING_COLOUR: [u8; 3] = [220, 20, 60];

/// Why a grid or a picture cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum HeatmapError {
    /// The grid is empty or larger than [`MAX_GRID_SIDE`] on a side.
    #[error("a grid of {width} x {height} cells: each side must be 1 to {MAX_GRID_SIDE}")]
    GridSize {
        /// Cells across.
        width: usize,
        /// Cells down.
        height: usize,
    },
    /// The picture would be larger than [`MAX_IMAGE_SIDE`] on a side.
    #[error(
        "a picture of {width} x {height} pixels: each side must be at most {MAX_IMAGE_SIDE} (a smaller grid or scale)"
    )]
    ImageSize {
        /// Pixels across.
        width: u64,
        /// Pixels down.
        height: u64,
    },
    /// The PNG encoder failed. (Its error is shown in the message, so it
    /// is not a `source()`: a chain of causes prints each once.)
    #[error("cannot encode the PNG: {0}")]
    Png(png::EncodingError),
    /// Writing the PNG failed.
    #[error("cannot write the PNG: {0}")]
    Write(io::Error),
}

impl From<png::EncodingError> for HeatmapError {
    fn from(e: png::EncodingError) -> Self {
        match e {
            png::EncodingError::IoError(e) => Self::Write(e),
            e => Self::Png(e),
        }
    }
}

/// Checks that a grid of `width` x `height` cells can be made.
pub fn check_grid(width: usize, height: usize) -> Result<(), HeatmapError> {
    if (1..=MAX_GRID_SIDE).contains(&width) && (1..=MAX_GRID_SIDE).contains(&height) {
        Ok(())
    } else {
        Err(HeatmapError::GridSize { width, height })
    }
}

/// The size in pixels of the picture of a grid of `width` x `height`
/// cells, each `scale` pixels on a side, if it is at most
/// [`MAX_IMAGE_SIDE`] on a side (and `scale` is not 0).
pub fn picture_size(width: usize, height: usize, scale: u32) -> Result<(u32, u32), HeatmapError> {
    let pixels = |cells: usize| (cells as u64).saturating_mul(u64::from(scale));
    let (w, h) = (pixels(width), pixels(height));
    if scale == 0 || w > MAX_IMAGE_SIDE || h > MAX_IMAGE_SIDE {
        return Err(HeatmapError::ImageSize {
            width: w,
            height: h,
        });
    }
    Ok((w as u32, h as u32))
}

/// A rectangle of values, row by row: `width` cells across, `height` down.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    width: usize,
    height: usize,
    values: Vec<u32>,
}

impl Grid {
    /// The grid whose cell in column `col` and row `row` is `value(col, row)`;
    /// the first error of `value` stops it.
    pub fn from_fn<E: From<HeatmapError>>(
        width: usize,
        height: usize,
        mut value: impl FnMut(usize, usize) -> Result<u32, E>,
    ) -> Result<Self, E> {
        check_grid(width, height)?;
        let mut values = Vec::with_capacity(width * height);
        for row in 0..height {
            for col in 0..width {
                values.push(value(col, row)?);
            }
        }
        Ok(Self {
            width,
            height,
            values,
        })
    }

    /// Cells across.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Cells down.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The value in column `col` and row `row`.
    pub fn get(&self, col: usize, row: usize) -> u32 {
        assert!(col < self.width && row < self.height, "outside the grid");
        self.values[row * self.width + col]
    }

    /// The rows, top to bottom.
    pub fn rows(&self) -> impl Iterator<Item = &[u32]> {
        self.values.chunks(self.width)
    }

    /// The grid as text: one line per row, the values right-aligned in
    /// columns separated by a space.
    pub fn to_text(&self) -> String {
        let cell = self.values.iter().max().map_or(1, |m| m.to_string().len());
        let mut text = String::new();
        for row in self.rows() {
            for (i, v) in row.iter().enumerate() {
                let sep = if i == 0 { "" } else { " " };
                write!(text, "{sep}{v:>cell$}").expect("writing to a String cannot fail");
            }
            text.push('\n');
        }
        text
    }

    /// Writes the grid as a PNG heatmap, each cell a square of `scale`
    /// pixels (so the picture is `width * scale` by `height * scale`, see
    /// [`picture_size`]): losing positions in [`LOSING_COLOUR`], the other
    /// values on a viridis-like scale from dark purple (1) to yellow (the
    /// largest). The picture is encoded line by line: the memory it takes
    /// is one line of pixels, whatever its height.
    pub fn write_png(&self, scale: u32, out: impl io::Write) -> Result<(), HeatmapError> {
        let (w, h) = picture_size(self.width, self.height, scale)?;
        let max = self.values.iter().copied().max().unwrap_or(0);
        let mut encoder = png::Encoder::new(out, w, h);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header()?;
        let mut stream = writer.stream_writer()?;
        let mut line = Vec::with_capacity(3 * w as usize);
        for row in self.rows() {
            line.clear();
            for &value in row {
                let colour = colour(value, max);
                for _ in 0..scale {
                    line.extend_from_slice(&colour);
                }
            }
            for _ in 0..scale {
                stream.write_all(&line).map_err(HeatmapError::Write)?;
            }
        }
        stream.finish()?;
        writer.finish()?;
        Ok(())
    }
}

/// Anchors of the colour scale (viridis at 0, 1/4, 1/2, 3/4 and 1).
const SCALE: [[u8; 3]; 5] = [
    [68, 1, 84],
    [59, 82, 139],
    [33, 145, 140],
    [94, 201, 98],
    [253, 231, 37],
];

/// The colour of `value` in a grid whose largest value is `max`.
pub fn colour(value: u32, max: u32) -> [u8; 3] {
    if value == 0 {
        return LOSING_COLOUR;
    }
    // 1 ..= max onto 0.0 ..= 1.0 (a lone non-zero value is dark).
    let t = if max <= 1 {
        0.0
    } else {
        f64::from(value - 1) / f64::from(max - 1)
    };
    let pos = t * (SCALE.len() - 1) as f64;
    let i = (pos.floor() as usize).min(SCALE.len() - 2);
    let f = pos - i as f64;
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * f).round() as u8;
    let (a, b) = (SCALE[i], SCALE[i + 1]);
    [mix(a[0], b[0]), mix(a[1], b[1]), mix(a[2], b[2])]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_losing_colour_is_not_on_the_scale() {
        for max in [1, 2, 3, 7, 40, 1000] {
            for v in 1..=max {
                assert_ne!(colour(v, max), LOSING_COLOUR, "{v} of {max}");
            }
        }
        assert_eq!(colour(1, 5), SCALE[0]);
        assert_eq!(colour(5, 5), SCALE[4]);
    }

    #[test]
    fn sizes_are_checked() {
        let err = Grid::from_fn(0, 3, |_, _| Ok::<_, HeatmapError>(0)).unwrap_err();
        assert!(matches!(err, HeatmapError::GridSize { .. }), "{err}");
        let grid = Grid::from_fn(100, 2, |c, _| Ok::<_, HeatmapError>(c as u32)).unwrap();
        let err = grid.write_png(200, io::sink()).unwrap_err();
        assert!(err.to_string().contains("20000 x 400 pixels"), "{err}");
        assert!(grid.write_png(0, io::sink()).is_err());
    }

    #[test]
    fn text_is_aligned() {
        let grid = Grid::from_fn(3, 2, |c, r| Ok::<_, HeatmapError>((c * 5 + r) as u32)).unwrap();
        assert_eq!(grid.to_text(), " 0  5 10\n 1  6 11\n");
        assert_eq!(grid.get(2, 1), 11);
    }
}
