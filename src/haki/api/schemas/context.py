"""Models of the context, inspect, stats and feedback endpoints."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal
from uuid import UUID

from pydantic import BaseModel, Field, field_validator, model_validator

from ...config import Settings

# What an absent budget_tokens means: the deployment's HAKI_DEFAULT_BUDGET_TOKENS,
# documented with its built-in default.
DEFAULT_BUDGET_TOKENS: int = Settings.model_fields["default_budget_tokens"].default


class ContextIn(BaseModel):
    project_id: str | None = Field(default=None, max_length=128)
    subject_id: str | None = Field(default=None, max_length=128)
    query: str = Field(max_length=65_536)
    purpose: str | None = Field(default=None, max_length=1_024)
    # Any JSON value: a non-positive or non-integer budget is the typed
    # budget_exceeded error, raised by the assembler, not a schema error.
    budget_tokens: Any = Field(
        default=None,
        json_schema_extra={"type": "integer", "minimum": 1, "default": DEFAULT_BUDGET_TOKENS},
    )
    as_of: datetime | None = None

    @field_validator("as_of")
    @classmethod
    def _as_of_aware(cls, value: datetime | None) -> datetime | None:
        # A naive timestamp is read as UTC, so as_of never depends on the server's zone.
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


class PacketFactOut(BaseModel):
    id: UUID
    predicate: str
    value: Any
    confidence: float
    valid_from: datetime | None
    source_event_ids: list[UUID]
    fact_kind: str
    volatility: str
    origin_trust: str = Field(
        description="Trust of the source the fact came from: trusted, semi_trusted, third_party, untrusted"
    )
    text: str = Field(
        description="What the fact costs: the rendered line counted against the budget"
    )


class PacketEpisodeOut(BaseModel):
    id: UUID = Field(description="The episode chunk: the id its trace decision names")
    event_id: UUID
    kind: str
    occurred_at: datetime
    excerpt: str = Field(
        description="The chunk's words; a captured <haki_memory> block is quoted, never served as a block"
    )
    origin_trust: str = Field(description="Trust of the event the episode comes from")
    actor_type: str | None = Field(description="Who produced the event (user, agent, tool, ...)")
    marks: list[str] = Field(
        description="What the episode holds: exfiltration, safety_override, jailbreak, "
        "instruction_like, memory_block"
    )
    text: str


class PacketOut(BaseModel):
    facts: list[PacketFactOut]
    episodes: list[PacketEpisodeOut]
    warnings: list[str]
    status: Literal["ok", "degraded"]
    empty_reason: Literal["no_relevant_memory"] | None


class ContextOut(BaseModel):
    packet: PacketOut
    token_count: int
    trace_id: UUID


class ScoreOut(BaseModel):
    semantic: float
    fulltext: float
    recency: float
    total: float


class DecisionOut(BaseModel):
    kind: Literal["fact", "episode"]
    id: UUID
    action: Literal["included", "excluded", "blocked"]
    reason_code: str
    rank: int | None = None
    score: ScoreOut | None = None
    tokens: int | None = None
    fact_id: UUID | None = Field(default=None, description="``id`` when ``kind`` is fact")
    episode_id: UUID | None = Field(default=None, description="``id`` when ``kind`` is episode")

    @model_validator(mode="after")
    def _named_ids(self) -> DecisionOut:
        # The same id under the kind's own name, as older clients read it.
        if self.kind == "fact":
            self.fact_id = self.id
        else:
            self.episode_id = self.id
        return self


class TraceOut(BaseModel):
    trace_id: UUID
    project_id: str
    subject_id: str
    query: str
    purpose: str | None
    as_of: datetime | None
    recipe: str
    recipe_config: dict[str, Any]
    packet: dict[str, Any] = Field(
        description="The packet exactly as it was served (see ContextOut.packet)"
    )
    decisions: list[DecisionOut]
    token_count: int
    facts_served: int
    duration_ms: float
    timings: dict[str, float]
    created_at: datetime

    @classmethod
    def of(cls, row: dict[str, Any]) -> TraceOut:
        return cls.model_validate({**row, "trace_id": row["id"]})


class StatsOverviewOut(BaseModel):
    project_id: str
    active_facts: int
    events_this_week: int
    recall_p50_ms: float | None
    recall_p99_ms: float | None
    injection_rate: float | None = Field(
        description="Share of context calls that served at least one fact"
    )
    hit_rate: float | None = Field(
        deprecated=True, description="Deprecated alias of injection_rate"
    )
    context_tokens_served: int
    recall_count: int


class FeedbackIn(BaseModel):
    project_id: str | None = Field(default=None, max_length=128)
    subject_id: str | None = Field(default=None, max_length=128)
    trace_id: UUID | None = None
    fact_id: UUID | None = None
    rating: Literal["useful", "irrelevant", "incorrect"]
    comment: str | None = Field(default=None, max_length=4_000)


class FeedbackOut(BaseModel):
    id: UUID
    status: Literal["recorded"] = "recorded"
    fact_status: str | None = None
    feedback_id: UUID = Field(description="Same as ``id``, the name older clients read")
