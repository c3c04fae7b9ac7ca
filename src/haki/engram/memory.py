"""Memory types and the schema check that turns frontmatter into a ``Memory``."""

from __future__ import annotations

import re

from .body import LEVELS, sections
from .errors import SchemaError
from .record import Record

TYPE_CHECKING = False  # ``typing`` stays unimported at run time (see record.py)
if TYPE_CHECKING:
    from typing import Any, Literal

    MemoryType = Literal["rule", "skill", "knowledge"]
    Scope = Literal["workspace", "global"]


TYPES = ("rule", "skill", "knowledge")
TYPE_DIRS = {"rule": "rules", "skill": "skills", "knowledge": "knowledge"}
AUTHORITIES = ("instruction", "reference")
CONFIDENCES = ("high", "medium", "low")
LIFECYCLES = ("active", "review_due", "superseded", "archived")
KNOWN_FIELDS = frozenset(
    [
        "id",
        "type",
        "authority",
        "tags",
        "directive",
        "summary",
        "triggers",
        "applies_to",
        "depends_on",
        "level",
        "confidence",
        "lifecycle",
        "valid_until",
        "role",
        "sources",
        "created",
        "updated",
    ]
)
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9._-]{0,127}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")


class Memory(Record):
    """One parsed memory file (frontmatter fields plus the agent-visible body)."""

    id: str
    type: str
    authority: str
    tags: tuple[str, ...]
    directive: str
    summary: str
    triggers: tuple[str, ...]
    applies_to: tuple[str, ...]
    depends_on: tuple[str, ...]
    level: str
    confidence: str
    lifecycle: str
    valid_until: str | None
    role: tuple[str, ...]
    sources: tuple[str, ...]
    created: str | None
    updated: str | None
    title: str
    content: str
    path: str  # relative to the memory root, with forward slashes
    unknown_fields: tuple[str, ...] = ()


def from_fields(fields: dict[str, Any], body: str, path: str, body_line: int = 1) -> Memory:
    """Validate frontmatter fields; raises ``SchemaError`` naming the file."""

    def fail(message: str) -> SchemaError:
        return SchemaError(path, 1, message)

    def text(name: str, required: bool = False) -> str:
        value = fields.get(name)
        if value is None:
            if required:
                raise fail(f"missing required field '{name}'")
            return ""
        if not isinstance(value, (str, int, float)) or isinstance(value, bool):
            raise fail(f"field '{name}' must be a string")
        return str(value).strip()

    def strings(name: str) -> tuple[str, ...]:
        value = fields.get(name)
        if value is None:
            return ()
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, (str, int)) for v in value):
            raise fail(f"field '{name}' must be a list of strings")
        return tuple(str(v).strip() for v in value if str(v).strip())

    def choice(name: str, allowed: tuple[str, ...], default: str) -> str:
        value = text(name) or default
        if value not in allowed:
            raise fail(f"field '{name}' must be one of {', '.join(allowed)} (got {value!r})")
        return value

    def date(name: str) -> str | None:
        value = text(name)
        if value and not _DATE.match(value):
            raise fail(f"field '{name}' must be a date YYYY-MM-DD (got {value!r})")
        return value[:10] or None

    mid = text("id", required=True)
    if not ID_PATTERN.match(mid):
        raise fail(f"id {mid!r} must be a lower-case slug (a-z, 0-9, '.', '_', '-')")
    mtype = choice("type", TYPES, "")
    default_authority = "reference" if mtype == "knowledge" else "instruction"
    level = fields.get("level", "foundation")
    if isinstance(level, bool) or not (isinstance(level, int) or level in LEVELS):
        raise fail(f"field 'level' must be one of {', '.join(LEVELS)} or an integer")
    depends = strings("depends_on")
    if mid in depends:
        raise fail("a memory cannot depend on itself")
    title, content = sections(body)
    # Positional, in field order (the order the checks ran in before): a cold build makes
    # a ``Memory`` per file, and keyword construction walks every field by name.
    return Memory(
        mid,
        mtype,
        choice("authority", AUTHORITIES, default_authority),
        tuple(t.lower() for t in strings("tags")),
        text("directive"),
        text("summary"),
        strings("triggers"),
        strings("applies_to"),
        depends,
        str(level),
        choice("confidence", CONFIDENCES, "high"),
        choice("lifecycle", LIFECYCLES, "active"),
        date("valid_until"),
        tuple(r.lower() for r in strings("role")),
        strings("sources"),
        date("created"),
        date("updated"),
        title,
        content,
        path,
        tuple(sorted(set(fields) - KNOWN_FIELDS)),
    )
