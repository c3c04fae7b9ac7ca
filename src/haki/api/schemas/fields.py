"""The field types every request model and query parameter shares.

Hostile input is refused here, before anything reaches the database:
PostgreSQL text cannot hold NUL, UTF-8 cannot encode a lone surrogate, and a
control character in an identifier is a mistake, never a name. One rule for
every route: an identifier is 1 to 128 characters, not blank, with no control
characters and no lone surrogates; free text may hold newlines and tabs but
no NUL and no lone surrogates; instants are ISO 8601 strings (never unix
numbers) that stay within years 1 to 9999 once converted to UTC.

Each check raises a ``PydanticCustomError`` so the API's validation handler
reports it as ``422 invalid_payload`` (or ``missing_scope`` for a blank
scope) naming the field in dotted form.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import Path, Query
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, StrictInt
from pydantic_core import PydanticCustomError

MAX_ID_CHARS = 128

_ID_BAD = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_TEXT_BAD = re.compile(r"[\x00\ud800-\udfff]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _describe(char: str) -> str:
    code = ord(char)
    if code == 0:
        return "a NUL character"
    if 0xD800 <= code <= 0xDFFF:
        return f"a lone surrogate (U+{code:04X})"
    return f"a control character (U+{code:04X})"


def _refuse(pattern: re.Pattern[str], value: str, where: str = "") -> None:
    found = pattern.search(value)
    if found is not None:
        raise PydanticCustomError(
            "bad_character",
            "{where}must not contain {what} (at position {pos})",
            {"where": where, "what": _describe(found.group()), "pos": found.start()},
        )


def check_identifier(value: str) -> str:
    if not value.strip():
        raise PydanticCustomError("blank", "must not be blank")
    _refuse(_ID_BAD, value)
    return value


def check_text(value: str) -> str:
    _refuse(_TEXT_BAD, value)
    return value


def check_user_text(value: str) -> str:
    _refuse(_SURROGATE, value)
    return value


def _check_json(value: Any, path: str) -> None:
    if isinstance(value, str):
        _refuse(_TEXT_BAD, value, f"{path}: " if path else "")
    elif isinstance(value, Mapping):
        for key, item in value.items():
            key_path = f"{path}.{key}" if path else str(key)
            _refuse(_TEXT_BAD, key, f"key {key_path!r}: ")
            _check_json(item, key_path)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_json(item, f"{path}[{i}]")


def check_json(value: Any) -> Any:
    _check_json(value, "")
    return value


_NUMERIC = re.compile(r"\s*[+-]?\d+(?:\.\d*)?\s*")


def _no_numbers(value: Any) -> Any:
    # A unix number carries no offset; pydantic would read it as UTC, which the
    # API promises never to assume.
    if isinstance(value, int | float) or (isinstance(value, str) and _NUMERIC.fullmatch(value)):
        raise PydanticCustomError(
            "datetime_type", "must be an ISO 8601 string such as 2026-01-31T09:00:00Z"
        )
    return value


def _in_utc(value: datetime) -> datetime:
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise PydanticCustomError(
            "datetime_range", "is out of range once converted to UTC (years 1 to 9999)"
        ) from None


def check_aware(value: datetime) -> datetime:
    if value.tzinfo is None or value.utcoffset() is None:
        raise PydanticCustomError(
            "datetime_naive", "must carry a timezone offset, e.g. 2026-01-31T09:00:00Z"
        )
    return _in_utc(value)


def check_said(value: datetime) -> datetime:
    check_aware(value)
    return value


def check_as_of(value: datetime) -> datetime:
    # A naive as-of time is read as UTC, so a query never depends on the server's zone.
    return _in_utc(value if value.tzinfo is not None else value.replace(tzinfo=UTC))


Identifier = Annotated[
    str,
    Field(min_length=1, max_length=MAX_ID_CHARS),
    AfterValidator(check_identifier),
]
"""A name chosen by the caller: project, subject, org, actor, thread, ..."""

PROJECT_ID = (
    "The project (tenant). Optional with a project key, which names its own project "
    "(if given, it must be that project); required in dev mode and with the admin key."
)
SUBJECT_ID = "Whose memory: the user, agent or entity the call is about."

ProjectId = Annotated[Identifier, Field(description=PROJECT_ID, examples=["demo"])]
SubjectId = Annotated[Identifier, Field(description=SUBJECT_ID, examples=["user-alice"])]

ProjectScope = Annotated[ProjectId | None, Field(description=PROJECT_ID)]
"""A body's ``project_id``: optional with a project key (declare it ``= None``)."""

Text = Annotated[str, AfterValidator(check_text)]
"""Free text: any characters except NUL and lone surrogates."""

UserText = Annotated[str, AfterValidator(check_user_text)]
"""What a user typed, taken as it is: only a lone surrogate (which no encoding can
store) is refused; the consumer drops NUL characters."""

JsonObject = Annotated[dict[str, Any], AfterValidator(check_json)]
"""A JSON object whose keys and strings hold no NUL and no lone surrogate."""

Instant = Annotated[datetime, BeforeValidator(_no_numbers), AfterValidator(check_aware)]
"""An ISO 8601 instant with an explicit offset, stored in UTC."""

SaidAt = Annotated[datetime, BeforeValidator(_no_numbers), AfterValidator(check_said)]
"""An ISO 8601 instant with an explicit offset, kept as given: the speaker's clock, which
the consolidator reads relative times on ("yesterday" said at 23:50 in California)."""

AsOf = Annotated[datetime, BeforeValidator(_no_numbers), AfterValidator(check_as_of)]
"""An ISO 8601 instant; without an offset it is read as UTC."""

Count = StrictInt
"""A JSON integer: ``true`` and ``"5"`` are refused, not read as numbers."""


ProjectQuery = Annotated[ProjectId | None, Query(description=PROJECT_ID)]
"""``?project_id=``: optional with a project key."""

SubjectQuery = Annotated[SubjectId, Query(description=SUBJECT_ID)]
"""``?subject_id=``: required."""

InstantQuery = Annotated[
    Instant | None,
    Query(description="An ISO 8601 instant with an offset, e.g. 2026-01-31T09:00:00Z."),
]

LimitQuery = Annotated[int, Query(ge=1, le=500, description="Most items in one page (1 to 500).")]

CursorQuery = Annotated[
    Annotated[Text, Field(max_length=1024)] | None,
    Query(description="The `next_cursor` of the previous page; leave out for the first page."),
]


def id_path(what: str) -> Any:
    """``Path`` metadata for a resource id: ``Annotated[UUID, id_path("the event")]``."""
    return Path(description=f"The id of {what}.")


class RequestBody(BaseModel):
    """Base of every request body: an unknown field is an error naming it, not a silent no-op."""

    model_config = ConfigDict(extra="forbid")


GRAIN_DESCRIPTION = (
    "How finely the words that dated the fact placed its start: day, week, month or year "
    '("last month": month, and valid_from is the first day of that month); null when no '
    "time words dated it (valid_from is then the event's time)"
)
