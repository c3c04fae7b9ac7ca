"""The wire shape of an extracted fact, shared by the ``fake`` and ``openai`` providers.

Both read JSON produced outside our control (a test payload, a model's
answer), so every field is validated here and a bad item is dropped, never
guessed at.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ...text.nesting import value_too_deep
from ...types import FactKind, Volatility
from .types import Candidate

MAX_VALUE_CHARS = 500


class FactItem(BaseModel):
    model_config = ConfigDict(extra="ignore")

    predicate: str = Field(min_length=1, max_length=100)
    value: str | int | float | bool | dict[str, Any] | list[Any]
    qualifiers: dict[str, str | int | float | bool] = Field(default_factory=dict)
    fact_kind: FactKind = "attribute"
    volatility: Volatility = "stable"
    confidence: float = Field(default=0.7, ge=0.0, le=1.0)
    evidence_span: str = Field(default="", max_length=2000)

    @field_validator("value")
    @classmethod
    def _bounded(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.strip()
            if not value or len(value) > MAX_VALUE_CHARS:
                raise ValueError("value must be a non-empty string of at most 500 characters")
        elif value_too_deep(value):  # stored, it would break every read of its subject
            raise ValueError("value nests too deep")
        return value


# JSON schema handed to OpenAI-compatible endpoints (``response_format``).
RESPONSE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"facts": {"type": "array", "items": FactItem.model_json_schema()}},
    "required": ["facts"],
}


def parse_items(items: Any, *, role: str = "user") -> tuple[list[Candidate], int]:
    """Valid candidates from a list of JSON objects, and how many items were invalid."""
    if not isinstance(items, list):
        return [], 1 if items is not None else 0
    out: list[Candidate] = []
    invalid = 0
    for raw in items:
        try:
            item = FactItem.model_validate(raw)
        except ValidationError:
            invalid += 1
            continue
        out.append(
            Candidate(
                predicate=item.predicate,
                value=item.value,
                qualifiers=dict(item.qualifiers),
                fact_kind=item.fact_kind,
                volatility=item.volatility,
                confidence=item.confidence,
                evidence_span=item.evidence_span,
                role=role,
            )
        )
    return out, invalid
