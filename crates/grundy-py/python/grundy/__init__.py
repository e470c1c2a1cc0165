"""Impartial games solved exactly with Sprague-Grundy theory.

The Python face of the ``grundy`` command and its Rust libraries:

- take-and-break games: :func:`octal`, :func:`subtraction` (values as numpy
  arrays, periods certified by the periodicity theorem, who wins a sum of
  heaps and how), and :func:`misere` (their misère quotients);
- two-dimensional games: :func:`knight`, :func:`knight_grid`, :func:`row`,
  :func:`row_grid`; pictures: :func:`heatmap`;
- graphs with cycles (draws): :func:`graph`;
- searched games with checkable proofs: :func:`cram`, :func:`node_kayles`,
  :func:`chomp`, :func:`check_proof` (and misère play, ``misere=True``);
- games defined in Python, solved by the Rust search: :func:`nimber`,
  :func:`outcome`, :func:`winning_move`.

>>> import grundy
>>> grundy.octal("0.77").period
12
"""

from grundy._grundy import (
    CheckedProof,
    CycleError,
    GraphGame,
    HeapMove,
    Heatmap,
    Loopy,
    MisereQuotient,
    NodeValues,
    OctalGame,
    ProofError,
    SearchResult,
    TokenMove,
    __version__,
    check_proof,
    chomp,
    cram,
    graph,
    heatmap,
    knight,
    knight_grid,
    misere,
    nimber,
    node_kayles,
    octal,
    outcome,
    row,
    row_grid,
    subtraction,
    winning_move,
)

__all__ = [
    "CheckedProof",
    "CycleError",
    "GraphGame",
    "HeapMove",
    "Heatmap",
    "Loopy",
    "MisereQuotient",
    "NodeValues",
    "OctalGame",
    "ProofError",
    "SearchResult",
    "TokenMove",
    "__version__",
    "check_proof",
    "chomp",
    "cram",
    "graph",
    "heatmap",
    "knight",
    "knight_grid",
    "misere",
    "nimber",
    "node_kayles",
    "octal",
    "outcome",
    "row",
    "row_grid",
    "subtraction",
    "winning_move",
]
