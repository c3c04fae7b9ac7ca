"""One consolidation job, stage by stage, inside the caller's transaction.

chunk + embed → extract → guard → resolve identity and apply (per subject,
in ``occurred_at`` order) → doubt what later turns may correct without a
value (``doubt``) → embed new facts. Every write happens on ``conn``,
so the caller's single commit makes a job all-or-nothing, and every stage is
idempotent on replay (chunked events are skipped, facts an event already
produced are recognised).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from ..context.trace import recently_served
from ..providers.embed import Embedder
from ..providers.extraction import Extractor
from ..storage import Connection
from .aliases import canonical_predicates
from .apply import Item, NewFact, apply_subject, embed_facts
from .doubt import doubt_subject
from .episodes import load_events, mark_chunks, store_chunks
from .guard import guard, served_key
from .reembed import rerender_subject
from .stages import stage
from .types import Sourced
from .verdict_marks import verdict_marks

Checkpoint = Callable[[str], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class JobResult:
    """What one job did; stored as ``jobs.result``."""

    events: int
    chunks: int
    candidates: int
    rejected: dict[str, int] = field(default_factory=dict)
    actions: dict[str, int] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "events": self.events,
            "chunks": self.chunks,
            "candidates": self.candidates,
            "rejected": self.rejected,
            "actions": self.actions,
        }


async def _served(
    conn: Connection, project_id: str, subject_ids: list[str]
) -> set[tuple[str, str]]:
    served = await recently_served(conn, project_id, subject_ids)
    return {served_key(predicate, value) for predicate, value in served}


async def no_checkpoint(_: str) -> None:
    return None


async def consolidate(
    conn: Connection,
    *,
    project_id: str,
    event_ids: Sequence[UUID | str],
    embedder: Embedder,
    extractor: Extractor,
    checkpoint: Checkpoint = no_checkpoint,
) -> JobResult:
    """Consolidate the given events of one project; the caller commits."""
    with stage("chunking"):
        events = await load_events(conn, project_id, event_ids)
        chunks = await store_chunks(conn, embedder, events)
    await checkpoint("chunks")

    with stage("extraction"):
        extracted = await extractor.extract(events)
    with stage("guard"):
        sourced = [Sourced(c, e) for e, cands in zip(events, extracted, strict=True) for c in cands]
        subject_ids = sorted({e.subject_id for e in events})
        guarded = guard(sourced, await _served(conn, project_id, subject_ids) if sourced else ())
        # A held turn is never served back as an unmarked order (``verdict_marks``).
        await mark_chunks(conn, project_id, verdict_marks(events, guarded.quarantined))
    position = {e.id: i for i, e in enumerate(events)}

    held = [(s, None) for s in guarded.accepted] + [
        (q.sourced, q.reason) for q in guarded.quarantined
    ]
    raw_predicates = (s.candidate.predicate for s, _ in held)
    with stage("identity"):
        predicates = await canonical_predicates(conn, embedder, project_id, raw_predicates)
    actions: Counter[str] = Counter()
    created: list[NewFact] = []
    corrected: set[UUID] = set()
    named: list[str] = []
    for subject_id in subject_ids:
        items = sorted(
            (
                Item(s, predicates[s.candidate.predicate], threat)
                for s, threat in held
                if s.event.subject_id == subject_id
            ),
            key=lambda i: position[i.sourced.event.id],
        )
        if items:
            with stage("apply"):
                applied = await apply_subject(conn, project_id, subject_id, items)
            actions.update(applied.counts)
            created.extend(applied.created)
            corrected.update(applied.corrected)
            if any(i.predicate == "name" for i in items):
                named.append(subject_id)
    with stage("apply"):
        await embed_facts(conn, embedder, created)
    replacements: list[NewFact] = []
    for subject_id in subject_ids:
        # After the new facts are embedded, so a turn is compared with them too.
        own = [e for e in events if e.subject_id == subject_id]
        with stage("corrections/doubt"):
            doubted = await doubt_subject(conn, project_id, subject_id, own, corrected)
        if doubted.doubted:
            actions["doubt"] += doubted.doubted
        if doubted.replaced:
            actions["supersede"] += doubted.replaced
        replacements.extend(doubted.created)
    with stage("apply"):
        await embed_facts(conn, embedder, replacements)
    for subject_id in named:
        # The subject may have a (new) name: its facts say it from now on.
        with stage("apply"):
            await rerender_subject(conn, embedder, project_id, subject_id)
    return JobResult(
        events=len(events),
        chunks=chunks,
        candidates=len(sourced),
        rejected=guarded.rejected,
        actions=dict(sorted(actions.items())),
    )
