"""Meaning as a routing signal: a static token-embedding table distilled from MiniLM.

Creating an onnxruntime session for all-MiniLM-L6-v2 costs far more than the whole
``engram load`` budget (docs/engram.md, "Semantic signal"), so a load never runs the
model. ``distil`` runs it once per machine instead: every vocabulary entry alone
through the model (mean-pooled, as the model pools a sentence), centred on the
vocabulary's mean vector, stored as int8. A text's vector is the weighted mean of
its word pieces' rows (weight ``log(1 + token id)``: rarer pieces weigh more), which
needs no numpy: rows are summed as packed big integers.

Memory vectors are computed when the index is built and stored in it; the task's
vector is computed at load. Routing uses the cosine only to rank and to reject weak
lexical matches; a vector never admits a memory (``admission``).
"""

from __future__ import annotations

import math
import mmap
import os
from array import array
from binascii import a2b_base64, b2a_base64
from collections.abc import Iterable, Mapping, Sequence
from operator import mul
from pathlib import Path

from .text import ENGRAM_STOP_WORDS, words

TABLE_VERSION = 1
TABLE_NAME = f"minilm-l6-static-v{TABLE_VERSION}.bin"
_MAGIC = b"ENGRAM-STATIC-TABLE\n"
# Weights are integers so that rows add as packed big integers (32 bits a field):
# ``WEIGHT_STEPS`` per unit of ``log(1 + id)``.
WEIGHT_STEPS = 4
# Field weights (doubled, to stay integers) for a memory's vector: the author's own
# curated words count more than the body, which is cut at ``CONTENT_WORDS``.
FIELD_WEIGHTS = {
    "id": 6,
    "tags": 5,
    "directive": 4,
    "triggers": 4,
    "title": 3,
    "summary": 3,
    "content": 1,
}
CONTENT_WORDS = 80
# Lookups answered by scanning the vocabulary bytes before building the dictionary:
# a task needs a few dozen, indexing a memory hundreds.
SCANNED_LOOKUPS = 64
MAX_PIECE_CHARS = 100


def table_dir() -> Path:
    """Machine-wide, not per repository: a fresh checkout reuses the table as it reuses
    the installed model."""
    env = os.environ.get("ENGRAM_MODEL_DIR")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "engram" / "models"


def table_path() -> Path:
    return table_dir() / TABLE_NAME


def table_signature() -> list[int] | None:
    """What the index records, so a table built (or rebuilt) later refreshes vectors."""
    try:
        st = table_path().stat()
    except OSError:
        return None
    return [st.st_mtime_ns, st.st_size]


class Table:
    """The distilled rows, memory-mapped: a load reads only its task's rows."""

    def __init__(self, path: Path) -> None:
        with path.open("rb") as fh:
            if fh.readline() != _MAGIC:
                raise ValueError(f"{path}: not an Engram static table")
            dim, rows, vocab_bytes = (int(x) for x in fh.readline().split())
            # Framed by newlines, so that a piece is found as ``\npiece\n``.
            self._vocab_bytes = b"\n" + fh.read(vocab_bytes) + b"\n"
            self._offset = fh.tell()
            self._map = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        entries = self._vocab_bytes.count(b"\n") - 1
        if entries != rows:
            raise ValueError(f"{path}: {entries} vocabulary entries for {rows} rows")
        self.dim = dim
        self._vocab: dict[str, int] | None = None
        self._scans = 0
        self._scanned: dict[str, int | None] = {}
        self._packed: dict[int, int] = {}
        self._weights: dict[int, int] = {}
        self._cut: dict[str, list[int]] = {}

    @property
    def vocab(self) -> dict[str, int]:
        """Piece -> row. Building it costs about 4 ms (27,562 pieces), more than a task's
        few lookups by scanning, so it is built only once a process needs many."""
        if self._vocab is None:
            pieces = self._vocab_bytes[1:-1].decode("utf-8").split("\n")
            # A later duplicate wins, as the scan's last occurrence does.
            self._vocab = dict(zip(pieces, range(len(pieces)), strict=True))
        return self._vocab

    def expect_many_lookups(self) -> None:
        """Build the dictionary now. Indexing looks up thousands of pieces; each scan
        of the vocabulary bytes costs about 0.2 ms, so the first 64 lookups by scanning
        would cost a cold index build more than the dictionary itself."""
        if self._vocab is None:
            self._vocab = self.vocab

    def row_of(self, piece: str) -> int | None:
        if self._vocab is None:
            # A word the vocabulary lacks is looked up whole twice (``pieces``), and a
            # task repeats words: each piece is scanned for once.
            if piece in self._scanned:
                return self._scanned[piece]
            if self._scans < SCANNED_LOOKUPS:
                self._scans += 1
                # The last occurrence, as the dictionary keeps; its row is the count of
                # newlines before it.
                at = self._vocab_bytes.rfind(b"\n" + piece.encode("utf-8") + b"\n")
                row = None if at < 0 else self._vocab_bytes.count(b"\n", 0, at)
                self._scanned[piece] = row
                return row
        return self.vocab.get(piece)

    def cut(self, word: str) -> list[int]:
        found = self._cut.get(word)
        if found is None:
            found = self._cut[word] = self.pieces(word)
        return found

    def pieces(self, word: str) -> list[int]:
        """WordPiece, greedy longest match first, as the model's tokenizer cuts a word."""
        # Once the dictionary is built (indexing), its ``get`` answers every lookup: a
        # cold build tries thousands of candidate pieces.
        row_of = self.row_of if self._vocab is None else self._vocab.get
        found = row_of(word)
        if found is not None:
            return [found]
        if len(word) > MAX_PIECE_CHARS:
            return []
        out: list[int] = []
        start = 0
        while start < len(word):
            end = len(word)
            piece = None
            while start < end:
                sub = word[start:end] if start == 0 else "##" + word[start:end]
                piece = row_of(sub)
                if piece is not None:
                    break
                end -= 1
            if piece is None:
                return []  # the model's [UNK]: the word says nothing here
            out.append(piece)
            start = end
        return out

    def _row(self, n: int) -> int:
        """Row ``n`` as one integer, 32 bits a field holding ``value + 128``."""
        packed = self._packed.get(n)
        if packed is None:
            start = self._offset + n * self.dim
            wide = bytearray(4 * self.dim)
            wide[::4] = self._map[start : start + self.dim]  # each byte the low byte of a field
            packed = self._packed[n] = int.from_bytes(wide, "little")
        return packed

    def _weight(self, n: int) -> int:
        weight = self._weights.get(n)
        if weight is None:
            weight = self._weights[n] = max(1, round(WEIGHT_STEPS * math.log1p(n)))
        return weight

    def embed_raw(self, parts: Iterable[tuple[str, int]]) -> list[int] | None:
        """Weighted sum of the rows of the texts' word pieces, as integers (unnormalised)."""
        return self.embed_words((words(text), weight) for text, weight in parts)

    def embed_words(self, parts: Iterable[tuple[Sequence[str], int]]) -> list[int] | None:
        """``embed_raw`` of texts already cut into words."""
        packed = self._packed_sum(parts)
        if packed is None:
            return None
        total, weight_sum = packed
        fields = array("I")
        fields.frombytes(total.to_bytes(4 * self.dim, "little"))
        bias = 128 * weight_sum
        return [v - bias for v in fields]

    def embed_encoded(self, parts: Iterable[tuple[Sequence[str], int]]) -> str:
        """``encode(embed_words(parts))``, without a Python integer per field: a cold
        index build encodes every memory's vector, and the per-field lists were most of
        the cost after the sums."""
        packed = self._packed_sum(parts)
        return "" if packed is None else encode_packed(*packed, self.dim)

    def _packed_sum(self, parts: Iterable[tuple[Sequence[str], int]]) -> tuple[int, int] | None:
        """The weighted sum of the parts' piece rows as one packed integer (each 32-bit
        field holding ``value + 128`` summed), and the sum of the weights."""
        # Each distinct word once, with the sum of its fields' weights: the same integer
        # sum as word by word, with far fewer lookups on a memory's repeated words.
        per_word: dict[str, int] = {}
        for tokens, field_weight in parts:
            for word in tokens:
                per_word[word] = per_word.get(word, 0) + field_weight
        if self._vocab is None and self._scans + len(per_word) > SCANNED_LOOKUPS:
            # More words than scans left (a pasted log, a long prompt): the scans would be
            # spent before the dictionary gets built anyway.
            self.expect_many_lookups()
        # Names bound once: a cold index build runs these loops for every piece of every
        # memory, where attribute and method look-ups cost as much as the work.
        weights: dict[int, int] = {}
        get_weight = weights.get
        cuts = self._cut
        piece_weights = self._weights
        stop = ENGRAM_STOP_WORDS
        for word, word_weight in per_word.items():
            if word in stop or len(word) < 2:
                continue
            cut = cuts.get(word)
            if cut is None:
                cut = self.cut(word)
            for n in cut:
                piece_weight = piece_weights.get(n)
                if piece_weight is None:
                    piece_weight = self._weight(n)
                weights[n] = get_weight(n, 0) + word_weight * piece_weight
        if not weights:
            return None
        total = 0
        packed = self._packed
        for n, weight in weights.items():
            row = packed.get(n)
            total += (self._row(n) if row is None else row) * weight
        return total, sum(weights.values())

    def embed(self, parts: Iterable[tuple[str, int]]) -> list[float] | None:
        """Unit vector of the weighted mean of the rows of the texts' word pieces."""
        raw = self.embed_raw(parts)
        return None if raw is None else unit(raw)


def unit(values: Sequence[float]) -> list[float] | None:
    # ``map`` over ``mul`` rather than a generator (here and in ``cosine``): a task that
    # every memory matches decodes and compares a thousand vectors. The products, their
    # order and the sum are the same, so the floats are too.
    norm = math.sqrt(sum(map(mul, values, values)))
    return [v / norm for v in values] if norm else None


_LOADED: dict[str, Table | None] = {}


def open_table() -> Table | None:
    """The machine's table, or None when it was never distilled (routing stays lexical)."""
    path = table_path()
    key = str(path)
    if key not in _LOADED:
        try:
            _LOADED[key] = Table(path)
        except (OSError, ValueError):
            _LOADED[key] = None
    return _LOADED[key]


def memory_parts(fields: Mapping[str, Sequence[str]]) -> list[tuple[Sequence[str], int]]:
    """A memory's fields (cut into words) with their weights, the body cut at
    ``CONTENT_WORDS`` words; for ``Table.embed_words``."""
    return [
        (tokens[:CONTENT_WORDS] if name == "content" else tokens, FIELD_WEIGHTS[name])
        for name, tokens in fields.items()
    ]


def encode(raw: Sequence[int] | None) -> str:
    """``embed_raw``'s integers as int8 (shifted so the largest fits), base64, for the
    JSON index: the cosine needs the direction only."""
    if not raw:
        return ""
    shift = max(0, max(max(raw), -min(raw)).bit_length() - 7)
    values = array("b", [v >> shift for v in raw])
    return _b64(values.tobytes())


def encode_packed(total: int, weight_sum: int, dim: int) -> str:
    """``encode`` of the fields ``f - 128 * weight_sum`` of ``total`` (``dim`` fields of 32
    bits, ``f`` each), computed on the packed integer: the arithmetic shift of every
    field, and the int8 bytes, come from a few whole-integer operations."""
    bias = 128 * weight_sum
    if bias > _HALF:  # fields would not stay non-negative once offset by 2**31
        fields = array("I")
        fields.frombytes(total.to_bytes(4 * dim, "little"))
        return encode([v - bias for v in fields])
    fields = array("I")
    fields.frombytes(total.to_bytes(4 * dim, "little"))
    shift = max(0, max(max(fields) - bias, bias - min(fields)).bit_length() - 7)
    ones = _ones(dim)
    # Each field offset to ``raw + 2**31`` (0 <= . < 2**32, no carry between fields);
    # shifting the whole integer then masking each field's top ``shift`` bits gives
    # ``(raw >> shift) + 2**(31 - shift)`` per field, as ``>>`` floors a negative ``raw``.
    offset = (total + (_HALF - bias) * ones) >> shift
    masked = offset & ((1 << (32 - shift)) - 1) * ones
    # ``(raw >> shift) + 128`` per field (0..255), whose byte XOR 0x80 is the int8.
    low = (masked - ((1 << (31 - shift)) - 128) * ones).to_bytes(4 * dim, "little")[::4]
    return _b64(low.translate(_SIGN_FLIP))


def _b64(data: bytes) -> str:
    """``base64.b64encode(data)`` as text, from ``binascii`` itself: importing ``base64``
    (with ``struct``) costs every process that reads a vector about 0.7 ms."""
    return b2a_base64(data, newline=False).decode("ascii")


_HALF = 1 << 31
_SIGN_FLIP = bytes(b ^ 0x80 for b in range(256))
_ONES: dict[int, int] = {}


def _ones(dim: int) -> int:
    """1 in each of ``dim`` 32-bit fields."""
    found = _ONES.get(dim)
    if found is None:
        found = _ONES[dim] = int.from_bytes(b"\x01\x00\x00\x00" * dim, "little")
    return found


def decode(text: str) -> list[float] | None:
    if not text:
        return None
    values = array("b")
    values.frombytes(a2b_base64(text))
    return unit(values)


def cosine(unit_a: Sequence[float], unit_b: Sequence[float]) -> float:
    total: float = sum(map(mul, unit_a, unit_b))
    return total
