"""Facts: list one subject's facts on both time axes, read one, assert one,
correct one, change its status."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, TypeVar
from uuid import UUID

from fastapi import APIRouter, Query

from ... import ledger
from ...consolidator import manual
from ...errors import ConcurrentUpdate, InvalidPayload
from ...providers.embed import Embedder
from ...storage import Connection, Database
from ...storage.db import in_space
from ...storage.spaces import SpaceMoved, hold_written_space
from ...types import FactStatus
from ..auth import Principal, PrincipalDep
from ..deps import DbDep, StateDep
from ..openapi import errors
from ..schemas.facts import FactIn, FactListOut, FactOut, FactPatchIn, FactWriteOut, StatusIn
from ..schemas.fields import (
    CursorQuery,
    InstantQuery,
    LimitQuery,
    ProjectQuery,
    SubjectQuery,
    id_path,
)
from ..state import AppState

router = APIRouter(tags=["facts"])

T = TypeVar("T")
# Reads of a project's space before a write gives up (a switch per read).
SPACE_READS = 3


async def _in_project_space(
    state: AppState,
    project: str,
    write: Callable[[int | None, Embedder], Awaitable[T]],
) -> T:
    """``write(space, embedder)`` in the project's space. The write's
    transaction holds that space first (``hold_written_space``): a switch
    committed since the read sends the write round again in the new space."""
    for _ in range(SPACE_READS):
        space, embedder = await state.embedder_for(project)
        try:
            with in_space(space):
                return await write(space, embedder)
        except SpaceMoved:
            continue
    raise ConcurrentUpdate("the project's embedding space kept changing; try again")


@router.get("/v1/facts", summary="List a subject's facts")
async def list_facts(
    principal: PrincipalDep,
    db: DbDep,
    subject_id: SubjectQuery,
    project_id: ProjectQuery = None,
    status: Annotated[FactStatus | None, Query(description="Only facts in this status.")] = None,
    as_of: InstantQuery = None,
    known_at: InstantQuery = None,
    limit: LimitQuery = 100,
    cursor: CursorQuery = None,
) -> FactListOut:
    """``as_of``: what was true at that business time; ``known_at``: what we knew at that system time.

    Without ``known_at`` the current knowledge is listed (deleted facts left out).
    """
    project = principal.project(project_id)
    query = ledger.FactQuery(
        project_id=project,
        subject_id=subject_id,
        status=status,
        as_of=as_of,
        known_at=known_at,
        limit=limit,
        cursor=cursor,
    )
    async with db.transaction(project_id=project) as conn:
        page = await ledger.list_facts(conn, query)
    return FactListOut.of(page)


FactIdPath = Annotated[UUID, id_path("the fact")]


@router.get("/v1/facts/{fact_id}", summary="Read one fact")
async def get_fact(
    fact_id: FactIdPath, principal: PrincipalDep, db: DbDep, project_id: ProjectQuery = None
) -> FactOut:
    project = principal.project(project_id)
    async with db.transaction(project_id=project) as conn:
        row = await ledger.get_fact(conn, project_id=project, fact_id=fact_id)
    return FactOut.model_validate(row)


# 404: no such fact; 409: a stale expected_version; 422 also covers
# illegal_status_transition, whose message names the statuses the fact can take.
WRITE_ERRORS = errors(404, 409)


def asserted_by(principal: Principal) -> str:
    """Who a manual write is attributed to: the API key, else dev mode."""
    return principal.key_id or "dev"


async def _written(conn: Connection, project_id: str, written: manual.Written) -> FactWriteOut:
    row = await ledger.get_fact(conn, project_id=project_id, fact_id=written.fact_id)
    return FactWriteOut(
        fact=FactOut.model_validate(row),
        action=written.action,  # type: ignore[arg-type]
        superseded=list(written.superseded),
    )


@router.post("/v1/facts", status_code=201, summary="Assert a fact", responses=WRITE_ERRORS)
async def assert_fact(
    body: FactIn, principal: PrincipalDep, db: DbDep, state: StateDep
) -> FactWriteOut:
    """Assert a fact; the caller is its trusted source (``asserted_by``).

    A new value for a single-valued predicate supersedes the active one from
    ``valid_from`` (default now); the same value changes nothing.
    """
    project = principal.project(body.project_id)
    assertion = manual.Assertion(
        project_id=project,
        subject_id=body.subject_id,
        subject_type=body.subject_type,
        org_id=body.org_id,
        predicate=body.predicate,
        value=body.value,
        qualifiers=body.qualifiers,
        fact_kind=body.fact_kind,
        volatility=body.volatility,
        confidence=body.confidence,
        valid_from=body.valid_from,
        reason=body.reason,
        asserted_by=asserted_by(principal),
    )

    async def write(space: int | None, embedder: Embedder) -> FactWriteOut:
        async with db.transaction(project_id=project) as conn:
            await hold_written_space(conn, project, space, db.embedding_space)
            written = await manual.assert_fact(conn, embedder, assertion)
            return await _written(conn, project, written)

    return await _in_project_space(state, project, write)


@router.patch(
    "/v1/facts/{fact_id}", summary="Correct a fact or change its status", responses=WRITE_ERRORS
)
async def patch_fact(
    fact_id: FactIdPath,
    body: FactPatchIn,
    principal: PrincipalDep,
    db: DbDep,
    state: StateDep,
) -> FactWriteOut:
    """Correct a fact, or change its status.

    With ``value`` and/or ``qualifiers``: a new version supersedes the fact
    (lineage in ``supersedes_id``; the old one gets ``valid_to``). With
    ``status``: one lifecycle transition; ``superseded`` retires the fact
    and sets ``valid_to`` (given, else now).
    """
    project = principal.project(body.project_id)

    async def write(space: int | None, embedder: Embedder) -> FactWriteOut:
        return await _patch(db, embedder, space, project, fact_id, body, principal)

    return await _in_project_space(state, project, write)


async def _patch(
    db: Database,
    embedder: Embedder,
    space: int | None,
    project: str,
    fact_id: UUID,
    body: FactPatchIn,
    principal: Principal,
) -> FactWriteOut:
    async with db.transaction(project_id=project) as conn:
        await hold_written_space(conn, project, space, db.embedding_space)
        if body.corrects:
            correction = manual.Correction(
                asserted_by=asserted_by(principal),
                value=body.value,
                has_value="value" in body.model_fields_set,
                qualifiers=body.qualifiers,
                valid_from=body.valid_from,
                expected_version=body.expected_version,
                reason=body.reason,
            )
            written = await manual.correct_fact(
                conn, embedder, project_id=project, fact_id=fact_id, c=correction
            )
        else:
            assert body.status is not None
            if body.valid_to is not None and body.status != "superseded":
                raise InvalidPayload(
                    "valid_to goes with status superseded (the fact stops being true)",
                    field="valid_to",
                )
            await ledger.set_status(
                conn,
                project_id=project,
                fact_id=fact_id,
                status=body.status,
                expected_version=body.expected_version,
                valid_to=body.valid_to,
                reason=body.reason,
            )
            retired = (fact_id,) if body.status == "superseded" else ()
            written = manual.Written(fact_id, "status", retired)
        return await _written(conn, project, written)


@router.post("/v1/facts/{fact_id}/status", summary="Change a fact's status", responses=WRITE_ERRORS)
async def set_fact_status(
    fact_id: FactIdPath, body: StatusIn, principal: PrincipalDep, db: DbDep
) -> FactOut:
    """Apply one lifecycle transition; a stale ``expected_version`` is a 409.

    ``superseded`` ends the fact's truth: ``valid_to`` is set to now.
    """
    project = principal.project(body.project_id)
    async with db.transaction(project_id=project) as conn:
        row = await ledger.set_status(
            conn,
            project_id=project,
            fact_id=fact_id,
            status=body.status,
            expected_version=body.expected_version,
            reason=body.reason,
        )
    return FactOut.model_validate(row)
