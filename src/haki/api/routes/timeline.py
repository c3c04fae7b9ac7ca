"""``GET /v1/timeline``: one subject's events, paginated."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from ... import ledger
from ..auth import PrincipalDep
from ..deps import DbDep
from ..schemas.events import TimelineOut
from ..schemas.scope import required_scope

router = APIRouter(tags=["events"])

PAGE_SIZE = 100
# A request with neither ``limit`` nor ``cursor`` is a client that does not
# page: it gets the subject's history whole up to this many events, and a
# ``next_cursor`` beyond it.
UNPAGED_LIMIT = 1000


@router.get("/v1/timeline")
async def timeline(
    principal: PrincipalDep,
    db: DbDep,
    project_id: str | None = None,
    subject_id: str | None = None,
    limit: Annotated[
        int | None,
        Query(
            ge=1,
            le=500,
            description=f"Page size (default {PAGE_SIZE}); with neither limit nor cursor, "
            f"up to {UNPAGED_LIMIT} events come back in one page",
        ),
    ] = None,
    cursor: str | None = None,
) -> TimelineOut:
    """Events of one subject by ``(occurred_at, recorded_at)``; both scope parameters are required."""
    if limit is None:
        limit = UNPAGED_LIMIT if cursor is None else PAGE_SIZE
    project = required_scope(project_id, "project_id")
    subject = required_scope(subject_id, "subject_id")
    principal.require(project)
    async with db.transaction(project_id=project) as conn:
        page = await ledger.timeline(
            conn, project_id=project, subject_id=subject, limit=limit, after=cursor
        )
    return TimelineOut.of(page)
