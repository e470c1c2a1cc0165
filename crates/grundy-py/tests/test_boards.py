"""The two-dimensional games (knights, rows) and graphs with cycles: the
judges' samples answered through the module as the command answers them,
grids equal to the command's, and every value equal to a memoised mex (or,
on graphs with cycles, to a retrograde analysis) written here."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy
from conftest import SAMPLES, memoised_nimber, memoised_nimbers

HYPER_KNIGHT = [(-3, -1), (-2, 1), (-2, -1), (-1, -2), (-1, -3), (1, -2)]


def tokens_of(text):
    return iter(text.split())


# The judges' samples.


def test_lightoj1315_sample(command):
    data = SAMPLES / "lightoj1315.in"
    words = tokens_of(data.read_text())
    lines = []
    for case in range(1, int(next(words)) + 1):
        x = 0
        for _ in range(int(next(words))):
            x ^= grundy.knight(int(next(words)), int(next(words)))
        lines.append(f"Case {case}: {'Alice' if x else 'Bob'}")
    expected = (SAMPLES / "lightoj1315.out").read_text().splitlines()
    assert lines == expected == command.text("lightoj1315", data).splitlines()


def test_hdu5724_sample(command):
    data = SAMPLES / "hdu5724.in"
    words = tokens_of(data.read_text())
    lines = []
    for _ in range(int(next(words))):
        x = 0
        for _ in range(int(next(words))):
            columns = [int(next(words)) for _ in range(int(next(words)))]
            x ^= grundy.row(columns)
        lines.append("YES" if x else "NO")
    expected = (SAMPLES / "hdu5724.out").read_text().splitlines()
    assert lines == expected == command.text("hdu5724", data).splitlines()


def test_hdu1524_sample(command):
    data = SAMPLES / "hdu1524.in"
    words = tokens_of(data.read_text())
    lines = []
    for n in words:
        n = int(n)
        edges = []
        for u in range(n):
            edges += [(u, int(next(words))) for _ in range(int(next(words)))]
        g = grundy.graph(n, edges)
        while True:
            m = int(next(words))
            if m == 0:
                break
            lines.append(g.outcome([int(next(words)) for _ in range(m)]))
    expected = (SAMPLES / "hdu1524.out").read_text().splitlines()
    assert lines == expected == command.text("hdu1524", data).splitlines()


def test_uva11927_sample(command):
    data = SAMPLES / "uva11927.in"
    words = tokens_of(data.read_text())
    lines = []
    while True:
        n, m = int(next(words)), int(next(words))
        if n == 0 and m == 0:
            break
        g = grundy.graph(n, [(int(next(words)), int(next(words))) for _ in range(m)])
        tokens = []
        for node in range(n):
            tokens += [node] * int(next(words))
        lines.append("First" if g.outcome(tokens) == "WIN" else "Second")
    expected = (SAMPLES / "uva11927.out").read_text().splitlines()
    assert lines == expected == command.text("uva11927", data).splitlines()


def test_graph_sample_with_hints(command):
    data = SAMPLES / "graph.in"
    words = tokens_of(data.read_text())
    n, m = int(next(words)), int(next(words))
    g = grundy.graph(n, [(int(next(words)), int(next(words))) for _ in range(m)])
    lines = []
    for k in words:
        tokens = [int(next(words)) for _ in range(int(k))]
        outcome, hint = g.outcome(tokens), g.hint(tokens)
        lines.append(outcome + (f" {hint.from_} {hint.to}" if hint else ""))
    assert lines == command.text("graph", data, "--hint").splitlines()
    values = [str(v) for v in g.values]
    assert values == command.text("graph", data, "--values").splitlines()


# Knights and rows.


def knight_definition(xs, ys, steps):
    def options(square):
        x, y = square
        return [(x + dx, y + dy) for dx, dy in steps if x + dx >= 0 and y + dy >= 0]

    memo = {}
    return [[memoised_nimber(options, (x, y), memo) for x in xs] for y in ys]


def test_knight_grids_as_the_command(command):
    grid = grundy.knight_grid(range(0, 40), range(5, 30))
    answer = command.json("knight", "--grid", "0..40", "5..30")
    assert grid.dtype == np.uint32 and grid.shape == (25, 40)
    assert grid.tolist() == answer["values"]
    assert grid.tolist() == knight_definition(range(40), range(5, 30), HYPER_KNIGHT)


def test_far_knights_as_the_command(command):
    for x, y in [(2**62, 7), (10**18, 10**17 + 3), (2**63 - 1, 2**63 - 1), (0, 2**63 - 1)]:
        assert grundy.knight(x, y) == int(command.text("knight", x, y))


def test_other_move_sets(command):
    steps = [(-2, -1), (-1, -2), (-2, 1), (1, -2)]
    text = "-2,-1 -1,-2 -2,1 1,-2"
    assert grundy.knight(10, 20, moves=steps) == int(command.text("knight", 10, 20, "--moves", text))
    assert grundy.knight(10, 20, moves=text) == grundy.knight(10, 20, moves=steps)
    grid = grundy.knight_grid(range(20), range(20), moves=steps)
    assert grid.tolist() == knight_definition(range(20), range(20), steps)
    far = grundy.knight(10**15, 3 * 10**14, moves=steps)
    assert far == int(command.text("knight", 10**15, 3 * 10**14, "--moves", text))


def test_grid_sequences_need_not_be_ranges():
    xs, ys = [7, 3, 200], np.array([9, 0])
    grid = grundy.knight_grid(xs, ys)
    assert grid.tolist() == [[grundy.knight(x, y) for x in xs] for y in ys]


def row_definition(width, mask):
    """The row game by its rules: a piece moves right to the next empty
    cell, jumping the pieces in between (bit width-1 is column 1)."""

    def options(row):
        out = []
        for col in range(1, width + 1):
            bit = 1 << (width - col)
            if not row & bit:
                continue
            target = col + 1
            while target <= width and row & (1 << (width - target)):
                target += 1
            if target <= width:
                out.append(row & ~bit | (1 << (width - target)))
        return out

    return memoised_nimber(options, mask)


def test_row_grid_as_the_command_and_the_definition(command):
    for width in (1, 2, 5, 8):
        grid = grundy.row_grid(width)
        assert grid.tolist() == command.json("row", "--grid", "--width", width)["values"]
        right = (width + 1) // 2
        for y, line in enumerate(grid.tolist()):
            for x, value in enumerate(line):
                assert value == row_definition(width, (y << right) | x)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 14).flatmap(lambda w: st.tuples(st.just(w), st.sets(st.integers(1, w)))))
def test_rows_are_the_definition(case):
    width, columns = case
    mask = sum(1 << (width - c) for c in columns)
    assert grundy.row(sorted(columns), width=width) == row_definition(width, mask)


def test_row_errors_as_the_command(command):
    for columns, width in [([1, 1], 20), ([21], 20), ([0], 5)]:
        with pytest.raises(ValueError) as e:
            grundy.row(columns, width=width)
        args = [*columns, "--width", width]
        assert str(e.value) == command.error("row", *args)
    with pytest.raises(ValueError) as e:
        grundy.row_grid(25)
    assert str(e.value) == command.error("row", "--grid", "--width", 25).replace("--grid", "row_grid")


# Graphs with cycles.


def retrograde(n, edges):
    """WIN/LOSE/DRAW of one token on each node by retrograde analysis (the
    classic labelling of cyclic games, independent of Smith's values)."""
    succ = [[] for _ in range(n)]
    pred = [[] for _ in range(n)]
    for u, v in edges:
        succ[u].append(v)
        pred[v].append(u)
    result = [None] * n
    left = [len(s) for s in succ]
    queue = [v for v in range(n) if left[v] == 0]
    for v in queue:
        result[v] = "LOSE"
    while queue:
        v = queue.pop()
        for u in pred[v]:
            if result[u] is not None:
                continue
            if result[v] == "LOSE":
                result[u] = "WIN"
                queue.append(u)
            else:
                left[u] -= 1
                if left[u] == 0:
                    result[u] = "LOSE"
                    queue.append(u)
    return [r or "DRAW" for r in result]


@settings(max_examples=80, deadline=None)
@given(
    st.integers(1, 12).flatmap(
        lambda n: st.tuples(
            st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=30)
        )
    )
)
def test_graphs_with_draws_match_retrograde_analysis_and_hints_win(case):
    n, edges = case
    g = grundy.graph(n, edges)
    expected = retrograde(n, edges)
    succ = [[v for u, v in edges if u == w] for w in range(n)]
    for node in range(n):
        assert g.outcome([node]) == expected[node]
        hint = g.hint([node])
        if expected[node] == "WIN":
            assert hint.token == 0 and hint.from_ == node and hint.to in succ[node]
            assert expected[hint.to] == "LOSE"
        else:
            assert hint is None
    try:
        values = memoised_nimbers(lambda v: succ[v], list(range(n)))
    except ValueError:
        # A cycle: the finite values still follow the mex rule over the
        # finite values of the options (Smith's values), and an infinite
        # one names the finite values of its options.
        values = list(g.values)
        for u in range(n):
            finite = {values[v] for v in succ[u] if not isinstance(values[v], grundy.Loopy)}
            if isinstance(values[u], grundy.Loopy):
                assert set(values[u].options) == finite
            else:
                assert values[u] not in finite and all(j in finite for j in range(values[u]))
    else:
        assert list(g.values) == values


def test_graph_inputs_arrays_and_networkx():
    edges = [(0, 1), (1, 2), (2, 0), (2, 3)]
    a = grundy.graph(4, edges)
    b = grundy.graph(4, np.array(edges, dtype=np.int32))
    c = grundy.graph(4, np.array(edges, dtype=np.uint64))
    assert list(a.values) == list(b.values) == list(c.values)

    class WithEdges:  # what networkx graphs offer, without networkx
        def edges(self):
            return iter(edges)

    assert list(grundy.graph(4, WithEdges()).values) == list(a.values)


def test_graph_from_networkx():
    nx = pytest.importorskip("networkx")
    edges = [(0, 1), (1, 2), (2, 0), (2, 3)]
    assert list(grundy.graph(4, nx.DiGraph(edges)).values) == list(grundy.graph(4, edges).values)


def test_huge_declared_graphs_take_the_memory_of_their_edges():
    g = grundy.graph(4_000_000_000, [(0, 3_999_999_999), (17, 0)])
    assert len(g.values) == 4_000_000_000
    assert g.values[3_999_999_999] == 0 and g.values[0] == 1 and g.values[17] == 0
    assert g.values[123_456_789] == 0
    assert g.outcome([0, 17, 5]) == "WIN"
    assert g.hint([5, 0]).token == 1


def test_loopy_values(command):
    g = grundy.graph(3, [(0, 1), (0, 0), (1, 2)])
    v = g.value(0)
    assert isinstance(v, grundy.Loopy) and v.options == (1,) and str(v) == "inf{1}"
    assert v == grundy.graph(3, [(0, 1), (0, 0), (1, 2)]).value(0)
    text = command.text("graph", "--values", input="3 3\n0 1\n0 0\n1 2\n")
    assert [str(x) for x in g.values] == text.split()
