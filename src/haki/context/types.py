"""Typed values passed between the assembler's stages.

Rows come out of the database as ``FactRow`` / ``EpisodeRow`` (only the
columns packaging needs); scoring turns them into ``Scored``; rendering into
``Rendered``; packing into ``Decision`` entries plus the included items.

The values built once or more per row (a call builds about a thousand) are
slots dataclasses that nothing mutates, not frozen ones: a frozen
dataclass's ``__init__`` sets each field through ``object.__setattr__``,
which made building 128 fact rows take 196 µs instead of 74
(``bench/context_micro.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal
from uuid import UUID

from ..storage.db import json_loads

Action = Literal["included", "excluded", "blocked"]
ReasonCode = Literal[
    "top_score",
    "multi_hop_expansion",
    "over_budget",
    "below_relevance_floor",
    "conflict_open",
    "volatility_expired",
]
ItemKind = Literal["fact", "episode"]
Status = Literal["ok", "degraded"]

NO_RELEVANT_MEMORY = "no_relevant_memory"
# The project holds no event and no fact of the subject: most often a typo.
UNKNOWN_SUBJECT = "unknown_subject"


@dataclass(slots=True)
class FactRow:
    id: UUID
    predicate: str
    # The value as the database's JSON text, decoded by ``value`` when read:
    # a call reads ~130 facts and serves ~30, and only served ones (or, with
    # the recall gate on, gated ones) need their value.
    value_json: str
    confidence: float
    valid_from: datetime | None
    recorded_from: datetime
    last_reinforced_at: datetime | None
    source_event_ids: tuple[UUID, ...]
    fact_kind: str
    volatility: str
    search_text: str  # the readable "predicate: value" with its qualifiers
    distance: float | None  # cosine distance to the query; None without an embedding
    fulltext: float  # ts_rank_cd normalised to [0, 1)
    origin_trust: str = "trusted"
    # How finely ``valid_from`` was said ("month" for "last month"), if time
    # words dated the fact (``types.VALID_FROM_GRAIN``); the packet says that period.
    grain: str | None = None

    kind: ItemKind = field(default="fact", init=False)

    @property
    def since(self) -> datetime:
        return self.valid_from or self.recorded_from

    @property
    def value(self) -> Any:
        return json_loads(self.value_json)


@dataclass(slots=True)
class EpisodeRow:
    id: UUID  # the chunk id
    event_id: UUID
    event_kind: str
    occurred_at: datetime
    text: str
    distance: float | None
    origin_trust: str = "trusted"
    actor_type: str | None = None
    marks: tuple[str, ...] = ()  # set by the consolidator: see text.injection.marks
    # The chunk's position in its event: the messages of one event share
    # ``occurred_at``, and their order is this one.
    ordinal: int = 0

    kind: ItemKind = field(default="episode", init=False)


Row = FactRow | EpisodeRow


@dataclass(slots=True)
class ScoreParts:
    semantic: float
    fulltext: float
    recency: float
    total: float
    context: float = 0.0  # episodes: what neighbouring turns and the session add

    def to_json(self) -> dict[str, float]:
        # Spelled out: a trace holds a few hundred of these per call.
        return {
            "semantic": six_places(self.semantic),
            "fulltext": six_places(self.fulltext),
            "recency": six_places(self.recency),
            "context": six_places(self.context),
            "total": six_places(self.total),
        }


def six_places(x: float) -> float:
    """``x`` to six decimal places, in about a third of the time ``round(x,
    6)`` takes (``bench/context_micro.py``): a trace rounds five scores for
    each of a few hundred decisions, and those rounds were most of what its
    decisions took to serialise. The result is ``round(x, 6)``'s except
    within an ulp of a half-way point (2.5e-06 gives 2e-06, not 3e-06): the
    scaled product rounds first. A trace records scores; a millionth there
    changes nothing."""
    try:
        return round(x * 1e6) / 1e6
    except (OverflowError, ValueError):  # inf and nan stay as they are
        return x


@dataclass(slots=True)
class Scored:
    row: Row
    score: ScoreParts
    rank: int  # 1-based position in its stage's ranking


@dataclass(slots=True)
class Rendered:
    scored: Scored
    text: str
    tokens: int


@dataclass(slots=True)
class Decision:
    kind: ItemKind
    id: UUID
    action: Action
    reason_code: ReasonCode
    rank: int | None = None
    score: ScoreParts | None = None
    tokens: int | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready for orjson, which writes the UUID as its canonical string."""
        return {
            "kind": self.kind,
            "id": self.id,
            "action": self.action,
            "reason_code": self.reason_code,
            "rank": self.rank,
            "score": None if self.score is None else self.score.to_json(),
            "tokens": self.tokens,
        }


@dataclass(frozen=True, slots=True)
class PackResult:
    included: tuple[Rendered, ...]
    decisions: tuple[Decision, ...]
    remaining: int


@dataclass(frozen=True, slots=True)
class ContextRequest:
    project_id: str
    subject_id: str
    query: str
    budget_tokens: int
    purpose: str | None = None
    as_of: datetime | None = None


@dataclass(frozen=True, slots=True)
class Packet:
    facts: tuple[dict[str, Any], ...]
    episodes: tuple[dict[str, Any], ...]
    warnings: tuple[str, ...]
    status: Status
    empty_reason: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "facts": list(self.facts),
            "episodes": list(self.episodes),
            "warnings": list(self.warnings),
            "status": self.status,
            "empty_reason": self.empty_reason,
        }


@dataclass(frozen=True, slots=True)
class ContextResult:
    packet: Packet
    token_count: int
    trace_id: UUID
    decisions: tuple[Decision, ...]
    timings: dict[str, float]
    packet_json: bytes  # ``packet.to_json()`` serialised once, for the trace and the response
    # Rows each episode step handled (``EpisodeWork.as_dict``), each under its cap.
    work: dict[str, int] = field(default_factory=dict)
