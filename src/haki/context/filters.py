"""Hard filters that need the row in hand: volatility expiry and the conflict block.

Status, scope and business validity are SQL predicates (see ``candidates``);
what is left here runs before any score, so a hidden or blocked fact never
gets one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta

from .types import Decision, FactRow


def is_expired(row: FactRow, at: datetime, horizons: dict[str, timedelta]) -> bool:
    """True when the fact's volatility horizon has passed since it was last confirmed."""
    horizon = horizons.get(row.volatility)
    if horizon is None:
        return False
    confirmed = row.last_reinforced_at or row.since
    return at - confirmed > horizon


def split_expired(
    rows: Sequence[FactRow], at: datetime, horizons: dict[str, timedelta]
) -> tuple[list[FactRow], list[Decision]]:
    """Servable rows, and one ``volatility_expired`` exclusion per hidden row."""
    kept: list[FactRow] = []
    hidden: list[Decision] = []
    for row in rows:
        if is_expired(row, at, horizons):
            hidden.append(Decision("fact", row.id, "excluded", "volatility_expired"))
        else:
            kept.append(row)
    return kept, hidden


def blocked_decisions(rows: Iterable[FactRow]) -> list[Decision]:
    return [
        Decision("fact", row.id, "blocked", "conflict_open")
        for row in sorted(rows, key=lambda r: r.id)
    ]
