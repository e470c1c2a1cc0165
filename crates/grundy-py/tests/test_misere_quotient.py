"""``grundy.misere``: misère quotients of take-and-break games, against a
plain misère search of sums of heaps written here from the games' rules
(the player who makes the last move loses), and the command's
``grundy octal CODE --misere --json``."""

import itertools
import random

import pytest

import grundy
from conftest import misere_wins


def moves_of(code):
    """The options of a heap of ``n`` under an octal code ``0.d1d2...``:
    the tuples of heaps left in its place."""
    digits = [int(d, 16) for d in code.split(".")[1]]

    def options(n):
        out = set()
        for i, d in enumerate(digits, start=1):
            rest = n - i
            if rest < 0:
                continue
            if d & 1 and rest == 0:
                out.add(())
            if d & 2 and rest >= 1:
                out.add((rest,))
            if d & 4 and rest >= 2:
                for a in range(1, rest // 2 + 1):
                    out.add((a, rest - a))
            if d & 8 and rest >= 3:
                for a in range(1, rest + 1):
                    for b in range(a, rest - a + 1):
                        c = rest - a - b
                        if c >= b:
                            out.add((a, b, c))
        return out

    return options


def misere_wins_of(code):
    """Whether the player to move wins a sum of heaps (a sorted tuple) in
    misère play, by the definition (memoised), and the sums' options."""
    options = moves_of(code)
    memo = {}

    def sum_options(heaps):
        out = set()
        for i, n in enumerate(heaps):
            rest = heaps[:i] + heaps[i + 1 :]
            for left in options(n):
                out.add(tuple(sorted(rest + left)))
        return out

    return (lambda heaps: misere_wins(sum_options, heaps, memo)), sum_options


@pytest.mark.parametrize("code", ["0.312", "0.77", "0.07", "0.137", "0.15", "0.6", "0.35", "0.4"])
def test_outcomes_and_hints_of_sums_match_the_rules(code):
    q = grundy.misere(code, to=14)
    wins, sum_options = misere_wins_of(code)
    rng = random.Random(code)
    top = min(q.computed_to, 12)
    cases = [tuple(sorted(rng.randint(0, top) for _ in range(rng.randint(1, 3)))) for _ in range(60)]
    cases += [(n,) for n in range(top + 1)]
    for heaps in cases:
        # a sum whose whole game is small enough to search here
        if sum(heaps) > 16:
            continue
        win = wins(heaps)
        assert q.outcome(heaps) == ("WIN" if win else "LOSE"), (code, heaps)
        move = q.hint(heaps)
        if not win or not sum_options(heaps):
            assert move is None, (code, heaps)
            continue
        assert move is not None, (code, heaps)
        after = list(heaps)
        assert after[move.heap] == move.size
        del after[move.heap]
        after = tuple(sorted(after + list(move.leaves)))
        assert after in sum_options(heaps) and not wins(after), (code, heaps, move)


@pytest.mark.parametrize("code", ["0.312", "0.77", "0.15", "0.31", "4.7"])
def test_the_quotient_is_the_commands(command, code):
    q = grundy.misere(code, to=40)
    answer = command.json("octal", code, "--misere", "--to", "40")
    assert q.code == answer["code"]
    assert q.computed_to == answer["computed_to"]
    assert q.order == answer["order"]
    assert q.p_portion == answer["p_portion"]
    assert q.generators == answer["generators"]
    assert q.generator_heaps == answer["generator_heaps"]
    assert q.relations == answer["relations"]
    assert q.presentation == answer["presentation"]
    assert q.pretending == answer["pretending"]
    assert (q.preperiod, q.period, q.certified) == (answer["preperiod"], answer["period"], answer["certified"])
    assert q.tame == answer["tame"]
    assert (q.stopped is None) == (answer["stopped"] is None)


def test_a_certified_quotient_answers_any_heap():
    q = grundy.misere("0.312")
    assert q.certified and q.period == 2
    # through the period: heap n and n + 2 have one element past the preperiod
    for n in (10**6, 2**62, 2**63 - 1):
        base = q.preperiod + (n - q.preperiod) % q.period
        assert q.outcome([n]) == q.outcome([base])
        assert q.outcome([n, 1]) == q.outcome([base, 1])


def test_every_small_sum_of_a_tame_game_matches_the_rules():
    q = grundy.misere("0.3")
    assert q.tame
    wins, _ = misere_wins_of("0.3")
    for heaps in itertools.combinations_with_replacement(range(6), 3):
        assert q.outcome(heaps) == ("WIN" if wins(heaps) else "LOSE")


def test_heaps_beyond_the_quotient_are_refused_with_what_to_do():
    q = grundy.misere("0.77", to=20)
    assert not q.certified and q.computed_to == 20
    with pytest.raises(ValueError, match=r"heap 21 is beyond .*0\.\.=20.*to="):
        q.outcome([21])
    with pytest.raises(ValueError, match="heap 21"):
        q.hint([3, 21])


def test_bad_arguments():
    with pytest.raises(ValueError):
        grundy.misere("0.9x")
    with pytest.raises(ValueError, match="max_order"):
        grundy.misere("0.77", max_order=0)
    with pytest.raises(ValueError, match="max_order"):
        grundy.misere("0.77", max_order=4097)
    with pytest.raises(ValueError, match="to"):
        grundy.misere("0.77", to=-1)
    with pytest.raises(TypeError):
        grundy.misere("0.77", progress=3)
    with pytest.raises(ValueError, match="heaps"):
        grundy.misere("0.312").outcome([-1])


def test_a_small_order_limit_stops_with_the_reason():
    q = grundy.misere("0.77", to=40, max_order=8)
    assert q.stopped is not None and "order limit 8 (max_order;" in q.stopped
    assert q.order <= 8 and q.computed_to < 40


def test_progress_is_reported():
    seen = []
    grundy.misere("0.77", to=30, progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1][1] == 31 and all(d <= t for d, t in seen)
