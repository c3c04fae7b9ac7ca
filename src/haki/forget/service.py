"""Forgetting a subject or one fact, with a receipt that holds counts only.

Each table's owner deletes its own rows (``ledger``, ``consolidator``,
``context``, ``jobs``: their ``forget_subject`` / ``forget_fact``); this
module calls them in one transaction, in an order where every owner still
finds what it needs, and stores the receipt.

The receipt never stores content. For a subject it keeps only
``hmac-sha256:`` of the project and subject ids under a server secret
(``HAKI_RECEIPT_KEY``, else generated and kept in ``server_secrets``): the
server can confirm that a given subject was forgotten, while whoever reads
the receipts cannot test guesses of predictable ids (a plain hash could be
reversed by hashing "user-1", "user-2", ...).
"""

from __future__ import annotations

import hashlib
import hmac
from uuid import UUID

from psycopg.types.json import Jsonb

from .. import consolidator, context, jobs, ledger
from ..errors import InvalidPayload
from ..storage import Connection
from ..storage.locks import lock_subject
from .types import ForgetReceipt, ForgetRequest

INSERT_RECEIPT = """
INSERT INTO forget_receipts (project_id, subject_id, fact_id, mode, counts)
VALUES (%(project_id)s, %(subject_ref)s, %(fact_id)s, %(mode)s, %(counts)s)
RETURNING id, created_at"""

COUNTERS = (
    "facts_disabled",
    "facts_deleted",
    "events_deleted",
    "chunks_deleted",
    "traces_deleted",
    "conflict_sets_deleted",
)


def subject_reference(key: bytes, project_id: str, subject_id: str) -> str:
    message = f"{project_id}\x00{subject_id}".encode()
    return "hmac-sha256:" + hmac.new(key, message, hashlib.sha256).hexdigest()


async def _delete_subject(conn: Connection, project_id: str, subject_id: str) -> dict[str, int]:
    scope = {"project_id": project_id, "subject_id": subject_id}
    # Chunks go before the events they cascade from, so they are counted.
    counts = await consolidator.forget_subject(conn, **scope)
    deleted = await ledger.forget_subject(conn, **scope)
    counts |= await context.forget_subject(conn, **scope, fact_ids=deleted.fact_ids)
    await jobs.forget_subject(conn, **scope, event_ids=deleted.event_ids)
    return counts | {
        "facts_deleted": deleted.facts_deleted,
        "events_deleted": deleted.events_deleted,
    }


async def _disable_subject(conn: Connection, project_id: str, subject_id: str) -> dict[str, int]:
    """Facts disabled, events withdrawn, chunks and traces (derived, servable) deleted."""
    scope = {"project_id": project_id, "subject_id": subject_id}
    disabled = await ledger.disable_subject(conn, **scope)
    chunks = await consolidator.drop_chunks(conn, project_id=project_id, subject_id=subject_id)
    counts = await context.forget_subject(conn, **scope, fact_ids=[])
    return counts | {"facts_disabled": disabled, "chunks_deleted": chunks}


async def _forget_fact(
    conn: Connection, project_id: str, fact_id: UUID, mode: str
) -> dict[str, int]:
    """The fact and its source turns: disabled and withdrawn, or deleted."""
    sources = await ledger.fact_sources(conn, project_id=project_id, fact_id=fact_id)
    # The source turns' chunks go first (a delete would cascade them uncounted).
    chunks = await consolidator.drop_chunks(
        conn, project_id=project_id, event_ids=sources.event_ids
    )
    counts: dict[str, int] = {"chunks_deleted": chunks}
    if mode == "delete":
        await ledger.forget_fact(conn, project_id=project_id, fact_id=fact_id)
        events = await ledger.delete_events(
            conn, project_id=project_id, event_ids=sources.event_ids
        )
        counts |= await consolidator.forget_fact(conn, project_id=project_id, fact_id=fact_id)
        counts |= {"facts_deleted": 1, "events_deleted": events}
    else:
        disabled = await ledger.disable_fact(conn, project_id=project_id, fact_id=fact_id)
        await ledger.hide_events(conn, project_id=project_id, event_ids=sources.event_ids)
        counts["facts_disabled"] = disabled
    return counts | await context.forget_fact(
        conn,
        project_id=project_id,
        subject_id=sources.subject_id,
        fact_id=fact_id,
        event_ids=sources.event_ids,
    )


async def _forget(conn: Connection, request: ForgetRequest) -> dict[str, int]:
    project_id = request.project_id
    if request.subject_id is not None:
        subject_id = request.subject_id
        # A consolidation job of this subject either finishes first or
        # starts after the subject is gone; it never re-creates facts midway.
        await lock_subject(conn, project_id, subject_id)
        if request.mode == "delete":
            return await _delete_subject(conn, project_id, subject_id)
        return await _disable_subject(conn, project_id, subject_id)
    assert request.fact_id is not None
    sources = await ledger.fact_sources(conn, project_id=project_id, fact_id=request.fact_id)
    # The same lock order as a consolidation job of that subject.
    await lock_subject(conn, project_id, sources.subject_id)
    return await _forget_fact(conn, project_id, request.fact_id, request.mode)


async def forget(conn: Connection, request: ForgetRequest, *, receipt_key: bytes) -> ForgetReceipt:
    """Disable or delete a subject's memory or one fact; store and return the receipt."""
    if (request.subject_id is None) == (request.fact_id is None):
        raise InvalidPayload("give exactly one of subject_id and fact_id", field="subject_id")
    if request.subject_id is not None and not request.subject_id.strip():
        raise InvalidPayload("subject_id must not be empty", field="subject_id")
    done = await _forget(conn, request)
    counts = {name: done.get(name, 0) for name in COUNTERS}
    cur = await conn.execute(
        INSERT_RECEIPT,
        {
            "project_id": request.project_id,
            "subject_ref": subject_reference(receipt_key, request.project_id, request.subject_id)
            if request.subject_id is not None
            else None,
            "fact_id": request.fact_id,
            "mode": request.mode,
            "counts": Jsonb(counts),
        },
    )
    receipt = await cur.fetchone()
    assert receipt is not None
    return ForgetReceipt(
        forget_id=receipt["id"],
        mode=request.mode,
        project_id=request.project_id,
        subject_id=request.subject_id,
        fact_id=request.fact_id,
        created_at=receipt["created_at"],
        counts=counts,
    )
