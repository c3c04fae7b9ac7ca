"""A trace's decisions packed as columns, for ``context_traces.decision_columns`` (0175).

A call considers ~150 facts and turns. As one JSON object each, they were
~37 kB a trace that PostgreSQL parsed into ``jsonb`` and compressed on
every call (about half the insert's CPU, docs/context.md "Trace"). Packed
here as columns of fixed width, they are ~45 bytes each, sent as a binary
parameter that PostgreSQL stores as it is (the column's storage is
``EXTERNAL``: random ids do not compress) and parses not at all.

Layout, little-endian: a header (``FORMAT``, the score encoding, the count
``n``), then ``n`` ids (16 bytes each), ``n`` codes (one byte: kind, action,
reason, whether there is a score), ``n`` ranks and ``n`` token counts (int32,
-1 for none), then ``n`` rows of five scores in ``SCORE_FIELDS`` order. A
score is stored as its millionths in an int32 (``six_places`` is
``round(x * 1e6) / 1e6``, so dividing the integer by 1e6 gives back the
same float); a trace holding a score out of that range, or not finite, has
all its scores as float64 instead.

``decode`` gives back, for each decision, exactly the dict ``Decision.to_json``
gives after a JSON round trip (the id as its canonical string): what
``GET /v1/inspect`` answered when the decisions were ``jsonb``.

The tables below are part of the stored format, so they are spelled out
here rather than read from ``types``' literals, whose order nothing pins: a
value is only ever added at the end (``test_trace_codec`` checks that they
name every literal).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any
from uuid import UUID

import numpy as np

from .types import Decision, six_places

FORMAT = 1
# The stored codes: a name's position is its code in every row written, so
# these tuples are the format's own and never follow the order of the
# ``Literal`` types they spell (a unit test checks they name the same set).
KINDS = ("fact", "episode")
ACTIONS = ("included", "excluded", "blocked")
REASONS = (
    "top_score",
    "multi_hop_expansion",
    "over_budget",
    "below_relevance_floor",
    "conflict_open",
    "volatility_expired",
)
SCORE_FIELDS = ("semantic", "fulltext", "recency", "context", "total")

_HEADER = struct.Struct("<BBI")
_MILLIONTHS, _FLOATS = 0, 1
_INT32_MAX = 2**31 - 1
_NONE = -1
_KIND = {k: i for i, k in enumerate(KINDS)}
_ACTION = {a: i << 1 for i, a in enumerate(ACTIONS)}
_REASON = {r: i << 4 for i, r in enumerate(REASONS)}
_SCORED = 1 << 3
_WIDTH = len(SCORE_FIELDS)


def encode(decisions: Sequence[Decision]) -> bytes:
    """The decisions as ``decision_columns`` bytes."""
    n = len(decisions)
    ids: list[bytes] = []
    codes = bytearray(n)
    ranks: list[int] = []
    tokens: list[int] = []
    scores: list[float] = []
    zero = (0.0,) * _WIDTH
    for i, d in enumerate(decisions):
        ids.append(d.id.bytes)
        code = _KIND[d.kind] | _ACTION[d.action] | _REASON[d.reason_code]
        s = d.score
        if s is None:
            scores.extend(zero)
        else:
            code |= _SCORED
            scores.extend((s.semantic, s.fulltext, s.recency, s.context, s.total))
        codes[i] = code
        ranks.append(_NONE if d.rank is None else d.rank)
        tokens.append(_NONE if d.tokens is None else d.tokens)
    scaled = np.rint(np.array(scores, dtype=np.float64) * 1e6)
    if np.isfinite(scaled).all() and (np.abs(scaled) <= _INT32_MAX).all():
        kind, packed = _MILLIONTHS, scaled.astype("<i4").tobytes()
    else:
        kind, packed = _FLOATS, np.array([six_places(x) for x in scores], "<f8").tobytes()
    return b"".join(
        (
            _HEADER.pack(FORMAT, kind, n),
            *ids,
            bytes(codes),
            np.array(ranks, "<i4").tobytes(),
            np.array(tokens, "<i4").tobytes(),
            packed,
        )
    )


def decode(data: bytes) -> list[dict[str, Any]]:
    """The decisions of ``encode``'s bytes, as JSON-ready dicts."""
    version, kind, n = _HEADER.unpack_from(data)
    if version != FORMAT:
        raise ValueError(f"decision columns of format {version}, not {FORMAT}")
    at = _HEADER.size
    ids = [str(UUID(bytes=bytes(data[at + 16 * i : at + 16 * (i + 1)]))) for i in range(n)]
    at += 16 * n
    codes = data[at : at + n]
    at += n
    ranks = np.frombuffer(data, "<i4", n, at).tolist()
    at += 4 * n
    tokens = np.frombuffer(data, "<i4", n, at).tolist()
    at += 4 * n
    if kind == _MILLIONTHS:
        values = (np.frombuffer(data, "<i4", n * _WIDTH, at).astype(np.float64) / 1e6).tolist()
    else:
        values = np.frombuffer(data, "<f8", n * _WIDTH, at).tolist()
    out = []
    for i in range(n):
        code = codes[i]
        row = values[i * _WIDTH : (i + 1) * _WIDTH]
        out.append(
            {
                "kind": KINDS[code & 1],
                "id": ids[i],
                "action": ACTIONS[(code >> 1) & 3],
                "reason_code": REASONS[code >> 4],
                "rank": None if ranks[i] == _NONE else ranks[i],
                "score": dict(zip(SCORE_FIELDS, row, strict=True)) if code & _SCORED else None,
                "tokens": None if tokens[i] == _NONE else tokens[i],
            }
        )
    return out
