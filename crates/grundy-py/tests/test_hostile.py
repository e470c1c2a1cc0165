"""The module used as a hostile user would: wrong types, huge sizes,
negative numbers, NaN, Ctrl-C in the middle of every long computation,
callbacks that raise, files that cannot be written. Each answer is a
ValueError or TypeError with a message (an OSError subclass for files,
KeyboardInterrupt for Ctrl-C), and the interpreter goes on."""

import itertools
import math
import os
import re
import signal
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import grundy

NAN = float("nan")


@pytest.mark.parametrize(
    "call,error",
    [
        (lambda: grundy.octal(5), TypeError),
        (lambda: grundy.octal("0.77", to="5"), TypeError),
        (lambda: grundy.octal("0.77", to=1.5), TypeError),
        (lambda: grundy.octal("0.77", to=NAN), TypeError),
        (lambda: grundy.octal("0.77", to=-1), ValueError),
        (lambda: grundy.octal("0.77", to=10**30), ValueError),
        (lambda: grundy.octal(".6", to=2**33), ValueError),
        (lambda: grundy.octal("0.77", threads=0), ValueError),
        (lambda: grundy.octal("0.77", threads=2000), ValueError),
        (lambda: grundy.octal("0.77", progress="yes"), TypeError),
        (lambda: grundy.octal("0.\x00"), ValueError),
        (lambda: grundy.subtraction("1,3,4"), TypeError),
        (lambda: grundy.subtraction([-1]), ValueError),
        (lambda: grundy.subtraction([10**40]), ValueError),
        (lambda: grundy.subtraction([]), ValueError),
        (lambda: grundy.knight(-1, 0), ValueError),
        (lambda: grundy.knight(2**63, 0), ValueError),
        (lambda: grundy.knight(NAN, 0), TypeError),
        (lambda: grundy.knight(0, 0, moves="nonsense"), ValueError),
        (lambda: grundy.knight(0, 0, moves=[(1, 1)]), ValueError),
        (lambda: grundy.knight(0, 0, moves=[]), ValueError),
        (lambda: grundy.knight(0, 0, moves=[(2**40, -1)]), ValueError),
        (lambda: grundy.knight(0, 0, moves=[(1,)]), ValueError),
        (lambda: grundy.knight(0, 0, moves=5), TypeError),
        (lambda: grundy.knight_grid(range(10**9), range(3)), ValueError),
        (lambda: grundy.knight_grid(range(10**30), range(3)), ValueError),
        (lambda: grundy.knight_grid(range(0), range(3)), ValueError),
        (lambda: grundy.knight_grid("abc", range(3)), TypeError),
        (lambda: grundy.knight_grid([1.5], [0]), TypeError),
        (lambda: grundy.row([1, 2], width=0), ValueError),
        (lambda: grundy.row([1, 2], width=65), ValueError),
        (lambda: grundy.row([-1]), ValueError),
        (lambda: grundy.row("12"), TypeError),
        (lambda: grundy.row_grid(25), ValueError),
        (lambda: grundy.row_grid(-3), ValueError),
        (lambda: grundy.graph(-1, []), ValueError),
        (lambda: grundy.graph(2**40, []), ValueError),
        (lambda: grundy.graph(3, [(0, 3)]), ValueError),
        (lambda: grundy.graph(3, [(0, -1)]), ValueError),
        (lambda: grundy.graph(3, [(0, 1, 2)]), ValueError),
        (lambda: grundy.graph(3, [(0, NAN)]), TypeError),
        (lambda: grundy.graph(3, "01"), TypeError),
        (lambda: grundy.graph(3, np.zeros((4, 3), dtype=int)), ValueError),
        (lambda: grundy.graph(3, np.zeros((4, 2), dtype=float)), ValueError),
        (lambda: grundy.graph(3, np.array([[0, -5]])), ValueError),
        (lambda: grundy.graph(3, [(0, 1)]).outcome([3]), ValueError),
        (lambda: grundy.graph(3, [(0, 1)]).outcome([-1]), ValueError),
        (lambda: grundy.graph(3, [(0, 1)]).outcome("0"), TypeError),
        (lambda: grundy.graph(0, []).value(0), ValueError),
        (lambda: grundy.cram("100x100"), ValueError),
        (lambda: grundy.cram(5), TypeError),
        (lambda: grundy.cram(np.zeros((3, 3))), TypeError),
        (lambda: grundy.cram(np.ones((17, 17), dtype=bool)), ValueError),
        (lambda: grundy.cram("4x4", memory=0), ValueError),
        (lambda: grundy.cram("4x4", memory="1P"), ValueError),
        (lambda: grundy.cram("4x4", memory=-5), ValueError),
        (lambda: grundy.cram("4x4", memory=NAN), TypeError),
        (lambda: grundy.cram("4x4", proof=5), TypeError),
        (lambda: grundy.cram("4x4", proof=b"x.proof"), TypeError),
        (lambda: grundy.cram("4x4", proof="x\x00y"), ValueError),
        (lambda: grundy.node_kayles(10**9, []), ValueError),
        (lambda: grundy.node_kayles(3, [(0, 0)]), ValueError),
        (lambda: grundy.chomp([]), ValueError),
        (lambda: grundy.chomp([3, 5]), ValueError),
        (lambda: grundy.chomp([0]), ValueError),
        (lambda: grundy.chomp([10**20]), ValueError),
        (lambda: grundy.chomp(1.5), TypeError),
        (lambda: grundy.heatmap([[NAN]]), TypeError),
        (lambda: grundy.heatmap([[-1]]), ValueError),
        (lambda: grundy.heatmap([[2**40]]), ValueError),
        (lambda: grundy.heatmap([[1, 2], [3]]), TypeError),
        (lambda: grundy.heatmap(np.zeros((5000, 2), dtype=int)), ValueError),
        (lambda: grundy.heatmap(np.zeros((2, 2, 2), dtype=int)), ValueError),
        (lambda: grundy.heatmap([]), ValueError),
        (lambda: grundy.heatmap([[1]], scale=0), ValueError),
        (lambda: grundy.heatmap(np.zeros((4000, 10), dtype=int), scale=64), ValueError),
        (lambda: grundy.heatmap([1, 2, 3], width=5), ValueError),
        (lambda: grundy.heatmap("abc"), TypeError),
        (lambda: grundy.check_proof(5), TypeError),
    ],
    ids=lambda case: f"line{case.__code__.co_firstlineno}" if hasattr(case, "__code__") else case.__name__,
)
def test_bad_arguments_raise_value_or_type_errors(call, error):
    with pytest.raises(error) as e:
        call()
    assert str(e.value)
    assert len(str(e.value).splitlines()) == 1


def test_octal_queries_refuse_what_is_not_a_heap():
    game = grundy.octal("0.77")
    for bad, error in [(-1, ValueError), (2**63, ValueError), (NAN, TypeError), ("3", TypeError), (None, TypeError)]:
        with pytest.raises(error):
            game.value(bad)
        with pytest.raises(error):
            game.outcome([1, bad])
        with pytest.raises(error):
            game.hint([bad])
    assert game.value(np.int64(13)) == game.value(13)
    assert game.outcome(np.array([3, 4])) == game.outcome([3, 4])
    assert game.outcome([]) == "LOSE" and game.hint([]) is None


def test_quoted_text_is_escaped_and_bounded():
    with pytest.raises(ValueError) as e:
        grundy.octal("0.7\x1b[31mred" + "x" * 10000)
    message = str(e.value)
    assert "\x1b" not in message and len(message) < 300


# Ctrl-C: a subprocess interrupts itself in the middle of each long
# computation; KeyboardInterrupt must come within a second, and the
# interpreter must go on.

LONG = {
    "octal": 'grundy.octal(".6", to=2**30, online=True)',
    "cram": 'grundy.cram("6x7")',
    "cram-proof": 'grundy.cram("5x7", proof=os.path.join(tmp, "p.proof"), online=True)',
    "python-game": "grundy.nimber(NK(), frozenset(range(70)))",
    "python-game-threads": "grundy.nimber(NK(), frozenset(range(70)), threads=2)",
    "after-save": 'grundy.heatmap([[1, 0]]).save(os.path.join(tmp, "h.png")); grundy.cram("6x7")',
    # A callback that never returns: Ctrl-C interrupts the callback itself
    # (on whichever thread of the search runs it), as it would interrupt
    # the same loop run directly.
    "endless-callback": "grundy.nimber(Spin(), 0)",
    "endless-callback-threads": "grundy.nimber(Spin(), 0, threads=2)",
    "endless-canonical": "grundy.nimber(SpinCanonical(), 0)",
    # A callback that calls grundy: the inner search stops too.
    "reentrant-callback": "grundy.nimber(Outer(), 0)",
    # ... also when the callback runs on a thread of the outer search's pool.
    "reentrant-callback-threads": "grundy.nimber(Outer(), 0, threads=2)",
}

SCRIPT = textwrap.dedent(
    """
    import os, signal, sys, tempfile, threading, time
    import grundy
    tmp = tempfile.mkdtemp()

    class NK:
        def options(self, p):
            return [frozenset(v for v in p if abs(v - u) > 1) for u in p]

    class Spin:
        def options(self, p):
            while True:
                pass

    class SpinCanonical:
        def options(self, p):
            return [p + 1] if p < 5 else []

        def canonical(self, p):
            while p > 3:
                pass
            return p

    class Outer:
        def options(self, p):
            grundy.nimber(NK(), frozenset(range(70)))
            return []

    threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    start = time.monotonic()
    try:
        {call}
        print("finished")
    except KeyboardInterrupt:
        print("interrupted", time.monotonic() - start - 1.0)
    assert grundy.octal("0.77").period == 12
    print("alive", sorted(os.listdir(tmp)))
    """
)


def default_sigint():
    """In the child before it runs Python: SIGINT's default action, so
    that Python turns it into KeyboardInterrupt even where the tests run
    with SIGINT ignored (a background job of a non-interactive shell, as
    `.ci/run &` starts them, inherits it ignored, and Python leaves an
    ignored SIGINT ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("what", sorted(LONG))
def test_ctrl_c_interrupts_within_a_second(what):
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(call=LONG[what])],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=default_sigint,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("interrupted"), done.stdout
    assert float(lines[0].split()[1]) < 1.0
    # No temporary file is left behind (the picture saved before is).
    assert lines[1] in ("alive []", "alive ['h.png']"), lines[1]


def test_a_progress_callback_that_raises_stops_the_work():
    class Enough(Exception):
        pass

    def progress(done, total):
        raise Enough(done)

    with pytest.raises(Enough):
        grundy.octal(".6", to=2**26, online=True, progress=progress)
    with pytest.raises(Enough):
        grundy.cram("6x7", progress=progress)
    assert grundy.octal("0.77").period == 12


def test_progress_true_without_tqdm_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    with pytest.raises(ModuleNotFoundError, match="tqdm"):
        grundy.octal(".6", to=100, online=True, progress=True)


# Files.


@pytest.fixture
def picture():
    return grundy.heatmap(grundy.row_grid(6))


def test_save_refuses_what_is_not_a_regular_file(picture, tmp_path):
    with pytest.raises(OSError) as e:
        picture.save("/dev/full")
    assert "not a regular file" in str(e.value)
    with pytest.raises(IsADirectoryError):
        picture.save(tmp_path)
    with pytest.raises(FileNotFoundError):
        picture.save(tmp_path / "no" / "such" / "folder.png")
    target = tmp_path / "target.png"
    target.write_bytes(b"mine")
    link = tmp_path / "link.png"
    link.symlink_to(target)
    with pytest.raises(OSError, match="symbolic link"):
        picture.save(link)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        picture.save(fifo)
    assert target.read_bytes() == b"mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "link.png", "target.png"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes read-only files")
def test_save_refuses_a_read_only_file(picture, tmp_path):
    locked = tmp_path / "locked.png"
    locked.write_bytes(b"keep")
    locked.chmod(stat.S_IRUSR)
    with pytest.raises(PermissionError):
        picture.save(locked)
    assert locked.read_bytes() == b"keep"


def test_save_replaces_a_file_whole_and_keeps_its_mode(picture, tmp_path):
    path = tmp_path / "p.png"
    path.write_bytes(b"old")
    path.chmod(0o640)
    picture.save(str(path))
    assert path.read_bytes() == picture.png
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert os.listdir(tmp_path) == ["p.png"]


def test_a_full_disk_leaves_the_old_file(tmp_path):
    # A file system with no room: a tmpfs of 64 KiB would need root to
    # mount; /dev/full is refused before any write (not a regular file),
    # and the certificate's destination is checked before the search.
    with pytest.raises(OSError):
        grundy.cram("6x7", proof="/dev/full")
    with pytest.raises(FileNotFoundError):
        grundy.cram("6x7", proof=tmp_path / "missing" / "x.proof")


def test_check_proof_refuses_what_it_cannot_read(tmp_path):
    with pytest.raises(FileNotFoundError):
        grundy.check_proof(tmp_path / "nothing.proof")
    with pytest.raises(IsADirectoryError):
        grundy.check_proof(tmp_path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError):
        grundy.check_proof(fifo)  # refused, never read (it would block)
    with pytest.raises(OSError):
        grundy.check_proof("/dev/zero")
    junk = tmp_path / "junk.proof"
    junk.write_bytes(os.urandom(1000))
    with pytest.raises(grundy.ProofError):
        grundy.check_proof(junk)
    empty = tmp_path / "empty.proof"
    empty.write_bytes(b"")
    with pytest.raises(grundy.ProofError):
        grundy.check_proof(empty)


def test_python_games_that_never_end_are_bounded_by_memory():
    class Endless:
        def options(self, p):
            return [p + 1]

    with pytest.raises(MemoryError):
        grundy.nimber(Endless(), 0, memory="1M")

    class NaNs:
        def options(self, p):
            return [float("nan")]

    with pytest.raises(MemoryError):
        grundy.nimber(NaNs(), 0.0, memory="1M")


def test_positions_whose_hash_raises():
    class Bad:
        def __hash__(self):
            raise ArithmeticError("no hash")

    class Game:
        def options(self, p):
            return [Bad()] if p == 0 else []

    with pytest.raises(ArithmeticError, match="no hash"):
        grundy.nimber(Game(), 0)


def test_a_generator_that_fails_midway():
    class Game:
        def options(self, p):
            yield p + 1
            if p == 3:
                raise LookupError("midway")

    with pytest.raises(LookupError, match="midway"):
        grundy.nimber(Game(), 0, threads=2)


def test_math_is_still_exact_after_errors():
    for _ in range(3):
        with pytest.raises(ValueError):
            grundy.octal("bad")
    assert grundy.octal("0.77").value(10**18) == 1
    assert not math.isnan(grundy.cram("3x4").seconds)


def test_nodes_too_large_for_any_integer_type_are_out_of_range():
    # Beyond 128 bits: a ValueError as for any node out of range, never an
    # OverflowError; an index beyond the platform's is an IndexError.
    g = grundy.graph(3, [(0, 1)])
    for call in [
        lambda: grundy.graph(3, [(0, 2**200)]),
        lambda: grundy.graph(3, [(-(2**200), 0)]),
        lambda: grundy.node_kayles(3, [(0, 2**200)]),
        lambda: g.outcome([2**200]),
        lambda: g.hint([0, -(2**200)]),
        lambda: g.value(2**200),
    ]:
        with pytest.raises(ValueError, match=r"out of range \(nodes are 0..=2\)") as e:
            call()
        assert "digits" in str(e.value) and len(str(e.value)) < 120
    with pytest.raises(TypeError, match="must be an integer, not float"):
        g.outcome([1.0])
    for index in (2**70, -(2**70)):
        with pytest.raises(IndexError):
            g.values[index]
    assert g.values[np.int64(1)] == g.value(1)


def test_bytes_are_not_sequences_of_integers():
    # b"5" is the integer 53 to an iterator: never a Chomp row of 53.
    for call in [
        lambda: grundy.chomp(b"5"),
        lambda: grundy.chomp(bytearray(b"3,2,1")),
        lambda: grundy.subtraction(b"\x01\x03"),
        lambda: grundy.octal("0.77").outcome(b"ab"),
        lambda: grundy.octal("0.77").hint(b"ab"),
        lambda: grundy.row(b"\x01", 8),
        lambda: grundy.knight_grid(b"\x01\x02", [0]),
    ]:
        with pytest.raises(TypeError, match="not (bytes|bytearray)"):
            call()
    assert grundy.chomp("5").nimber == grundy.chomp([5]).nimber


def test_paths_that_are_not_utf8(tmp_path):
    # A file name of bytes that are not UTF-8 (as os.listdir gives it,
    # with surrogate escapes) names that file, as with open().
    name = os.fsdecode(b"caf\xe9")
    proof = tmp_path / (name + ".proof")
    grundy.cram("3x4", proof=proof)
    assert os.listdir(tmp_path) == [name + ".proof"]
    assert tuple(grundy.check_proof(str(proof))) == ("cram 3x4", 1, 4)
    picture = tmp_path / (name + ".png")
    grundy.heatmap([[1, 0]]).save(picture)
    assert picture.read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(FileNotFoundError):
        grundy.check_proof(tmp_path / (name + ".missing"))


def test_grid_sides_of_unknown_length_are_read_up_to_the_limit():
    # range(10**30) has no len(), an iterator none either: their
    # coordinates are read up to the limit, with the message of the limit
    # (not "a grid of 0 x 3 cells").
    for xs in (range(10**30), itertools.count()):
        with pytest.raises(ValueError, match="more than 4096 items"):
            grundy.knight_grid(xs, range(3))
    with pytest.raises(TypeError, match="xs must be a sequence of integers, not ndarray"):
        grundy.knight_grid(np.array(5), range(3))
    assert grundy.knight_grid(iter(range(4)), iter([0])).shape == (1, 4)


@pytest.mark.parametrize("threads", [1, 2])
def test_positions_nested_as_deep_as_python_hashes_them(threads):
    # A position nested 100000 deep (a history as a linked tuple): Python
    # hashes it on any of its threads (8 MiB of stack); the search's
    # threads, where the position is hashed and compared, have as much. In
    # a subprocess: running out of stack is a crash.
    script = textwrap.dedent(
        f"""
        import threading
        import grundy

        deep = ()
        for _ in range(100_000):
            deep = (deep,)
        seen = []
        worker = threading.Thread(target=lambda: seen.append(hash(deep)))
        worker.start()
        worker.join()

        class Game:
            def options(self, p):
                return [deep, (deep, 1)] if p == 0 else []

        print(grundy.nimber(Game(), 0, threads={threads}), len(seen))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-500:])
    assert done.stdout.split() == ["1", "1"]


def test_a_negative_number_is_told_the_whole_range():
    game = grundy.octal("0.77")
    for call, name in [
        (lambda: game.outcome([3, -1]), "heaps[1]"),
        (lambda: game.value(-(2**200)), "n"),
        (lambda: grundy.knight(-1, 0), "x"),
        (lambda: grundy.octal("0.77", to=-5), "to"),
    ]:
        with pytest.raises(ValueError, match=rf"^{re.escape(name)} must be from 0 to \d+, not -"):
            call()
    with pytest.raises(ValueError, match=r"^heaps\[0\] must be at most 9223372036854775807, not 9223372036854775808$"):
        game.outcome([2**63])
    with pytest.raises(ValueError, match=r"^n must be at most \d+, not \d+\.\.\.\d+ \(\d+ digits\)"):
        game.value(10**50)


# Issue 38: every iterable is read up to a stated bound, and Ctrl-C stops
# the reading; memory= bounds the options of a game; files that cannot be
# made raise the OSError of their cause naming the user's file; a negative
# number is told the whole range.

REPEAT = itertools.repeat

# (the call, the message's start, the docstring that states the bound and
# what it says there). Each call reads an iterable that never ends (or
# says it is longer than the bound), and must stop at the bound.
BOUNDED = {
    "octal-outcome": (
        lambda: grundy.octal("0.77").outcome(REPEAT(1)),
        "heaps: more than 16777216 items",
        lambda: grundy.OctalGame.outcome,
        "2**24 heaps",
    ),
    "octal-hint": (
        lambda: grundy.octal("0.77").hint(REPEAT(1)),
        "heaps: more than 16777216 items",
        lambda: grundy.OctalGame.hint,
        "2**24 heaps",
    ),
    "octal-outcome-range": (
        lambda: grundy.octal("0.77").outcome(range(10**9)),
        "heaps: more than 16777216 items",
        lambda: grundy.OctalGame.outcome,
        "2**24 heaps",
    ),
    "subtraction": (
        lambda: grundy.subtraction(REPEAT(1)),
        "moves: more than 65536 items",
        lambda: grundy.subtraction,
        "65536",
    ),
    "row": (lambda: grundy.row(REPEAT(1)), "columns: more than 64 items", lambda: grundy.row, "64 of"),
    "graph-edges": (
        lambda: grundy.graph(3, REPEAT((0, 1))),
        "edges: more than 16777216 edges",
        lambda: grundy.graph,
        "2**24 edges",
    ),
    "graph-edges-of-a-graph": (
        lambda: grundy.graph(3, type("G", (), {"edges": lambda self: REPEAT((0, 1))})()),
        "edges: more than 16777216 edges",
        lambda: grundy.graph,
        "2**24 edges",
    ),
    "graph-pair": (
        lambda: grundy.graph(3, [REPEAT(0)]),
        "edges[0] must be a pair of nodes, not more than 3 items",
        lambda: grundy.graph,
        "pairs",
    ),
    "graph-outcome": (
        lambda: grundy.graph(3, [(0, 1)]).outcome(REPEAT(1)),
        "tokens: more than 16777216 items",
        lambda: grundy.graph,
        "2**24 tokens",
    ),
    "graph-hint": (
        lambda: grundy.graph(3, [(0, 1)]).hint(REPEAT(0)),
        "tokens: more than 16777216 items",
        lambda: grundy.graph,
        "2**24 tokens",
    ),
    "node-kayles": (
        lambda: grundy.node_kayles(3, REPEAT((0, 1))),
        "edges: more than 262144 edges",
        lambda: grundy.node_kayles,
        "262144",
    ),
    "node-kayles-array": (
        lambda: grundy.node_kayles(3, np.zeros((270000, 2), dtype=int)),
        "edges: more than 262144 edges",
        lambda: grundy.node_kayles,
        "262144",
    ),
    "node-kayles-pair": (
        lambda: grundy.node_kayles(3, [REPEAT(0)]),
        "edges[0] must be a pair of nodes, not more than 3 items",
        lambda: grundy.node_kayles,
        "pairs",
    ),
    "knight-moves": (
        lambda: grundy.knight(3, 3, moves=REPEAT((-1, -2))),
        "moves: more than 65536 steps",
        lambda: grundy.knight,
        "65536 steps",
    ),
    "knight-step": (
        lambda: grundy.knight(3, 3, moves=[REPEAT(-1)]),
        "moves[0] must be a pair (dx, dy), not more than 2 items",
        lambda: grundy.knight,
        "(dx, dy)",
    ),
    "knight-grid": (
        lambda: grundy.knight_grid(REPEAT(1), [0]),
        "xs: more than 4096 items",
        lambda: grundy.knight_grid,
        "4096 each",
    ),
    "knight-grid-moves": (
        lambda: grundy.knight_grid([1], [0], moves=REPEAT((-1, -2))),
        "moves: more than 65536 steps",
        lambda: grundy.knight,
        "65536 steps",
    ),
    "chomp": (lambda: grundy.chomp(REPEAT(1)), "rows: more than 127 items", lambda: grundy.chomp, "127"),
    "cram-rows": (
        lambda: grundy.cram(range(10**9)),
        "board: more than 16 items",
        lambda: grundy.cram,
        "16 of at most 16",
    ),
    "cram-columns": (
        lambda: grundy.cram([range(10**9)]),
        "board[0]: more than 16 items",
        lambda: grundy.cram,
        "16 of at most 16",
    ),
    "heatmap": (
        lambda: grundy.heatmap(range(10**9)),
        "values: more than 16777216 items",
        lambda: grundy.heatmap,
        "4096 * 4096",
    ),
    "heatmap-row": (
        lambda: grundy.heatmap([range(10**9)]),
        "values[0]: more than 4096 items",
        lambda: grundy.heatmap,
        "4096 values",
    ),
}


@pytest.mark.parametrize("what", sorted(BOUNDED))
def test_every_iterable_is_read_up_to_a_stated_bound(what):
    call, message, documented, bound = BOUNDED[what]
    start = time.monotonic()
    with pytest.raises(ValueError) as e:
        call()
    assert str(e.value).startswith(message), str(e.value)
    # Stopped at the bound: seconds at most, never the whole iterable.
    assert time.monotonic() - start < 30
    assert bound in documented().__doc__, (what, bound)


def test_the_bounds_are_bounds_not_less():
    # Exactly the bound is read; one more item is refused.
    game = grundy.octal("0.77")
    assert game.outcome(REPEAT(1, 2**24)) == "LOSE"
    with pytest.raises(ValueError, match="more than 16777216"):
        game.outcome(REPEAT(1, 2**24 + 1))
    assert grundy.subtraction(REPEAT(1, 65536)).period == grundy.subtraction([1]).period
    with pytest.raises(ValueError, match="more than 65536"):
        grundy.subtraction(REPEAT(1, 65537))
    assert grundy.node_kayles(3, REPEAT((0, 1), 2**18)).nimber == grundy.node_kayles(3, [(0, 1)]).nimber
    with pytest.raises(ValueError, match="more than 262144"):
        grundy.node_kayles(3, REPEAT((0, 1), 2**18 + 1))
    assert grundy.row(range(1, 65), width=64) == grundy.row(list(range(1, 65)), width=64)
    with pytest.raises(ValueError, match="more than 64"):
        grundy.row(range(1, 66), width=64)
    # An array of edges may hold more than a list (it is in memory).
    many = np.tile(np.array([[0, 1]]), (70000, 1))
    assert grundy.graph(3, many).outcome([0]) == grundy.graph(3, [(0, 1)]).outcome([0])
    # Pairs read from a data view of a graph are triples: still read.
    assert grundy.graph(3, type("G", (), {"edges": lambda self: [(0, 1, {})]})()).outcome([0]) == "WIN"


# Ctrl-C while an iterable is read. The items come from iterators written
# in C (no bytecode runs, so the interpreter never handles the signal by
# itself), each item a factorial (about 70 us): the bound would be
# reached after seconds, or minutes. The signal comes from outside, as a
# terminal sends it.

SLOW_READS = {
    "heaps": "grundy.octal('0.77').outcome(zeros())",
    "tokens": "grundy.graph(3, [(0, 1)]).outcome(zeros())",
    "graph-edges": "grundy.graph(3, zip(zeros(), ones()))",
    "node-kayles-edges": "grundy.node_kayles(3, zip(zeros(), ones()))",
    "subtraction-moves": "grundy.subtraction(ones())",
    "knight-moves": "grundy.knight(3, 3, moves=zip(minus(1), minus(2)))",
    # A game's options and components, read on the computation's thread.
    "options": "grundy.nimber(Options(), 1)",
    "options-threads": "grundy.nimber(Options(), 1, threads=2)",
    "options-repeat": "grundy.nimber(Repeat(), 1, memory='16G')",
    "components": "grundy.nimber(Components(), 1)",
}

SLOW_SCRIPT = textwrap.dedent(
    """
    import itertools, math, operator, sys, time
    import grundy

    def zeros():
        return map(operator.mod, map(math.factorial, itertools.repeat(1000)), itertools.repeat(7))

    def ones():
        return map(operator.add, zeros(), itertools.repeat(1))

    def minus(k):
        return map(operator.sub, zeros(), itertools.repeat(k))

    class Options:
        def options(self, p):
            return zeros() if p == 1 else []

    class Repeat:
        def options(self, p):
            return itertools.repeat(0) if p == 1 else []

    class Components:
        def options(self, p):
            return [0] if p == 1 else []

        def components(self, p):
            return zeros() if p == 1 else [p]

    print("ready", flush=True)
    try:
        {call}
        print("finished", flush=True)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    except BaseException as e:
        print("raised", type(e).__name__, e, flush=True)
    assert grundy.octal("0.77").period == 12
    print("alive", flush=True)
    """
)


@pytest.mark.parametrize("what", sorted(SLOW_READS))
def test_ctrl_c_interrupts_the_reading_of_any_iterable(what):
    child = subprocess.Popen(
        [sys.executable, "-c", SLOW_SCRIPT.format(call=SLOW_READS[what])],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_sigint,
    )
    try:
        assert child.stdout.readline() == "ready\n"
        time.sleep(0.5)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        line = child.stdout.readline()
        latency = time.monotonic() - sent
        # Read through the same buffered file (communicate() would miss
        # what readline() buffered).
        out = child.stdout.read()
        err = child.stderr.read()
        child.wait(timeout=60)
    finally:
        child.kill()
    assert line == "interrupted\n", (line, err[-2000:])
    assert latency < 1.0, latency
    assert out == "alive\n" and child.returncode == 0, (out, err[-2000:])


# memory= bounds what the options of a game take.

MEMORY_SCRIPT = textwrap.dedent(
    """
    import itertools, resource
    import grundy

    class {name}:
        {body}

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        grundy.nimber({name}(), 1, memory="20M")
        print("finished")
    except MemoryError as e:
        print("MemoryError", e)
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    print(grown // 1024)
    """
)

ENDLESS_OPTIONS = {
    # The same position for ever, from C and from Python.
    "repeat": "def options(self, p):\n        return itertools.repeat(0) if p else []",
    "generator": "def options(self, p):\n        while p:\n            yield 0",
    # New positions for ever.
    "count": "def options(self, p):\n        return itertools.count(2) if p == 1 else []",
    # Components for ever.
    "components": (
        "def options(self, p):\n"
        "        return [0] if p == 1 else []\n"
        "    def components(self, p):\n"
        "        return itertools.repeat(0) if p == 1 else [p]"
    ),
}


@pytest.mark.parametrize("what", sorted(ENDLESS_OPTIONS))
def test_memory_bounds_a_game_whose_options_never_end(what):
    script = MEMORY_SCRIPT.format(name="Endless", body=ENDLESS_OPTIONS[what])
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    first, grown = done.stdout.splitlines()
    assert first.startswith("MemoryError"), first
    assert "memory=20971520" in first
    # Bounded by the 20 MB asked for (and the Python objects of the game),
    # never the hundreds of megabytes an endless list would take.
    assert int(grown) < 120, grown


# Files whose folder refuses a new file.


def unwritable_folder(tmp_path):
    """A folder where this process cannot create a file, and the error
    Python's own open() raises there: a folder made read-only, or (as
    root, who writes there anyway) one of /sys and /proc."""
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    for folder in (str(locked), "/sys/kernel", "/proc"):
        probe = os.path.join(folder, "grundy-probe.png")
        try:
            with open(probe, "x"):
                pass
        except OSError as e:
            return folder, type(e), e.errno
        os.remove(probe)
    pytest.skip("no folder refuses a new file here")


def test_a_folder_that_refuses_new_files_is_the_oserror_of_its_cause(tmp_path):
    folder, expected, errno_expected = unwritable_folder(tmp_path)
    picture = grundy.heatmap([[1, 0]])
    for what, write, name in [
        ("save", lambda path: picture.save(path), "x.png"),
        ("proof", lambda path: grundy.cram("3x4", proof=path), "x.proof"),
        ("proof-pathlike", lambda path: grundy.chomp("2x3", proof=Path(path)), "y.proof"),
    ]:
        path = os.path.join(folder, name)
        with pytest.raises(OSError) as e:
            write(path)
        assert type(e.value) is expected, (what, type(e.value), e.value)
        assert e.value.errno == errno_expected, (what, e.value.errno)
        assert e.value.filename == path, (what, e.value.filename)
        assert path in str(e.value) and ".tmp" not in str(e.value), str(e.value)
        assert not os.path.exists(path)
    if folder.startswith(str(tmp_path)):
        Path(folder).chmod(0o755)
        assert os.listdir(folder) == []


def test_refused_files_name_the_users_file(tmp_path):
    picture = grundy.heatmap([[1, 0]])
    target = tmp_path / "target.png"
    target.write_bytes(b"x")
    link = tmp_path / "link.png"
    link.symlink_to(target)
    for path, error in [
        (tmp_path, IsADirectoryError),
        (tmp_path / "no" / "x.png", FileNotFoundError),
        (tmp_path / "target.png" / "x.png", NotADirectoryError),
    ]:
        with pytest.raises(error) as e:
            picture.save(path)
        assert e.value.filename == str(path), (path, e.value.filename)
        assert e.value.errno is not None
    # Refusals without a cause of the system (a link, a device) are plain
    # OSErrors without an errno, their message naming the file.
    for path in (link, "/dev/null"):
        with pytest.raises(OSError) as e:
            picture.save(path)
        assert type(e.value) is OSError and e.value.errno is None
        assert str(path) in str(e.value)
    with pytest.raises(FileNotFoundError) as e:
        grundy.check_proof(tmp_path / "none.proof")
    assert e.value.filename == str(tmp_path / "none.proof") and e.value.errno == 2


# Negative numbers: every integer argument says its whole range.

NEGATIVE = {
    "octal-to": (lambda v: grundy.octal("0.77", to=v), r"to must be from 0 to 4294967294"),
    "octal-threads": (lambda v: grundy.octal("0.77", threads=v), r"threads must be from 1 to 1024"),
    "value": (lambda v: grundy.octal("0.77").value(v), r"n must be from 0 to 9223372036854775807"),
    "heaps": (lambda v: grundy.octal("0.77").outcome([v]), r"heaps\[0\] must be from 0 to 9223372036854775807"),
    "subtraction": (lambda v: grundy.subtraction([3, v]), r"moves\[1\] must be from 1 to 1024"),
    "subtraction-threads": (lambda v: grundy.subtraction([1], threads=v), r"threads must be from 1 to 1024"),
    "knight-x": (lambda v: grundy.knight(v, 0), r"x must be from 0 to 9223372036854775807"),
    "knight-y": (lambda v: grundy.knight(0, v), r"y must be from 0 to 9223372036854775807"),
    "knight-grid": (lambda v: grundy.knight_grid([0, v], [0]), r"xs\[1\] must be from 0 to 9223372036854775807"),
    "row-columns": (lambda v: grundy.row([v], width=8), r"columns\[0\] must be from 1 to 8"),
    "row-width": (lambda v: grundy.row([1], width=v), r"width must be from 1 to 64"),
    "row-grid": (lambda v: grundy.row_grid(v), r"width must be from 1 to 64"),
    "graph-n": (lambda v: grundy.graph(v, []), r"n must be from 0 to 4294967293"),
    "node-kayles-n": (lambda v: grundy.node_kayles(v, []), r"n must be from 0 to 256"),
    "chomp-rows": (lambda v: grundy.chomp([3, v]), r"rows\[1\] must be from 1 to 126"),
    "cram-memory": (lambda v: grundy.cram("3x3", memory=v), r"memory must be from 1 to 18446744073709551615"),
    "cram-threads": (lambda v: grundy.cram("3x3", threads=v), r"threads must be from 1 to 1024"),
    "nimber-memory": (
        lambda v: grundy.nimber(type("G", (), {"options": lambda s, p: []})(), 0, memory=v),
        r"memory must be from 1 to 18446744073709551615",
    ),
    "heatmap-scale": (lambda v: grundy.heatmap([[1]], scale=v), r"scale must be from 1 to 64"),
    "heatmap-width": (lambda v: grundy.heatmap([1, 2], width=v), r"width must be from 1 to 4096"),
    "heatmap-values": (lambda v: grundy.heatmap([[1, max(v, -1)]]), r"values must be from 0 to 4294967295"),
    "knight-step": (
        lambda v: grundy.knight(0, 0, moves=[(v * 2**40, -1)]),
        r"moves\[0\]: a step must be from -2147483648 to 2147483647",
    ),
    # Nodes say the graph's nodes.
    "graph-edge": (lambda v: grundy.graph(3, [(0, v)]), r"edges\[0\]: node -.+ is out of range \(nodes are 0\.\.=2\)"),
    "graph-token": (
        lambda v: grundy.graph(3, [(0, 1)]).outcome([v]),
        r"tokens\[0\]: node -.+ is out of range \(nodes are 0\.\.=2\)",
    ),
    "graph-node": (lambda v: grundy.graph(3, [(0, 1)]).value(v), r"node: node -.+ is out of range \(nodes are 0\.\.=2\)"),
    "node-kayles-edge": (
        lambda v: grundy.node_kayles(3, [(0, v)]),
        r"edges\[0\]: node -.+ is out of range \(nodes are 0\.\.=2\)",
    ),
}


@pytest.mark.parametrize("value", [-1, -(2**200)], ids=["minus-one", "minus-2-to-200"])
@pytest.mark.parametrize("what", sorted(NEGATIVE))
def test_a_negative_integer_is_told_the_whole_range(what, value):
    call, message = NEGATIVE[what]
    with pytest.raises(ValueError) as e:
        call(value)
    text = str(e.value)
    assert re.match(message, text), text
    assert "at most" not in text, text
    if "must be" in text:
        assert re.search(r", not -\d", text), text


def test_too_large_numbers_keep_their_messages():
    with pytest.raises(ValueError, match=r"^the number of vertices must be at most 256$"):
        grundy.node_kayles(257, [])
    with pytest.raises(ValueError, match=r"^to=8589934592: heap 8589934592 is beyond"):
        grundy.octal(".6", to=2**33)
    with pytest.raises(ValueError, match=r"^to must be at most 4294967294, not 10{30}$"):
        grundy.octal(".6", to=10**30)
    with pytest.raises(ValueError, match=r"^moves: subtraction set element 2000 at index 0"):
        grundy.subtraction([2000])


def test_checked_proof_indices_are_a_tuples(tmp_path):
    path = tmp_path / "c.proof"
    grundy.cram("3x4", proof=path)
    checked = grundy.check_proof(path)
    assert checked[-1] == checked[2] == checked.positions
    for index in (3, -4, 2**70, -(2**70)):
        with pytest.raises(IndexError):
            checked[index]
    assert checked[:2] == (checked.game, checked.nimber)


def test_the_octal_kernels_variable_follows_the_commands_rule(monkeypatch):
    # Any value but avx512, avx2 or portable (in any case), or empty, is
    # refused before any work, as the command refuses it; misère play,
    # which runs no kernel, ignores it.
    for bad in ["foo", "sse4", " avx2", "none"]:
        monkeypatch.setenv("GRUNDY_OCTAL_SIMD", bad)
        with pytest.raises(ValueError, match="GRUNDY_OCTAL_SIMD is .*expected avx512, avx2 or portable"):
            grundy.octal("0.77")
        assert grundy.misere("0.312").order == 12
    for good in ["", "AVX2", "portable", "avx512"]:
        monkeypatch.setenv("GRUNDY_OCTAL_SIMD", good)
        assert grundy.octal("0.77", to=100).values[:4].tolist() == [0, 1, 2, 3]
