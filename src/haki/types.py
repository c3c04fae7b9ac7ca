"""Plain shared types: the scope every row carries, and the closed vocabularies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

FactStatus = Literal["candidate", "active", "superseded", "disputed", "disabled", "deleted"]
FactKind = Literal["attribute", "preference", "instruction"]
Volatility = Literal["stable", "slow", "volatile", "ephemeral"]
OriginTrust = Literal["trusted", "semi_trusted", "third_party", "untrusted"]

# The qualifier that says how finely a fact's ``valid_from`` was said: "day",
# "week", "month" or "year" ("last month" → "month"); ``valid_from`` is then
# the first day of that period. Absent when no time words dated the fact.
VALID_FROM_GRAIN = "valid_from_grain"
Grain = Literal["day", "week", "month", "year"]
GRAINS: tuple[Grain, ...] = ("day", "week", "month", "year")

TRUST_ORDER: dict[str, int] = {"untrusted": 0, "third_party": 1, "semi_trusted": 2, "trusted": 3}


@dataclass(frozen=True, slots=True)
class Scope:
    """Who a row belongs to: tenant (org, project) and subject."""

    org_id: str
    project_id: str
    subject_type: str
    subject_id: str
