"""The load plan: what the read path decided, before and after the safety gate."""

from __future__ import annotations

from collections.abc import Mapping

from .record import Record, as_dict

TYPE_CHECKING = False  # ``typing`` stays unimported at run time (see record.py)
if TYPE_CHECKING:
    from typing import Any, Literal

    Disclosure = Literal["auto", "full"]
    Origin = Literal["routed", "prerequisite", "fetched", "omitted"]


class LoadRequest(Record):
    """Inputs of one ``load``; ``None`` means "use the config value"."""

    query: str = ""
    ids: tuple[str, ...] = ()
    # Repository-relative paths being worked on: they hit ``applies_to`` globs
    # without having to appear in the query text.
    files: tuple[str, ...] = ()
    all: bool = False
    full: bool = False
    disclosure: Disclosure | None = None
    budget_tokens: int | None = None
    limit: int | None = None
    expand_top: int | None = None
    roles: tuple[str, ...] | None = None
    vector_scores: Mapping[str, float] | None = None
    record_usage: bool = True


class Item(Record):
    """A memory that passed the gate and may be rendered as a body or a card."""

    id: str
    type: str
    authority: str
    scope: str
    path: str
    directive: str
    summary: str
    score: float
    rank: int
    origin: Origin
    stale: bool
    requires: tuple[str, ...]
    reasons: tuple[str, ...]
    body: str | None


class Skip(Record):
    """A memory left out of the plan, with the reason shown to the user."""

    id: str
    scope: str
    reason: str
    detail: str = ""


class LoadPlan(Record):
    """What ``load`` decided for one task: the batch, the cards and what was left out."""

    query: str
    anchors: tuple[str, ...]
    batch: tuple[Item, ...]  # selected memories, prerequisites before dependents
    omitted_cards: tuple[Item, ...]  # routed candidates past the limit, shown as cards
    skipped: tuple[Skip, ...]  # failed the hash or safety gate: never rendered
    omitted: tuple[Skip, ...]  # left out by filters or routing (for --dry-run)
    pool_size: int
    total_related: int
    restrictions: tuple[str, ...]
    disclosure: Disclosure
    expand_top: int
    budget_tokens: int | None
    problems: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return as_dict(self)
