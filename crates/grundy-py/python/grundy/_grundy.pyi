"""Type stubs of the Rust core of ``grundy`` (the docstrings are in the
module itself: ``help(grundy.octal)``)."""

import os
from typing import (
    Any,
    Callable,
    Hashable,
    Iterable,
    Iterator,
    List,
    Literal,
    Optional,
    Protocol,
    Sequence,
    SupportsIndex,
    Tuple,
    TypeVar,
    Union,
    final,
    overload,
)

import numpy as np
import numpy.typing as npt

__version__: str

#: ``progress=``: None or False (no report), True (a tqdm bar), or a
#: callable taking ``(done, total)`` (``total`` None for a search).
Progress = Union[None, bool, Callable[[int, Optional[int]], object]]
#: ``memory=``: bytes, or a size as the command writes it (``"512M"``).
Memory = Union[SupportsIndex, str, None]
Path = Union[str, "os.PathLike[str]"]
Outcome = Literal["WIN", "LOSE"]

# Iterables are read up to a bound, beyond which a ValueError names the
# argument and the bound (README, "Errors and files"): heaps and tokens
# 2**24; edges of graph 2**24 (2**32 - 1 in an array), of node_kayles
# 262144; moves of subtraction and knight steps 65536; row columns 64;
# chomp rows 127; knight_grid sides 4096; a Cram board 16 x 16 and heatmap
# values 4096 x 4096 when not an array; a pair or a step 2 items (3 from a
# graph's data view). Ctrl-C interrupts any reading. A game's options and
# components count against memory= as they are read (MemoryError).

class ProofError(ValueError): ...

class CycleError(ValueError):
    position: Any

# Take-and-break games.

@final
class HeapMove:
    @property
    def heap(self) -> int: ...
    @property
    def size(self) -> int: ...
    @property
    def take(self) -> int: ...
    @property
    def leaves(self) -> Tuple[int, ...]: ...

@final
class OctalGame:
    @property
    def code(self) -> str: ...
    @property
    def computed_to(self) -> int: ...
    @property
    def preperiod(self) -> Optional[int]: ...
    @property
    def period(self) -> Optional[int]: ...
    @property
    def certified(self) -> bool: ...
    @property
    def max_value(self) -> int: ...
    @property
    def from_catalogue(self) -> bool: ...
    @property
    def values(self) -> npt.NDArray[np.uint32]: ...
    # n below 2**31.
    def values_to(self, n: SupportsIndex) -> npt.NDArray[np.uint32]: ...
    def value(self, n: SupportsIndex) -> int: ...
    # At most 2**24 heaps.
    def outcome(self, heaps: Iterable[SupportsIndex]) -> Outcome: ...
    def hint(self, heaps: Iterable[SupportsIndex]) -> Optional[HeapMove]: ...
    def summary(self) -> str: ...
    def __len__(self) -> int: ...

def octal(
    code: str,
    *,
    to: Optional[SupportsIndex] = None,
    threads: Optional[SupportsIndex] = None,
    online: bool = False,
    progress: Progress = None,
) -> OctalGame: ...
def subtraction(
    moves: Iterable[SupportsIndex],  # at most 65536, each from 1 to 1024
    *,
    to: Optional[SupportsIndex] = None,
    threads: Optional[SupportsIndex] = None,
    online: bool = False,
    progress: Progress = None,
) -> OctalGame: ...

# Two-dimensional games.

#: At most 65536 steps, each a pair of 32-bit integers.
Steps = Union[str, Iterable[Tuple[SupportsIndex, SupportsIndex]], None]

def knight(x: SupportsIndex, y: SupportsIndex, moves: Steps = None) -> int: ...
# At most 4096 coordinates a side.
def knight_grid(
    xs: Iterable[SupportsIndex], ys: Iterable[SupportsIndex], moves: Steps = None
) -> npt.NDArray[np.uint32]: ...
# At most 64 columns.
def row(columns: Iterable[SupportsIndex], width: Optional[SupportsIndex] = 20) -> int: ...
def row_grid(width: SupportsIndex) -> npt.NDArray[np.uint32]: ...

# Graphs with cycles.

@final
class Loopy:
    @property
    def options(self) -> Tuple[int, ...]: ...

@final
class TokenMove:
    @property
    def token(self) -> int: ...
    @property
    def from_(self) -> int: ...
    @property
    def to(self) -> int: ...

@final
class NodeValues:
    """A sequence by index (``len``, ``[i]``, slices, iteration, ``in``);
    not a ``collections.abc.Sequence`` (no ``index`` nor ``count``)."""

    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: SupportsIndex, /) -> Union[int, Loopy]: ...
    @overload
    def __getitem__(self, index: slice, /) -> list[Union[int, Loopy]]: ...
    # Iteration and ``in`` go through ``__getitem__`` at runtime.
    def __iter__(self) -> Iterator[Union[int, Loopy]]: ...
    def __contains__(self, value: object, /) -> bool: ...

@final
class GraphGame:
    @property
    def n(self) -> int: ...
    @property
    def values(self) -> NodeValues: ...
    def value(self, node: SupportsIndex) -> Union[int, Loopy]: ...
    # At most 2**24 tokens.
    def outcome(self, tokens: Iterable[SupportsIndex]) -> Literal["WIN", "LOSE", "DRAW"]: ...
    def hint(self, tokens: Iterable[SupportsIndex]) -> Optional[TokenMove]: ...

class _HasEdges(Protocol):
    def edges(self) -> Iterable[Tuple[Any, Any]]: ...

#: graph: at most 2**24 edges listed, 2**32 - 1 in an array; node_kayles:
#: at most 262144.
Edges = Union[Iterable[Tuple[SupportsIndex, SupportsIndex]], npt.NDArray[np.integer[Any]], _HasEdges]

def graph(n: SupportsIndex, edges: Edges) -> GraphGame: ...

# Misère quotients of take-and-break games.

@final
class MisereQuotient:
    @property
    def code(self) -> str: ...
    @property
    def computed_to(self) -> int: ...
    @property
    def order(self) -> int: ...
    @property
    def p_portion(self) -> List[str]: ...
    @property
    def generators(self) -> List[str]: ...
    @property
    def generator_heaps(self) -> List[int]: ...
    @property
    def relations(self) -> List[str]: ...
    @property
    def presentation(self) -> str: ...
    @property
    def pretending(self) -> List[str]: ...
    @property
    def preperiod(self) -> Optional[int]: ...
    @property
    def period(self) -> Optional[int]: ...
    @property
    def certified(self) -> bool: ...
    @property
    def tame(self) -> bool: ...
    @property
    def max_order(self) -> int: ...
    @property
    def stopped(self) -> Optional[str]: ...
    def outcome(self, heaps: Iterable[SupportsIndex]) -> Outcome: ...
    def hint(self, heaps: Iterable[SupportsIndex]) -> Optional[HeapMove]: ...

def misere(
    code: str,
    *,
    to: Optional[SupportsIndex] = None,
    max_order: Optional[SupportsIndex] = None,
    progress: Progress = None,
) -> MisereQuotient: ...

# Searched games and their certificates.

@final
class SearchResult:
    @property
    def game(self) -> str: ...
    @property
    def nimber(self) -> Optional[int]: ...  # None with misere=True
    @property
    def outcome(self) -> Outcome: ...
    @property
    def misere(self) -> bool: ...
    @property
    def hint(self) -> Any: ...
    @property
    def hint_text(self) -> Optional[str]: ...
    @property
    def positions(self) -> int: ...
    @property
    def seconds(self) -> float: ...

@final
class CheckedProof:
    @property
    def game(self) -> str: ...
    @property
    def nimber(self) -> int: ...
    @property
    def positions(self) -> int: ...
    def __len__(self) -> int: ...
    def __getitem__(self, index: SupportsIndex, /) -> Union[str, int]: ...
    def __iter__(self) -> Iterator[Union[str, int]]: ...

Board = Union[str, Sequence[str], npt.NDArray[np.bool_], Sequence[Sequence[bool]]]

def cram(
    board: Board,
    *,
    threads: Optional[SupportsIndex] = None,
    memory: Memory = None,
    proof: Optional[Path] = None,
    online: bool = False,
    hint: bool = True,
    misere: bool = False,
    progress: Progress = None,
) -> SearchResult: ...
def node_kayles(
    n: SupportsIndex,
    edges: Edges,
    *,
    threads: Optional[SupportsIndex] = None,
    memory: Memory = None,
    proof: Optional[Path] = None,
    online: bool = False,
    hint: bool = True,
    misere: bool = False,
    progress: Progress = None,
) -> SearchResult: ...
def chomp(
    rows: Union[str, Iterable[SupportsIndex]],  # at most 127 rows read
    *,
    threads: Optional[SupportsIndex] = None,
    memory: Memory = None,
    proof: Optional[Path] = None,
    online: bool = False,
    hint: bool = True,
    misere: bool = False,
    progress: Progress = None,
) -> SearchResult: ...
def check_proof(path: Path) -> CheckedProof: ...

# Games defined in Python.

P = TypeVar("P", bound=Hashable)

class Game(Protocol[P]):
    """A game: ``options(position)``; optionally ``components(position)``
    and ``canonical(position)`` (not part of the protocol, looked up by
    name)."""

    def options(self, position: P) -> Iterable[P]: ...

def nimber(
    game: Game[P],
    position: P,
    *,
    memory: Memory = None,
    threads: Optional[SupportsIndex] = None,
    progress: Progress = None,
) -> int: ...
def outcome(
    game: Game[P],
    position: P,
    *,
    memory: Memory = None,
    threads: Optional[SupportsIndex] = None,
    misere: bool = False,
    progress: Progress = None,
) -> Outcome: ...
def winning_move(
    game: Game[P],
    position: P,
    *,
    memory: Memory = None,
    threads: Optional[SupportsIndex] = None,
    misere: bool = False,
    progress: Progress = None,
) -> Optional[P]: ...

# Pictures.

@final
class Heatmap:
    def _repr_png_(self) -> bytes: ...
    @property
    def png(self) -> bytes: ...
    @property
    def shape(self) -> Tuple[int, int]: ...
    @property
    def size(self) -> Tuple[int, int]: ...
    @property
    def scale(self) -> int: ...
    @property
    def values(self) -> npt.NDArray[np.uint32]: ...
    def save(self, path: Path) -> None: ...
    # Draws with matplotlib (installed apart); returns the axes.
    def plot(self, ax: Optional[Any] = None) -> Any: ...

def heatmap(
    values: Union[npt.ArrayLike, Sequence[Sequence[int]]],
    *,
    scale: Optional[SupportsIndex] = None,
    width: Optional[SupportsIndex] = None,
) -> Heatmap: ...
