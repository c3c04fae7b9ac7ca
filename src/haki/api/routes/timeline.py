"""``GET /v1/timeline``: one subject's events, paginated."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from ... import ledger
from ..auth import PrincipalDep
from ..deps import DbDep
from ..schemas.events import TimelineOut
from ..schemas.fields import CursorQuery, ProjectQuery, SubjectQuery

router = APIRouter(tags=["events"])

PAGE_SIZE = 100
# A request with neither ``limit`` nor ``cursor`` is a client that does not
# page: it gets the subject's history whole up to this many events, and a
# ``next_cursor`` beyond it.
UNPAGED_LIMIT = 1000


@router.get("/v1/timeline", summary="List a subject's events")
async def timeline(
    principal: PrincipalDep,
    db: DbDep,
    subject_id: SubjectQuery,
    project_id: ProjectQuery = None,
    limit: Annotated[
        int | None,
        Query(
            ge=1,
            le=500,
            description=f"Page size (default {PAGE_SIZE}); with neither limit nor cursor, "
            f"up to {UNPAGED_LIMIT} events come back in one page",
        ),
    ] = None,
    cursor: CursorQuery = None,
) -> TimelineOut:
    """Events of one subject by ``(occurred_at, recorded_at)``; ``subject_id`` is required,
    ``project_id`` too unless the key is a project key."""
    if limit is None:
        limit = UNPAGED_LIMIT if cursor is None else PAGE_SIZE
    project = principal.project(project_id)
    async with db.transaction(project_id=project) as conn:
        page = await ledger.timeline(
            conn, project_id=project, subject_id=subject_id, limit=limit, after=cursor
        )
    return TimelineOut.of(page)
