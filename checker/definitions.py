"""Nimbers by the definition (the mex of the options' nimbers, no
components, no symmetries, no rules of thumb), for the tests of the
checkers: small Cram boards, graphs and Chomp diagrams, on plain sets of
cells, vertices and row lengths."""

from functools import lru_cache


def mex(values):
    m = 0
    while m in values:
        m += 1
    return m


def cram(cells):
    """Cram on the set of free cells `(row, column)`."""
    return _cram(frozenset(cells))


@lru_cache(maxsize=None)
def _cram(cells):
    options = set()
    for r, c in cells:
        for other in ((r, c + 1), (r + 1, c)):
            if other in cells:
                options.add(_cram(cells - {(r, c), other}))
    return mex(options)


def node_kayles(n, edges, vertices=None):
    """Node-Kayles on the graph of `n` vertices and `edges`, from the set
    `vertices` (every vertex when None)."""
    closed = [1 << v for v in range(n)]
    for u, v in edges:
        closed[u] |= 1 << v
        closed[v] |= 1 << u
    memo = {}

    def nimber(left):
        if left in memo:
            return memo[left]
        options = set()
        rest = left
        while rest:
            v = (rest & -rest).bit_length() - 1
            rest &= rest - 1
            options.add(nimber(left & ~closed[v]))
        memo[left] = mex(options)
        return memo[left]

    start = (1 << n) - 1 if vertices is None else sum(1 << v for v in vertices)
    return nimber(start)


@lru_cache(maxsize=None)
def chomp(rows):
    """Chomp on the diagram of row lengths `rows` (a tuple, from the top);
    the cell (0, 0) is poisoned: a player who cannot bite another loses."""
    options = set()
    for r, length in enumerate(rows):
        for c in range(length):
            if (r, c) != (0, 0):
                options.add(chomp(tuple(x if i < r else min(x, c) for i, x in enumerate(rows) if i < r or c > 0)))
    return mex(options)
