"""What the tests share: the ``grundy`` command to compare with, the judge
samples of the repository, a plain memoised mex and a plain misère search
(the independent checks of every game), and the rules of the searched
games written from their definitions."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
SAMPLES = REPO / "crates" / "sg-solve" / "tests" / "data"


def find_command():
    """The ``grundy`` binary: ``$GRUNDY_BIN``, else the workspace's build,
    else the one on ``PATH``."""
    given = os.environ.get("GRUNDY_BIN")
    if given:
        return given
    for profile in ("debug", "release"):
        built = REPO / "target" / profile / "grundy"
        if built.is_file():
            return str(built)
    return shutil.which("grundy")


class Command:
    """The ``grundy`` command, run on arguments and an input."""

    def __init__(self, path):
        self.path = path

    def run(self, *args, input=None, check=True):
        done = subprocess.run(
            [self.path, *map(str, args)],
            input=input.encode() if isinstance(input, str) else input,
            capture_output=True,
            timeout=600,
        )
        if check and done.returncode != 0:
            raise AssertionError(
                f"grundy {' '.join(map(str, args))} exited with {done.returncode}: "
                f"{done.stderr.decode()}"
            )
        return done

    def text(self, *args, input=None):
        return self.run(*args, input=input).stdout.decode()

    def json(self, *args, input=None):
        return json.loads(self.text(*args, "--json", input=input))

    def error(self, *args, input=None):
        """The message of a refused command, without ``error: ``."""
        done = self.run(*args, input=input, check=False)
        assert done.returncode == 2, done
        line = done.stderr.decode().strip().splitlines()[-1]
        assert line.startswith("error: "), line
        return line[len("error: ") :]


@pytest.fixture(scope="session")
def command():
    path = find_command()
    if path is None:
        if os.environ.get("GRUNDY_TESTS_NEED_COMMAND"):
            pytest.fail("the grundy command is needed (set GRUNDY_BIN)")
        pytest.skip("the grundy command is not built (cargo build -p sg-solve)")
    return Command(path)


def mex(values):
    """The least non-negative integer not in ``values``."""
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


def memoised_nimbers(options, roots, memo=None):
    """The nimbers of ``roots`` by the definition, the mex over the options
    of each position, memoised, on an explicit stack (no recursion: games
    deeper than Python's recursion limit work). Raises ValueError on a
    cycle."""
    memo = {} if memo is None else memo
    for root in roots:
        if root in memo:
            continue
        stack = [(root, None)]
        on_stack = {root}
        while stack:
            position, pending = stack[-1]
            if pending is None:
                pending = list(options(position))
                stack[-1] = (position, pending)
            while pending and pending[-1] in memo:
                pending.pop()
            if pending:
                nxt = pending[-1]
                if nxt in on_stack:
                    raise ValueError(f"cycle through {nxt!r}")
                on_stack.add(nxt)
                stack.append((nxt, None))
                continue
            memo[position] = mex(memo[o] for o in options(position))
            on_stack.discard(position)
            stack.pop()
    return [memo[r] for r in roots]


def memoised_nimber(options, root, memo=None):
    return memoised_nimbers(options, [root], memo)[0]


def misere_wins(options, root, memo=None):
    """Whether the player to move from ``root`` wins in misère play (the
    player who makes the last move loses), by the definition, memoised, on
    an explicit stack: a position without a move wins; else it wins when
    some option loses."""
    memo = {} if memo is None else memo
    stack = [root]
    while stack:
        position = stack[-1]
        if position in memo:
            stack.pop()
            continue
        opts = list(options(position))
        unknown = [o for o in opts if o not in memo]
        if unknown:
            stack.extend(unknown)
            continue
        stack.pop()
        memo[position] = not opts or any(not memo[o] for o in opts)
    return memo[root]


def cram_options(cells):
    """Cram's options of the free cells (a frozenset of (r, c))."""
    out = []
    for r, c in cells:
        for dr, dc in ((0, 1), (1, 0)):
            other = (r + dr, c + dc)
            if other in cells:
                out.append(cells - {(r, c), other})
    return out


def node_kayles_options(n, edges):
    """Node-Kayles' options on the graph of ``n`` vertices: a function of
    the vertices left (a frozenset)."""
    nbrs = {v: {v} for v in range(n)}
    for u, v in edges:
        nbrs[u].add(v)
        nbrs[v].add(u)
    return lambda left: [left - nbrs[v] for v in left]


def chomp_options(diagram):
    """Chomp's options of a diagram (a tuple of row lengths)."""
    out = []
    for r, length in enumerate(diagram):
        for c in range(length):
            if (r, c) == (0, 0):
                continue
            out.append(tuple(x for x in (min(l, c) if i >= r else l for i, l in enumerate(diagram)) if x))
    return out
