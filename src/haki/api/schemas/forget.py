"""Wire models of ``POST /v1/forget``."""

from __future__ import annotations

from datetime import datetime
from typing import Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field

from ...forget import ForgetMode, ForgetReceipt, ForgetRequest
from .fields import ProjectScope, RequestBody, SubjectId


class ForgetIn(RequestBody):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"project_id": "demo", "subject_id": "user-alice", "mode": "disable"}]
        }
    )

    project_id: ProjectScope = None
    subject_id: SubjectId | None = Field(
        default=None, description="Forget this subject's memory (give it or `fact_id`)."
    )
    fact_id: UUID | None = Field(default=None, description="Forget this one fact.")
    mode: ForgetMode = Field(
        default="disable",
        description="`disable` hides from context and keeps history; `delete` erases.",
    )

    def to_request(self, project_id: str) -> ForgetRequest:
        return ForgetRequest(
            project_id=project_id,
            mode=self.mode,
            subject_id=self.subject_id,
            fact_id=self.fact_id,
        )


class ForgetTarget(BaseModel):
    project_id: str
    subject_id: str | None
    fact_id: UUID | None


class ForgetOut(BaseModel):
    """``scope`` says what was forgotten (a fact, or a subject); ``target`` names it."""

    status: Literal["ok"] = "ok"
    forget_id: UUID
    mode: ForgetMode
    scope: Literal["fact", "subject"]
    target: ForgetTarget
    project_id: str
    subject_id: str | None
    fact_id: UUID | None
    created_at: datetime
    facts_disabled: int
    facts_deleted: int
    events_deleted: int
    chunks_deleted: int
    traces_deleted: int
    conflict_sets_deleted: int
    nothing_found: bool = Field(
        description="True when the scope held nothing to forget: check the ids for a typo."
    )

    @classmethod
    def of(cls, receipt: ForgetReceipt) -> ForgetOut:
        target = ForgetTarget(
            project_id=receipt.project_id, subject_id=receipt.subject_id, fact_id=receipt.fact_id
        )
        return cls.model_validate(
            {
                "forget_id": receipt.forget_id,
                "mode": receipt.mode,
                "scope": "fact" if receipt.fact_id is not None else "subject",
                "target": target,
                "project_id": receipt.project_id,
                "subject_id": receipt.subject_id,
                "fact_id": receipt.fact_id,
                "created_at": receipt.created_at,
                "nothing_found": not any(receipt.counts.values()),
                **receipt.counts,
            }
        )
