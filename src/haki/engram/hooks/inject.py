"""Compose what a hook injects: a proof line, new bodies, cards, the rest collapsed.

Bodies already delivered in the session become one ``already loaded: <ids>``
line. Over the host's ceiling, bodies become cards (lowest rank first), then
the lowest cards drop; a body is never cut.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..disclosure import card_line, requirements
from ..plan import Item, LoadPlan, Skip
from ..record import Record
from ..sha import sha256_hex

TYPE_CHECKING = False  # ``typing`` stays unimported at run time (see record.py)
if TYPE_CHECKING:
    from typing import Literal

    Tier = Literal["body", "card"]


class Injection(Record):
    text: str
    bodies: tuple[str, ...]
    cards: tuple[str, ...]
    already: tuple[str, ...]
    dropped: tuple[str, ...]


def signature(ids: Iterable[str]) -> str:
    return sha256_hex("\n".join(sorted(set(ids))).encode())[:8]


def compose(
    plan: LoadPlan,
    label: str,
    why: str,
    mode: str,
    delivered: Iterable[str],
    max_bodies: int,
    fits: Callable[[str], bool],
    items: Iterable[Item] | None = None,
    as_cards: Iterable[str] = (),
) -> Injection:
    """``as_cards``: ids whose bodies the host delivers by itself (native path rules)."""
    done = set(delivered)
    cards_only = set(as_cards)
    pool = list(items) if items is not None else [*plan.batch, *plan.omitted_cards]
    already = [i.id for i in pool if i.id in done]
    tiers: list[tuple[Item, Tier]] = []
    bodies = 0
    for item in pool:
        if item.id in done:
            continue
        if item.body is not None and bodies < max_bodies and item.id not in cards_only:
            tiers.append((item, "body"))
            bodies += 1
        else:
            tiers.append((item, "card"))
    dropped: list[str] = []

    def text() -> str:
        return _render(tiers, already, plan.skipped, label, why, mode, done)

    out = text()
    for i in reversed(range(len(tiers))):
        if fits(out):
            break
        if tiers[i][1] == "body":
            tiers[i] = (tiers[i][0], "card")
            out = text()
    while not fits(out) and tiers:
        item, _ = tiers.pop()
        dropped.append(item.id)
        out = text()
    return Injection(
        out,
        tuple(i.id for i, t in tiers if t == "body"),
        tuple(i.id for i, t in tiers if t == "card"),
        tuple(already),
        tuple(dropped),
    )


def _render(
    tiers: list[tuple[Item, Tier]],
    already: list[str],
    skipped: tuple[Skip, ...],
    label: str,
    why: str,
    mode: str,
    done: set[str],
) -> str:
    bodies = [item for item, tier in tiers if tier == "body"]
    cards = [item for item, tier in tiers if tier == "card"]
    sig = signature([*done, *(i.id for i in bodies)])
    counts = (
        f"{_n(len(bodies), 'new body', 'new bodies')}, {_n(len(cards), 'card', 'cards')}, "
        f"{len(already)} already loaded"
    )
    proof = f"[engram] {label}: {counts}; {why}; read={mode}; set {sig}"
    lines = [proof]
    for item in bodies:
        stale = " (stale)" if item.stale else ""
        lines += ["", f"### {item.id} [{item.type}, {item.authority}]{stale}"]
        if item.requires:
            lines.append(f"requires: {requirements(item.requires, skipped)}")
        lines.append((item.body or "").strip())
    tail = [card_line(item) for item in cards]
    if already:
        tail.append(f"already loaded: {', '.join(already)}")
    tail += [f"skipped: {s.id} ({s.reason}: {s.detail})" for s in skipped]
    if cards:
        tail.append(f"fetch: engram load --id {','.join(item.id for item in cards)}")
    if tail:
        lines += ["", *tail]
    return "\n".join(lines)


def _n(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"
