"""Taking grundy proof files apart and putting them together again, for the
tests of the checkers: the crafted wrong certificates of the corpus
(make_corpus.py) and the random corruptions of test_grundy_proof_check.py.

A file is taken apart into its metadata fields (the rules kept as the
bytes they are stored as) and its claims; put together, with its header
and checksums computed again, so that a change to a claim is seen by the
check of the claims, not by a checksum.
"""

import zlib

from grundy_proof_check import GAMES, Reader


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def string(text):
    raw = text.encode()
    return varint(len(raw)) + raw


def position(bits):
    raw = bits.to_bytes((bits.bit_length() + 7) // 8, "little")
    return varint(len(raw)) + raw


class Certificate:
    """A proof file taken apart."""

    def __init__(self, data):
        m = int.from_bytes(data[16:20], "little")
        metadata, payload = data[64 : 64 + m], data[64 + m :]
        meta = Reader(metadata, "metadata")
        self.game = meta.string()
        start = meta.at
        GAMES[self.game](meta)
        self.rules = metadata[start : meta.at]
        self.root = meta.position()
        self.nimber = meta.u32()
        count = meta.u64()
        self.generator = meta.string()
        self.version = int.from_bytes(data[12:16], "little")
        body = Reader(payload, "payload")
        self.claims = []
        for _ in range(count):
            self.claims.append([body.position(), body.u32(), body.list_of(body.u32)])

    def to_bytes(self, claims_stated=None):
        claims = len(self.claims) if claims_stated is None else claims_stated
        metadata = (
            string(self.game)
            + self.rules
            + position(self.root)
            + varint(self.nimber)
            + varint(claims)
            + string(self.generator)
        )
        payload = b"".join(
            position(p) + varint(v) + varint(len(w)) + b"".join(varint(x) for x in w) for p, v, w in self.claims
        )
        header = (
            b"GRUNDYP\x00"
            + (0x01020304).to_bytes(4, "little")
            + self.version.to_bytes(4, "little")
            + len(metadata).to_bytes(4, "little")
            + zlib.crc32(metadata).to_bytes(4, "little")
            + len(payload).to_bytes(8, "little")
            + zlib.crc32(payload).to_bytes(4, "little")
        )
        return header + bytes(64 - len(header)) + metadata + payload
