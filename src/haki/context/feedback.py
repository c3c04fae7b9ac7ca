"""Feedback on a trace or a fact; ``incorrect`` on a fact disputes it.

A fact already disputed stays disputed (the rating is still recorded). A
fact whose status cannot become disputed (disabled, deleted) answers
``illegal_status_transition``: the client asked for something impossible.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
from uuid import UUID

from ..errors import InvalidPayload, NotFound
from ..ledger.transitions import set_status
from ..storage import Connection

Rating = Literal["useful", "irrelevant", "incorrect"]

TRACE_EXISTS = """
SELECT 1 FROM context_traces
WHERE id = %(trace_id)s AND project_id = %(project_id)s
  AND (%(subject_id)s::text IS NULL OR subject_id = %(subject_id)s)"""

FACT_STATUS = """
SELECT status FROM facts
WHERE id = %(fact_id)s AND project_id = %(project_id)s
  AND (%(subject_id)s::text IS NULL OR subject_id = %(subject_id)s)"""

INSERT_FEEDBACK = """
INSERT INTO feedback (project_id, subject_id, trace_id, fact_id, rating, comment)
VALUES (%(project_id)s, %(subject_id)s, %(trace_id)s, %(fact_id)s, %(rating)s, %(comment)s)
RETURNING id"""


@dataclass(frozen=True, slots=True)
class FeedbackIn:
    project_id: str
    rating: Rating
    subject_id: str | None = None
    trace_id: UUID | None = None
    fact_id: UUID | None = None
    comment: str | None = None


@dataclass(frozen=True, slots=True)
class FeedbackReceipt:
    id: UUID
    fact_status: str | None  # the fact's status after this feedback, when one was named


async def record_feedback(conn: Connection, fb: FeedbackIn) -> FeedbackReceipt:
    if fb.trace_id is None and fb.fact_id is None:
        raise InvalidPayload("feedback needs a trace_id or a fact_id", field="trace_id")
    params = {
        "project_id": fb.project_id,
        "subject_id": fb.subject_id,
        "trace_id": fb.trace_id,
        "fact_id": fb.fact_id,
        "rating": fb.rating,
        "comment": fb.comment,
    }
    if fb.trace_id is not None:
        cur = await conn.execute(TRACE_EXISTS, params)
        if await cur.fetchone() is None:
            raise NotFound("trace not found")
    fact_status = None
    if fb.fact_id is not None:
        cur = await conn.execute(FACT_STATUS, params)
        row = await cur.fetchone()
        if row is None:
            raise NotFound("fact not found")
        fact_status = row["status"]
        if fb.rating == "incorrect" and fact_status != "disputed":
            updated = await set_status(
                conn, project_id=fb.project_id, fact_id=fb.fact_id, status="disputed"
            )
            fact_status = updated["status"]
    cur = await conn.execute(INSERT_FEEDBACK, params)
    row = await cur.fetchone()
    assert row is not None
    return FeedbackReceipt(id=row["id"], fact_status=fact_status)
