"""Render a load plan for agents: tiered bodies and cards under a token budget.

Text is never cut: over budget, bodies become cards (lowest rank first), then
the lowest-ranked cards are dropped.
"""

from __future__ import annotations

from .plan import Item, LoadPlan, Skip
from .record import Record
from .text import estimate_tokens

TYPE_CHECKING = False  # ``typing`` stays unimported at run time (see record.py)
if TYPE_CHECKING:
    from typing import Literal

    Tier = Literal["body", "card"]


# Said out loud so an agent does not read an empty batch as a failure to look.
NOTHING_MATCHED = "nothing matched: no memory covers this task closely enough to load"


class Rendering(Record):
    """The text an agent sees, with the ids shown as bodies and as cards."""

    text: str
    bodies: tuple[str, ...]
    cards: tuple[str, ...]
    dropped: tuple[str, ...]
    tokens: int


def render(plan: LoadPlan) -> Rendering:
    full = plan.disclosure == "full"
    tiers: list[tuple[Item, Tier]] = []
    for n, item in enumerate(plan.batch):
        expand = (full or n < plan.expand_top) and item.body is not None
        tiers.append((item, "body" if expand else "card"))
    if not full:
        tiers.extend((item, "card") for item in plan.omitted_cards)
    dropped: list[str] = []
    text = _compose(plan, tiers)
    if plan.budget_tokens is not None:
        # Demote from the lowest rank; among equals, the later entry goes first.
        order = sorted(range(len(tiers)), key=lambda i: (tiers[i][0].rank, i), reverse=True)
        for i in order:
            if estimate_tokens(text) <= plan.budget_tokens:
                break
            if tiers[i][1] == "body":
                tiers[i] = (tiers[i][0], "card")
                text = _compose(plan, tiers)
        for i in order:
            if estimate_tokens(text) <= plan.budget_tokens:
                break
            item, _ = tiers[i]
            dropped.append(item.id)
            tiers = [t for t in tiers if t[0] is not item]
            text = _compose(plan, tiers)
    if plan.budget_tokens is not None and dropped and not tiers:
        smallest = smallest_budget(plan)
        text += (
            f"budget of {plan.budget_tokens} tokens is too small for any memory; "
            f"the smallest useful budget is {smallest} tokens\n"
        )
    return Rendering(
        text,
        tuple(i.id for i, t in tiers if t == "body"),
        tuple(i.id for i, t in tiers if t == "card"),
        tuple(dropped),
        estimate_tokens(text),
    )


def smallest_budget(plan: LoadPlan) -> int:
    """Tokens needed to show the best memory alone, as a card or (if shorter) its body."""
    ranked = sorted([*plan.batch, *plan.omitted_cards], key=lambda i: i.rank)
    if not ranked:
        return 0
    tiers: tuple[Tier, ...] = ("card", "body") if ranked[0].body is not None else ("card",)
    return min(estimate_tokens(_compose(plan, [(ranked[0], tier)])) for tier in tiers)


def requirements(ids: tuple[str, ...], skipped: tuple[Skip, ...]) -> str:
    """``a, b (not shown: hash_mismatch; …)``: a prerequisite that failed the gate says so."""
    hidden = {s.id: s for s in skipped}
    return ", ".join(
        i if i not in hidden else f"{i} (not shown: {hidden[i].reason}; {hidden[i].detail})"
        for i in ids
    )


def card_line(item: Item) -> str:
    line = f"- {item.id} [{item.type}] {item.directive or item.summary}".rstrip()
    return line + " (stale)" if item.stale else line


def _compose(plan: LoadPlan, tiers: list[tuple[Item, Tier]]) -> str:
    batch_ids = {i.id for i in plan.batch}
    loaded = sum(1 for item, _ in tiers if item.id in batch_ids)
    lines = [f"loaded {loaded} memory files / {plan.total_related} total related memories"]
    if not tiers and not plan.skipped and plan.query:
        lines.append(NOTHING_MATCHED)
    for item, tier in tiers:
        if tier != "body":
            continue
        stale = " (stale)" if item.stale else ""
        lines += ["", f"### {item.id} [{item.type}, {item.authority}]{stale}"]
        if item.requires:
            lines.append(f"requires: {requirements(item.requires, plan.skipped)}")
        lines.append((item.body or "").strip())
    cards = [item for item, tier in tiers if tier == "card"]
    if cards or plan.skipped:
        lines.append("")
    lines += [card_line(item) for item in cards]
    lines += [f"skipped: {s.id} ({s.reason}: {s.detail})" for s in plan.skipped]
    if cards:
        lines.append(f"fetch: engram load --id {','.join(item.id for item in cards)}")
    return "\n".join(lines) + "\n"


def explain(plan: LoadPlan) -> str:
    """``--dry-run``: counts, restriction labels, match and omission reasons; no bodies."""
    lines = [
        f"query: {plan.query}",
        f"anchors: {', '.join(plan.anchors) or '(none)'}",
        f"candidates: {plan.pool_size} visible, {plan.total_related} related, "
        f"{len(plan.batch)} selected, {len(plan.skipped)} skipped",
    ]
    lines += [f"restriction: {r}" for r in plan.restrictions]
    if not plan.batch and not plan.omitted_cards and not plan.skipped and plan.query:
        lines.append(NOTHING_MATCHED)
    for item in plan.batch:
        why = "; ".join(item.reasons) or item.origin
        lines.append(
            f"selected {item.rank + 1:>2} {item.id} [{item.type}] {item.score:.3f} {item.origin}: {why}"
        )
    for item in plan.omitted_cards:
        lines.append(f"card     {item.rank + 1:>2} {item.id} [{item.type}] {item.score:.3f}: limit")
    for s in plan.skipped:
        lines.append(f"skipped  {s.id} ({s.scope}): {s.reason}: {s.detail}")
    for s in plan.omitted:
        if s.reason in ("shadowed", "ignored", "role"):
            continue  # counted in the restriction labels above
        lines.append(
            f"omitted  {s.id} ({s.scope}): {s.reason}" + (f": {s.detail}" if s.detail else "")
        )
    lines += [f"problem: {p}" for p in plan.problems]
    return "\n".join(lines) + "\n"
