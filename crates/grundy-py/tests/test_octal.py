"""grundy.octal and grundy.subtraction: the same answers as ``grundy
octal``, and values equal to the definition (a mex over every option,
written here from the rules of take-and-break games)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy
from conftest import mex

CATALOGUE = ["0.77", "0.07", "0.137", "4.6", "4.07", "0.15", "0.26", "0.4", "0.51", "0.72", "0.3033", "0.16"]


def digits_of(code):
    """The digits d0, d1, ... of a code ``d0.d1d2...``."""
    before, after = code.split(".")
    return [int(before or "0", 16)] + [int(d, 16) for d in after]


def splits(total, parts):
    """The ways to write ``total`` as ``parts`` nonempty heaps (a <= b <= ...)."""
    if parts == 1:
        if total >= 1:
            yield (total,)
        return
    for first in range(1, total // parts + 1):
        for rest in splits(total - first, parts - 1):
            if rest[0] >= first:
                yield (first,) + rest


def definition(code, n_max):
    """G(0..=n_max) of ``code`` by the definition."""
    d = digits_of(code)
    values = []
    for n in range(n_max + 1):
        reached = set()
        for take, digit in enumerate(d):
            if take > n:
                break
            rest = n - take
            if take == 0 and digit & 4:
                reached.update(values[a] ^ values[b] for a, b in splits(n, 2))
                continue
            if take == 0:
                continue
            if digit & 1 and rest == 0:
                reached.add(0)
            if digit & 2 and rest >= 1:
                reached.add(values[rest])
            if digit & 4:
                reached.update(values[a] ^ values[b] for a, b in splits(rest, 2))
            if digit & 8:
                reached.update(values[a] ^ values[b] ^ values[c] for a, b, c in splits(rest, 3))
        values.append(mex(reached))
    return values


def grundys_game(n_max):
    values = []
    for n in range(n_max + 1):
        values.append(mex(values[a] ^ values[n - a] for a in range(1, (n + 1) // 2) if 2 * a != n))
    return values


@pytest.mark.parametrize("code", CATALOGUE)
def test_catalogue_games_as_the_command(command, code):
    game = grundy.octal(code)
    summary = command.json("octal", code)
    assert game.code == summary["code"]
    assert game.computed_to == summary["computed_to"]
    assert game.preperiod == summary["preperiod"]
    assert game.period == summary["period"]
    assert game.certified == summary["certified"]
    assert game.max_value == summary["max_value"]
    values = command.text("octal", code, "--values", "--to", game.computed_to).split()
    assert game.values.tolist() == [int(v) for v in values]
    assert game.summary() == command.text("octal", code)


@pytest.mark.parametrize("code", CATALOGUE)
def test_values_are_the_definition(code):
    game = grundy.octal(code)
    n = min(game.computed_to, 240)
    assert game.values[: n + 1].tolist() == definition(code, n)


@pytest.mark.parametrize("code", ["0.77", "0.07", "4.6"])
def test_the_certified_period_continues_the_definition(code):
    game = grundy.octal(code)
    e, p = game.preperiod, game.period
    far = e + 4 * p + 10
    exact = definition(code, far)
    assert [game.value(n) for n in range(far + 1)] == exact
    for n in (10**6 + 3, 2**40 + 1, 2**62, 2**63 - 1):
        assert game.value(n) == exact[e + (n - e) % p]


def test_computed_and_catalogue_agree():
    for code in ("0.77", "0.137"):
        a, b = grundy.octal(code), grundy.octal(code, online=True)
        assert a.from_catalogue and not b.from_catalogue
        assert (a.preperiod, a.period, a.computed_to) == (b.preperiod, b.period, b.computed_to)
        assert np.array_equal(a.values, b.values)


def test_an_uncertified_run_and_its_limit(command):
    game = grundy.octal(".6", to=3000)
    assert not game.certified and game.period is None and game.computed_to == 3000
    assert game.values[:400].tolist() == definition("0.6", 399)
    with pytest.raises(ValueError) as e:
        game.value(3001)
    cli = command.error("octal", ".6", "--to", "3000", "--heaps", "3001", "3000")
    # The command's message, with the Python argument in place of --to.
    assert str(e.value) == cli.replace("raise --to to 3001", "compute with to=3001 or more")


def test_grundys_game_is_never_certified():
    game = grundy.octal("grundys-game", to=500)
    assert not game.certified
    assert game.values.tolist() == grundys_game(500)


def test_values_are_a_read_only_uint32_view():
    game = grundy.octal("0.77")
    values = game.values
    assert values.dtype == np.uint32 and values.shape == (game.computed_to + 1,)
    assert not values.flags.writeable
    with pytest.raises(ValueError):
        values[0] = 5
    with pytest.raises(ValueError):
        values.flags.writeable = True
    # A view of the result's buffer: no copy at each access.
    assert values.base is not None
    del game
    assert values[:4].tolist() == [0, 1, 2, 3]


@pytest.mark.parametrize("code", ["0.77", "0.137", "4.6", "0.16"])
@pytest.mark.parametrize("heaps", [[10, 20, 30], [1], [5, 5], [100, 7, 2**61 + 5], [0, 0, 3]])
def test_outcomes_and_hints_as_the_command(command, code, heaps):
    game = grundy.octal(code)
    answer = command.json("octal", code, "--heaps", *heaps, "--hint")
    assert game.outcome(heaps) == answer["outcome"]
    hint = game.hint(heaps)
    if answer["outcome"] == "LOSE":
        assert hint is None
        return
    move = answer["move"]
    assert (hint.heap + 1, hint.size, hint.take, list(hint.leaves)) == (
        move["heap"],
        move["size"],
        move["take"],
        move["leaves"],
    )
    text = command.text("octal", code, "--heaps", *heaps, "--hint").splitlines()[1]
    assert text == "move: " + str(hint)


@settings(max_examples=40, deadline=None)
@given(
    digits=st.lists(st.integers(0, 7), min_size=1, max_size=3),
    heaps=st.lists(st.integers(0, 60), min_size=1, max_size=4),
)
def test_random_games_match_the_definition_and_hints_win(digits, heaps):
    code = "0." + "".join(map(str, digits))
    exact = definition(code, 120)
    game = grundy.octal(code, to=120, online=True)
    n = game.computed_to
    assert game.values.tolist() == exact[: n + 1]
    if game.certified:
        e, p = game.preperiod, game.period
        assert all(exact[m] == exact[e + (m - e) % p] for m in range(e, 121))
    x = 0
    for h in heaps:
        x ^= exact[h]
    assert game.outcome(heaps) == ("WIN" if x else "LOSE")
    hint = game.hint(heaps)
    assert (hint is None) == (x == 0)
    if hint is not None:
        h = heaps[hint.heap]
        assert hint.size == h and hint.take + sum(hint.leaves) == h
        d = digits_of(code)
        parts = len(hint.leaves)
        bit = {0: 1, 1: 2, 2: 4, 3: 8}[parts]
        assert hint.take < len(d) and d[hint.take] & bit
        after = x ^ exact[h]
        for leaf in hint.leaves:
            after ^= exact[leaf]
        assert after == 0


def test_subtraction_games(command):
    game = grundy.subtraction([1, 3, 4])
    assert game.code == command.json("octal", "--subtract", "1,3,4")["code"]
    assert [game.value(n) for n in range(30)] == definition(game.code, 29)
    two_five = grundy.subtraction(np.array([2, 5]))
    assert [two_five.value(n) for n in range(30)] == definition("0.03003", 29)
    assert two_five.code == "0.03003"
    with pytest.raises(ValueError) as e:
        grundy.subtraction([0])
    assert str(e.value) == command.error("octal", "--subtract", "0").replace("--subtract", "moves")


@pytest.mark.parametrize("code", ["0.x", ".", "0.", "9.7", "", "0." + "7" * 1025, "4", "0.8x", "grundys"])
def test_bad_codes_say_what_the_command_says(command, code):
    with pytest.raises(ValueError) as e:
        grundy.octal(code)
    assert str(e.value) == command.error("octal", code)


def test_progress_reaches_the_end():
    reports = []
    grundy.octal(".6", to=20000, online=True, progress=lambda done, total: reports.append((done, total)))
    assert reports and reports[-1] == (20001, 20001)
    assert all(total == 20001 for _, total in reports)
    assert [d for d, _ in reports] == sorted(d for d, _ in reports)


def test_values_stop_at_the_certified_period_and_values_to_goes_on():
    # `values` are the values computed: 0.07 certifies its period at heap
    # 175, however large `to`; `values_to(n)` continues through it.
    dawson = grundy.octal("0.07", to=1000)
    assert dawson.certified and len(dawson.values) == dawson.computed_to + 1 < 1001
    wide = dawson.values_to(1000)
    assert wide.dtype == np.uint32 and wide.shape == (1001,)
    assert wide.tolist() == [dawson.value(h) for h in range(1001)]
    assert wide[: len(dawson.values)].tolist() == dawson.values.tolist()
    assert dawson.values_to(0).tolist() == [0]
    # Uncertified: the computed heaps only, the message saying what to do.
    game = grundy.octal("grundys-game", to=100)
    assert game.values_to(100).tolist() == game.values.tolist()
    with pytest.raises(ValueError, match="to=101"):
        game.values_to(101)
    for bad in (-1, 2**31, "5", 1.5):
        with pytest.raises((ValueError, TypeError, OverflowError)):
            dawson.values_to(bad)
