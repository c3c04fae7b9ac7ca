"""Turn the ranked list into a compact batch with ``depends_on`` prerequisites first."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .body import level_rank
from .index import Doc
from .record import Record
from .routing import OMITTED_LIFECYCLES, Scored

TYPE_CHECKING = False  # ``typing`` stays unimported at run time (see record.py)
if TYPE_CHECKING:
    from .plan import Origin


class Picked(Record):
    """A memory chosen for the batch or the cards, in rank order."""

    doc: Doc
    score: float
    rank: int
    origin: Origin  # routed | prerequisite
    reasons: tuple[str, ...]


class Selection(Record):
    """The batch (bodies), the overflow (cards) and any problem met."""

    batch: tuple[Picked, ...]
    overflow: tuple[Picked, ...]
    problems: tuple[str, ...]


def select(
    ranked: Sequence[Scored],
    lookup: Callable[[str], Doc | None],
    limit: int | None,
    today: str,
    min_relative: float = 0.0,
    overflow_cards: int = 5,
    min_marginal: float = 1.0,
    new_relative: float = 0.0,
    card_relative: float = 0.0,
) -> Selection:
    """Take the top ``limit`` above the relative floors and pull in their
    prerequisites, foundations first.

    A task may hold several intents ("add a test and format the file"): a
    candidate that explains at least ``min_marginal`` of the task that no
    better candidate explains needs only ``new_relative`` of the best score;
    one that repeats what is already explained needs ``min_relative``.
    Prerequisites load even without term overlap: the author declared them.
    A candidate left out is offered as a card only at ``card_relative`` of the best
    score or more: a card is still shown, and a far weaker match is noise.
    The floors are relative to the best candidate that can be shown, so an
    unsafe top hit cannot push every safe one out of the batch.
    """
    best = next((s.score for s in ranked if not s.doc.unsafe and not s.doc.edited_outside), 0.0)
    chosen = _floored(ranked, best, limit, min_relative, min_marginal, new_relative)
    batch: list[Picked] = []
    placed: set[str] = set()
    problems: list[str] = []

    def place_prerequisites(doc: Doc, rank: int, trail: tuple[str, ...]) -> None:
        deps = [lookup(d) for d in doc.depends_on]
        for dep_id, dep in zip(doc.depends_on, deps, strict=False):
            if dep is None:
                problems.append(f"{doc.id}: prerequisite {dep_id!r} is not visible")
        for dep in sorted(
            (d for d in deps if d is not None), key=lambda d: (level_rank(d.level), d.id)
        ):
            if dep.id in placed or dep.id in trail:
                continue
            if dep.lifecycle in OMITTED_LIFECYCLES or (dep.valid_until and dep.valid_until < today):
                problems.append(f"{doc.id}: prerequisite {dep.id!r} omitted (lifecycle)")
                continue
            place_prerequisites(dep, rank, (*trail, dep.id))
            placed.add(dep.id)
            batch.append(Picked(dep, 0.0, rank, "prerequisite", (f"prerequisite of {doc.id}",)))

    for rank, s in enumerate(chosen):
        if s.doc.id in placed:
            continue
        place_prerequisites(s.doc, rank, (s.doc.id,))
        placed.add(s.doc.id)
        batch.append(Picked(s.doc, s.score, rank, "routed", s.reasons))
    chosen_ids = {s.doc.id for s in chosen}
    rest = [
        s
        for s in ranked
        if s.doc.id not in chosen_ids and s.doc.id not in placed and s.score >= best * card_relative
    ]
    start = len(chosen)
    overflow = [
        Picked(s.doc, s.score, start + i, "omitted", s.reasons)
        for i, s in enumerate(rest[:overflow_cards])
    ]
    return Selection(tuple(batch), tuple(overflow), tuple(dict.fromkeys(problems)))


def _floored(
    ranked: Sequence[Scored],
    best: float,
    limit: int | None,
    min_relative: float,
    min_marginal: float,
    new_relative: float,
) -> list[Scored]:
    chosen: list[Scored] = []
    # How much of each term the batch already explains: a term a better memory only
    # mentions in its body is still news when this one names it in a tag or directive.
    covered: dict[str, float] = {}
    for s in ranked:
        if limit is not None and len(chosen) >= limit:
            break
        marginal = sum(max(0.0, share - covered.get(term, 0.0)) for term, share in s.covers)
        keep = s.score >= best * min_relative or (
            marginal >= min_marginal and s.score >= best * new_relative
        )
        if keep:
            chosen.append(s)
            if not (s.doc.unsafe or s.doc.edited_outside):
                for term, share in s.covers:
                    covered[term] = max(covered.get(term, 0.0), share)
    return chosen
