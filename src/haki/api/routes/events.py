"""``GET /v1/events/{id}``: read one event of a project."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter

from ... import ledger
from ..auth import PrincipalDep
from ..deps import DbDep
from ..schemas.events import EventOut
from ..schemas.scope import required_scope

router = APIRouter(tags=["events"])


@router.get("/v1/events/{event_id}")
async def get_event(
    event_id: UUID, principal: PrincipalDep, db: DbDep, project_id: str | None = None
) -> EventOut:
    project = required_scope(project_id, "project_id")
    principal.require(project)
    async with db.transaction(project_id=project) as conn:
        row = await ledger.get_event(conn, project_id=project, event_id=event_id)
    return EventOut.model_validate(row)
