"""Node-Kayles on a grid, defined in a few lines of Python and solved by
grundy's Rust search.

Node-Kayles: players in turn pick a vertex and remove it with its
neighbours; the player who cannot pick one loses. A position is the
frozenset of the vertices left. Two methods make big grids tractable:

- ``components``: the connected parts of what is left. They are played
  independently (a disjunctive sum), so their nimbers are XORed: the
  search works on small parts instead of whole positions.
- ``canonical``: a part moved to the origin and turned to the smallest of
  its mirror images, so that the same shape anywhere on the board is
  solved once.

Run it:  python examples/node_kayles_grid.py [ROWS] [MAX_COLUMNS]
"""

import sys
import time

import grundy


class GridNodeKayles:
    """Node-Kayles on the grid graph (4-neighbours)."""

    @staticmethod
    def closed(v):
        """``v`` and its neighbours."""
        r, c = v
        return {(r, c), (r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)}

    def options(self, left):
        """Pick a vertex: it goes with its neighbours."""
        return [left - self.closed(v) for v in left]

    def components(self, left):
        """The connected parts of what is left."""
        parts, seen = [], set()
        for start in left:
            if start in seen:
                continue
            part, stack = set(), [start]
            while stack:
                v = stack.pop()
                if v not in part:
                    part.add(v)
                    stack.extend(w for w in self.closed(v) if w in left and w not in part)
            seen |= part
            parts.append(frozenset(part))
        return parts

    def canonical(self, part):
        """The part moved to the origin, the least of its four mirror images
        (a grid's part has no other symmetry that keeps it on the grid)."""
        if not part:
            return part
        images = []
        for flip_r in (1, -1):
            for flip_c in (1, -1):
                cells = [(flip_r * r, flip_c * c) for r, c in part]
                r0 = min(r for r, _ in cells)
                c0 = min(c for _, c in cells)
                images.append(tuple(sorted((r - r0, c - c0) for r, c in cells)))
        return frozenset(min(images))


def grid(rows, cols):
    return frozenset((r, c) for r in range(rows) for c in range(cols))


def grid_edges(rows, cols):
    edges = [(r * cols + c, r * cols + c + 1) for r in range(rows) for c in range(cols - 1)]
    edges += [(r * cols + c, (r + 1) * cols + c) for r in range(rows - 1) for c in range(cols)]
    return edges


def main():
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    max_cols = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    game = GridNodeKayles()
    print(f"Node-Kayles on {rows} x n grids: nimber (Python game) = nimber (built in)")
    for cols in range(1, max_cols + 1):
        start = time.perf_counter()
        nimber = grundy.nimber(game, grid(rows, cols))
        seconds = time.perf_counter() - start
        builtin = grundy.node_kayles(rows * cols, grid_edges(rows, cols)).nimber
        assert nimber == builtin, (cols, nimber, builtin)
        board = grid(rows, cols)
        move = grundy.winning_move(game, board)
        picked = [v for v in sorted(board) if move is not None and board - game.closed(v) == move]
        hint = f", the first player wins by picking {picked[0]}" if picked else ""
        print(f"  {rows} x {cols:2}: nimber {nimber} ({seconds:.3f} s){hint}")


if __name__ == "__main__":
    main()
