"""Wire models of ``/v1/retention``."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field

from ...retention import RetentionPolicy, RetentionReceipt
from ...retention.policy import MAX_DAYS
from .fields import ProjectScope, RequestBody

Days = Annotated[int, Field(strict=True, ge=1, le=MAX_DAYS)]


class RetentionIn(RequestBody):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"project_id": "demo", "events_days": 90, "traces_days": 30}]
        }
    )

    project_id: ProjectScope = None
    events_days: Days | None = Field(
        description="Delete events older than this many days (null: keep them)."
    )
    traces_days: Days | None = Field(
        description="Delete context traces older than this many days (null: keep them)."
    )


class RetentionReceiptOut(BaseModel):
    id: UUID
    events_before: datetime | None = Field(description="Events before this were deleted")
    traces_before: datetime | None = Field(description="Traces before this were deleted")
    counts: dict[str, int] = Field(
        description="events_deleted, chunks_deleted, traces_deleted, batches"
    )
    created_at: datetime

    @classmethod
    def of(cls, receipt: RetentionReceipt) -> RetentionReceiptOut:
        return cls.model_validate(receipt, from_attributes=True)


class RetentionOut(BaseModel):
    project_id: str
    events_days: int | None = Field(description="Days events are kept (null: for ever)")
    traces_days: int | None = Field(description="Days context traces are kept (null: for ever)")
    updated_at: datetime | None = Field(description="When the policy was set (null: never)")
    receipts: list[RetentionReceiptOut] = Field(
        default_factory=list, description="The latest enforcement runs that deleted rows"
    )

    @classmethod
    def of(cls, policy: RetentionPolicy, receipts: list[RetentionReceipt]) -> RetentionOut:
        return cls(
            project_id=policy.project_id,
            events_days=policy.events_days,
            traces_days=policy.traces_days,
            updated_at=policy.updated_at,
            receipts=[RetentionReceiptOut.of(r) for r in receipts],
        )
