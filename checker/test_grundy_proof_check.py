"""Tests of the second checker: run with `python3 -m unittest discover -s
checker` (no package to install).

- Every certificate of the corpus's good/ checks, with the nimber the
  MANIFEST states, which is that of the definition (checker/definitions.py);
  every one of wrong/ is refused.
- Random corruptions of the good certificates (a claim's nimber, a
  witness entry, a position, the stated nimber, claims dropped or moved):
  whatever the checker accepts states the start's true nimber.
- The encoding of positions and of varints, and the shapes' canonical
  form, against their definitions.
"""

import os
import random
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import definitions  # noqa: E402
import grundy_proof_check as checker  # noqa: E402
from certificate_edit import Certificate, position, varint  # noqa: E402
from make_corpus import truth  # noqa: E402

CORPUS = os.path.join(HERE, "corpus")


def manifest():
    rows = []
    with open(os.path.join(CORPUS, "MANIFEST.tsv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            file, expected, what = line.rstrip("\n").split("\t")
            rows.append((file, expected, what))
    return rows


def read(file):
    with open(os.path.join(CORPUS, file), "rb") as f:
        return f.read()


class Corpus(unittest.TestCase):
    def test_good_certificates_check_with_the_definitions_nimber(self):
        good = [row for row in manifest() if row[0].startswith("good/")]
        self.assertGreaterEqual(len(good), 8)
        for file, expected, _ in good:
            data = read(file)
            _, nimber, claims = checker.check(data)
            self.assertEqual(f"nimber {nimber}", expected, file)
            if truth(Certificate(data)) is not None:
                self.assertEqual(nimber, truth(Certificate(data)), file)

    def test_wrong_certificates_are_refused(self):
        wrong = [row for row in manifest() if row[0].startswith("wrong/")]
        self.assertGreaterEqual(len(wrong), 50)
        for file, expected, what in wrong:
            self.assertEqual(expected, "refused")
            with self.assertRaises(checker.Refused, msg=f"{file}: {what}"):
                checker.check(read(file))

    def test_every_file_is_listed(self):
        listed = {row[0] for row in manifest()}
        on_disk = {f"{folder}/{name}" for folder in ("good", "wrong") for name in os.listdir(os.path.join(CORPUS, folder))}
        self.assertEqual(listed, on_disk)


class Corruptions(unittest.TestCase):
    """Whatever the checker accepts is true."""

    def corrupt(self, cert, rng):
        copy = Certificate(cert.to_bytes())
        kind = rng.randrange(6)
        claims = copy.claims
        if kind == 0:
            copy.nimber = rng.randrange(6)
        elif kind == 1 and claims:
            claim = rng.choice(claims)
            claim[1] = rng.randrange(6)
        elif kind == 2 and claims:
            claim = rng.choice(claims)
            if claim[2]:
                at = rng.randrange(len(claim[2]))
                claim[2][at] = rng.randrange(max(claim[2][at] + 3, 4))
        elif kind == 3 and claims:
            claim = rng.choice(claims)
            claim[0] ^= 1 << rng.randrange(max(claim[0].bit_length() + 2, 8))
        elif kind == 4 and claims:
            claims.pop(rng.randrange(len(claims)))
        elif kind == 5 and len(claims) > 1:
            i, j = rng.sample(range(len(claims)), 2)
            claims[i], claims[j] = claims[j], claims[i]
        return copy.to_bytes()

    def test_accepted_corruptions_state_the_true_nimber(self):
        rng = random.Random(45)
        accepted = refused = 0
        for file, _, _ in manifest():
            if not file.startswith("good/") or "2x67" in file:
                continue
            cert = Certificate(read(file))
            true = truth(cert)
            for _ in range(60):
                data = self.corrupt(cert, rng)
                try:
                    _, nimber, _ = checker.check(data)
                except checker.Refused:
                    refused += 1
                    continue
                accepted += 1
                self.assertEqual(nimber, true, file)
        self.assertGreater(refused, 200)


def nk_rules(n, edges):
    edges = sorted(set((min(u, v), max(u, v)) for u, v in edges))
    data = varint(n) + varint(len(edges)) + b"".join(varint(u) + varint(v) for u, v in edges) + varint(0)
    return checker.NodeKayles(checker.Reader(data, "rules")), edges


class RuleNimbers(unittest.TestCase):
    """The nimbers the rules give, against the definition."""

    def test_node_kayles_rules_on_grids_and_graphs(self):
        rng = random.Random(11)
        hits = 0
        grid, grid_edges = nk_rules(18, checker.grid_edges(3, 6))
        self.assertEqual(grid.grid, (3, 6))
        for _ in range(400):
            if rng.randrange(2):
                game, edges, n = grid, grid_edges, 18
                part = rng.getrandbits(18) | rng.getrandbits(18)
                if rng.randrange(2):
                    # Made its own image under a half turn of the grid.
                    part |= int(format(part, "018b")[::-1], 2)
            else:
                n = rng.randrange(2, 9)
                edges = [(u, v) for u in range(n) for v in range(u + 1, n) if rng.randrange(3) == 0]
                game, edges = nk_rules(n, edges)
                part = (1 << n) - 1
            for component in game.components(part):
                known = game.rule_nimber(component)
                if known is not None:
                    hits += 1
                    vertices = [v for v in range(n) if component >> v & 1]
                    self.assertEqual(known, definitions.node_kayles(n, edges, vertices), vertices)
        self.assertGreater(hits, 300)

    def test_cram_rules(self):
        rng = random.Random(5)
        data = varint(4) + varint(5) + varint(0)
        game = checker.Cram(checker.Reader(data, "rules"))
        hits = 0
        for _ in range(600):
            free = game.start & (rng.getrandbits(64) | rng.getrandbits(64))
            if rng.randrange(2) == 0:
                # Made its own image under half a turn of the board.
                cells = {divmod(b, game.s) for b in checker.bits_of(free)}
                cells |= {(3 - r, 4 - c) for r, c in cells}
                free = sum(1 << (game.s * r + c) for r, c in cells)
            for component in game.components(free):
                known = game.rule_nimber(component)
                if known is not None:
                    hits += 1
                    self.assertEqual(known, definitions.cram(game.cells(component)))
        self.assertGreater(hits, 60)

    def test_chomp_rules(self):
        for a in range(1, 8):
            for b in range(1, 8):
                hook = (a,) + (1,) * (b - 1)
                game = checker.Chomp(checker.Reader(varint(len(hook)) + b"".join(varint(x) for x in hook), "rules"))
                self.assertEqual(game.rule_nimber(game.start), definitions.chomp(hook))
            if a >= 2:
                for rows in ((a, a - 1), (2,) * (a - 1) + (1,)):
                    game = checker.Chomp(checker.Reader(varint(len(rows)) + b"".join(varint(x) for x in rows), "rules"))
                    self.assertEqual(game.rule_nimber(game.start), 0)
                    self.assertEqual(definitions.chomp(rows), 0)


class Encoding(unittest.TestCase):
    def test_varints_and_positions_read_back(self):
        rng = random.Random(7)
        for bits in [0, 1, 255, 256, 2**64 - 1, 2**255 + 3] + [rng.getrandbits(200) for _ in range(50)]:
            reader = checker.Reader(position(bits) + varint(bits), "test")
            self.assertEqual(reader.position(), bits)
            if bits < 2**64:
                self.assertEqual(reader.u64(), bits)
        with self.assertRaises(checker.Refused):
            checker.Reader(b"\x02\x01\x00", "test").position()
        with self.assertRaises(checker.Refused):
            checker.Reader(varint(2**32), "test").u32()

    def test_shape_keys_are_the_same_for_every_image(self):
        rng = random.Random(3)
        for _ in range(200):
            cells = {(rng.randrange(5), rng.randrange(7)) for _ in range(rng.randrange(1, 12))}
            key = checker.shape_key(list(cells))
            moved = [(c + 3, -r) for r, c in cells]  # a quarter turn, moved
            self.assertEqual(checker.shape_key(moved), key)
            mirrored = [(r, -c) for r, c in cells]
            self.assertEqual(checker.shape_key(mirrored), key)

    def test_dawsons_chess_by_the_definition(self):
        # Paths of Node-Kayles: the rule's values against the definition.
        game = checker.NodeKayles(checker.Reader(varint(12) + varint(11) + b"".join(varint(v) + varint(v + 1) for v in range(11)) + varint(0), "rules"))
        for k in range(1, 13):
            path = [(v, v + 1) for v in range(k - 1)]
            self.assertEqual(game.dawson[k], definitions.node_kayles(k, path), k)


if __name__ == "__main__":
    unittest.main()


class Files(unittest.TestCase):
    """Numbers no longer than the format allows, and files that cannot be
    read: named, the others still checked, exit status 2."""

    def test_numbers_longer_than_the_format_allows_are_refused(self):
        for bits, longest in ((32, 5), (64, 10)):
            # 1, written with as many bytes as allowed, then one more.
            fits = bytes([0x81] + [0x80] * (longest - 2) + [0x00])
            self.assertEqual(checker.Reader(fits, "test").varint(bits), 1)
            over = bytes([0x81] + [0x80] * (longest - 1) + [0x00])
            with self.assertRaises(checker.Refused):
                checker.Reader(over, "test").varint(bits)

    def test_unreadable_files_are_named_and_the_others_checked(self):
        import contextlib
        import gzip
        import io
        import tempfile

        good = os.path.join(CORPUS, "good", "cram-4x5.proof")
        with tempfile.TemporaryDirectory() as tmp:
            damaged = os.path.join(tmp, "damaged.proof.gz")
            data = bytearray(gzip.compress(read("good/cram-4x5.proof")))
            data[30] ^= 0xFF
            with open(damaged, "wb") as f:
                f.write(data)
            fifo = os.path.join(tmp, "fifo")
            os.mkfifo(fifo)
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = checker.main(["check", damaged, fifo, tmp, os.path.join(tmp, "missing"), good])
        self.assertEqual(status, 2)
        self.assertEqual(len(err.getvalue().splitlines()), 4, err.getvalue())
        for name in ("damaged.proof.gz: cannot be read", "fifo: cannot be read: not a regular file", "missing: cannot be read"):
            self.assertIn(name, err.getvalue())
        self.assertIn("cram-4x5.proof: cram", out.getvalue())

    def test_too_many_symmetries_are_refused(self):
        star = [(0, v) for v in range(1, 8)]
        rotations = [[0] + [1 + (v - 1 + k) % 7 for v in range(1, 8)] for k in range(1, 7)]
        swaps = [[0] + [v ^ (1 << b) if 1 <= v ^ (1 << b) <= 7 else v for v in range(1, 8)] for b in range(3)]

        def rules(symmetries):
            data = varint(8) + varint(len(star)) + b"".join(varint(u) + varint(v) for u, v in star)
            data += varint(len(symmetries))
            for p in symmetries:
                data += varint(len(p)) + b"".join(varint(w) for w in p)
            return checker.Reader(data, "rules")

        checker.NodeKayles(rules(rotations))
        with self.assertRaisesRegex(checker.Refused, "symmetry 6 is symmetry 0 again"):
            checker.NodeKayles(rules(rotations + rotations[:1]))
        with self.assertRaisesRegex(checker.Refused, "64 symmetries, more than 63"):
            checker.NodeKayles(rules((rotations + swaps) * 7 + [rotations[0]]))
