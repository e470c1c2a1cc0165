#!/usr/bin/env python3
"""A second checker of grundy's proof files, written from the format's
specification (crates/sg-search/PROOF.md) alone: it shares no code with
grundy's own checker (`grundy proof check`, the Rust module
sg_search::proof), and reads the rules of each game from their definition
there, as a SAT solver's DRAT proof is checked by a separate drat-trim.

Usage: python3 grundy_proof_check.py FILE [FILE ...]

A FILE may be gzip-compressed (it then ends in .gz). For each file, prints
`FILE: GAME: nimber N (K claims checked)` when the certificate proves the
nimber of its game's start, or `FILE: refused: WHY` naming the first claim
that fails; a file that cannot be read (missing, not a regular file, over
1 GiB, a damaged .gz) is named on standard error and the others are still
checked. Exit status 0 when every file checks, 1 when one is refused, 2
on a usage error or when a file cannot be read.

Unlike grundy, this checker recognises a component as the same game as a
claimed position by a canonical form of its own (the smallest image of
the shape under the symmetries of the square, however it lies), so it
depends on nothing of grundy's but the format.
"""

import gzip
import os
import stat
import sys
import zlib

MAGIC = b"GRUNDYP\x00"
VERSION = 2
# The most symmetries a Node-Kayles graph lists.
MAX_SYMMETRIES = 63
# The largest file read (decompressed, for a .gz file), as grundy's.
MAX_BYTES = 1 << 30


class Refused(Exception):
    """The certificate does not prove what it states."""


# -- postcard ---------------------------------------------------------------


class Reader:
    """Postcard values, one after the other, from `data`."""

    def __init__(self, data, what):
        self.data = data
        self.at = 0
        self.what = what

    def fail(self, why):
        raise Refused(f"{self.what}: {why} (at byte {self.at})")

    def varint(self, bits):
        # At most 5 bytes for 32 bits, 10 for 64.
        value, shift, most = 0, 0, (bits + 6) // 7
        for count in range(1, most + 1):
            if self.at >= len(self.data):
                self.fail("it ends inside a number")
            byte = self.data[self.at]
            self.at += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
            if count == most:
                self.fail(f"a number is longer than {most} bytes")
        if value >> bits:
            self.fail(f"a number does not fit in {bits} bits")
        return value

    def u32(self):
        return self.varint(32)

    def u64(self):
        return self.varint(64)

    def raw(self, n):
        if n > len(self.data) - self.at:
            self.fail(f"it ends inside a list of {n} bytes")
        out = self.data[self.at : self.at + n]
        self.at += n
        return out

    def string(self):
        try:
            return self.raw(self.u64()).decode("utf-8")
        except UnicodeDecodeError:
            self.fail("a string is not UTF-8")

    def list_of(self, item):
        return [item() for _ in range(self.u64())]

    def position(self):
        """A position: its bytes, least significant first, as an integer."""
        raw = self.raw(self.u64())
        if raw and raw[-1] == 0:
            self.fail("a position ends in a zero byte")
        return int.from_bytes(raw, "little")

    def done(self):
        return self.at == len(self.data)


# -- shapes on a square lattice ----------------------------------------------


def shape_key(cells):
    """The canonical form of a set of cells `(row, column)` under
    translations and the eight symmetries of the square (see
    `rows_key`)."""
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    rows = [0] * (max(r for r, _ in cells) - top + 1)
    for r, c in cells:
        rows[r - top] |= 1 << (c - left)
    return rows_key(rows)


def lanes_key(bits, lane):
    """`rows_key` of the set `bits` whose rows are lanes of `lane` bits."""
    mask = (1 << lane) - 1
    rows = []
    while bits:
        rows.append(bits & mask)
        bits >>= lane
    while not rows[0]:
        rows.pop(0)
    left = min((r & -r).bit_length() for r in rows if r) - 1
    return rows_key([r >> left for r in rows])


def rows_key(rows):
    """The canonical form of a shape given as its rows, each a mask of
    columns (bit c for column c), its first and last rows and its column
    0 not empty: of its images under the eight symmetries of the square
    (each a shape as given), those with no more rows than columns, the
    smallest as a tuple of rows, with the shape's two sides. Every image
    of a shape has the same key, and only its images do."""
    h = len(rows)
    w = max(r.bit_length() for r in rows)
    images = []
    if h <= w:
        images += four_images(tuple(rows), w)
    if w <= h:
        transposed = tuple(sum(((row >> c) & 1) << r for r, row in enumerate(rows)) for c in range(w))
        images += four_images(transposed, h)
    return (min(h, w), max(h, w), min(images))


def four_images(rows, width):
    """`rows` (of `width` columns), mirrored, upside down and turned by
    half a turn."""
    mirrored = tuple(int(format(r, f"0{width}b")[::-1], 2) for r in rows)
    return [rows, mirrored, rows[::-1], mirrored[::-1]]


def box_involutions(cells, square_turns):
    """The involutions of the bounding box of `cells` (each a function of a
    cell): mirror, upside down, half turn, and the two diagonal
    reflections when the box is square (and `square_turns`)."""
    top = min(r for r, _ in cells)
    bottom = max(r for r, _ in cells)
    left = min(c for _, c in cells)
    right = max(c for _, c in cells)
    maps = [
        lambda r, c: (r, left + right - c),
        lambda r, c: (top + bottom - r, c),
        lambda r, c: (top + bottom - r, left + right - c),
    ]
    if square_turns and bottom - top == right - left:
        maps.append(lambda r, c: (top + c - left, left + r - top))
        maps.append(lambda r, c: (top + right - c, left + bottom - r))
    return maps


def symmetric_loss(cells, maps, joined):
    """Whether one of the involutions `maps` maps the set of `cells` onto
    itself with no cell taken to itself or to a cell it is `joined` to."""
    present = set(cells)
    for t in maps:
        if all(t(*x) in present for x in cells) and not any(
            t(*x) == x or joined(x, t(*x)) for x in cells
        ):
            return True
    return False


def side_by_side(a, b):
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def bits_of(n):
    """The bits set in `n`, increasing."""
    out = []
    while n:
        low = n & -n
        out.append(low.bit_length() - 1)
        n ^= low
    return out


def mex(values):
    m = 0
    while m in values:
        m += 1
    return m


# -- the games ----------------------------------------------------------------


class Cram:
    name = "cram"

    def __init__(self, reader):
        rows, cols = reader.u32(), reader.u32()
        blocked = reader.list_of(lambda: (reader.u32(), reader.u32()))
        if rows == 0 or cols == 0:
            raise Refused("the rules are not valid: a side of the board is 0")
        if blocked != sorted(set(blocked)):
            raise Refused("the rules are not valid: blocked cells not sorted and distinct")
        if any(r >= rows or c >= cols for r, c in blocked):
            raise Refused("the rules are not valid: a blocked cell is outside the board")
        layout = None
        for width in (64, 128):
            for s in (8, 16):
                lanes = width // s
                if cols <= s and rows <= lanes:
                    layout = (width, s, False)
                elif rows <= s and cols <= lanes:
                    layout = (width, s, True)
                if layout:
                    break
            if layout:
                break
        if layout is None:
            raise Refused(f"the rules are not valid: a {rows}x{cols} board fits no layout")
        self.width, self.s, transposed = layout
        self.describe = f"cram {rows}x{cols}" + (
            f" with {len(blocked)} blocked cell{'s' * (len(blocked) != 1)}" if blocked else ""
        )
        s = self.s
        self.lane_end = sum(1 << (lane * s + s - 1) for lane in range(self.width // s))
        self.lane_start = sum(1 << (lane * s) for lane in range(self.width // s))
        self.all = (1 << self.width) - 1
        start = 0
        for r in range(rows):
            for c in range(cols):
                if (r, c) not in blocked:
                    sr, sc = (c, r) if transposed else (r, c)
                    start |= 1 << (s * sr + sc)
        self.start = start

    def valid(self, position):
        return position >> self.width == 0

    def moves(self, position):
        s = self.s
        horizontal = position & (position >> 1) & ~self.lane_end
        vertical = position & (position >> s)
        h = [(1 << b) | (1 << (b + 1)) for b in bits_of(horizontal)]
        v = [(1 << b) | (1 << (b + s)) for b in bits_of(vertical)]
        return v + h if s == 16 else h + v

    def play(self, position, move):
        return position & ~move

    def components(self, position):
        s, parts, rest = self.s, [], position
        not_first, not_last = ~self.lane_start, ~self.lane_end
        while rest:
            part = rest & -rest
            while True:
                grown = (
                    part | ((part << 1) & not_first) | ((part >> 1) & not_last) | (part << s) | (part >> s)
                ) & position
                if grown == part:
                    break
                part = grown
            rest &= ~part
            if part & (part - 1):
                parts.append(part)
        return parts

    def cells(self, part):
        return [divmod(b, self.s) for b in bits_of(part)]

    def rule_nimber(self, part):
        if bin(part).count("1") <= 3:
            return 1
        cells = self.cells(part)
        half_turn = box_involutions(cells, False)[2]
        if symmetric_loss(cells, [half_turn], side_by_side):
            return 0
        return None

    def key(self, part):
        return lanes_key(part, self.s)


class NodeKayles:
    name = "node-kayles"

    def __init__(self, reader):
        n = reader.u32()
        edges = reader.list_of(lambda: (reader.u32(), reader.u32()))
        symmetries = reader.list_of(lambda: reader.list_of(reader.u32))
        if n > 256:
            raise Refused(f"the rules are not valid: {n} vertices, more than 256")
        if edges != sorted(set(edges)) or any(not u < v < n for u, v in edges):
            raise Refused("the rules are not valid: the edges are not sorted, distinct pairs u < v of vertices")
        self.n = n
        self.describe = (
            f"node-kayles, {n} {'vertex' if n == 1 else 'vertices'}, "
            f"{len(edges)} {'edge' if len(edges) == 1 else 'edges'}"
        )
        self.closed = [1 << v for v in range(n)]
        for u, v in edges:
            self.closed[u] |= 1 << v
            self.closed[v] |= 1 << u
        self.start = (1 << n) - 1
        self.grid = None
        for rows in range(1, n + 1):
            if n % rows == 0 and set(edges) == grid_edges(rows, n // rows):
                self.grid = (rows, n // rows)
                break
        if self.grid and symmetries:
            raise Refused("the rules are not valid: a grid lists symmetries")
        if self.grid:
            rows, cols = self.grid
            first = sum(1 << (r * cols) for r in range(rows))
            self.not_first = self.start & ~first
            self.not_last = self.start & ~(first << (cols - 1))
        if len(symmetries) > MAX_SYMMETRIES:
            raise Refused(f"the rules are not valid: {len(symmetries)} symmetries, more than {MAX_SYMMETRIES}")
        listed = {}
        for i, p in enumerate(symmetries):
            if tuple(p) in listed:
                raise Refused(f"the rules are not valid: symmetry {i} is symmetry {listed[tuple(p)]} again")
            listed[tuple(p)] = i
        edge_set = set(edges)
        for i, p in enumerate(symmetries):
            if sorted(p) != list(range(n)) or p == list(range(n)):
                raise Refused(f"the rules are not valid: symmetry {i} is no permutation other than the identity")
            if any((min(p[u], p[v]), max(p[u], p[v])) not in edge_set for u, v in edges):
                raise Refused(f"the rules are not valid: symmetry {i} maps an edge to no edge")
        self.symmetries = symmetries
        self.involutions = [p for p in symmetries if all(p[p[v]] == v for v in range(n))]
        self.dawson = [0]
        for m in range(1, n + 1):
            self.dawson.append(
                mex({self.dawson[max(i - 1, 0)] ^ self.dawson[max(m - i - 2, 0)] for i in range(m)})
            )

    def valid(self, position):
        return position & ~self.start == 0

    def moves(self, position):
        return bits_of(position)

    def play(self, position, vertex):
        return position & ~self.closed[vertex]

    def components(self, position):
        if self.grid:
            return self.grid_components(position)
        parts, rest = [], position
        while rest:
            part = frontier = rest & -rest
            while frontier:
                grown = 0
                for v in bits_of(frontier):
                    grown |= self.closed[v]
                frontier = grown & position & ~part
                part |= frontier
            rest &= ~part
            parts.append(part)
        return parts

    def grid_components(self, position):
        """Components grown a layer of neighbours at a time, by shifts."""
        cols, not_first, not_last = self.grid[1], self.not_first, self.not_last
        parts, rest = [], position
        while rest:
            part = rest & -rest
            while True:
                grown = (part | (part & not_last) << 1 | (part & not_first) >> 1 | part << cols | part >> cols) & position
                if grown == part:
                    break
                part = grown
            rest &= ~part
            parts.append(part)
        return parts

    def image(self, p, part):
        out = 0
        for v in bits_of(part):
            out |= 1 << p[v]
        return out

    def rule_nimber(self, part):
        if self.grid and bin(part).count("1") > 5:
            # Quicker on a grid: the rules of degrees need as many edges as
            # vertices or one fewer, a symmetric loss a symmetric shape.
            cols = self.grid[1]
            k = bin(part).count("1")
            e = bin(part & (part >> 1) & self.not_last).count("1") + bin(part & (part >> cols)).count("1")
            if e not in (k - 1, k) and not self.symmetric_shape(part):
                return None
        vertices = bits_of(part)
        k = len(vertices)
        if k <= 1:
            return k
        degrees = [bin(self.closed[v] & part).count("1") - 1 for v in vertices]
        e = sum(degrees) // 2
        if e == k * (k - 1) // 2:
            return 1
        if k >= 3 and e == k - 1 and max(degrees) == k - 1:
            return 2 if (k - 1) % 2 == 0 else 1
        if max(degrees) <= 2 and e == k - 1:
            return self.dawson[k]
        if max(degrees) == 2 and min(degrees) == 2 and e == k and k >= 4:
            return 1 if self.dawson[k - 3] == 0 else 0
        if self.grid:
            cols = self.grid[1]
            cells = [divmod(v, cols) for v in vertices]
            if symmetric_loss(cells, box_involutions(cells, True), side_by_side):
                return 0
        else:
            for p in self.involutions:
                if self.image(p, part) == part and not any(
                    p[v] == v or self.closed[v] >> p[v] & 1 for v in vertices
                ):
                    return 0
        return None

    def symmetric_shape(self, part):
        """Whether the shape of `part` on the grid is its own image under
        a mirror, upside down, a half turn or a diagonal reflection."""
        cols = self.grid[1]
        mask = (1 << cols) - 1
        rows = [(part >> (r * cols)) & mask for r in range(self.grid[0])]
        while not rows[-1]:
            rows.pop()
        while not rows[0]:
            rows.pop(0)
        left = min((r & -r).bit_length() for r in rows if r) - 1
        rows = tuple(r >> left for r in rows)
        w = max(r.bit_length() for r in rows)
        images = four_images(rows, w)[1:]
        if len(rows) == w:
            transposed = tuple(sum(((row >> c) & 1) << r for r, row in enumerate(rows)) for c in range(w))
            images += [transposed, four_images(transposed, w)[3]]
        return rows in images

    def key(self, part):
        if self.grid:
            return lanes_key(part, self.grid[1])
        best = part
        while True:
            lower = min([best] + [self.image(p, best) for p in self.symmetries])
            if lower == best:
                return best
            best = lower


def grid_edges(rows, cols):
    edges = set()
    for r in range(rows):
        for c in range(cols):
            v = r * cols + c
            if c + 1 < cols:
                edges.add((v, v + 1))
            if r + 1 < rows:
                edges.add((v, v + cols))
    return edges


class Chomp:
    name = "chomp"

    def __init__(self, reader):
        rows = reader.list_of(reader.u32)
        if not rows or any(r == 0 for r in rows) or rows != sorted(rows, reverse=True):
            raise Refused("the rules are not valid: rows must be non-increasing, each at least 1")
        if len(rows) + rows[0] > 127:
            raise Refused("the rules are not valid: more than 127 rows and columns")
        self.describe = "chomp " + (
            f"{len(rows)}x{rows[0]}" if len(set(rows)) == 1 else ",".join(map(str, rows))
        )
        self.start = self.encode(tuple(rows))
        self.bits = 64 if len(rows) + rows[0] <= 63 else 128

    @staticmethod
    def encode(rows):
        bits, at, x = 0, 0, 0
        for length in reversed(rows):
            at += length - x
            x = length
            bits |= 1 << at
            at += 1
        return bits | 1 << at

    @staticmethod
    def decode(bits):
        """Row lengths from the top, or None when `bits` is no diagram."""
        if bits < 2:
            return None
        steps = bits.bit_length() - 1
        lengths, x = [], 0
        for i in range(steps):
            if bits >> i & 1:
                lengths.append(x)
            else:
                x += 1
        rows = tuple(reversed(lengths))
        if not rows or rows[-1] == 0 or Chomp.encode(rows) != bits:
            return None
        return rows

    def valid(self, position):
        return position >> self.bits == 0 and self.decode(position) is not None

    def moves(self, position):
        rows = self.decode(position)
        return [(r, c) for r, length in enumerate(rows) for c in range(1 if r == 0 else 0, length)]

    def play(self, position, move):
        r, c = move
        rows = self.decode(position)
        return self.encode(tuple(length if i < r else min(length, c) for i, length in enumerate(rows) if i < r or c > 0))

    def components(self, position):
        return [position]

    def rule_nimber(self, part):
        rows = self.decode(part)
        cols = rows[0]
        if sum(rows) == len(rows) + cols - 1:
            return (len(rows) - 1) ^ (cols - 1)
        transposed = transpose(rows)
        for shape in (rows, transposed):
            if len(shape) == 2 and shape[1] == shape[0] - 1:
                return 0
        return None

    def key(self, part):
        rows = self.decode(part)
        return min(rows, transpose(rows))


def transpose(rows):
    return tuple(sum(1 for length in rows if length > c) for c in range(rows[0]))


GAMES = {game.name: game for game in (Cram, NodeKayles, Chomp)}


# -- the check ----------------------------------------------------------------


class Checker:
    def __init__(self, game):
        self.game = game
        self.claimed = {}
        self.exact = set()
        self.seen = {}

    def value(self, position):
        """The value of `position` from the claims so far, or None and a
        component without a claim."""
        game, odd, x = self.game, {}, 0
        for part in game.components(position):
            known = self.seen.get(part)
            if known is None:
                n = game.rule_nimber(part)
                known = ("n", n) if n is not None else ("k", game.key(part))
                self.seen[part] = known
            if known[0] == "n":
                x ^= known[1]
            else:
                odd[known[1]] = odd.get(known[1], 0) ^ 1
        for key, parity in odd.items():
            if parity:
                if key not in self.claimed:
                    return None
                x ^= self.claimed[key]
        return x

    def claim(self, position, v, witness):
        game = self.game
        if position in self.exact:
            raise Refused("its position is claimed before")
        self.exact.add(position)
        moves = game.moves(position)
        if len(witness) != v + len(moves):
            raise Refused(f"its witness has {len(witness)} entries, not {v} + {len(moves)}")
        for j in range(v):
            if witness[j] >= len(moves):
                raise Refused(f"the move {witness[j]} given for nimber {j} does not exist")
            got = self.value(game.play(position, moves[witness[j]]))
            if got != j:
                raise Refused(f"the move {witness[j]} given for nimber {j} leads to {self.shown(got)}")
        for i, move in enumerate(moves):
            option = game.play(position, move)
            entry = witness[v + i]
            if entry == 0:
                got = self.value(option)
                if got is None or got == v:
                    raise Refused(f"the move {i} leads to {self.shown(got)}, and has no reply")
                continue
            replies = game.moves(option)
            if entry - 1 >= len(replies):
                raise Refused(f"the reply {entry - 1} to the move {i} does not exist")
            got = self.value(game.play(option, replies[entry - 1]))
            if got != v:
                raise Refused(f"the reply {entry - 1} to the move {i} leads to {self.shown(got)}, not {v}")
        key = game.key(position)
        if key in self.claimed:
            raise Refused(f"the same game (under the symmetries) is claimed before, with nimber {self.claimed[key]}")
        self.claimed[key] = v

    @staticmethod
    def shown(value):
        return "a component not claimed before" if value is None else f"nimber {value}"


def check(data):
    """What the certificate `data` proves: (game, nimber, claims); raises
    Refused with the first failure."""
    if len(data) < 64:
        raise Refused(f"the file is truncated: {len(data)} bytes, fewer than the header's 64")
    if data[:8] != MAGIC:
        raise Refused("not a grundy proof file")
    if int.from_bytes(data[8:12], "little") != 0x01020304:
        raise Refused("bad endianness word")
    version = int.from_bytes(data[12:16], "little")
    if version != VERSION:
        raise Refused(f"unsupported version {version} (this checker reads version {VERSION})")
    if any(data[36:64]):
        raise Refused("the reserved bytes of the header are not zero")
    m = int.from_bytes(data[16:20], "little")
    n = int.from_bytes(data[24:32], "little")
    if 64 + m + n != len(data):
        raise Refused(f"the header describes {64 + m + n} bytes, the file has {len(data)}")
    metadata, payload = data[64 : 64 + m], data[64 + m :]
    if zlib.crc32(metadata) != int.from_bytes(data[20:24], "little"):
        raise Refused("the metadata checksum does not match")
    if zlib.crc32(payload) != int.from_bytes(data[32:36], "little"):
        raise Refused("the payload checksum does not match")
    meta = Reader(metadata, "the metadata")
    name = meta.string()
    if name not in GAMES:
        raise Refused(f"unknown game {name!r}")
    game = GAMES[name](meta)
    root = meta.position()
    nimber = meta.u32()
    claims = meta.u64()
    meta.string()
    if not meta.done():
        raise Refused("the metadata has bytes after its last field")
    if root != game.start:
        raise Refused(f"the root is not the start position of {game.describe}")
    checker = Checker(game)
    body = Reader(payload, "the payload")
    for number in range(1, claims + 1):
        if body.done():
            raise Refused(f"the payload holds {number - 1} claims, the metadata says {claims}")
        position = body.position()
        v = body.u32()
        witness = body.list_of(body.u32)
        if not game.valid(position):
            raise Refused(f"claim {number}: its position is not one of {game.describe}")
        try:
            checker.claim(position, v, witness)
        except Refused as e:
            raise Refused(f"claim {number} of {claims} (nimber {v}) fails: {e}") from None
    if not body.done():
        raise Refused(f"the payload holds more than the {claims} claims the metadata says")
    got = checker.value(game.start)
    if got != nimber:
        raise Refused(f"the root's components give {checker.shown(got)}, but the file states {nimber}")
    return game.describe, nimber, claims


def read(path):
    """The bytes of the file `path` (decompressed if it ends in .gz), at
    most MAX_BYTES; only a regular file is opened (a FIFO or a device is
    refused before it is read)."""
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise OSError("not a regular file")
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise OSError(f"more than {MAX_BYTES} bytes")
    return data


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    status = 0
    for path in argv[1:]:
        try:
            data = read(path)
        except (OSError, EOFError, zlib.error, MemoryError) as e:
            print(f"{path}: cannot be read: {e}", file=sys.stderr)
            status = 2
            continue
        try:
            game, nimber, claims = check(data)
            print(f"{path}: {game}: nimber {nimber} ({claims} claims checked)")
        except Refused as e:
            print(f"{path}: refused: {e}")
            status = max(status, 1)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
