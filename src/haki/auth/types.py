"""What the key service hands out: a key's public record, and a new key with its secret."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class ApiKey:
    """A stored key: everything but the secret, which is never kept."""

    id: uuid.UUID
    org_id: str
    project_id: str
    label: str
    prefix: str
    created_at: datetime
    last_used_at: datetime | None
    revoked_at: datetime | None


@dataclass(frozen=True, slots=True)
class IssuedKey:
    """A key just created: the only moment its secret exists outside the caller."""

    record: ApiKey
    secret: str

    def __repr__(self) -> str:
        # Keeps the secret out of tracebacks, debug logs and test reports.
        return f"IssuedKey(record={self.record!r}, secret='{self.record.prefix}…')"


@dataclass(frozen=True, slots=True)
class KeyOwner:
    """The project an active key acts for, as found at authentication."""

    id: uuid.UUID
    org_id: str
    project_id: str
    last_used_at: datetime | None
