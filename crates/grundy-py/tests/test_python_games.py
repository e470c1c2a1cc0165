"""Games defined in Python, solved by the Rust search: every answer equal
to a plain memoised mex over whole positions (written here), with and
without components and canonical forms; callbacks run once per position;
exceptions, cycles and deep games."""

import random
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy
from conftest import memoised_nimber


class Subtraction:
    def __init__(self, moves):
        self.moves = moves

    def options(self, n):
        return [n - k for k in self.moves if k <= n]


class Kayles:
    """Rows of pins (a sorted tuple); a move knocks down one or two adjacent
    pins of a row."""

    def options(self, rows):
        for i, n in enumerate(rows):
            rest = rows[:i] + rows[i + 1 :]
            for take in (1, 2):
                for left in range(n - take + 1):
                    parts = tuple(p for p in (left, n - take - left) if p)
                    yield tuple(sorted(rest + parts))

    def components(self, rows):
        return [(n,) for n in rows]


class GridNodeKayles:
    """Node-Kayles on a grid: a position is the frozenset of vertices left;
    picking a vertex removes it and its neighbours. Components: the
    connected parts; canonical: the part moved to the origin."""

    def __init__(self, with_parts=True, with_canonical=True):
        if not with_parts:
            self.components = None
        if not with_canonical:
            self.canonical = None
        self.calls = {"options": 0}

    @staticmethod
    def closed(v):
        r, c = v
        return {(r, c), (r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)}

    def options(self, left):
        self.calls["options"] += 1
        return [left - self.closed(v) for v in left]

    def components(self, left):
        parts, seen = [], set()
        for v in left:
            if v in seen:
                continue
            part, stack = set(), [v]
            while stack:
                u = stack.pop()
                if u in part:
                    continue
                part.add(u)
                stack.extend(w for w in self.closed(u) if w in left and w not in part)
            seen |= part
            parts.append(frozenset(part))
        return parts

    def canonical(self, part):
        if not part:
            return part
        r0 = min(r for r, _ in part)
        c0 = min(c for _, c in part)
        return frozenset((r - r0, c - c0) for r, c in part)


def grid(rows, cols):
    return frozenset((r, c) for r in range(rows) for c in range(cols))


def test_subtraction_games_match_the_mex():
    for moves in ([1, 3, 4], [2, 5, 6], [1], [3, 7]):
        game = Subtraction(moves)
        memo = {}
        for n in range(60):
            expected = memoised_nimber(game.options, n, memo)
            assert grundy.nimber(game, n) == expected
            assert grundy.outcome(game, n) == ("WIN" if expected else "LOSE")
            move = grundy.winning_move(game, n)
            if expected == 0:
                assert move is None
            else:
                assert move in game.options(n) and memo[move] == 0


def test_kayles_with_components_matches_the_mex_and_the_octal_engine():
    game = Kayles()
    values = grundy.octal("0.77").values
    memo = {}
    for rows in [(n,) for n in range(25)] + [(3, 5), (1, 2, 7), (4, 4), (2, 9, 11)]:
        expected = values[list(rows)].tolist()
        x = 0
        for v in expected:
            x ^= v
        assert grundy.nimber(game, rows) == x
        if sum(rows) <= 14:
            plain = type("Plain", (), {"options": Kayles.options})()
            assert memoised_nimber(plain.options, rows, memo) == x


@pytest.mark.parametrize("rows,cols", [(2, 4), (3, 3), (3, 4), (2, 6)])
def test_node_kayles_on_grids_matches_the_mex_and_the_builtin(rows, cols):
    start = grid(rows, cols)
    plain = GridNodeKayles(with_parts=False, with_canonical=False)
    expected = memoised_nimber(plain.options, start)
    for parts in (False, True):
        for canonical in (False, True):
            game = GridNodeKayles(parts, canonical)
            assert grundy.nimber(game, start) == expected
    edges = [(r * cols + c, r * cols + c + 1) for r in range(rows) for c in range(cols - 1)]
    edges += [(r * cols + c, (r + 1) * cols + c) for r in range(rows - 1) for c in range(cols)]
    assert grundy.node_kayles(rows * cols, edges).nimber == expected


def test_each_callback_runs_once_per_position():
    calls = {}

    class Counted:
        def options(self, n):
            calls[n] = calls.get(n, 0) + 1
            return [n - k for k in (1, 2, 5) if k <= n]

    grundy.nimber(Counted(), 300)
    assert calls and max(calls.values()) == 1


def random_dag(seed, n):
    rng = random.Random(seed)
    return {v: sorted(rng.sample(range(v), min(v, rng.randint(0, 4)))) for v in range(n)}


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 80), st.sampled_from(["int", "str", "tuple"]))
def test_random_games_match_the_mex(seed, n, kind):
    dag = random_dag(seed, n)
    wrap = {"int": lambda v: v, "str": lambda v: f"p{v}", "tuple": lambda v: (v, "x")}[kind]
    unwrap = {"int": lambda p: p, "str": lambda p: int(p[1:]), "tuple": lambda p: p[0]}[kind]

    class Game:
        def options(self, p):
            return [wrap(w) for w in dag[unwrap(p)]]

    memo = {}
    for v in range(n):
        expected = memoised_nimber(Game().options, wrap(v), memo)
        assert grundy.nimber(Game(), wrap(v)) == expected
    root = wrap(n - 1)
    move = grundy.winning_move(Game(), root)
    assert (move is None) == (memo[root] == 0)
    if move is not None:
        assert memo[move] == 0 and move in Game().options(root)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 12), min_size=1, max_size=4), st.integers(1, 2))
def test_sums_through_components_and_threads(heaps, threads):
    game = Kayles()
    plain = type("Plain", (), {"options": Kayles.options})()
    rows = tuple(sorted(heaps))
    expected = memoised_nimber(plain.options, rows) if sum(rows) <= 16 else None
    got = grundy.nimber(game, rows, threads=threads)
    values = grundy.octal("0.77").values
    x = 0
    for h in rows:
        x ^= int(values[h])
    assert got == x and (expected is None or expected == x)


def test_a_callback_exception_propagates_unchanged():
    class Boom(Exception):
        pass

    error = Boom("from options")

    class Game:
        def options(self, p):
            if p == 7:
                raise error
            return [p + 1] if p < 20 else []

    with pytest.raises(Boom) as e:
        grundy.nimber(Game(), 0)
    assert e.value is error

    class BadParts:
        def options(self, p):
            return [p - 1] if p else []

        def components(self, p):
            raise KeyError(p)

    with pytest.raises(KeyError):
        grundy.outcome(BadParts(), 5)

    class BadCanonical:
        def options(self, p):
            return [p - 1] if p else []

        def canonical(self, p):
            return {"unhashable": p}

    with pytest.raises(TypeError):
        grundy.winning_move(BadCanonical(), 5)


def test_bad_games_and_positions():
    with pytest.raises(TypeError, match="options"):
        grundy.nimber(object(), 0)
    with pytest.raises(TypeError):
        grundy.nimber(Subtraction([1]), [1, 2])  # unhashable
    with pytest.raises(TypeError):

        class NotIterable:
            def options(self, p):
                return 5

        grundy.nimber(NotIterable(), 0)
    with pytest.raises(TypeError):

        class Unhashable:
            def options(self, p):
                return [[p]]

        grundy.nimber(Unhashable(), 0)

    class Attr:
        options = 5

    with pytest.raises(TypeError):
        grundy.nimber(Attr(), 0)


def test_cycles_raise_cycle_error_with_the_position():
    class Loop:
        def options(self, p):
            return [(p + 1) % 5]

    with pytest.raises(grundy.CycleError) as e:
        grundy.nimber(Loop(), 0)
    assert e.value.position in range(5)
    assert "cycle" in str(e.value)
    assert isinstance(e.value, ValueError)

    class SelfLoop:
        def options(self, p):
            return [p]

    with pytest.raises(grundy.CycleError):
        grundy.outcome(SelfLoop(), "here")


def test_a_game_a_million_moves_deep():
    class Line:
        def options(self, p):
            return [p - 1] if p else []

    assert grundy.nimber(Line(), 10**6) == 0
    assert grundy.nimber(Line(), 10**6 - 1) == 1


def test_the_store_is_bounded_by_memory():
    class Wide:
        def options(self, p):
            return [(p, i) for i in range(1000)] if isinstance(p, int) else []

    with pytest.raises(MemoryError):
        grundy.nimber(Wide(), 0, memory=10_000)
    assert grundy.nimber(Wide(), 0, memory="64M") == 1


def test_other_threads_run_during_a_search():
    ticks = []
    done = threading.Event()

    def ticker():
        while not done.is_set():
            ticks.append(1)
            done.wait(0.001)

    t = threading.Thread(target=ticker)
    t.start()
    try:
        game = GridNodeKayles()
        grundy.nimber(game, grid(3, 10))
    finally:
        done.set()
        t.join()
    assert len(ticks) > 3


def test_progress_of_a_search():
    reports = []
    grundy.nimber(GridNodeKayles(), grid(3, 9), progress=lambda d, t: reports.append((d, t)))
    assert reports and all(t is None for _, t in reports) and reports[-1][0] > 0


def test_grundy_called_from_a_callback_nests_to_a_bounded_depth():
    # A game whose options ask grundy about a smaller game of its own kind:
    # nested calls work (each level is a computation of its own) ...
    class Nested:
        def __init__(self, depth):
            self.depth = depth

        def options(self, n):
            if self.depth > 0 and n == 1:
                inner = grundy.nimber(Nested(self.depth - 1), 3)
                assert inner == 3
            return list(range(n))

    assert grundy.nimber(Nested(5), 4) == 4
    assert grundy.outcome(Nested(5), 0) == "LOSE"

    # ... but a callback that asks grundy about the very position it is
    # called for never ends: it raises RecursionError at once, instead of
    # starting a thread per level without end.
    class Itself:
        def options(self, p):
            grundy.nimber(self, p)
            return []

    for ask in (grundy.nimber, grundy.outcome, grundy.winning_move):
        with pytest.raises(RecursionError, match="levels deep"):
            ask(Itself(), 3)
    # Through a thread of the callback's own, the depth starts again: the
    # number of computations at once is bounded too.
    from concurrent.futures import ThreadPoolExecutor

    class ThroughAThread:
        def options(self, p):
            with ThreadPoolExecutor(1) as pool:
                pool.submit(grundy.nimber, self, p).result()
            return []

    with pytest.raises(RecursionError, match="computations at once"):
        grundy.nimber(ThroughAThread(), 3)
    # The module is usable afterwards.
    assert grundy.nimber(Subtraction([1, 2]), 7) == 1
