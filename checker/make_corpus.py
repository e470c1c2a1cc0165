#!/usr/bin/env python3
"""Writes the corpus of certificates both checkers are tested on:
checker/corpus/good/ (certificates grundy writes, which must check) and
checker/corpus/wrong/ (the same taken apart and altered, one fault each,
which both checkers must refuse), with checker/corpus/MANIFEST.tsv saying
what each one is.

Usage: python3 checker/make_corpus.py [GRUNDY]

GRUNDY is the grundy binary (default: target/release/grundy). The good
certificates are written single-threaded, so the same grundy writes the
same files. Every alteration is checked to be a fault by the nimbers of
the definition (checker/definitions.py), not by a checker.
"""

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import definitions  # noqa: E402
from certificate_edit import Certificate, varint  # noqa: E402
from grundy_proof_check import GAMES, Checker, Reader, Refused, bits_of, check  # noqa: E402

CORPUS = os.path.join(HERE, "corpus")

# name, grundy's arguments (FILE is the certificate), standard input.
# The nimbers of all but the last are checked against the definition;
# the last, of 134 vertices, is too large for it.
GOOD = [
    ("cram-4x5", ["cram", "4x5", "--online"], None),
    ("cram-2x9-blocked", ["cram", "--board", "-", "--online"], "....#....\n.........\n"),
    ("node-kayles-grid-3x7", ["node-kayles", "--grid", "3x7"], None),
    (
        "node-kayles-petersen",
        ["node-kayles"],
        "10 15\n0 1\n1 2\n2 3\n3 4\n4 0\n0 5\n1 6\n2 7\n3 8\n4 9\n5 7\n7 9\n9 6\n6 8\n8 5\n",
    ),
    ("node-kayles-sun-5", ["node-kayles"], "10 10\n0 1\n1 2\n2 3\n3 4\n4 0\n0 5\n1 6\n2 7\n3 8\n4 9\n"),
    ("node-kayles-grid-2x67", ["node-kayles", "--grid", "2x67"], None),
    ("chomp-4x5", ["chomp", "4x5"], None),
    ("chomp-6-5-5-2-1", ["chomp", "6,5,5,2,1"], None),
]


SMALL = 40


def small(cert):
    """Whether the definition computes the nimbers of the certificate's
    positions in a few seconds (at most 40 cells or vertices)."""
    game = GAMES[cert.game](Reader(cert.rules, "rules"))
    return cert.game == "chomp" or bin(game.start).count("1") <= SMALL


def truth(cert):
    """The nimber of a certificate's game's start, by the definition (None
    for a game too large for it)."""
    if not small(cert):
        return None
    meta = Reader(cert.rules, "rules")
    if cert.game == "cram":
        rows, cols = meta.u32(), meta.u32()
        blocked = set(meta.list_of(lambda: (meta.u32(), meta.u32())))
        return definitions.cram({(r, c) for r in range(rows) for c in range(cols)} - blocked)
    if cert.game == "node-kayles":
        n = meta.u32()
        edges = meta.list_of(lambda: (meta.u32(), meta.u32()))
        return definitions.node_kayles(n, edges)
    rows = meta.list_of(meta.u32)
    return definitions.chomp(tuple(rows))


def value_of_position(cert, bits):
    """The nimber of a position of the certificate's game, given as its
    stored bits, by the definition."""
    game = GAMES[cert.game](Reader(cert.rules, "rules"))
    if cert.game == "cram":
        return definitions.cram({divmod(b, game.s) for b in range(bits.bit_length()) if bits >> b & 1})
    if cert.game == "node-kayles":
        edges = [(u, v) for u in range(game.n) for v in range(u + 1, game.n) if game.closed[u] >> v & 1]
        return definitions.node_kayles(game.n, edges, [v for v in range(game.n) if bits >> v & 1])
    return definitions.chomp(game.decode(bits))


def refused(data):
    """Whether this checker refuses `data` (for the faults of order, which
    the nimbers of the definition cannot tell)."""
    try:
        check(data)
    except Refused:
        return True
    return False


def faults(name, cert):
    """The altered copies of `cert`: (suffix, what is wrong, bytes)."""
    game = GAMES[cert.game](Reader(cert.rules, "rules"))
    out = []

    def altered(suffix, what, change, stated=None):
        copy = Certificate(cert.to_bytes())
        change(copy)
        out.append((suffix, what, copy.to_bytes(stated)))

    out_of = len(cert.claims)
    # The claim with the most moves and a nimber above 0.
    pick = max(range(out_of), key=lambda i: (cert.claims[i][1] > 0, len(cert.claims[i][2])))
    position, v, witness = cert.claims[pick]
    moves = game.moves(position)

    altered("stated-nimber", "the root's nimber stated one more than it is", lambda c: setattr(c, "nimber", c.nimber + 1))

    def claim_nimber(c):
        # One more, with an (a) entry for v: a move whose option has nimber
        # v would make it true, and there is none (the claim is true).
        c.claims[pick][1] = v + 1
        c.claims[pick][2] = witness[:v] + [0] + witness[v:]

    altered("claim-nimber", f"claim {pick + 1} says nimber {v + 1}, one more than its own", claim_nimber)
    if out_of > 1:
        altered("claim-removed", f"claim {pick + 1} removed", lambda c: c.claims.pop(pick))
        # A claim moved after the next one, where the next relies on it
        # (an order fault: each candidate tried until one is).
        for i in range(out_of - 1):
            copy = Certificate(cert.to_bytes())
            copy.claims[i], copy.claims[i + 1] = copy.claims[i + 1], copy.claims[i]
            if refused(copy.to_bytes()):
                out.append(("claims-swapped", f"claims {i + 1} and {i + 2} swapped: claim {i + 2} relies on claim {i + 1}", copy.to_bytes()))
                break
    if v > 0 and small(cert):
        wrong = next(
            (m for m in range(len(moves)) if value_of_position(cert, game.play(position, moves[m])) != 0), None
        )
        if wrong is not None:
            altered(
                "reaching-move",
                f"claim {pick + 1} gives the move {wrong} for nimber 0, which leads elsewhere",
                lambda c: c.claims[pick][2].__setitem__(0, wrong),
            )
    for i, entry in enumerate(witness[v:] if small(cert) else []):
        if entry:
            option = game.play(position, moves[i])
            replies = game.moves(option)
            bad = next(
                (k for k in range(len(replies)) if value_of_position(cert, game.play(option, replies[k])) != v),
                None,
            )
            if bad is not None:
                altered(
                    "reply",
                    f"claim {pick + 1} answers its move {i} with a reply that does not lead to nimber {v}",
                    lambda c: c.claims[pick][2].__setitem__(v + i, bad + 1),
                )
            break
    # A reply dropped (entry 0) where the option's components are not all
    # claimed before: the first such in the file.
    done = False
    for n, (p, w_v, w) in enumerate(cert.claims):
        for i, entry in enumerate(w[w_v:]):
            if entry and not done:
                copy = Certificate(cert.to_bytes())
                copy.claims[n][2][w_v + i] = 0
                if refused(copy.to_bytes()):
                    out.append(("no-reply", f"claim {n + 1} gives no reply to its move {i}, whose option is not valued by the claims before", copy.to_bytes()))
                    done = True
        if done:
            break
    altered("extra-entry", f"claim {pick + 1}'s witness has an entry too many", lambda c: c.claims[pick][2].append(0))
    altered("claimed-twice", f"claim {pick + 1} repeated at the end", lambda c: c.claims.append(list(c.claims[pick])))
    altered(
        "claims-missing",
        "the metadata states one claim more than the payload holds",
        lambda c: None,
        stated=out_of + 1,
    )
    altered("version-1", "format version 1", lambda c: setattr(c, "version", 1))
    if cert.game == "node-kayles":
        altered(
            "outside-vertex",
            f"claim {pick + 1}'s position holds a vertex beyond the graph",
            lambda c: c.claims[pick].__setitem__(0, position | 1 << game.n),
        )
    if cert.game == "node-kayles" and game.grid:
        mirrored = mirror_claimed(cert, game)
        if mirrored is not None:
            out.append(mirrored)
    if cert.game == "node-kayles" and game.symmetries:
        altered(
            "symmetry-repeated",
            "the rules list their first symmetry twice",
            lambda c: setattr(c, "rules", node_kayles_rules(game.n, c.rules, game.symmetries + game.symmetries[:1])),
        )
    data = bytearray(cert.to_bytes())
    data[-1] ^= 1
    out.append(("payload-checksum", "the last byte of the payload changed, not its checksum", bytes(data)))
    data = cert.to_bytes()
    out.append(("truncated", "the last 5 bytes cut off", data[:-5]))
    return out


def node_kayles_rules(n, rules, symmetries):
    """The stored Node-Kayles `rules` with `symmetries` listed instead."""
    reader = Reader(rules, "rules")
    reader.u32()
    edges = reader.list_of(lambda: (reader.u32(), reader.u32()))
    out = varint(n) + varint(len(edges)) + b"".join(varint(u) + varint(v) for u, v in edges)
    out += varint(len(symmetries))
    for p in symmetries:
        out += varint(len(p)) + b"".join(varint(w) for w in p)
    return out


def witness_for(checker, position, v):
    """A witness that `position` has nimber `v` from the claims `checker`
    has seen, or None."""
    game = checker.game
    moves = game.moves(position)
    witness = []
    for j in range(v):
        m = next((m for m, move in enumerate(moves) if checker.value(game.play(position, move)) == j), None)
        if m is None:
            return None
        witness.append(m)
    for move in moves:
        option = game.play(position, move)
        got = checker.value(option)
        if got is not None and got != v:
            witness.append(0)
            continue
        replies = game.moves(option)
        r = next((r for r, reply in enumerate(replies) if checker.value(game.play(option, reply)) == v), None)
        if r is None:
            return None
        witness.append(r + 1)
    return witness


def mirror_claimed(cert, game):
    """The certificate of a grid with a claim's mirror image (left to
    right) claimed again right after it, its witness true: a second claim
    of the same game, which the format forbids."""
    rows, cols = game.grid
    checker = Checker(game)
    for n, (p, v, w) in enumerate(cert.claims):
        checker.claim(p, v, w)
        mirror = 0
        for bit in bits_of(p):
            r, c = divmod(bit, cols)
            mirror |= 1 << (r * cols + cols - 1 - c)
        if mirror == p:
            continue
        witness = witness_for(checker, mirror, v)
        if witness is not None:
            copy = Certificate(cert.to_bytes())
            copy.claims.insert(n + 1, [mirror, v, witness])
            what = f"claim {n + 1}'s mirror image claimed again after it (a true claim of the same game)"
            return ("mirror-claimed", what, copy.to_bytes())
    return None


def main(argv):
    grundy = argv[1] if len(argv) > 1 else os.path.join(HERE, "..", "target", "release", "grundy")
    for folder in ("good", "wrong"):
        os.makedirs(os.path.join(CORPUS, folder), exist_ok=True)
        for old in os.listdir(os.path.join(CORPUS, folder)):
            os.remove(os.path.join(CORPUS, folder, old))
    manifest = ["# file\texpected\twhat it is (written by checker/make_corpus.py)"]
    with tempfile.TemporaryDirectory() as tmp:
        for name, args, stdin in GOOD:
            path = os.path.join(tmp, name + ".proof")
            subprocess.run(
                [grundy, *args, "--threads", "1", "--proof", path],
                input=stdin.encode() if stdin else None,
                check=True,
                stdout=subprocess.DEVNULL,
            )
            with open(path, "rb") as f:
                data = f.read()
            cert = Certificate(data)
            nimber = truth(cert)
            if nimber is None:
                nimber = cert.nimber
                if refused(data):
                    raise SystemExit(f"{name}: refused by the checker")
            elif nimber != cert.nimber:
                raise SystemExit(f"{name}: grundy states {cert.nimber}, the definition gives {nimber}")
            with open(os.path.join(CORPUS, "good", name + ".proof"), "wb") as f:
                f.write(data)
            described = f"grundy {' '.join(args)} --threads 1 --proof FILE"
            manifest.append(f"good/{name}.proof\tnimber {nimber}\t{described}")
            for suffix, what, altered in faults(name, cert):
                file = f"wrong/{name}-{suffix}.proof"
                with open(os.path.join(CORPUS, file), "wb") as f:
                    f.write(altered)
                manifest.append(f"{file}\trefused\t{what}")
    with open(os.path.join(CORPUS, "MANIFEST.tsv"), "w") as f:
        f.write("\n".join(manifest) + "\n")
    print(f"wrote {len(manifest) - 1} certificates into {CORPUS}")


if __name__ == "__main__":
    main(sys.argv)
