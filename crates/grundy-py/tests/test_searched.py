"""Cram, Node-Kayles and Chomp: the same answers as the command, nimbers
equal to a memoised mex written here from the games' rules, and
certificates written through the module that ``grundy proof check``
confirms (and the other way round)."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy
from conftest import chomp_options, cram_options, memoised_nimber, node_kayles_options


def cram_nimber(free):
    """Cram by its rules on the free cells (a frozenset of (r, c))."""
    return memoised_nimber(cram_options, frozenset(free))


def node_kayles_nimber(n, edges):
    return memoised_nimber(node_kayles_options(n, edges), frozenset(range(n)))


def chomp_nimber(rows):
    return memoised_nimber(chomp_options, tuple(rows))


@pytest.mark.parametrize("size", ["1x1", "2x3", "3x4", "4x5", "4x7", "3x9", "5x5"])
def test_cram_boards_as_the_command(command, size):
    r = grundy.cram(size)
    answer = command.json("cram", size, "--hint")
    assert (r.game, r.nimber, r.outcome) == (answer["game"], answer["nimber"], answer["outcome"])
    expected = None if answer["hint"] is None else tuple(map(tuple, answer["hint"]))
    assert r.hint == expected
    rows, cols = map(int, size.split("x"))
    if rows * cols <= 20:
        assert r.nimber == cram_nimber(itertools.product(range(rows), range(cols)))


def test_cram_board_forms_agree(command):
    picture = ["..#..", ".....", "#...#", "....."]
    free = np.array([[ch == "." for ch in line] for line in picture])
    a = grundy.cram(picture)
    b = grundy.cram("\n".join(picture))
    c = grundy.cram(free)
    d = grundy.cram(free.tolist())
    answer = command.json("cram", "--board", "-", "--hint", input="\n".join(picture) + "\n")
    assert a.nimber == b.nimber == c.nimber == d.nimber == answer["nimber"]
    assert a.game == answer["game"]
    cells = {(r, col) for r, line in enumerate(picture) for col, ch in enumerate(line) if ch == "."}
    assert a.nimber == cram_nimber(cells)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.lists(st.booleans(), min_size=4, max_size=4), min_size=1, max_size=4))
def test_random_cram_boards_match_the_rules(cells):
    board = np.array(cells, dtype=bool)
    free = {(r, c) for r in range(board.shape[0]) for c in range(4) if board[r, c]}
    for online in (False, True):
        r = grundy.cram(board, online=online, threads=1)
        assert r.nimber == cram_nimber(free)
        if r.hint is not None:
            (r1, c1), (r2, c2) = r.hint
            assert cram_nimber(free - {(r1, c1), (r2, c2)}) == 0


def test_node_kayles_as_the_command(command):
    cases = [
        (5, [(i, (i + 1) % 5) for i in range(5)]),
        (7, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6)]),
        (9, [(r * 3 + c, r * 3 + c + 1) for r in range(3) for c in range(2)]
         + [(r * 3 + c, r * 3 + c + 3) for r in range(2) for c in range(3)]),
        (1, []),
        (0, []),
    ]
    for n, edges in cases:
        r = grundy.node_kayles(n, edges)
        text = f"{n} {len(edges)}\n" + "".join(f"{u} {v}\n" for u, v in edges)
        answer = command.json("node-kayles", "--hint", input=text)
        assert (r.game, r.nimber, r.outcome, r.hint) == (
            answer["game"],
            answer["nimber"],
            answer["outcome"],
            answer["hint"],
        )
        assert r.nimber == node_kayles_nimber(n, edges)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 11).flatmap(
        lambda n: st.tuples(
            st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=20)
        )
    )
)
def test_random_node_kayles_match_the_rules(case):
    n, edges = case
    edges = [(u, v) for u, v in edges if u != v]
    r = grundy.node_kayles(n, edges, threads=1)
    assert r.nimber == node_kayles_nimber(n, edges)


def test_node_kayles_from_networkx():
    nx = pytest.importorskip("networkx")
    g = nx.cycle_graph(7)
    assert grundy.node_kayles(7, g).nimber == node_kayles_nimber(7, list(g.edges()))


@pytest.mark.parametrize("rows", ["3x4", "2x6", "4x4", "5,3,1", "6,6,2,1", "1x9"])
def test_chomp_as_the_command(command, rows):
    r = grundy.chomp(rows)
    answer = command.json("chomp", rows, "--hint")
    hint = None if answer["hint"] is None else tuple(answer["hint"])
    assert (r.game, r.nimber, r.outcome, r.hint) == (answer["game"], answer["nimber"], answer["outcome"], hint)
    lengths = [int(x) for x in rows.split(",")] if "," in rows else None
    if lengths is None:
        a, b = map(int, rows.split("x"))
        lengths = [b] * a
    assert r.nimber == chomp_nimber(lengths)
    assert grundy.chomp(lengths).nimber == r.nimber


def test_proofs_written_here_are_checked_by_the_command(command, tmp_path):
    for name, solve in [
        ("cram 4x5", lambda p: grundy.cram("4x5", proof=p)),
        ("cram 3x4", lambda p: grundy.cram(["....", "....", "...."], proof=p, online=True)),
        ("node-kayles", lambda p: grundy.node_kayles(6, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)], proof=p)),
        ("chomp 3x5", lambda p: grundy.chomp("3x5", proof=p)),
    ]:
        path = tmp_path / (name.replace(" ", "-") + ".proof")
        r = solve(path)
        line = command.text("proof", "check", path).strip()
        checked = grundy.check_proof(path)
        assert line == str(checked)
        assert checked.game == r.game and checked.nimber == r.nimber
        game, nimber, positions = checked
        assert (game, nimber, positions) == (checked.game, checked.nimber, checked.positions)


def test_proofs_written_by_the_command_are_checked_here(command, tmp_path):
    path = tmp_path / "cram.proof"
    command.run("cram", "4x6", "--proof", path)
    checked = grundy.check_proof(str(path))
    assert (checked.game, checked.nimber) == ("cram 4x6", grundy.cram("4x6").nimber)


def test_a_corrupt_proof_names_what_fails(command, tmp_path):
    path = tmp_path / "chomp.proof"
    grundy.chomp("3x4", proof=path)
    data = bytearray(path.read_bytes())
    for where in (len(data) // 2, len(data) - 3, 40):
        broken = tmp_path / f"broken{where}.proof"
        changed = bytearray(data)
        changed[where] ^= 0x41
        broken.write_bytes(bytes(changed))
        with pytest.raises(grundy.ProofError) as e:
            grundy.check_proof(broken)
        assert str(broken) in str(e.value) and "is not a valid proof" in str(e.value)
        done = command.run("proof", "check", broken, check=False)
        assert done.returncode == 1
        assert done.stderr.decode().strip() == f"error: {e.value}"


def test_search_options_do_not_change_answers():
    base = grundy.cram("4x6")
    for kw in [dict(threads=1), dict(threads=2), dict(memory="1M"), dict(memory=1 << 16), dict(online=True)]:
        r = grundy.cram("4x6", **kw)
        assert r.nimber == base.nimber
    assert grundy.cram("4x6", hint=False).hint is None
    assert isinstance(base.positions, int) and base.seconds >= 0


def test_board_errors_as_the_command(command):
    for size in ["9x17", "0x3", "x", "4x", "abc"]:
        with pytest.raises(ValueError) as e:
            grundy.cram(size)
        assert str(e.value) == command.error("cram", size)
    for picture in ["..x\n...", "", "\n\n"]:
        with pytest.raises(ValueError) as e:
            grundy.cram(picture.split("\n"))
        assert str(e.value) == command.error("cram", "--board", "-", input=picture)
    for rows in ["3,4", "0x3", "200x1", "1," * 200 + "1"]:
        with pytest.raises(ValueError) as e:
            grundy.chomp(rows)
        assert str(e.value) == command.error("chomp", rows)
    with pytest.raises(ValueError) as e:
        grundy.node_kayles(257, [])
    assert str(e.value) == command.error("node-kayles", input="257 0\n").split(": ", 1)[1]
    with pytest.raises(ValueError) as e:
        grundy.node_kayles(3, [(0, 3)])
    assert str(e.value) == "edges[0]: " + command.error("node-kayles", input="3 1\n0 3\n").split(": ", 1)[1]
    with pytest.raises(ValueError) as e:
        grundy.node_kayles(3, [(1, 1)])
    assert str(e.value) == "edges[0]: " + command.error("node-kayles", input="3 1\n1 1\n").split(": ", 1)[1]
