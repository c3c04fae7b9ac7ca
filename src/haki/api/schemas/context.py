"""Models of the context, inspect, stats and feedback endpoints."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...config import Settings
from ...types import Grain
from .fields import (
    GRAIN_DESCRIPTION,
    AsOf,
    Count,
    ProjectScope,
    RequestBody,
    SubjectId,
    Text,
    UserText,
)
from .retention import RetentionOut

# What an absent budget_tokens means: the deployment's HAKI_DEFAULT_BUDGET_TOKENS,
# documented with its built-in default.
DEFAULT_BUDGET_TOKENS: int = Settings.model_fields["default_budget_tokens"].default


class ContextIn(RequestBody):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "project_id": "demo",
                    "subject_id": "user-alice",
                    "query": "Where does Alice live?",
                    "budget_tokens": 500,
                }
            ]
        }
    )

    project_id: ProjectScope = None
    subject_id: SubjectId
    query: Annotated[UserText, Field(max_length=65_536)] = Field(
        description=(
            "What the agent is about to answer; retrieval ranks memory against it. "
            "Any text: NUL characters are dropped."
        )
    )
    purpose: Annotated[Text, Field(max_length=1_024)] | None = Field(
        default=None, description="Why the context is asked for; stored in the trace."
    )
    # A JSON integer; a non-positive one is the typed budget_exceeded error,
    # raised by the assembler; any other type is invalid_payload.
    budget_tokens: Count | None = Field(
        default=None,
        description="Most tokens the packet may hold (default HAKI_DEFAULT_BUDGET_TOKENS, 900).",
        json_schema_extra={"minimum": 1, "default": DEFAULT_BUDGET_TOKENS},
    )
    as_of: AsOf | None = Field(
        default=None, description="Serve memory as it stood at this time (naive means UTC)."
    )


class PacketFactOut(BaseModel):
    id: UUID
    predicate: str
    value: Any
    confidence: float
    valid_from: datetime | None
    valid_from_grain: Grain | None = Field(default=None, description=GRAIN_DESCRIPTION)
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
    ordinal: int = Field(
        default=0,
        description="Position of the chunk in its event: the messages of one event share "
        "occurred_at and come in this order",
    )
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
    empty_reason: Literal["no_relevant_memory", "unknown_subject"] | None = Field(
        description=(
            "Why nothing was served: `unknown_subject` (the project holds no event or fact "
            "of this subject: check for a typo), `no_relevant_memory` (nothing close enough)."
        )
    )


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


class DayCountOut(BaseModel):
    day: date = Field(description="The day (database time zone)")
    events: int = Field(description="Events recorded that day")
    context_calls: int = Field(description="Context calls answered that day")


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
    per_day: list[DayCountOut] = Field(
        default_factory=list, description="The last 14 days, oldest first"
    )
    retention: RetentionOut | None = Field(
        default=None,
        description="The project's retention policy and its latest enforcement receipts",
    )


class FeedbackIn(RequestBody):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "project_id": "demo",
                    "subject_id": "user-alice",
                    "fact_id": "0193b0a4-5c6e-7d8f-9a0b-1c2d3e4f5a6b",
                    "rating": "useful",
                    "comment": "the packet had what the agent needed",
                }
            ]
        }
    )

    project_id: ProjectScope = None
    subject_id: SubjectId | None = Field(
        default=None, description="Whose memory the rating is about, when known."
    )
    trace_id: UUID | None = Field(default=None, description="The context call rated.")
    fact_id: UUID | None = Field(default=None, description="The fact rated.")
    rating: Literal["useful", "irrelevant", "incorrect"] = Field(
        description="`incorrect` on a fact disputes it."
    )
    comment: Annotated[Text, Field(max_length=4_000)] | None = Field(
        default=None, description="Free text for whoever reviews the feedback."
    )


class FeedbackOut(BaseModel):
    id: UUID
    status: Literal["recorded"] = "recorded"
    fact_status: str | None = None
    feedback_id: UUID = Field(description="Same as ``id``, the name older clients read")
