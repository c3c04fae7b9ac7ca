"""Typed request and receipt of a forget."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal
from uuid import UUID

ForgetMode = Literal["disable", "delete"]


@dataclass(frozen=True, slots=True)
class ForgetRequest:
    """Exactly one of ``subject_id`` and ``fact_id`` is set."""

    project_id: str
    mode: ForgetMode
    subject_id: str | None = None
    fact_id: UUID | None = None


@dataclass(frozen=True, slots=True)
class ForgetReceipt:
    forget_id: UUID
    mode: ForgetMode
    project_id: str
    subject_id: str | None
    fact_id: UUID | None
    created_at: datetime
    counts: Mapping[str, int] = field(default_factory=dict)
