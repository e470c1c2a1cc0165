//! The progress of a long computation, reported to the caller when asked
//! (`progress=`): a callable gets `(done, total)` (heaps computed of the
//! heaps asked for; positions expanded, and `None`, for a search) about
//! four times a second and once at the end; `progress=True` draws a
//! `tqdm` bar (`grundy._progress`, which needs `tqdm` installed).

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyBool;

/// What a computation reports, and to whom.
pub(crate) struct Progress<'py, 'a> {
    callback: Option<Bound<'py, PyAny>>,
    /// The work done so far (read on the caller's thread while the work
    /// runs on its own).
    poll: &'a (dyn Fn() -> u64 + Sync),
    total: Option<u64>,
    last: Option<u64>,
    /// The callback is the `tqdm` bar of `progress=True`, closed at the end.
    bar: bool,
}

/// Checks `progress=` before any work: `None`, a bool or a callable.
pub(crate) fn check(progress: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
    match progress {
        Some(p) if !p.is_none() && !p.is_instance_of::<PyBool>() && !p.is_callable() => {
            Err(PyTypeError::new_err(format!(
                "progress must be None, True, False or a callable taking (done, total), not {}",
                crate::args::type_name(p)
            )))
        }
        _ => Ok(()),
    }
}

impl<'py, 'a> Progress<'py, 'a> {
    /// No report.
    pub(crate) fn none() -> Self {
        Progress {
            callback: None,
            poll: &|| 0,
            total: None,
            last: None,
            bar: false,
        }
    }

    /// The reports `progress` asks for (`None`, `False`: none; `True`: a
    /// `tqdm` bar describing the work as `what`, counted in `unit`; a
    /// callable), of the work `poll` reads, out of `total` if known.
    pub(crate) fn new(
        py: Python<'py>,
        progress: Option<&Bound<'py, PyAny>>,
        what: &str,
        unit: &str,
        total: Option<u64>,
        poll: &'a (dyn Fn() -> u64 + Sync),
    ) -> PyResult<Self> {
        let callback = match progress {
            None => None,
            Some(p) if p.is_none() => None,
            Some(p) if p.is_instance_of::<PyBool>() => match p.extract::<bool>()? {
                false => None,
                true => Some(
                    py.import("grundy._progress")?
                        .getattr("bar")?
                        .call1((what, unit, total))?,
                ),
            },
            Some(p) if p.is_callable() => Some(p.clone()),
            Some(p) => {
                check(Some(p))?;
                None
            }
        };
        let bar = progress.is_some_and(|p| p.is_instance_of::<PyBool>()) && callback.is_some();
        Ok(Progress {
            callback,
            poll,
            total,
            last: None,
            bar,
        })
    }

    /// Reports the work done, if it changed since the last report.
    pub(crate) fn report(&mut self, py: Python<'py>) -> PyResult<()> {
        let Some(callback) = &self.callback else {
            return Ok(());
        };
        let done = (self.poll)();
        if self.last == Some(done) {
            return Ok(());
        }
        self.last = Some(done);
        let _ = py;
        callback.call1((done, self.total)).map(drop)
    }

    /// The last report, then the end of the reports.
    pub(crate) fn finish(&mut self, py: Python<'py>) -> PyResult<()> {
        let reported = self.report(py);
        self.close(py);
        reported
    }

    /// Ends the reports (closes the `tqdm` bar of `progress=True`).
    pub(crate) fn close(&mut self, py: Python<'py>) {
        if let Some(callback) = self.callback.take()
            && self.bar
            && let Ok(Some(close)) = callback.getattr_opt("close")
            && close.is_callable()
            && let Err(e) = close.call0()
        {
            e.write_unraisable(py, Some(&callback));
        }
    }
}
