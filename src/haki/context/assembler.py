"""The context assembler: stages in order, timed, with every decision traced.

embed (thread), then two concurrent read transactions:
- facts: hard filters and phase-1/2 candidates (SQL) → volatility filter →
  hybrid score and CANDIDATE_LIMIT → recall gate → render → pack → multi-hop;
- episodes: candidates and neighbouring turns (SQL) → ranking;
then episodes packed into the budget facts left → packet → trace, handed to
the trace writer (written after the response, in a third transaction). Only
the SQL stages and the embedder do I/O; everything in between is a pure
function of its inputs.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, TypeVar

import numpy as np

from ..observability import metrics, tracing
from ..providers.embed import Embedder
from ..storage import Database
from ..storage.spaces import check_space
from ..text.lexicon import query_terms, query_words
from .candidates import FactQuery, FactWork, fact_candidates, lexical_leg, read_settings
from .config import VOLATILITY_HORIZONS, RetrievalConfig, described
from .episode_candidates import EpisodeQuery, EpisodeWork, lexical_ids
from .episodes import episode_weights, ranked_episodes
from .filters import blocked_decisions, split_expired
from .gate import Gate, apply_gate
from .multihop import Hop, entities, hop
from .packet import build_packet
from .packing import check_budget, pack
from .render import render_all
from .scoring import rank
from .trace import TraceRecord, packet_json
from .trace_writer import PendingTrace, TraceWriter
from .types import (
    ContextRequest,
    ContextResult,
    Decision,
    FactRow,
    PackResult,
    ReasonCode,
    Scored,
)

A = TypeVar("A")
B = TypeVar("B")


class _Clock:
    """Stage timings in milliseconds, measured back to back."""

    def __init__(self) -> None:
        self.start = self._last = time.perf_counter()
        self.timings: dict[str, float] = {}

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.timings[name] = round((now - self._last) * 1000, 3)
        self._last = now

    def total_ms(self) -> float:
        return round((time.perf_counter() - self.start) * 1000, 3)


@dataclass(frozen=True, slots=True)
class _Ranked:
    """One group (main facts, hop facts or episodes) after the filters, score and gate."""

    ranked: list[Scored]
    hidden: list[Decision]  # volatility-expired rows, never scored
    gated: list[Decision]  # rows the recall gate excluded


@dataclass(frozen=True, slots=True)
class _Stage:
    packed: PackResult
    decisions: tuple[Decision, ...]  # every decision of the group, hidden first, then by rank
    hidden: int
    gated: int


def _rank(
    rows: Sequence[FactRow],
    at: datetime,
    cfg: RetrievalConfig,
    *,
    gate: Gate | None,
    limit: int | None,
) -> _Ranked:
    kept, hidden = split_expired(rows, at, VOLATILITY_HORIZONS)
    ranked = rank(kept, cfg, at, limit)
    gated: list[Decision] = []
    if gate is not None:
        ranked, gated = apply_gate(ranked, gate)
    return _Ranked(ranked, hidden, gated)


def _pack(group: _Ranked, budget: int, reason: ReasonCode) -> _Stage:
    packed = pack(render_all(group.ranked), budget, reason)
    by_rank = sorted([*group.gated, *packed.decisions], key=lambda d: (d.rank or 0, d.id))
    return _Stage(
        packed, (*group.hidden, *by_rank), hidden=len(group.hidden), gated=len(group.gated)
    )


Vector = Callable[[], Awaitable[np.ndarray]]


async def _facts(
    db: Database,
    req: ContextRequest,
    vector: Vector,
    at: datetime,
    cfg: RetrievalConfig,
    budget: int,
    gate: Gate,
    space: int | None,
) -> tuple[list[FactRow], _Stage, _Stage, dict[str, float], FactWork]:
    """Fact candidates, score, pack and multi-hop, in one read transaction,
    and the rows each step handled. ``space``: the space the query is
    embedded in, checked against the project's first (``assemble``)."""
    with tracing.span("haki.context.facts"):
        clock = _Clock()
        q = FactQuery(req.project_id, req.subject_id, at, bounded=req.as_of is not None)
        terms = query_words(req.query, cfg.max_query_terms)
        async with db.transaction(
            project_id=req.project_id, local=read_settings(cfg), one_trip=True
        ) as conn:
            if space is not None:
                await check_space(conn, req.project_id, space, db.embedding_space)
            lexical = await (await lexical_leg(conn, q, terms, cfg))()
            vec = await vector()
            found = await fact_candidates(conn, q, vec, terms, lexical, cfg)
            rows, blocked = found.rows, found.blocked
            clock.lap("candidates_ms")
            ranked = _rank(rows, at, cfg, gate=gate, limit=cfg.candidate_limit)
            clock.lap("score_ms")
            main = _pack(ranked, budget, "top_score")
            clock.lap("pack_ms")

            names: list[str] = []
            hopped_rows = Hop([], 0)
            if main.packed.remaining > 0 and main.packed.included:
                names = entities(
                    [r.text for r in main.packed.included], req.query, cfg.multi_hop_max_entities
                )
                seen = [r.id for r in blocked] + [r.id for r in rows]
                hopped_rows = await hop(conn, q, vec, names, seen, cfg)
        # Multi-hop rows are never gated: they exist to bring back evidence that
        # is semantically far from the query.
        hopped = _pack(
            _rank(hopped_rows.rows, at, cfg, gate=None, limit=None),
            main.packed.remaining,
            "multi_hop_expansion",
        )
        clock.lap("multihop_ms")
    work = FactWork(
        lexical_postings=lexical.postings,
        lexical_ranked=lexical.ranked,
        pool=len(rows),
        hop_entities=len(names),
        hop_ranked=hopped_rows.ranked,
        hop_rows=len(hopped_rows.rows),
    )
    return blocked, main, hopped, clock.timings, work


async def _episodes(
    db: Database, req: ContextRequest, vector: Vector, at: datetime, cfg: RetrievalConfig
) -> tuple[list[Scored], float, EpisodeWork]:
    """Ranked episodes (not packed: that needs the budget facts leave), the
    time they took and the rows each step handled."""
    start = time.perf_counter()
    if cfg.episode_top_k < 1:
        return [], 0.0, EpisodeWork()
    with tracing.span("haki.context.episodes"):
        eq = EpisodeQuery(req.project_id, req.subject_id, at)
        terms = query_terms(req.query, cfg.max_query_terms)
        async with db.transaction(
            project_id=req.project_id, local=read_settings(cfg), one_trip=True
        ) as conn:
            lexical = await (await lexical_ids(conn, eq, terms, cfg))()
            w = episode_weights(req.query, cfg)
            ranked, work = await ranked_episodes(conn, eq, await vector(), terms, lexical, cfg, w)
    return ranked, round((time.perf_counter() - start) * 1000, 3), work


def _timed_embedding(embedder: Embedder, text: str) -> tuple[np.ndarray, float]:
    start = time.perf_counter()
    with tracing.span("haki.context.embed"):
        vec = embedder.embed_query(text)
    return vec, round((time.perf_counter() - start) * 1000, 3)


async def _both(first: Coroutine[Any, Any, A], second: Coroutine[Any, Any, B]) -> tuple[A, B]:
    """Run two coroutines concurrently; if either fails, cancel the other and
    raise the original error (not an exception group, so the API maps it)."""
    tasks = (asyncio.ensure_future(first), asyncio.ensure_future(second))
    try:
        return await tasks[0], await tasks[1]
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


SUBJECT_KNOWN = """
SELECT EXISTS (SELECT 1 FROM events WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s)
    OR EXISTS (SELECT 1 FROM facts WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s)
    AS known"""


async def _subject_known(db: Database, req: ContextRequest) -> bool:
    """Asked only when nothing was served, to tell a typo from an empty memory.

    Never prepared: the generic plan of a prepared statement does not know
    the subject, and for an EXISTS it takes a sequential scan that stops at
    the first match, which for an unknown subject reads both tables whole
    (99 ms at 100,000 events and facts, against 0.5 ms through the scope
    indexes of the plan made for the values)."""
    async with db.transaction(project_id=req.project_id) as conn:
        cur = await conn.execute(
            SUBJECT_KNOWN,
            {"project_id": req.project_id, "subject_id": req.subject_id},
            prepare=False,
        )
        row = await cur.fetchone()
    return bool(row and row["known"])


async def assemble(
    db: Database,
    embedder: Embedder,
    req: ContextRequest,
    cfg: RetrievalConfig,
    traces: TraceWriter,
    *,
    space: int | None = None,
) -> ContextResult:
    """Build, trace and return the context packet for one request (``_assemble``),
    in a span whose children are the stages.

    ``space``: the embedding space ``embedder`` embeds in, as the caller
    read the project's (perhaps a while ago). The fact transaction checks it
    against the project's active space before any candidate is read and
    raises ``SpaceMoved`` when they differ: the caller reads the space again
    and asks again, instead of comparing a query of the old space with
    vectors of the new one (which finds none: full text alone would answer)."""
    attributes = {"haki.project_id": req.project_id, "haki.recipe": cfg.name}
    with tracing.span("haki.context", attributes):
        return await _assemble(db, embedder, req, cfg, traces, space)


async def _assemble(
    db: Database,
    embedder: Embedder,
    req: ContextRequest,
    cfg: RetrievalConfig,
    traces: TraceWriter,
    space: int | None,
) -> ContextResult:
    """Build, trace and return the context packet for one request.

    The query is embedded in a thread while facts and episodes are retrieved
    concurrently, each on its own pooled connection and read transaction:
    their full-text legs, which need no vector, run during the embedding;
    their cosine legs wait for it. Neither task holds a connection while
    waiting for the other, so a busy pool cannot deadlock. Episodes are
    packed once the facts have taken their share of the budget, and the
    trace goes to ``traces``, which writes it after the response. Stage
    timings therefore overlap: ``embed_ms`` and ``episodes_ms`` run beside
    the fact stages.
    """
    budget = check_budget(req.budget_tokens)
    # PostgreSQL text cannot hold NUL; the trace stores the query verbatim otherwise.
    req = replace(req, query=req.query.replace("\x00", ""))
    clock = _Clock()
    at = req.as_of or datetime.now(UTC)
    trace_id = uuid.uuid4()
    gate = Gate.of(req.query, cfg.recall_max_distance, cfg.recall_fact_max_distance)
    embedding = asyncio.ensure_future(asyncio.to_thread(_timed_embedding, embedder, req.query))

    async def vector() -> np.ndarray:
        # Shielded: a task cancelled while waiting must not cancel the
        # embedding the other task still needs.
        return (await asyncio.shield(embedding))[0]

    try:
        (
            (ranked_chunks, episodes_ms, work),
            (blocked, main, hopped, fact_timings, fact_work),
        ) = await _both(
            _episodes(db, req, vector, at, cfg),
            _facts(db, req, vector, at, cfg, budget, gate, space),
        )
    finally:
        embedding.cancel()  # a no-op once it is done
        await asyncio.gather(embedding, return_exceptions=True)
    clock.timings["embed_ms"] = embedding.result()[1]
    clock.timings.update(fact_timings)
    clock.timings["episodes_ms"] = episodes_ms
    clock.lap("retrieve_ms")  # the wall time of the three concurrent stages above
    ranked_chunks, gated = apply_gate(ranked_chunks, gate)
    episodes = _pack(_Ranked(ranked_chunks, [], gated), hopped.packed.remaining, "top_score")

    facts = [*main.packed.included, *hopped.packed.included]
    unknown = not facts and not episodes.packed.included and not await _subject_known(db, req)
    packet = build_packet(
        facts,
        episodes.packed.included,
        blocked=len(blocked),
        expired=main.hidden + hopped.hidden,
        gated=main.gated + episodes.gated,
        unknown_subject=unknown,
    )
    token_count = sum(i.tokens for i in facts) + sum(i.tokens for i in episodes.packed.included)
    decisions = (
        *blocked_decisions(blocked),
        *main.decisions,
        *hopped.decisions,
        *episodes.decisions,
    )
    record = TraceRecord(
        id=trace_id,
        project_id=req.project_id,
        subject_id=req.subject_id,
        query=req.query,
        purpose=req.purpose,
        as_of=req.as_of,
        recipe=cfg.name,
        recipe_config=described(cfg),
        packet=packet,
        decisions=decisions,
        token_count=token_count,
    )
    serialised = packet_json(packet)
    # trace_ms is the time to pack episodes and build the record; the row is
    # written after the response (``trace_writer``), so it cannot hold the
    # time of its own insert anyway.
    clock.lap("trace_ms")
    # The trace keeps the row counts beside the timings: a slow call can be
    # read against the work it did.
    counts = fact_work.as_dict() | work.as_dict()
    trace_timings = clock.timings | {f"{name}_rows": float(n) for name, n in counts.items()}
    total_ms = clock.total_ms()
    await traces.submit(PendingTrace(record, serialised, trace_timings, total_ms))
    metrics.observe_context(
        clock.timings,
        total_ms,
        token_count,
        facts=len(facts),
        episodes=len(episodes.packed.included),
    )
    return ContextResult(
        packet=packet,
        token_count=token_count,
        trace_id=trace_id,
        decisions=decisions,
        timings=clock.timings,
        packet_json=serialised,
        work=counts,
    )
