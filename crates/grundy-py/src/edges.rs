//! The edges of a graph as the module accepts them (`graph`,
//! `node_kayles`): a list of pairs, an `(m, 2)` integer array, or any
//! object with `.edges()` (a networkx graph, without networkx being a
//! dependency), each endpoint a node `0..n`, checked with the command's
//! message for a node out of range.

use numpy::{PyArray2, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyInt, PyList, PyString, PyTuple};
use sg_solve::InputErrorKind;

use crate::args::{Few, Items, few_items, known_len, too_many, type_name};
use crate::errors::value_error;

/// How many edges a function reads: `listed` from an iterable (a list
/// of pairs, a graph's `.edges()`), `array` from an `(m, 2)` array.
#[derive(Clone, Copy)]
pub(crate) struct EdgeLimits {
    pub(crate) listed: usize,
    pub(crate) array: usize,
}

/// The edges of `obj` (named `name` in messages), each endpoint below `n`,
/// at most `limits` of them (a `ValueError` "`name`: more than N edges").
pub(crate) fn edge_list(
    obj: &Bound<'_, PyAny>,
    name: &str,
    n: u64,
    limits: EdgeLimits,
) -> PyResult<Vec<(u32, u32)>> {
    let py = obj.py();
    let ndarray = py.import("numpy")?.getattr("ndarray")?;
    if obj.is_instance(&ndarray)? {
        return array_edges(obj.cast::<PyUntypedArray>()?, name, n, limits.array);
    }
    let is_sequence = obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>();
    let from_graph = !is_sequence && obj.hasattr("edges")?;
    let edges = if from_graph {
        obj.call_method0("edges")?
    } else {
        obj.clone()
    };
    if edges.is_instance_of::<PyString>() {
        return Err(shape_error(name, "str"));
    }
    let iter = match Items::new(&edges, name, "edges", limits.listed) {
        Ok(iter) => iter,
        Err(e) if e.is_instance_of::<PyTypeError>(py) => {
            return Err(shape_error(name, &type_name(&edges)));
        }
        Err(e) => return Err(e),
    };
    let mut out = Vec::with_capacity(known_len(&edges).unwrap_or(0).min(limits.listed));
    for (i, pair) in iter.enumerate() {
        let pair = pair?;
        let not_pair = || {
            PyTypeError::new_err(format!(
                "{name}[{i}] must be a pair of nodes, not {}",
                type_name(&pair)
            ))
        };
        if pair.is_instance_of::<PyString>() {
            return Err(not_pair());
        }
        // At most three ends are read: a pair that never ends is no pair.
        // A networkx multigraph's edges() are pairs too; a data view
        // gives triples (u, v, data): the first two are the edge.
        let ends = match few_items(&pair, 3)? {
            Few::NotIterable => return Err(not_pair()),
            Few::Items(ends) if ends.len() == 2 => ends,
            Few::Items(mut ends) if ends.len() == 3 && from_graph => {
                ends.truncate(2);
                ends
            }
            Few::Items(ends) => {
                return Err(value_error(format!(
                    "{name}[{i}] must be a pair of nodes, not {} items",
                    ends.len()
                )));
            }
            Few::TooMany(count) => {
                return Err(value_error(format!(
                    "{name}[{i}] must be a pair of nodes, not {count}"
                )));
            }
        };
        let hint = if from_graph {
            " (number the nodes 0..n-1 first, e.g. with \
             networkx.convert_node_labels_to_integers)"
        } else {
            ""
        };
        let node = |end: &Bound<'_, PyAny>| match quick_node(end, n) {
            Some(node) => Ok(node),
            None => node_of(end, &format!("{name}[{i}]"), n, hint),
        };
        out.push((node(&ends[0])?, node(&ends[1])?));
    }
    Ok(out)
}

/// The edges of an `(m, 2)` integer array, at most `limit` of them.
fn array_edges(
    array: &Bound<'_, PyUntypedArray>,
    name: &str,
    n: u64,
    limit: usize,
) -> PyResult<Vec<(u32, u32)>> {
    let shape = array.shape().to_vec();
    if array.len() == 0 && (shape.len() == 1 || shape.len() == 2) {
        return Ok(Vec::new());
    }
    let kind: String = array.dtype().getattr("kind")?.extract()?;
    if shape.len() != 2 || shape[1] != 2 || !(kind == "i" || kind == "u") {
        return Err(value_error(format!(
            "{name} must be pairs of nodes: an (m, 2) integer array, not an array of shape \
             {shape:?} and dtype {}",
            array.dtype()
        )));
    }
    if shape[0] > limit {
        return Err(too_many(name, "edges", limit));
    }
    let numpy = array.py().import("numpy")?;
    let wide = numpy
        .getattr("ascontiguousarray")?
        .call1((array, if kind == "u" { "uint64" } else { "int64" }))?;
    let mut out = Vec::with_capacity(shape[0]);
    let mut push = |i: usize, u: i128, v: i128| -> PyResult<()> {
        let node = |x| checked_node(x, n).map_err(|why| value_error(format!("{name}[{i}]: {why}")));
        out.push((node(u)?, node(v)?));
        Ok(())
    };
    if kind == "u" {
        let wide = wide.cast_into::<PyArray2<u64>>()?;
        let view = wide.readonly();
        for (i, pair) in view.as_slice()?.chunks_exact(2).enumerate() {
            push(i, pair[0].into(), pair[1].into())?;
        }
    } else {
        let wide = wide.cast_into::<PyArray2<i64>>()?;
        let view = wide.readonly();
        for (i, pair) in view.as_slice()?.chunks_exact(2).enumerate() {
            push(i, pair[0].into(), pair[1].into())?;
        }
    }
    Ok(out)
}

/// `value` as a node of a graph of `n` nodes, or the command's message.
pub(crate) fn checked_node(value: i128, n: u64) -> Result<u32, String> {
    if (0..i128::from(n)).contains(&value) {
        return Ok(value as u32);
    }
    let node_count = usize::try_from(n).unwrap_or(usize::MAX);
    Err(match u64::try_from(value) {
        Ok(node) => InputErrorKind::NodeOutOfRange { node, node_count }.to_string(),
        Err(_) => out_of_range(&value.to_string(), n),
    })
}

/// The message for the node `shown` (not a `u64`), out of a graph of `n`
/// nodes.
fn out_of_range(shown: &str, n: u64) -> String {
    match n {
        0 => format!("node {shown} is out of range (the graph has no nodes)"),
        n => format!("node {shown} is out of range (nodes are 0..={})", n - 1),
    }
}

/// `obj` as a node of a graph of `n` nodes if it is a plain `int` in
/// range (read without making its name for a message); `None` otherwise,
/// for [`node_of`] to say why.
pub(crate) fn quick_node(obj: &Bound<'_, PyAny>, n: u64) -> Option<u32> {
    let value = obj.cast::<PyInt>().ok()?.extract::<u64>().ok()?;
    (value < n).then_some(value as u32)
}

/// `obj` as a node of a graph of `n` nodes, named `name` in messages
/// (`edges[3]`, `tokens[0]`), `hint` added to the message for a node that
/// is not an integer: a `TypeError` for a float or a non-integer, a
/// `ValueError` for a node out of range, however large (never an
/// `OverflowError`).
pub(crate) fn node_of(obj: &Bound<'_, PyAny>, name: &str, n: u64, hint: &str) -> PyResult<u32> {
    let py = obj.py();
    let not_integer = || {
        PyTypeError::new_err(format!(
            "{name}: a node must be an integer, not {}{hint}",
            type_name(obj)
        ))
    };
    if obj.is_instance_of::<PyFloat>() {
        return Err(not_integer());
    }
    let value = match obj.extract::<i128>() {
        Ok(value) => value,
        Err(e) if e.is_instance_of::<PyTypeError>(py) => return Err(not_integer()),
        Err(e) if e.is_instance_of::<PyOverflowError>(py) => {
            let shown = crate::args::short_int(obj)?;
            return Err(value_error(format!("{name}: {}", out_of_range(&shown, n))));
        }
        Err(e) => return Err(e),
    };
    checked_node(value, n).map_err(|why| value_error(format!("{name}: {why}")))
}

fn shape_error(name: &str, found: &str) -> PyErr {
    PyTypeError::new_err(format!(
        "{name} must be a list of pairs of nodes, an (m, 2) integer array or a graph with \
         .edges(), not {found}"
    ))
}
