"""``GET /v1/events/{id}``: read one event of a project."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter

from ... import ledger
from ..auth import PrincipalDep
from ..deps import DbDep
from ..schemas.events import EventOut
from ..schemas.fields import ProjectQuery, id_path

router = APIRouter(tags=["events"])


@router.get("/v1/events/{event_id}", summary="Read one event")
async def get_event(
    event_id: Annotated[UUID, id_path("the event")],
    principal: PrincipalDep,
    db: DbDep,
    project_id: ProjectQuery = None,
) -> EventOut:
    project = principal.project(project_id)
    async with db.transaction(project_id=project) as conn:
        row = await ledger.get_event(conn, project_id=project, event_id=event_id)
    return EventOut.model_validate(row)
