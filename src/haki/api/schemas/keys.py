"""Bodies of the /v1/keys routes. The secret appears in one body only: the creation response."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from ...auth import ApiKey, IssuedKey


class KeyCreateIn(BaseModel):
    org_id: str | None = Field(default=None, min_length=1, max_length=128)
    project_id: str = Field(min_length=1, max_length=128)
    label: str | None = Field(default="", max_length=200, description="null is read as no label")


class KeyOut(BaseModel):
    id: uuid.UUID
    org_id: str
    project_id: str
    label: str
    prefix: str
    created_at: datetime
    last_used_at: datetime | None
    revoked_at: datetime | None

    @classmethod
    def of(cls, key: ApiKey) -> KeyOut:
        return cls.model_validate(key, from_attributes=True)


class KeyCreatedOut(KeyOut):
    key: str = Field(description="The API key itself; shown once, never stored.")

    @classmethod
    def issued(cls, issued: IssuedKey) -> KeyCreatedOut:
        return cls(**KeyOut.of(issued.record).model_dump(), key=issued.secret)


class KeyListOut(BaseModel):
    keys: list[KeyOut]


class KeyRevokedOut(BaseModel):
    id: uuid.UUID
    revoked_at: datetime
    status: Literal["revoked"] = "revoked"
