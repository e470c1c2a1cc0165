//! The arguments every function shares, read with the module's rules: an
//! integer is a Python `int` (or any object with `__index__`, such as a
//! numpy integer; never a float), and one out of its range is a
//! `ValueError` naming the argument and the range (never an
//! `OverflowError`); a size in bytes is an integer or the command's text
//! (`"512M"`); a thread count is capped at the CPUs, as the command caps it.

use pyo3::exceptions::{PyKeyboardInterrupt, PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyFloat, PyInt, PyIterator, PyList, PyString, PyTuple};
use std::path::PathBuf;

use crate::errors::value_error;
use crate::run::Stop;

/// The name of the type of `obj`, for a message (`float`, `list`).
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

/// `obj` as an integer from `min` to `max`, named `name` in messages.
pub(crate) fn int_in(obj: &Bound<'_, PyAny>, name: &str, min: u64, max: u64) -> PyResult<u64> {
    int_told(obj, name, (min, max), (min, max))
}

/// `obj` as an integer of the range `read`, named `name` in messages,
/// which tell the range `told`: the argument's whole range, where a later
/// check gives the command's message to the numbers of `read` outside it
/// (`moves` are read from 0, and 0 gets the command's message, but `-1` is
/// told "from 1 to 1024").
pub(crate) fn int_told(
    obj: &Bound<'_, PyAny>,
    name: &str,
    read: (u64, u64),
    told: (u64, u64),
) -> PyResult<u64> {
    int_of(obj, name, read.0, read.1).map_err(|e| e.into_err(name, told))
}

/// Why an object is not an integer of a range.
pub(crate) enum IntError {
    /// Below the range: the number as shown in a message.
    TooSmall(String),
    /// Above it.
    TooLarge(String),
    /// Not an integer (a `TypeError`), or its `__index__` raised.
    Other(PyErr),
}

impl IntError {
    /// The exception for the argument `name` whose range is `told`.
    pub(crate) fn into_err(self, name: &str, (min, max): (u64, u64)) -> PyErr {
        // "at most" only for a number too large: a negative one is told the
        // whole range ("heaps[0] must be at most 9223372036854775807, not
        // -1" would be no help).
        let (shown, too_large) = match self {
            IntError::TooSmall(shown) => (shown, false),
            IntError::TooLarge(shown) => (shown, true),
            IntError::Other(e) => return e,
        };
        match min {
            0 if too_large => value_error(format!("{name} must be at most {max}, not {shown}")),
            _ => value_error(format!("{name} must be from {min} to {max}, not {shown}")),
        }
    }
}

/// `obj` as an integer from `min` to `max`, or why not (`name` names it in
/// a `TypeError`).
pub(crate) fn int_of(
    obj: &Bound<'_, PyAny>,
    name: &str,
    min: u64,
    max: u64,
) -> Result<u64, IntError> {
    if obj.is_instance_of::<PyFloat>() {
        let shown = obj
            .repr()
            .map(|r| r.to_string_lossy().into_owned())
            .unwrap_or_default();
        return Err(IntError::Other(PyTypeError::new_err(format!(
            "{name} must be an integer, not float ({})",
            sg_text::quote(&shown)
        ))));
    }
    match obj.extract::<i128>() {
        Ok(value) if value >= i128::from(min) && value <= i128::from(max) => Ok(value as u64),
        Ok(value) if value > i128::from(max) => Err(IntError::TooLarge(value.to_string())),
        Ok(value) => Err(IntError::TooSmall(value.to_string())),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
            let too_large = obj.gt(0).map_err(IntError::Other)?;
            let shown = short_int(obj).map_err(IntError::Other)?;
            Err(if too_large {
                IntError::TooLarge(shown)
            } else {
                IntError::TooSmall(shown)
            })
        }
        Err(e) if e.is_instance_of::<PyTypeError>(obj.py()) => Err(IntError::Other(
            PyTypeError::new_err(format!("{name} must be an integer, not {}", type_name(obj))),
        )),
        Err(e) => Err(IntError::Other(e)),
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

/// How many items of an iterable are read between two checkpoints (see
/// [`checkpoint`]): 1024, so that Ctrl-C stops the reading of an endless
/// iterable within milliseconds (within a tenth of a second for an
/// iterator that takes 70 us an item), and a checkpoint (a microsecond)
/// costs little next to the items read.
pub(crate) const CHECK_EVERY: usize = 1024;

/// The most heaps of a sum (`OctalGame.outcome`, `hint`) and tokens of a
/// graph's query (`GraphGame.outcome`, `hint`): 2**24, 128 MiB of numbers
/// read, a second or two of reading.
pub(crate) const MAX_TERMS: usize = 1 << 24;

/// The most moves of a subtraction set and steps of a knight's move set:
/// 65536 (a subtraction set has at most 1024 distinct moves, a move set
/// as many distinct steps as the command reads).
pub(crate) const MAX_MOVES: usize = 1 << 16;

/// A pause in the reading of a user's iterable, every [`CHECK_EVERY`]
/// items: the interpreter is released for a moment (other Python threads
/// run, among them one that would send a signal), the signals are checked
/// on the main thread (Ctrl-C raises `KeyboardInterrupt` there, even in
/// an iterator written in C such as `itertools.repeat`, which runs no
/// bytecode and so never lets the interpreter handle a signal), and the
/// computation's `stop`, if any, is looked at (on the thread of a
/// computation, which never sees the signals: the main thread, waiting
/// for it, does, and requests the stop).
pub(crate) fn checkpoint(py: Python<'_>, stop: Option<&Stop>) -> PyResult<()> {
    py.detach(|| ());
    py.check_signals()?;
    match stop {
        Some(stop) if stop.requested() => Err(PyKeyboardInterrupt::new_err("stopped")),
        _ => Ok(()),
    }
}

/// The items of a user's iterable, read with [`checkpoint`]s, at most
/// `limit` of them: the next one is a `ValueError` "`name`: more than
/// `limit` `unit`" (an iterable whose `len()` says it has more is refused
/// before it is read). The one reader of every iterable argument.
pub(crate) struct Items<'py, 'a> {
    iter: Bound<'py, PyIterator>,
    name: &'a str,
    unit: &'a str,
    limit: usize,
    read: usize,
    failed: bool,
}

impl<'py, 'a> Items<'py, 'a> {
    /// The items of `obj` (a `TypeError` if it is not iterable: the
    /// caller says what it should be), named `name`, at most `limit`
    /// `unit` (`"items"`, `"edges"`).
    pub(crate) fn new(
        obj: &Bound<'py, PyAny>,
        name: &'a str,
        unit: &'a str,
        limit: usize,
    ) -> PyResult<Self> {
        if let Some(len) = known_len(obj)
            && len > limit
        {
            return Err(too_many(name, unit, limit));
        }
        Ok(Items {
            iter: obj.try_iter()?,
            name,
            unit,
            limit,
            read: 0,
            failed: false,
        })
    }
}

/// `len(obj)`, if it says (a list, a range; not an iterator, nor a range
/// too long for `len()`).
pub(crate) fn known_len(obj: &Bound<'_, PyAny>) -> Option<usize> {
    obj.len().ok()
}

/// The `ValueError` for more than `limit` items.
pub(crate) fn too_many(name: &str, unit: &str, limit: usize) -> PyErr {
    value_error(format!("{name}: more than {limit} {unit}"))
}

impl<'py> Iterator for Items<'py, '_> {
    type Item = PyResult<Bound<'py, PyAny>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        if self.read > 0
            && self.read.is_multiple_of(CHECK_EVERY)
            && let Err(e) = checkpoint(self.iter.py(), None)
        {
            self.failed = true;
            return Some(Err(e));
        }
        let item = self.iter.next()?;
        if item.is_err() || self.read == self.limit {
            self.failed = true;
            return Some(item.and(Err(too_many(self.name, self.unit, self.limit))));
        }
        self.read += 1;
        Some(item)
    }
}

/// What a small iterable holds (see [`few_items`]).
pub(crate) enum Few<'py> {
    /// Not an iterable.
    NotIterable,
    /// Its items, at most the most asked for.
    Items(Vec<Bound<'py, PyAny>>),
    /// More: how many, for a message (`"3 items"`; `"more than 2 items"`
    /// for an iterable without a length, read no further).
    TooMany(String),
}

/// The items of a small iterable (a pair of nodes, a step): at most `max`
/// of them are read.
pub(crate) fn few_items<'py>(obj: &Bound<'py, PyAny>, max: usize) -> PyResult<Few<'py>> {
    if let Some(len) = known_len(obj)
        && len > max
    {
        return Ok(Few::TooMany(format!("{len} items")));
    }
    let Ok(iter) = obj.try_iter() else {
        return Ok(Few::NotIterable);
    };
    let mut items = Vec::new();
    for item in iter {
        if items.len() == max {
            return Ok(Few::TooMany(format!("more than {max} items")));
        }
        items.push(item?);
    }
    Ok(Few::Items(items))
}

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
    ints_told(obj, name, (min, max), (min, max), limit)
}

/// [`ints_in`], the items read in the range `read` and told the range
/// `told` (see [`int_told`]).
pub(crate) fn ints_told(
    obj: &Bound<'_, PyAny>,
    name: &str,
    read: (u64, u64),
    told: (u64, u64),
    limit: usize,
) -> PyResult<Vec<u64>> {
    let not_ints = || {
        PyTypeError::new_err(format!(
            "{name} must be a sequence of integers, not {}",
            type_name(obj)
        ))
    };
    // Text and bytes are sequences too, but never of the integers meant
    // (`b"5"` is the integer 53).
    if obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>()
    {
        return Err(not_ints());
    }
    let items = match Items::new(obj, name, "items", limit) {
        Ok(items) => items,
        Err(e) if e.is_instance_of::<PyTypeError>(obj.py()) => return Err(not_ints()),
        Err(e) => return Err(e),
    };
    let mut out = Vec::with_capacity(known_len(obj).unwrap_or(0).min(limit));
    for (i, item) in items.enumerate() {
        let item = item?;
        // A plain int in range is read without naming it (the name is
        // made only for a message).
        let quick = item
            .cast::<PyInt>()
            .ok()
            .and_then(|int| int.extract::<u64>().ok())
            .filter(|v| (read.0..=read.1).contains(v));
        out.push(match quick {
            Some(value) => value,
            None => int_told(&item, &format!("{name}[{i}]"), read, told)?,
        });
    }
    Ok(out)
}

/// Checks the sizes of `obj` before numpy reads it (`numpy.asarray`
/// iterates a sequence to its end in C, holding the interpreter: a
/// `range(10**9)` would take 8 GB and seconds before any check): an
/// object that is not already an array may say at most `outer` items
/// (`len()`), and if it says at most `inner_from` and is a list or a
/// tuple, each of its items at most `inner` (a row of a 2-D table). A
/// `ValueError` naming `name` (or `name[i]`), `note` added, otherwise. An
/// iterator says nothing: numpy makes it one object, refused by the
/// caller.
pub(crate) fn check_array_like(
    obj: &Bound<'_, PyAny>,
    name: &str,
    (outer, inner_from, inner): (usize, usize, usize),
    note: &str,
) -> PyResult<()> {
    let ndarray = obj.py().import("numpy")?.getattr("ndarray")?;
    if obj.is_instance(&ndarray)? {
        return Ok(());
    }
    let Some(len) = known_len(obj) else {
        return Ok(());
    };
    if len > outer {
        return Err(value_error(format!(
            "{name}: more than {outer} items{note}"
        )));
    }
    let listed = obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>();
    if len <= inner_from && listed {
        for (i, item) in obj.try_iter()?.enumerate() {
            let item = item?;
            if item.is_instance_of::<PyString>() || item.is_instance_of::<PyBytes>() {
                continue;
            }
            if known_len(&item).is_some_and(|len| len > inner) {
                return Err(value_error(format!(
                    "{name}[{i}]: more than {inner} items{note}"
                )));
            }
        }
    }
    Ok(())
}
