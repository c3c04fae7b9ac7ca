"""Conflict sets: list them, resolve one by keeping a fact."""

from __future__ import annotations

from typing import Annotated, Literal
from uuid import UUID

from fastapi import APIRouter, Query

from ...consolidator import conflicts
from ..auth import PrincipalDep
from ..deps import DbDep
from ..schemas.consolidate import ConflictListOut, ConflictOut, ResolveIn, ResolveOut
from ..schemas.scope import required_scope

router = APIRouter(tags=["conflicts"])


@router.get("/v1/conflicts")
async def list_conflicts(
    principal: PrincipalDep,
    db: DbDep,
    project_id: str | None = None,
    subject_id: str | None = None,
    status: Literal["open", "resolved"] | None = "open",
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> ConflictListOut:
    """Open sets by default, oldest first, each with its member facts."""
    project = required_scope(project_id, "project_id")
    principal.require(project)
    async with db.transaction(project_id=project) as conn:
        rows = await conflicts.list_conflicts(
            conn, project_id=project, subject_id=subject_id, status=status, limit=limit
        )
    return ConflictListOut(conflicts=[ConflictOut.model_validate(r) for r in rows])


@router.post("/v1/conflicts/{conflict_id}/resolve")
async def resolve_conflict(
    conflict_id: UUID, body: ResolveIn, principal: PrincipalDep, db: DbDep
) -> ResolveOut:
    """Keep a fact (activate it, supersede the other members), or dismiss the
    candidates (``dismiss: true``: each candidate member is disabled, e.g. a
    quarantined one); either way the set is resolved."""
    principal.require(body.project_id)
    async with db.transaction(project_id=body.project_id) as conn:
        if body.keep_fact_id is None:
            resolution = await conflicts.dismiss(
                conn, project_id=body.project_id, conflict_id=conflict_id, reason=body.reason
            )
        else:
            resolution = await conflicts.resolve(
                conn,
                project_id=body.project_id,
                conflict_id=conflict_id,
                keep_fact_id=body.keep_fact_id,
            )
    return ResolveOut.of(conflict_id, body.keep_fact_id, resolution)
