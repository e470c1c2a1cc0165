"""Misère play of searched games (``misere=True`` on ``cram``,
``node_kayles``, ``chomp``, and ``outcome`` / ``winning_move`` of games
defined in Python): the outcomes and moves against a plain misère search
written here from the rules (the player who makes the last move loses;
a player without a move wins), and the command's answers."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy
from conftest import chomp_options, cram_options, misere_wins, node_kayles_options
from test_python_games import Kayles, Subtraction


def outcome_of(win):
    return "WIN" if win else "LOSE"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.booleans(), min_size=4, max_size=4), min_size=1, max_size=4))
def test_random_cram_boards_in_misere_play_match_the_rules(cells):
    board = np.array(cells, dtype=bool)
    free = frozenset((r, c) for r in range(board.shape[0]) for c in range(4) if board[r, c])
    memo = {}
    win = misere_wins(cram_options, free, memo)
    r = grundy.cram(board, misere=True)
    assert (r.outcome, r.nimber, r.misere) == (outcome_of(win), None, True)
    if win and cram_options(free):
        (r1, c1), (r2, c2) = r.hint
        after = free - {(r1, c1), (r2, c2)}
        assert after in cram_options(free) and not misere_wins(cram_options, after, memo)
    else:
        assert r.hint is None


def test_misere_and_normal_play_differ_where_they_should():
    # 2x2: the second domino is the last move; in normal play it wins.
    assert grundy.cram("2x2").outcome == "LOSE"
    assert grundy.cram("2x2", misere=True).outcome == "WIN"
    # No move at all: a win in misère play, with no move to make.
    r = grundy.cram(["#."], misere=True)
    assert (r.outcome, r.hint) == ("WIN", None)
    assert grundy.cram(["#."]).outcome == "LOSE"


@pytest.mark.parametrize("size", ["2x3", "3x3", "3x4", "4x4", "2x7"])
def test_cram_misere_as_the_command(command, size):
    r = grundy.cram(size, misere=True)
    answer = command.json("cram", size, "--misere", "--hint")
    assert (r.game, r.outcome, r.nimber) == (answer["game"], answer["outcome"], answer["nimber"])
    expected = None if answer["hint"] is None else tuple(map(tuple, answer["hint"]))
    assert r.hint == expected
    rows, cols = map(int, size.split("x"))
    free = frozenset((i, j) for i in range(rows) for j in range(cols))
    assert r.outcome == outcome_of(misere_wins(cram_options, free))


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.tuples(st.integers(0, max(n - 1, 0)), st.integers(0, max(n - 1, 0))), max_size=18),
        )
    )
)
def test_random_node_kayles_in_misere_play_match_the_rules(case):
    n, edges = case
    edges = [(u, v) for u, v in edges if u != v]
    options = node_kayles_options(n, edges)
    memo = {}
    start = frozenset(range(n))
    win = misere_wins(options, start, memo)
    r = grundy.node_kayles(n, edges, misere=True)
    assert r.outcome == outcome_of(win)
    if r.hint is not None:
        assert win
        nbrs = {r.hint} | {v for u, v in edges if u == r.hint} | {u for u, v in edges if v == r.hint}
        assert not misere_wins(options, start - nbrs, memo)
    else:
        assert not win or n == 0


@pytest.mark.parametrize("rows", [[1], [2], [3, 1], [4, 4], [5, 3, 1], [6, 6, 2, 1], [3, 3, 3]])
def test_chomp_misere_matches_the_rules_and_the_command(command, rows):
    memo = {}
    win = misere_wins(chomp_options, tuple(rows), memo)
    r = grundy.chomp(rows, misere=True)
    assert r.outcome == outcome_of(win)
    text = ",".join(map(str, rows))
    assert command.json("chomp", text, "--misere")["outcome"] == r.outcome
    if r.hint is not None:
        row, col = r.hint
        after = tuple(x for x in (min(l, col) if i >= row else l for i, l in enumerate(rows)) if x)
        assert not misere_wins(chomp_options, after, memo)


def test_python_games_in_misere_play_match_the_rules():
    for moves in ([1, 3, 4], [2, 5, 6], [1], [1, 2]):
        game = Subtraction(moves)
        memo = {}
        for n in range(40):
            win = misere_wins(game.options, n, memo)
            assert grundy.outcome(game, n, misere=True) == outcome_of(win)
            move = grundy.winning_move(game, n, misere=True)
            if win and game.options(n):
                assert move in game.options(n) and not memo[move]
            else:
                assert move is None


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 7), min_size=1, max_size=4))
def test_misere_sums_of_python_components_match_the_rules(heaps):
    rows = tuple(sorted(heaps))
    plain = type("Plain", (), {"options": Kayles.options})()
    memo = {}
    win = misere_wins(lambda p: list(plain.options(p)), rows, memo)
    assert grundy.outcome(Kayles(), rows, misere=True) == outcome_of(win)
    move = grundy.winning_move(Kayles(), rows, misere=True)
    if move is not None:
        assert move in list(plain.options(rows))
        assert not misere_wins(lambda p: list(plain.options(p)), move, memo)
    else:
        assert not win or not list(plain.options(rows))


def test_random_dags_in_misere_play_match_the_rules():
    rng = random.Random(7)
    for _ in range(30):
        n = rng.randint(1, 60)
        dag = {v: sorted(rng.sample(range(v), min(v, rng.randint(0, 4)))) for v in range(n)}

        class Game:
            def options(self, v):
                return dag[v]

        memo = {}
        for v in range(n):
            assert grundy.outcome(Game(), v, misere=True) == outcome_of(misere_wins(Game().options, v, memo))


def test_options_without_meaning_in_misere_play_are_refused(tmp_path):
    for kwargs, what in [
        ({"proof": str(tmp_path / "x.proof")}, "proof="),
        ({"online": True}, "online=True"),
        ({"threads": 1}, "threads="),
    ]:
        with pytest.raises(ValueError, match=f"{what}.*cannot be used with misere=True"):
            grundy.cram("3x3", misere=True, **kwargs)
    assert not list(tmp_path.iterdir())
    with pytest.raises(ValueError, match="cannot be used with misere=True"):
        grundy.outcome(Subtraction([1]), 3, misere=True, threads=2)
    with pytest.raises(ValueError, match="cannot be used with misere=True"):
        grundy.chomp("3x3", misere=True, threads=1)
