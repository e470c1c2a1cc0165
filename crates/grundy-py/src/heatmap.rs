//! `grundy.heatmap`: a grid of values drawn as `grundy knight --png` and
//! `grundy row --png` draw it (`sg_solve::heatmap`: losing positions
//! crimson, the others from dark purple to yellow), shown by Jupyter
//! (`_repr_png_`) and written to a file as the command writes files
//! (`sg_files::safe_write`: a temporary file, flushed to the disk, then
//! renamed; never a device, a FIFO, a link or a read-only file).

use numpy::{PyArray2, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyMemoryError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use sg_files::safe_write::{Destination, WriteError};
use sg_solve::heatmap::{Grid, HeatmapError, MAX_GRID_SIDE, colour, picture_size};
use std::sync::OnceLock;

use crate::args::{check_array_like, int_in, path as path_of};
use crate::errors::{value_error, write_error};

/// The most values a sequence that is not an array may hold: a grid of
/// the largest sides.
const MAX_VALUES: usize = MAX_GRID_SIDE * MAX_GRID_SIDE;

/// The most colours [`Heatmap::plot`] hands matplotlib: one per value up
/// to this many values, samples of the scale beyond.
const PALETTE_MOST: u64 = 1024;

/// The largest side of the picture of the default scale, in pixels.
const DEFAULT_PICTURE: usize = 1024;

/// A heatmap of ``values``: a 2-D array of non-negative integers (row
/// ``i`` drawn as the ``i``-th line from the top), or a 1-D sequence cut
/// into lines of ``width`` values (a last, shorter line is left out; by
/// default the whole sequence is one line). Each value is a square of
/// ``scale`` pixels (1 to 64; by default the largest up to 8 that keeps
/// the picture within 1024 pixels); at most 4096 values and 16384 pixels
/// on a side (a sequence that is not a numpy array: at most 4096 * 4096
/// values in all). Jupyter shows it; ``save(path)`` writes the PNG.
///
/// >>> import grundy
/// >>> h = grundy.heatmap(grundy.knight_grid(range(64), range(64)), scale=4)
/// >>> h.shape, h.size
/// ((64, 64), (256, 256))
/// >>> h.png[:8]
/// b'\x89PNG\r\n\x1a\n'
#[pyfunction]
#[pyo3(signature = (values, *, scale = None, width = None))]
pub(crate) fn heatmap(
    py: Python<'_>,
    values: &Bound<'_, PyAny>,
    scale: Option<&Bound<'_, PyAny>>,
    width: Option<&Bound<'_, PyAny>>,
) -> PyResult<Heatmap> {
    // A sequence is read by numpy to its end: its sizes are checked first.
    let side = MAX_GRID_SIDE;
    let note = format!(" (a heatmap has at most {side} x {side} values)");
    check_array_like(values, "values", (MAX_VALUES, side, side), &note)?;
    let numpy = py.import("numpy")?;
    let array = numpy.getattr("asarray")?.call1((values,)).map_err(|e| {
        if e.is_instance_of::<PyMemoryError>(py) {
            return e;
        }
        PyTypeError::new_err("values must be a 2-D array (or a sequence) of non-negative integers")
    })?;
    let array = array
        .cast_into::<PyUntypedArray>()
        .map_err(|_| PyTypeError::new_err("values must be an array of integers"))?;
    let kind: String = array.dtype().getattr("kind")?.extract()?;
    if array.len() > 0 && !matches!(kind.as_str(), "i" | "u" | "b") {
        return Err(PyTypeError::new_err(format!(
            "values must be integers, not {}",
            array.dtype()
        )));
    }
    let shape = array.shape().to_vec();
    let (rows, cols) = match (shape.as_slice(), width) {
        ([rows, cols], None) => (*rows, *cols),
        ([_, _], Some(w)) if w.is_none() => (shape[0], shape[1]),
        ([_, _], Some(_)) => {
            return Err(value_error(
                "width cuts a 1-D sequence into lines: values is 2-D",
            ));
        }
        ([len], w) => {
            let w = match w {
                Some(w) if !w.is_none() => int_in(w, "width", 1, MAX_GRID_SIDE as u64)? as usize,
                _ => (*len).max(1),
            };
            (len / w, w)
        }
        (shape, _) => {
            return Err(value_error(format!(
                "values must be 1-D or 2-D, not of shape {shape:?}"
            )));
        }
    };
    sg_solve::heatmap::check_grid(cols, rows).map_err(|e| value_error(e.to_string()))?;
    if array.len() > 0 && kind != "b" {
        let min: i128 = array.call_method0("min")?.extract()?;
        let max: i128 = array.call_method0("max")?.extract()?;
        if min < 0 || max > i128::from(u32::MAX) {
            let bad = if min < 0 { min } else { max };
            return Err(value_error(format!(
                "values must be from 0 to {}, not {bad}",
                u32::MAX
            )));
        }
    }
    let flat = numpy
        .getattr("ascontiguousarray")?
        .call1((array.call_method0("ravel")?, "uint32"))?
        .cast_into::<numpy::PyArray1<u32>>()?;
    let flat = flat.readonly();
    let flat = flat.as_slice()?;
    let grid = Grid::from_fn::<HeatmapError>(cols, rows, |c, r| Ok(flat[r * cols + c]))
        .map_err(|e| value_error(e.to_string()))?;
    let scale = match scale {
        Some(s) if !s.is_none() => int_in(s, "scale", 1, 64)? as u32,
        _ => (DEFAULT_PICTURE / rows.max(cols)).clamp(1, 8) as u32,
    };
    picture_size(cols, rows, scale).map_err(|e| value_error(e.to_string()))?;
    Ok(Heatmap {
        grid,
        scale,
        png: OnceLock::new(),
    })
}

/// A heatmap of a grid of values (see :func:`heatmap`).
///
/// >>> import grundy
/// >>> h = grundy.heatmap([[0, 1], [2, 0]], scale=1)
/// >>> h.values.tolist()
/// [[0, 1], [2, 0]]
#[pyclass(frozen, module = "grundy", name = "Heatmap")]
pub(crate) struct Heatmap {
    grid: Grid,
    scale: u32,
    png: OnceLock<Vec<u8>>,
}

/// Why a picture could not be saved.
enum SaveError {
    Write(WriteError),
    Picture(HeatmapError),
}

impl From<WriteError> for SaveError {
    fn from(e: WriteError) -> Self {
        SaveError::Write(e)
    }
}

impl Heatmap {
    fn encoded(&self) -> PyResult<&[u8]> {
        if let Some(png) = self.png.get() {
            return Ok(png);
        }
        let mut png = Vec::new();
        self.grid
            .write_png(self.scale, &mut png)
            .map_err(|e| value_error(e.to_string()))?;
        Ok(self.png.get_or_init(|| png))
    }
}

#[pymethods]
impl Heatmap {
    /// The PNG, for Jupyter.
    fn _repr_png_<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(py, self.encoded()?))
    }

    /// The PNG file's bytes.
    #[getter]
    fn png<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        self._repr_png_(py)
    }

    /// ``(rows, columns)`` of the grid.
    #[getter]
    fn shape(&self) -> (usize, usize) {
        (self.grid.height(), self.grid.width())
    }

    /// ``(width, height)`` of the picture, in pixels.
    #[getter]
    fn size(&self) -> (u64, u64) {
        let side = |cells: usize| cells as u64 * u64::from(self.scale);
        (side(self.grid.width()), side(self.grid.height()))
    }

    /// Pixels on a side of each value's square.
    #[getter]
    fn scale(&self) -> u32 {
        self.scale
    }

    /// The values drawn, as a 2-D ``uint32`` array.
    #[getter]
    fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u32>>> {
        crate::knight::grid_array(py, &self.grid)
    }

    /// Writes the PNG to ``path`` as the command writes files: a new file,
    /// or a regular file that can be written, replaced whole through a
    /// temporary file in the same folder, flushed to the disk and renamed
    /// (a folder, a device, a FIFO, a symbolic link or a read-only file is
    /// refused); an ``OSError`` of the subclass of the cause otherwise.
    ///
    /// >>> import grundy, os, tempfile
    /// >>> path = os.path.join(tempfile.mkdtemp(), "rows.png")
    /// >>> grundy.heatmap(grundy.row_grid(8)).save(path)
    /// >>> open(path, "rb").read(4)
    /// b'\x89PNG'
    fn save(&self, py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<()> {
        let path = path_of(path, "path")?;
        let destination = Destination::check(&path).map_err(write_error)?;
        let saved = py.detach(|| {
            destination.write(|out| match self.png.get() {
                Some(png) => out.write_all(png).map_err(|error| {
                    SaveError::Write(WriteError::Io {
                        path: path.clone(),
                        error,
                    })
                }),
                None => self
                    .grid
                    .write_png(self.scale, out)
                    .map_err(SaveError::Picture),
            })
        });
        match saved {
            Ok(()) => Ok(()),
            Err(SaveError::Write(e)) => Err(write_error(e)),
            Err(SaveError::Picture(e)) => Err(value_error(e.to_string())),
        }
    }

    /// Draws the values with matplotlib (installed apart: ``pip install
    /// matplotlib``), with axes (column, row) and a colour bar of the
    /// values in the colours of the picture (0, a position the player to
    /// move loses, in crimson); on ``ax``, or on a new figure's axes.
    /// Returns the axes. An ``ImportError`` saying what to install when
    /// matplotlib is missing.
    ///
    /// >>> import grundy
    /// >>> ax = grundy.heatmap(grundy.knight_grid(range(8), range(8))).plot()  # doctest: +SKIP
    #[pyo3(signature = (ax = None))]
    fn plot<'py>(
        &self,
        py: Python<'py>,
        ax: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let largest = u64::from(self.grid.rows().flatten().copied().max().unwrap_or(0));
        // Every value when there are few; else 0, then evenly spaced
        // samples from 1 to the largest (each value gets the colour of the
        // first sample at or above it: 0 alone has the colour of 0).
        let samples: Vec<(u64, (f64, f64, f64))> = if largest < PALETTE_MOST {
            (0..=largest).collect::<Vec<u64>>()
        } else {
            std::iter::once(0)
                .chain((0..PALETTE_MOST - 1).map(|k| 1 + k * (largest - 1) / (PALETTE_MOST - 2)))
                .collect()
        }
        .into_iter()
        .map(|value| {
            let [r, g, b] = colour(value as u32, largest as u32);
            let unit = |c: u8| f64::from(c) / 255.0;
            (value, (unit(r), unit(g), unit(b)))
        })
        .collect();
        py.import("grundy._plot")?
            .call_method1("plot_heatmap", (self.values(py)?, samples, ax))
    }

    fn __repr__(&self) -> String {
        let (w, h) = self.size();
        format!(
            "<Heatmap: {} x {} values, {w} x {h} pixels>",
            self.grid.height(),
            self.grid.width()
        )
    }
}
