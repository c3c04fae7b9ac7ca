"""Idempotent capture: one multi-row insert per batch, then id resolution.

The batch is planned (validated) first, inserted in one statement with
``ON CONFLICT DO NOTHING`` on ``(project_id, idempotency_key)``, and every
key is then resolved to its id inside the same project. Under READ
COMMITTED the resolving select sees rows committed by a concurrent replay
that made our insert skip, so concurrent replays converge on the same ids.
"""

from __future__ import annotations

from uuid import UUID

import psycopg

from .. import jobs
from ..errors import InvalidPayload, VersionConflict
from ..jobs.sizing import split_by_size
from ..storage import Connection
from .planning import Plan, PlannedEvent, plan_batch
from .types import CaptureBatch, CapturedEvent, CaptureResult

INSERT_EVENTS = """
INSERT INTO events (
    org_id, project_id, subject_type, subject_id, actor_type, actor_id, agent_id, thread_id,
    run_id, kind, occurred_at, occurred_offset, payload, source, classification, hash,
    idempotency_key, origin_trust)
SELECT %(org_id)s, %(project_id)s, r.subject_type, r.subject_id, r.actor_type, r.actor_id,
       r.agent_id, r.thread_id, r.run_id, r.kind, r.occurred_at, r.occurred_offset, r.payload::jsonb,
       r.source::jsonb,
       ARRAY(SELECT jsonb_array_elements_text(r.classification::jsonb)),
       r.hash, r.idempotency_key, r.origin_trust
FROM unnest(
    %(subject_type)b::text[], %(subject_id)b::text[], %(actor_type)b::text[], %(actor_id)b::text[],
    %(agent_id)b::text[], %(thread_id)b::text[], %(run_id)b::text[], %(kind)b::text[],
    %(occurred_at)b::timestamptz[], %(occurred_offset)b::int4[], %(payload)b::text[],
    %(source)b::text[], %(classification)b::text[], %(hash)b::text[], %(idempotency_key)b::text[],
    %(origin_trust)b::text[]
) AS r(subject_type, subject_id, actor_type, actor_id, agent_id, thread_id, run_id, kind,
       occurred_at, occurred_offset, payload, source, classification, hash, idempotency_key,
       origin_trust)
ON CONFLICT (project_id, idempotency_key) DO NOTHING
RETURNING id, idempotency_key"""

RESOLVE_KEYS = """
SELECT id, idempotency_key FROM events
WHERE project_id = %(project_id)s AND idempotency_key = ANY(%(keys)s::text[])"""

_COLUMNS = (
    "subject_type",
    "subject_id",
    "actor_type",
    "actor_id",
    "agent_id",
    "thread_id",
    "run_id",
    "kind",
    "occurred_at",
    "occurred_offset",
    "hash",
    "origin_trust",
)


# The column arrays are sent in binary (``%(name)b``): psycopg dumps a list
# of 100 strings several times faster that way than as array literals.
def _insert_params(plan: Plan) -> dict[str, object]:
    # Rows go in key order: two batches that overlap take their unique-index
    # locks in the same order and so never deadlock each other.
    rows = sorted(plan.rows, key=lambda row: row.key)
    params: dict[str, object] = {name: [getattr(row, name) for row in rows] for name in _COLUMNS}
    params.update(
        org_id=plan.org_id,
        project_id=plan.project_id,
        payload=[row.payload_json for row in rows],
        source=[row.source_json for row in rows],
        classification=[row.classification_json for row in rows],
        idempotency_key=[row.key for row in rows],
    )
    return params


def _job_subject(new_rows: list[PlannedEvent]) -> str | None:
    subjects = {row.subject_id for row in new_rows}
    return subjects.pop() if len(subjects) == 1 else None


async def write_events(
    conn: Connection, batch: CaptureBatch, *, origin_trust_allowed: bool
) -> CaptureResult:
    """Write a batch of events; replays return the same ids, flagged deduplicated.

    Enqueues one consolidation job for the newly inserted events (none on a
    pure replay), in the caller's transaction.
    """
    plan = plan_batch(batch, origin_trust_allowed=origin_trust_allowed)
    try:
        cur = await conn.execute(INSERT_EVENTS, _insert_params(plan))
    except (psycopg.DataError, UnicodeEncodeError) as exc:
        raise InvalidPayload(
            f"events: a value was refused by the database ({exc.__class__.__name__})",
            field="events",
        ) from None
    inserted: dict[str, UUID] = {row["idempotency_key"]: row["id"] for row in await cur.fetchall()}
    ids = dict(inserted)
    known = [row.key for row in plan.rows if row.key not in inserted]
    if known:
        cur = await conn.execute(RESOLVE_KEYS, {"project_id": plan.project_id, "keys": known})
        ids.update({row["idempotency_key"]: row["id"] for row in await cur.fetchall()})
        if len(ids) < len(plan.rows):
            raise VersionConflict("an event of this batch was deleted while it was captured; retry")

    seen: set[str] = set()
    captured = []
    for key in plan.keys:
        captured.append(CapturedEvent(id=ids[key], deduplicated=key not in inserted or key in seen))
        seen.add(key)

    new_rows = [row for row in plan.rows if row.key in inserted]
    new_ids = tuple(inserted[row.key] for row in new_rows)
    job_ids = await _enqueue(conn, plan, [(row, inserted[row.key]) for row in new_rows])
    return CaptureResult(
        events=tuple(captured), consolidation_job_ids=job_ids, new_event_ids=new_ids
    )


async def _enqueue(
    conn: Connection, plan: Plan, new: list[tuple[PlannedEvent, UUID]]
) -> tuple[UUID, ...]:
    """Queue the consolidation of the new events: one job, or, past the size
    bounds (``jobs.sizing``), consecutive jobs of one subject each.

    The pieces follow the order a job consolidates its events in
    (``occurred_at``, then ``recorded_at``, the same for the whole batch, then
    id), so a subject's facts come out as one job would have made them.
    """
    if not new:
        return ()
    sizes = [len(row.payload_json.encode("utf-8")) for row, _ in new]
    if len(split_by_size(sizes)) == 1:
        rows = [row for row, _ in new]
        job_id = await jobs.enqueue(
            conn,
            project_id=plan.project_id,
            event_ids=[event_id for _, event_id in new],
            org_id=plan.org_id,
            subject_id=_job_subject(rows),
            size=sum(sizes),
        )
        return (job_id,)
    ordered = sorted(zip(new, sizes, strict=True), key=lambda n: (n[0][0].occurred_at, n[0][1]))
    pieces: list[jobs.NewJob] = []
    for subject_id in dict.fromkeys(row.subject_id for (row, _), _ in ordered):
        mine = [
            (event_id, size) for (row, event_id), size in ordered if row.subject_id == subject_id
        ]
        for piece in split_by_size([size for _, size in mine]):
            pieces.append(
                jobs.NewJob(
                    plan.org_id,
                    plan.project_id,
                    subject_id,
                    tuple(str(mine[i][0]) for i in piece),
                    size=sum(mine[i][1] for i in piece),
                )
            )
    return tuple(await jobs.enqueue_many(conn, pieces))
