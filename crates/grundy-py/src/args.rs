//! The arguments every function shares, read with the module's rules: an
//! integer is a Python `int` (or any object with `__index__`, such as a
//! numpy integer; never a float), and one out of its range is a
//! `ValueError` naming the argument and the range (never an
//! `OverflowError`); a size in bytes is an integer or the command's text
//! (`"512M"`); a thread count is capped at the CPUs, as the command caps it.

use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyFloat, PyString};
use std::path::PathBuf;

use crate::errors::value_error;

/// The name of the type of `obj`, for a message (`float`, `list`).
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

/// `obj` as an integer from `min` to `max`, named `name` in messages.
pub(crate) fn int_in(obj: &Bound<'_, PyAny>, name: &str, min: u64, max: u64) -> PyResult<u64> {
    if obj.is_instance_of::<PyFloat>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an integer, not float ({})",
            sg_text::quote(&obj.repr()?.to_string_lossy())
        )));
    }
    // "at most" only for a number too large: a negative one is told the
    // whole range ("heaps[0] must be at most 9223372036854775807, not -1"
    // would be no help).
    let range = |too_large: bool| match min {
        0 if too_large => format!("{name} must be at most {max}"),
        _ => format!("{name} must be from {min} to {max}"),
    };
    match obj.extract::<i128>() {
        Ok(value) if value >= i128::from(min) && value <= i128::from(max) => Ok(value as u64),
        Ok(value) => Err(value_error(format!("{}, not {value}", range(value > 0)))),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
            let too_large = obj.gt(0)?;
            Err(value_error(format!(
                "{}, not {}",
                range(too_large),
                short_int(obj)?
            )))
        }
        Err(e) if e.is_instance_of::<PyTypeError>(obj.py()) => Err(PyTypeError::new_err(format!(
            "{name} must be an integer, not {}",
            type_name(obj)
        ))),
        Err(e) => Err(e),
    }
}

/// A huge integer for a message: its digits, cut in the middle.
pub(crate) fn short_int(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let text = obj.str()?.to_string_lossy().into_owned();
    Ok(if text.len() > 40 {
        format!(
            "{}...{} ({} digits)",
            &text[..12],
            &text[text.len() - 12..],
            text.len()
        )
    } else {
        text
    })
}

/// An optional integer argument (`None`: absent).
pub(crate) fn opt_int_in(
    obj: Option<&Bound<'_, PyAny>>,
    name: &str,
    min: u64,
    max: u64,
) -> PyResult<Option<u64>> {
    match obj {
        Some(obj) if !obj.is_none() => int_in(obj, name, min, max).map(Some),
        _ => Ok(None),
    }
}

/// The most threads a function accepts (the command's `--threads` limit).
pub(crate) const MAX_THREADS: u64 = 1024;

/// The threads to run for `threads=` (`None`: `default`): from 1 to
/// [`MAX_THREADS`], then at most one per CPU this process may run on
/// (more only take turns on the same cores).
pub(crate) fn threads(obj: Option<&Bound<'_, PyAny>>, default: Option<usize>) -> PyResult<usize> {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    Ok(match opt_int_in(obj, "threads", 1, MAX_THREADS)? {
        Some(asked) => (asked as usize).min(cpus),
        None => default.unwrap_or(cpus).min(cpus),
    })
}

/// `memory=`: the most bytes a search's table may take, an integer or a
/// size as the command writes it (`"512M"`, `"2G"`); `None`: a quarter of
/// the machine's memory, as the command.
pub(crate) fn memory(obj: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    let bytes = match obj {
        None => sg_solve::machine::default_table_memory(),
        Some(obj) if obj.is_none() => sg_solve::machine::default_table_memory(),
        Some(obj) if obj.is_instance_of::<PyString>() => {
            let text = obj.extract::<String>()?;
            sg_solve::numbers::parse_size(&text)
                .map_err(|why| value_error(format!("memory={}: {why}", sg_text::quote(&text))))?
        }
        Some(obj) => int_in(obj, "memory", 1, u64::MAX)?,
    };
    Ok(usize::try_from(bytes).unwrap_or(usize::MAX))
}

/// A path argument: a `str` or an `os.PathLike` (never bytes: a path is
/// shown in messages).
pub(crate) fn path(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<PathBuf> {
    let fspath = obj.py().import("os")?.getattr("fspath")?;
    let text = fspath.call1((obj,)).map_err(|_| {
        PyTypeError::new_err(format!(
            "{name} must be a path (str or os.PathLike), not {}",
            type_name(obj)
        ))
    })?;
    if !text.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be a path given as text, not bytes"
        )));
    }
    // As Python's `open` takes it: a name that is not UTF-8 (surrogate
    // escapes, as `os.listdir` gives it) is the file's bytes.
    let text: std::ffi::OsString = text.extract()?;
    if text.to_string_lossy().contains('\0') {
        return Err(value_error(format!(
            "{name}: a path cannot contain a NUL byte"
        )));
    }
    Ok(PathBuf::from(text))
}

/// How many items of a sequence are read between two checks of the
/// signals.
const CHECK_SIGNALS_EVERY: usize = 1 << 16;

/// A sequence of integers (a list, a tuple, a numpy array, any iterable)
/// each from `min` to `max`, named `name[i]` in messages; at most `limit`
/// of them.
pub(crate) fn ints_in(
    obj: &Bound<'_, PyAny>,
    name: &str,
    min: u64,
    max: u64,
    limit: usize,
) -> PyResult<Vec<u64>> {
    // Text and bytes are sequences too, but never of the integers meant
    // (`b"5"` is the integer 53).
    if obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>()
    {
        return Err(PyTypeError::new_err(format!(
            "{name} must be a sequence of integers, not {}",
            type_name(obj)
        )));
    }
    let iter = obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "{name} must be a sequence of integers, not {}",
            type_name(obj)
        ))
    })?;
    let mut out = Vec::new();
    for (i, item) in iter.enumerate() {
        // An endless iterator stops on Ctrl-C (it has no other end).
        if i % CHECK_SIGNALS_EVERY == CHECK_SIGNALS_EVERY - 1 {
            obj.py().check_signals()?;
        }
        if i == limit {
            return Err(value_error(format!("{name}: more than {limit} items")));
        }
        out.push(int_in(&item?, &format!("{name}[{i}]"), min, max)?);
    }
    Ok(out)
}
