"""Conflict sets: list them, resolve one by keeping a fact."""

from __future__ import annotations

from typing import Annotated, Literal
from uuid import UUID

from fastapi import APIRouter, Query

from ...consolidator import conflicts
from ..auth import PrincipalDep
from ..deps import DbDep
from ..openapi import errors
from ..schemas.consolidate import ConflictListOut, ConflictOut, ResolveIn, ResolveOut
from ..schemas.fields import LimitQuery, ProjectQuery, SubjectId, id_path

router = APIRouter(tags=["conflicts"])


@router.get("/v1/conflicts", summary="List conflict sets")
async def list_conflicts(
    principal: PrincipalDep,
    db: DbDep,
    project_id: ProjectQuery = None,
    subject_id: Annotated[SubjectId | None, Query(description="Only this subject's sets.")] = None,
    status: Annotated[
        Literal["open", "resolved"] | None, Query(description="Which sets; open by default.")
    ] = "open",
    limit: LimitQuery = 100,
) -> ConflictListOut:
    """Open sets by default, oldest first, each with its member facts."""
    project = principal.project(project_id)
    async with db.transaction(project_id=project) as conn:
        rows = await conflicts.list_conflicts(
            conn, project_id=project, subject_id=subject_id, status=status, limit=limit
        )
    return ConflictListOut(conflicts=[ConflictOut.model_validate(r) for r in rows])


@router.post(
    "/v1/conflicts/{conflict_id}/resolve",
    summary="Resolve a conflict set by keeping one fact",
    responses=errors(409),
)
async def resolve_conflict(
    conflict_id: Annotated[UUID, id_path("the conflict set")],
    body: ResolveIn,
    principal: PrincipalDep,
    db: DbDep,
) -> ResolveOut:
    """Keep a fact (activate it, supersede the other members), or dismiss the
    candidates (``dismiss: true``: each candidate member is disabled, e.g. a
    quarantined one); either way the set is resolved. A set already resolved
    is ``409 conflict_already_resolved``."""
    project = principal.project(body.project_id)
    async with db.transaction(project_id=project) as conn:
        if body.keep_fact_id is None:
            resolution = await conflicts.dismiss(
                conn, project_id=project, conflict_id=conflict_id, reason=body.reason
            )
        else:
            resolution = await conflicts.resolve(
                conn,
                project_id=project,
                conflict_id=conflict_id,
                keep_fact_id=body.keep_fact_id,
            )
    return ResolveOut.of(conflict_id, body.keep_fact_id, resolution)
