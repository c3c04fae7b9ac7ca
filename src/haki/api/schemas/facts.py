"""Wire models of fact reads, of the facts people write, and of status changes."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator

from ...ledger import Page
from ...types import GRAINS, VALID_FROM_GRAIN, FactKind, Grain, Volatility
from .fields import (
    GRAIN_DESCRIPTION,
    Count,
    Identifier,
    Instant,
    JsonObject,
    ProjectScope,
    RequestBody,
    SubjectId,
    Text,
)

Reason = Annotated[Text, Field(max_length=1000)]


class FactOut(BaseModel):
    id: UUID
    org_id: str
    project_id: str
    subject_type: str
    subject_id: str
    predicate: str
    value: Any
    qualifiers: dict[str, Any]
    status: str
    confidence: float
    version: int
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_from: datetime
    recorded_to: datetime | None
    supersedes_id: UUID | None
    source_event_ids: list[UUID]
    fact_kind: str
    volatility: str
    reinforcement_count: int
    last_reinforced_at: datetime | None
    origin_trust: str
    evidence_span: str | None
    asserted_by: str | None = Field(
        default=None, description="who asserted or corrected the fact through the API"
    )
    updated_at: datetime

    @computed_field(description=GRAIN_DESCRIPTION)  # type: ignore[prop-decorator]
    @property
    def valid_from_grain(self) -> Grain | None:
        """The grain stored with the fact's qualifiers, when time words dated it."""
        said = self.qualifiers.get(VALID_FROM_GRAIN)
        return said if said in GRAINS else None


class FactListOut(BaseModel):
    facts: list[FactOut]
    next_cursor: str | None

    @classmethod
    def of(cls, page: Page) -> FactListOut:
        return cls(
            facts=[FactOut.model_validate(row) for row in page.items], next_cursor=page.next_cursor
        )


class StatusIn(RequestBody):
    """``status`` is free text here so an unknown target is reported as an
    illegal transition by the lifecycle table, like any other."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "project_id": "demo",
                    "status": "disputed",
                    "expected_version": 1,
                    "reason": "the user says this is wrong",
                }
            ]
        }
    )

    project_id: ProjectScope = None
    status: Annotated[Text, Field(max_length=32)] = Field(
        description="Target status: active, disputed, superseded, deleted, ..."
    )
    expected_version: Count | None = Field(
        default=None, ge=1, description="The version you read; a newer one is a 409."
    )
    reason: Reason | None = Field(default=None, description="Why, kept with the transition.")


class FactIn(RequestBody):
    """A fact a person asserts (``POST /v1/facts``); the caller is its trusted source."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "project_id": "demo",
                    "subject_id": "maya",
                    "predicate": "home_city",
                    "value": "Lyon",
                    "valid_from": "2026-03-01T00:00:00Z",
                }
            ]
        },
    )

    project_id: ProjectScope = None
    subject_id: SubjectId
    subject_type: Identifier = Field(default="user", description="What the subject is.")
    org_id: Identifier = Field(default="default", description="Organisation of the project.")
    predicate: Identifier = Field(description="What is said about the subject, e.g. home_city.")
    value: Any = Field(description="any JSON value but null")
    qualifiers: JsonObject = Field(
        default_factory=dict, description="What makes the fact precise (whose, which, ...)."
    )
    fact_kind: FactKind = Field(default="attribute", description="What sort of fact it is.")
    volatility: Volatility = Field(default="stable", description="How fast it goes stale.")
    confidence: float = Field(default=1.0, ge=0, le=1, description="0 to 1.")
    valid_from: Instant | None = Field(
        default=None, description="when it became true (default: now)"
    )
    reason: Reason | None = Field(default=None, description="Why, kept with the fact.")

    @model_validator(mode="after")
    def _value_given(self) -> FactIn:
        if self.value is None:
            raise ValueError("value is required and must not be null")
        return self


class FactPatchIn(RequestBody):
    """Correct a fact (``value`` and/or ``qualifiers``: a new version supersedes it),
    or change its status (``status``, with ``valid_to`` when it stops being true)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"project_id": "demo", "value": "Villeurbanne", "reason": "misheard"},
                {"project_id": "demo", "status": "superseded", "valid_to": "2026-05-01T00:00:00Z"},
            ]
        },
    )

    project_id: ProjectScope = None
    value: Any = Field(default=None, description="correction: the right value (not null)")
    qualifiers: JsonObject | None = Field(default=None, description="correction: new qualifiers")
    valid_from: Instant | None = Field(
        default=None,
        description="correction only: when the corrected value became true "
        "(default: the old fact's valid_from, i.e. the old value was never true)",
    )
    status: Annotated[Text, Field(max_length=32)] | None = Field(
        default=None, description="status change: the target status"
    )
    valid_to: Instant | None = Field(
        default=None,
        description="status superseded only: when the fact stopped being true (default: now)",
    )
    expected_version: Count | None = Field(
        default=None, ge=1, description="The version you read; a newer one is a 409."
    )
    reason: Reason | None = Field(default=None, description="Why, kept with the change.")

    @property
    def corrects(self) -> bool:
        return "value" in self.model_fields_set or self.qualifiers is not None

    @model_validator(mode="after")
    def _one_kind_of_change(self) -> FactPatchIn:
        if "value" in self.model_fields_set and self.value is None:
            raise ValueError("value must not be null")
        if self.corrects and self.status is not None:
            raise ValueError("give either a correction (value, qualifiers) or a status, not both")
        if not self.corrects and self.status is None:
            raise ValueError("give a correction (value, qualifiers) or a status")
        if self.corrects and self.valid_to is not None:
            raise ValueError("valid_to goes with a status change; a correction takes valid_from")
        if self.status is not None and self.valid_from is not None:
            raise ValueError("valid_from goes with a correction; a status change takes valid_to")
        return self


class FactWriteOut(BaseModel):
    """The fact in force after a manual write, and what the write did."""

    fact: FactOut
    action: Literal["insert", "supersede", "historical", "unchanged", "correct", "status"] = Field(
        description="insert: new identity; supersede: replaced the active fact of its identity; "
        "historical: dated before the active fact, kept as past; unchanged: already held; "
        "correct: a new version replaced the fact; status: the fact's status changed"
    )
    superseded: list[UUID] = Field(description="facts this write superseded")
