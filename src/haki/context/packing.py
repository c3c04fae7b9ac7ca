"""Budget packing (pure): greedy by score under a token ceiling.

Items arrive ranked. Each one that fits is included; one that does not fit is
excluded with ``over_budget`` and packing goes on, so a smaller item further
down can still use the space left.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import BudgetExceeded
from .types import Decision, PackResult, ReasonCode, Rendered


def check_budget(value: object) -> int:
    """``budget_tokens`` must be a positive integer (JSON booleans are not integers)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise BudgetExceeded("budget_tokens must be a positive integer", field="budget_tokens")
    return value


def pack(items: Sequence[Rendered], budget: int, reason: ReasonCode = "top_score") -> PackResult:
    remaining = budget
    included: list[Rendered] = []
    decisions: list[Decision] = []
    for item in items:
        s = item.scored
        if item.tokens <= remaining:
            remaining -= item.tokens
            included.append(item)
            decisions.append(
                Decision(s.row.kind, s.row.id, "included", reason, s.rank, s.score, item.tokens)
            )
        else:
            decisions.append(
                Decision(
                    s.row.kind, s.row.id, "excluded", "over_budget", s.rank, s.score, item.tokens
                )
            )
    return PackResult(included=tuple(included), decisions=tuple(decisions), remaining=remaining)
