"""What the tests share: the ``grundy`` command to compare with, the judge
samples of the repository, and a plain memoised mex (the independent check
of every game)."""

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
