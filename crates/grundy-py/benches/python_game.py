"""Benchmark: a game defined in Python, solved by grundy's Rust search,
against a plain memoised mex in Python over whole positions, and against
the built-in Node-Kayles (sg-search's own game).

The game: Node-Kayles on 3 x n grids, positions as frozensets of the
vertices left, with ``components`` (the connected parts) and
``canonical`` (a part moved to the origin, the least of its mirror
images): the example ``examples/node_kayles_grid.py``.

For n = 1, 2, ... the plain mex runs until one n takes more than
``--budget`` seconds (default 60); at the largest n it finished within the
budget, and beyond, the script times ``grundy.nimber`` on the same game,
counts its callbacks, and times ``grundy.node_kayles`` on the same graph.

At the largest n the plain mex finishes within the budget, the two run
side by side (interleaved rounds). Then it reports the callbacks' count and
cost per position, the built-in game's cost per table entry, and the
module's own cost per position (a game whose callback only looks its
options up).

Run:  python benches/python_game.py [--budget SECONDS] [--rounds R]
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

import grundy

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from node_kayles_grid import GridNodeKayles, grid, grid_edges  # noqa: E402


def plain_nimber(root):
    """The mex over the options of whole positions, memoised (no
    components, no symmetry), on an explicit stack."""
    memo = {}
    closed = GridNodeKayles.closed
    stack = [root]
    while stack:
        position = stack[-1]
        if position in memo:
            stack.pop()
            continue
        options = [position - closed(v) for v in position]
        missing = [o for o in options if o not in memo]
        if missing:
            stack.extend(missing)
            continue
        seen = {memo[o] for o in options}
        m = 0
        while m in seen:
            m += 1
        memo[position] = m
        stack.pop()
    return memo[root], len(memo)


class Counted(GridNodeKayles):
    """The example's game, counting its callbacks."""

    def __init__(self):
        self.calls = {"options": 0, "components": 0, "canonical": 0}

    def options(self, left):
        self.calls["options"] += 1
        return super().options(left)

    def components(self, left):
        self.calls["components"] += 1
        return super().components(left)

    def canonical(self, part):
        self.calls["canonical"] += 1
        return super().canonical(part)


def time_of(call, rounds):
    times = []
    result = None
    for _ in range(rounds):
        start = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def callback_cost(game, positions, rounds=3):
    """Seconds per call of each callback, measured on the positions the
    search met (the interpreter's cost alone, without the search)."""
    costs = {}
    for name in ("options", "components", "canonical"):
        method = getattr(GridNodeKayles, name)
        start = time.perf_counter()
        for _ in range(rounds):
            for p in positions:
                method(game, p)
        costs[name] = (time.perf_counter() - start) / (rounds * len(positions))
    return costs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=60.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rows", type=int, default=3)
    args = parser.parse_args()
    rows = args.rows

    print(f"Node-Kayles on {rows} x n grids, the plain mex within {args.budget:.0f} s")
    largest = 0
    for n in range(1, 40):
        start = time.perf_counter()
        nimber, positions = plain_nimber(grid(rows, n))
        seconds = time.perf_counter() - start
        print(f"  plain mex, n = {n:2}: nimber {nimber}, {positions} positions, {seconds:.2f} s")
        if seconds > args.budget:
            break
        largest = n
        plain_seconds = seconds
    if largest == 0:
        sys.exit("the plain mex finished no n within the budget")

    print(f"\nlargest n the plain mex finishes within {args.budget:.0f} s: {largest}")
    # Side by side at that n (interleaved rounds: the machine's load hits both).
    plain_times, module_times = [], []
    for _ in range(args.rounds):
        start = time.perf_counter()
        plain, _ = plain_nimber(grid(rows, largest))
        plain_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        mine = grundy.nimber(GridNodeKayles(), grid(rows, largest))
        module_times.append(time.perf_counter() - start)
        assert mine == plain
    plain_seconds, module_seconds = statistics.median(plain_times), statistics.median(module_times)
    print(
        f"n = {largest}, medians of {args.rounds} interleaved rounds: plain mex {plain_seconds:.2f} s, "
        f"grundy.nimber {module_seconds:.3f} s: {plain_seconds / module_seconds:.0f}x faster"
    )

    print("\ngrundy.nimber (components and canonical) and the built-in node_kayles, threads=1:")
    for n in range(largest, largest + 5):
        game = Counted()
        seconds, nimber = time_of(lambda: grundy.nimber(game, grid(rows, n)), args.rounds)
        calls = {k: v // args.rounds for k, v in game.calls.items()}
        builtin_seconds, builtin = time_of(
            lambda: grundy.node_kayles(rows * n, grid_edges(rows, n), threads=1), args.rounds
        )
        assert builtin.nimber == nimber
        per_position = seconds / max(calls["options"], 1)
        builtin_per_entry = builtin_seconds / max(builtin.positions, 1)
        print(
            f"  n = {n:2}: nimber {nimber}, {seconds:.3f} s; callbacks {calls['options']} options, "
            f"{calls['components']} components, {calls['canonical']} canonical: "
            f"{per_position * 1e6:.0f} us per position expanded; built in {builtin_seconds:.4f} s, "
            f"{builtin.positions} table entries, {builtin_per_entry * 1e6:.1f} us per entry"
        )

    # What each callback costs alone, on the parts the search met.
    game = Counted()
    seen = []
    original = game.options

    def recording(left):
        seen.append(left)
        return original(left)

    game.options = recording
    grundy.nimber(game, grid(rows, largest + 2))
    costs = callback_cost(GridNodeKayles(), [p for p in seen if p])
    print(
        "\ncallbacks alone, per call (Python): "
        + ", ".join(f"{k} {v * 1e6:.1f} us" for k, v in costs.items())
    )

    # The module's own cost per position: a game whose callback only looks
    # its options up (the subtraction game of {1, 2} on 200,000 tokens, its
    # options precomputed), every position expanded.
    size = 200_000
    dag = [tuple(v - k for k in (1, 2) if k <= v) for v in range(size)]
    calls = [0]

    class Table:
        def options(self, v):
            calls[0] += 1
            return dag[v]

    lookups = time_of(lambda: [Table().options(v) for v in range(size)], args.rounds)[0]
    calls[0] = 0
    seconds, nimber = time_of(lambda: grundy.nimber(Table(), size - 1), args.rounds)
    assert nimber == (size - 1) % 3
    positions = calls[0] // args.rounds
    print(
        f"a game whose options are looked up ({positions} positions expanded): {seconds:.3f} s, "
        f"{seconds / positions * 1e6:.2f} us per position, of which the callback alone "
        f"{lookups / size * 1e6:.2f} us"
    )

if __name__ == "__main__":
    main()
