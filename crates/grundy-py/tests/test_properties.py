"""Property-based tests over the whole API: whatever the arguments, a call
returns or raises an exception of the documented kinds (ValueError,
TypeError, OSError, MemoryError, the module's own), never a panic of the
Rust core (``pyo3_runtime.PanicException``, a BaseException), never a
RuntimeError or a SystemError, and never crashes the interpreter.

Long computations are cut by a progress callback that raises ``Slow``
after half a second, which also exercises the way every computation
stops."""

import os
import time

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import grundy

ALLOWED = (ValueError, TypeError, OSError, MemoryError)


class Slow(Exception):
    """Raised by the progress callback of a computation that runs long."""


def cut_after(seconds=0.5):
    start = time.monotonic()

    def progress(done, total):
        if time.monotonic() - start > seconds:
            raise Slow

    return progress


def outcome_of(call):
    """Runs ``call``; fails the test on anything but a result or an
    allowed exception (a BaseException such as a panic included)."""
    try:
        return call()
    except ALLOWED + (Slow, grundy.ProofError, grundy.CycleError):
        return None
    except BaseException as e:  # noqa: B036 - a panic is a BaseException
        raise AssertionError(f"{type(e).__module__}.{type(e).__name__}: {e}") from e


# GRUNDY_EXAMPLES=5000 for a longer hunt than CI's.
SETTINGS = settings(
    max_examples=int(os.environ.get("GRUNDY_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

# Values of every kind a user could pass.
anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.binary(max_size=10),
    st.lists(st.integers(-5, 300), max_size=6),
    st.tuples(st.integers(-3, 10), st.integers(-3, 10)),
)
# A largest heap that is either quick or refused at once.
to = st.one_of(st.none(), st.integers(-10, 3000), st.integers(2**32 - 1, 2**80), anything)
code_text = st.one_of(
    st.text(alphabet="0123456789abcdefx.4 -\n", max_size=12),
    st.sampled_from(["0.77", ".6", "4.007", "grundys-game", "0.f", "8.1", "0.", ""]),
    st.text(max_size=12),
)


@SETTINGS
@given(code=st.one_of(code_text, anything), to=to, threads=st.one_of(st.none(), st.integers(-2, 3000), anything))
def test_octal(code, to, threads):
    outcome_of(lambda: grundy.octal(code, to=to, threads=threads, online=True, progress=cut_after()))


@SETTINGS
@given(moves=st.one_of(anything, st.lists(st.integers(-5, 70), max_size=5)), to=to)
def test_subtraction(moves, to):
    outcome_of(lambda: grundy.subtraction(moves, to=to, progress=cut_after()))


KAYLES = grundy.octal("0.77")
OFFICERS = grundy.octal(".6", to=500)


@SETTINGS
@given(n=anything, heaps=st.one_of(anything, st.lists(st.one_of(st.integers(-2, 2**64), anything), max_size=5)))
def test_octal_queries(n, heaps):
    for game in (KAYLES, OFFICERS):
        outcome_of(lambda: game.value(n))
        outcome_of(lambda: game.outcome(heaps))
        outcome_of(lambda: game.hint(heaps))


steps = st.lists(st.tuples(st.integers(-3, 2), st.integers(-3, 2)), min_size=1, max_size=4)


@SETTINGS
@given(x=anything, y=anything, moves=st.one_of(st.none(), steps, st.text(max_size=20), anything))
def test_knight(x, y, moves):
    outcome_of(lambda: grundy.knight(x, y, moves))


@SETTINGS
@given(
    xs=st.one_of(st.builds(range, st.integers(-3, 50), st.integers(-3, 80)), anything),
    ys=st.one_of(st.builds(range, st.integers(-3, 50), st.integers(-3, 80)), anything),
)
def test_knight_grid(xs, ys):
    outcome_of(lambda: grundy.knight_grid(xs, ys))


@SETTINGS
@given(columns=anything, width=st.one_of(st.integers(-3, 70), anything))
def test_rows(columns, width):
    outcome_of(lambda: grundy.row(columns, width))
    if not isinstance(width, int) or width <= 16:
        outcome_of(lambda: grundy.row_grid(width))


pairs = st.lists(st.tuples(st.integers(-2, 12), st.integers(-2, 12)), max_size=25)


@SETTINGS
@given(
    n=st.one_of(st.integers(-2, 14), st.integers(2**31, 2**34), anything),
    edges=st.one_of(pairs, anything, st.builds(np.array, pairs)),
    tokens=st.one_of(st.lists(st.integers(-2, 15), max_size=4), anything),
)
def test_graph(n, edges, tokens):
    g = outcome_of(lambda: grundy.graph(n, edges))
    if g is not None:
        outcome_of(lambda: g.outcome(tokens))
        outcome_of(lambda: g.hint(tokens))
        outcome_of(lambda: list(g.values[:20]))
        outcome_of(lambda: g.value(tokens[0] if isinstance(tokens, list) and tokens else 0))


boards = st.one_of(
    st.text(alphabet="0123456789x", max_size=6),
    st.lists(st.text(alphabet=".#", max_size=9), max_size=9),
    st.lists(st.lists(st.booleans(), min_size=3, max_size=3), max_size=5).map(np.array),
    st.text(alphabet=".#\n ", max_size=40),
    anything,
)


@SETTINGS
@given(board=boards, memory=st.one_of(st.none(), st.integers(-5, 2**20), st.text(max_size=5), anything))
def test_cram(board, memory):
    outcome_of(lambda: grundy.cram(board, memory=memory, progress=cut_after()))


@SETTINGS
@given(n=st.one_of(st.integers(-2, 14), anything), edges=st.one_of(pairs, anything))
def test_node_kayles(n, edges):
    outcome_of(lambda: grundy.node_kayles(n, edges, progress=cut_after()))


@SETTINGS
@given(rows=st.one_of(st.text(alphabet="0123456789x,", max_size=8), st.lists(st.integers(-2, 9), max_size=6), anything))
def test_chomp(rows):
    outcome_of(lambda: grundy.chomp(rows, progress=cut_after()))


@SETTINGS
@given(data=st.binary(max_size=300), keep=st.integers(0, 400), flip=st.integers(0, 400))
def test_check_proof_of_any_bytes(tmp_path_factory, data, keep, flip):
    folder = tmp_path_factory.mktemp("proofs")
    real = folder / "real.proof"
    grundy.chomp("3x4", proof=real)
    mutated = bytearray(real.read_bytes()[: keep + 20])
    if mutated:
        mutated[flip % len(mutated)] ^= 0x5A
    for content in (data, bytes(mutated)):
        path = folder / "any.proof"
        path.write_bytes(content)
        outcome_of(lambda: grundy.check_proof(path))


@SETTINGS
@given(
    values=st.one_of(
        anything,
        st.lists(st.lists(st.integers(-3, 2**33), min_size=1, max_size=4), max_size=4),
        st.lists(st.floats(), max_size=5),
    ),
    scale=st.one_of(st.none(), st.integers(-2, 70), anything),
    width=st.one_of(st.none(), st.integers(-2, 10), anything),
)
def test_heatmap(values, scale, width):
    h = outcome_of(lambda: grundy.heatmap(values, scale=scale, width=width))
    if h is not None:
        assert h.png.startswith(b"\x89PNG")


positions = st.one_of(st.integers(-3, 30), st.text(max_size=3), st.tuples(st.integers(0, 5)), anything)


@SETTINGS
@given(
    table=st.dictionaries(st.integers(0, 12), st.lists(st.integers(0, 12), max_size=4), max_size=13),
    root=positions,
    memory=st.one_of(st.none(), st.integers(-1, 10**6), anything),
    threads=st.one_of(st.none(), st.integers(-1, 3)),
)
def test_python_games(table, root, memory, threads):
    class Game:
        def options(self, p):
            return table.get(p, [])

    for ask in (grundy.nimber, grundy.outcome, grundy.winning_move):
        outcome_of(lambda: ask(Game(), root, memory=memory, threads=threads, progress=cut_after()))
