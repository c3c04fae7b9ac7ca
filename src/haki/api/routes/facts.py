"""Facts: list one subject's facts on both time axes, read one, change its status."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Query

from ... import ledger
from ...types import FactStatus
from ..auth import PrincipalDep
from ..deps import DbDep
from ..schemas.facts import FactListOut, FactOut, StatusIn
from ..schemas.scope import required_scope

router = APIRouter(tags=["facts"])


@router.get("/v1/facts")
async def list_facts(
    principal: PrincipalDep,
    db: DbDep,
    project_id: str | None = None,
    subject_id: str | None = None,
    status: FactStatus | None = None,
    as_of: datetime | None = None,
    known_at: datetime | None = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    cursor: str | None = None,
) -> FactListOut:
    """``as_of``: what was true at that business time; ``known_at``: what we knew at that system time.

    Without ``known_at`` the current knowledge is listed (deleted facts left out).
    """
    project = required_scope(project_id, "project_id")
    subject = required_scope(subject_id, "subject_id")
    principal.require(project)
    query = ledger.FactQuery(
        project_id=project,
        subject_id=subject,
        status=status,
        as_of=as_of,
        known_at=known_at,
        limit=limit,
        cursor=cursor,
    )
    async with db.transaction(project_id=project) as conn:
        page = await ledger.list_facts(conn, query)
    return FactListOut.of(page)


@router.get("/v1/facts/{fact_id}")
async def get_fact(
    fact_id: UUID, principal: PrincipalDep, db: DbDep, project_id: str | None = None
) -> FactOut:
    project = required_scope(project_id, "project_id")
    principal.require(project)
    async with db.transaction(project_id=project) as conn:
        row = await ledger.get_fact(conn, project_id=project, fact_id=fact_id)
    return FactOut.model_validate(row)


@router.post("/v1/facts/{fact_id}/status")
async def set_fact_status(
    fact_id: UUID, body: StatusIn, principal: PrincipalDep, db: DbDep
) -> FactOut:
    """Apply one lifecycle transition; a stale ``expected_version`` is a 409."""
    principal.require(body.project_id)
    async with db.transaction(project_id=body.project_id) as conn:
        row = await ledger.set_status(
            conn,
            project_id=body.project_id,
            fact_id=fact_id,
            status=body.status,
            expected_version=body.expected_version,
            reason=body.reason,
        )
    return FactOut.model_validate(row)
