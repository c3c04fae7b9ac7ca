"""Wire models of ``POST /v1/forget``."""

from __future__ import annotations

from datetime import datetime
from typing import Literal
from uuid import UUID

from pydantic import BaseModel, Field

from ...forget import ForgetMode, ForgetReceipt, ForgetRequest


class ForgetIn(BaseModel):
    project_id: str
    subject_id: str | None = Field(default=None, max_length=128)
    fact_id: UUID | None = None
    mode: ForgetMode = "disable"

    def to_request(self) -> ForgetRequest:
        return ForgetRequest(
            project_id=self.project_id,
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
                **receipt.counts,
            }
        )
