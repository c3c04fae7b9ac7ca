"""Bodies of the /v1/keys routes. The secret appears in one body only: the creation response."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...auth import ApiKey, IssuedKey
from .fields import Identifier, ProjectScope, RequestBody, Text


class KeyCreateIn(RequestBody):
    model_config = ConfigDict(
        json_schema_extra={"examples": [{"project_id": "demo", "label": "support bot"}]}
    )

    org_id: Identifier | None = Field(
        default=None, description="Organisation; the caller's (or `default`) when left out."
    )
    project_id: ProjectScope = None
    label: Annotated[Text, Field(max_length=200)] | None = Field(
        default="", description="A name to recognise the key by; null is read as no label."
    )


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
