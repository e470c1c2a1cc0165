//! `grundy.graph`: tokens on a directed graph that may have cycles, as
//! `grundy graph` answers them: the generalized Sprague-Grundy values of
//! Smith, Fraenkel and Yesha (`sg_core::gsg`), `WIN`, `LOSE` or `DRAW` for
//! a sum of tokens, and a winning move that provably ends the game.
//!
//! A graph with more declared nodes than its edges could touch is built
//! on the nodes its edges name (`sg_solve::graph::Nodes`, as the
//! command does): the others have no move and value 0, and memory is
//! bounded by the edges, never by the declared `n`.

use pyo3::exceptions::{PyIndexError, PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PySlice, PyString, PyTuple};
use self_cell::self_cell;
use sg_core::Graph;
use sg_core::gsg::{GValue, GsgValues, Outcome, generalized_grundy};
use sg_solve::graph::Nodes;

use crate::args::{Items, MAX_TERMS, int_in, type_name};
use crate::edges::{EdgeLimits, edge_list, node_of, quick_node};
use crate::errors::value_error;

/// The values of a graph, which borrow it.
type Values<'g> = GsgValues<'g>;

self_cell!(
    /// A graph and its generalized Sprague-Grundy values.
    struct Solved {
        owner: Graph,
        #[covariant]
        dependent: Values,
    }
);

/// The edges `graph` reads: 2**24 listed (a list of pairs, a graph's
/// `.edges()`: 128 MiB of pairs read, a few seconds), the engine's limit
/// (2**32 - 1) from an `(m, 2)` array, which is already in memory.
pub(crate) const GRAPH_EDGES: EdgeLimits = EdgeLimits {
    listed: 1 << 24,
    array: Graph::MAX_EDGES,
};

/// Tokens on a directed graph that may have cycles (a play that never
/// ends is a draw): the generalized Sprague-Grundy values of its nodes,
/// who wins a sum of tokens, and how.
///
/// ``n`` nodes, numbered from 0; ``edges`` the moves ``(u, v)``: a list of
/// pairs, an ``(m, 2)`` integer array, or any graph with ``.edges()`` (a
/// networkx ``DiGraph`` on nodes ``0..n-1``); repeated edges and
/// self-loops are allowed. At most 2**24 edges are read from a list or a
/// graph (an array may hold up to 2**32 - 1), and at most 2**24 tokens
/// from a query: beyond, a ``ValueError``.
///
/// >>> import grundy
/// >>> g = grundy.graph(4, [(0, 1), (1, 0), (1, 2), (3, 3)])
/// >>> g.outcome([0]), g.outcome([1]), g.outcome([3])
/// ('LOSE', 'WIN', 'DRAW')
/// >>> g.hint([1])
/// TokenMove(token=0, from_=1, to=2)
/// >>> list(g.values)
/// [0, 1, 0, Loopy({})]
#[pyfunction]
pub(crate) fn graph(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    edges: &Bound<'_, PyAny>,
) -> PyResult<GraphGame> {
    let declared = int_in(n, "n", 0, Graph::MAX_NODES as u64)? as usize;
    let pairs = edge_list(edges, "edges", declared as u64, GRAPH_EDGES)?;
    let (mut sources, mut targets): (Vec<u32>, Vec<u32>) = pairs.into_iter().unzip();
    // Dense when the declared nodes are few next to the edges (each edge
    // is at least 4 bytes of the command's input), as the command.
    let dense_max = sources.len().saturating_mul(4).max(1 << 16);
    let solved = py.detach(|| {
        let nodes = Nodes::new(declared, dense_max, &mut sources, &mut targets);
        Graph::from_edge_lists(nodes.graph_nodes(), sources, targets)
            .map(|graph| (nodes, Solved::new(graph, generalized_grundy)))
    });
    let (nodes, solved) = solved.map_err(|e| value_error(e.to_string()))?;
    Ok(GraphGame { solved, nodes })
}

/// Tokens on a graph with cycles and their values (see :func:`graph`).
///
/// >>> import grundy
/// >>> g = grundy.graph(3, [(0, 1), (1, 2)])
/// >>> g.value(0), g.outcome([0, 1])
/// (0, 'WIN')
#[pyclass(frozen, module = "grundy", name = "GraphGame")]
pub(crate) struct GraphGame {
    solved: Solved,
    nodes: Nodes,
}

impl GraphGame {
    fn gsg(&self) -> &GsgValues<'_> {
        self.solved.borrow_dependent()
    }

    /// The tokens on nodes with moves, in the graph's numbering, and their
    /// indices in `tokens` (tokens on nodes without moves add nothing).
    fn tokens(&self, tokens: &Bound<'_, PyAny>) -> PyResult<(Vec<u32>, Vec<usize>)> {
        let n = self.nodes.declared() as u64;
        let not_nodes = || {
            PyTypeError::new_err(format!(
                "tokens must be a sequence of nodes, not {}",
                type_name(tokens)
            ))
        };
        if tokens.is_instance_of::<PyString>() {
            return Err(not_nodes());
        }
        let items = match Items::new(tokens, "tokens", "items", MAX_TERMS) {
            Ok(items) => items,
            Err(e) if e.is_instance_of::<PyTypeError>(tokens.py()) => return Err(not_nodes()),
            Err(e) => return Err(e),
        };
        let mut in_graph = Vec::new();
        let mut indices = Vec::new();
        for (i, token) in items.enumerate() {
            let token = token?;
            let node = match quick_node(&token, n) {
                Some(node) => node,
                None => node_of(&token, &format!("tokens[{i}]"), n, "")?,
            };
            if let Some(v) = self.nodes.in_graph(node) {
                in_graph.push(v);
                indices.push(i);
            }
        }
        Ok((in_graph, indices))
    }

    /// The value of the node of the graph `v` (`None`: a node outside
    /// the graph, value 0), as Python sees it.
    fn value_object(&self, py: Python<'_>, v: Option<u32>) -> PyResult<Py<PyAny>> {
        let values = self.gsg();
        Ok(match v.map(|v| (v, values.value(v))) {
            None => 0u32.into_pyobject(py)?.into_any().unbind(),
            Some((_, GValue::Finite(g))) => g.into_pyobject(py)?.into_any().unbind(),
            Some((v, GValue::Infinite)) => Loopy {
                options: values.k_set(v),
            }
            .into_pyobject(py)?
            .into_any()
            .unbind(),
        })
    }
}

#[pymethods]
impl GraphGame {
    /// The nodes of the graph, ``n``.
    #[getter]
    fn n(&self) -> usize {
        self.nodes.declared()
    }

    /// ``'WIN'``, ``'LOSE'`` or ``'DRAW'`` for the player to move, with a
    /// token on each node of ``tokens`` (nodes may repeat).
    fn outcome(&self, tokens: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        let (tokens, _) = self.tokens(tokens)?;
        Ok(match self.gsg().outcome(&tokens) {
            Outcome::Win => "WIN",
            Outcome::Lose => "LOSE",
            Outcome::Draw => "DRAW",
        })
    }

    /// A winning move (a :class:`TokenMove`: the index of the token in
    /// ``tokens``, the node it leaves and the node it moves to), or None
    /// when the player to move does not win. Playing the hinted move every
    /// turn wins in finitely many moves whatever the opponent does.
    ///
    /// >>> import grundy
    /// >>> grundy.graph(3, [(0, 1), (1, 2)]).hint([0, 1])
    /// TokenMove(token=1, from_=1, to=2)
    fn hint(&self, tokens: &Bound<'_, PyAny>) -> PyResult<Option<TokenMove>> {
        let (tokens, indices) = self.tokens(tokens)?;
        let values = self.gsg();
        if values.outcome(&tokens) != Outcome::Win {
            return Ok(None);
        }
        Ok(values.winning_move(&tokens).map(|mv| TokenMove {
            token: indices[mv.token],
            from: self.nodes.input_node(mv.from),
            to: self.nodes.input_node(mv.to),
        }))
    }

    /// The value of ``node``: an ``int``, or a :class:`Loopy` value
    /// ``inf(K)`` with ``K`` the finite values of its options.
    fn value(&self, py: Python<'_>, node: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let node = node_of(node, "node", self.nodes.declared() as u64, "")?;
        self.value_object(py, self.nodes.in_graph(node))
    }

    /// The value of every node, as ``grundy graph --values`` prints them:
    /// a read-only sequence of ``int`` and :class:`Loopy` values, made on
    /// demand (a graph of a billion declared nodes and a few edges takes
    /// the memory of its edges).
    #[getter]
    fn values(this: Bound<'_, Self>) -> NodeValues {
        NodeValues {
            graph: this.unbind(),
        }
    }

    fn __repr__(&self) -> String {
        let graph = self.solved.borrow_owner();
        format!(
            "<GraphGame: {} nodes, {} edges>",
            self.nodes.declared(),
            graph.edge_count()
        )
    }
}

/// The values of the nodes of a graph, in order (see
/// :attr:`GraphGame.values`).
///
/// >>> import grundy
/// >>> v = grundy.graph(2, [(0, 1), (1, 0)]).values
/// >>> len(v), v[0], v[-1]
/// (2, Loopy({}), Loopy({}))
#[pyclass(frozen, module = "grundy", name = "NodeValues", sequence)]
pub(crate) struct NodeValues {
    graph: Py<GraphGame>,
}

#[pymethods]
impl NodeValues {
    fn __len__(&self) -> usize {
        self.graph.get().nodes.declared()
    }

    fn __getitem__(&self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let len = self.__len__();
        if let Ok(slice) = index.cast::<PySlice>() {
            let range = slice.indices(len as isize)?;
            let mut items = Vec::with_capacity(range.slicelength);
            let mut at = range.start;
            for _ in 0..range.slicelength {
                items.push(self.item(py, at as usize)?);
                at += range.step;
            }
            return Ok(pyo3::types::PyList::new(py, items)?.into_any().unbind());
        }
        // An index beyond isize is out of range, as in a list.
        let i: isize = index.extract().map_err(|e: PyErr| {
            if e.is_instance_of::<PyOverflowError>(py) {
                PyIndexError::new_err("node index out of range")
            } else {
                e
            }
        })?;
        let at = if i < 0 { i + len as isize } else { i };
        if !(0..len as isize).contains(&at) {
            return Err(PyIndexError::new_err("node index out of range"));
        }
        self.item(py, at as usize)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let len = self.__len__();
        let mut shown = Vec::new();
        for i in 0..len.min(8) {
            shown.push(self.item(py, i)?.bind(py).repr()?.to_string());
        }
        let more = if len > 8 { ", ..." } else { "" };
        Ok(format!("NodeValues([{}{more}], n={len})", shown.join(", ")))
    }
}

impl NodeValues {
    fn item(&self, py: Python<'_>, node: usize) -> PyResult<Py<PyAny>> {
        let graph = self.graph.get();
        graph.value_object(py, graph.nodes.in_graph(node as u32))
    }
}

/// The value ``inf(K)`` of a node from which the player to move can at
/// least draw: ``options`` is ``K``, the finite values of its options
/// (sorted). Shown as ``grundy graph --values`` prints it: ``inf{0,2}``.
///
/// >>> import grundy
/// >>> v = grundy.graph(3, [(0, 1), (0, 0), (1, 2)]).value(0)
/// >>> v.options, str(v)
/// ((1,), 'inf{1}')
#[pyclass(frozen, module = "grundy", name = "Loopy")]
pub(crate) struct Loopy {
    options: Vec<u32>,
}

#[pymethods]
impl Loopy {
    /// ``K``: the finite values of the node's options, sorted.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.options)
    }

    fn __str__(&self) -> String {
        let k: Vec<String> = self.options.iter().map(u32::to_string).collect();
        format!("inf{{{}}}", k.join(","))
    }

    fn __repr__(&self) -> String {
        let k: Vec<String> = self.options.iter().map(u32::to_string).collect();
        format!("Loopy({{{}}})", k.join(", "))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Loopy>()
            .is_ok_and(|o| o.get().options == self.options)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        ("inf", &self.options).hash(&mut h);
        h.finish()
    }
}

/// A move of a token along an edge: the token's index in the list given
/// (``token``, 0-based), the node it leaves (``from_``) and the node it
/// moves to (``to``).
///
/// >>> import grundy
/// >>> m = grundy.graph(2, [(0, 1)]).hint([1, 0])
/// >>> m.token, m.from_, m.to
/// (1, 0, 1)
#[pyclass(frozen, module = "grundy", name = "TokenMove")]
pub(crate) struct TokenMove {
    token: usize,
    from: u32,
    to: u32,
}

#[pymethods]
impl TokenMove {
    /// The index of the token moved, in the list given.
    #[getter]
    fn token(&self) -> usize {
        self.token
    }

    /// The node it leaves.
    #[getter]
    fn from_(&self) -> u32 {
        self.from
    }

    /// The node it moves to.
    #[getter]
    fn to(&self) -> u32 {
        self.to
    }

    fn __repr__(&self) -> String {
        format!(
            "TokenMove(token={}, from_={}, to={})",
            self.token, self.from, self.to
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<TokenMove>().is_ok_and(|o| {
            let o = o.get();
            (o.token, o.from, o.to) == (self.token, self.from, self.to)
        })
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (self.token, self.from, self.to).hash(&mut h);
        h.finish()
    }
}
