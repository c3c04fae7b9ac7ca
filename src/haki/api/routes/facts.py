"""Facts: list one subject's facts on both time axes, read one, assert one,
correct one, change its status."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Query

from ... import ledger
from ...consolidator import manual
from ...errors import InvalidPayload
from ...storage import Connection
from ...types import FactStatus
from ..auth import Principal, PrincipalDep
from ..deps import DbDep, ProvidersDep
from ..schemas.facts import FactIn, FactListOut, FactOut, FactPatchIn, FactWriteOut, StatusIn
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


WRITE_ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"description": "no such fact in this project (not_found)"},
    409: {"description": "expected_version is stale (version_conflict)"},
    422: {
        "description": "invalid body (invalid_payload), or a status the fact cannot take "
        "(illegal_status_transition: the message names the statuses it can take)"
    },
}


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


@router.post("/v1/facts", status_code=201, responses=WRITE_ERRORS)
async def assert_fact(
    body: FactIn, principal: PrincipalDep, db: DbDep, providers: ProvidersDep
) -> FactWriteOut:
    """Assert a fact; the caller is its trusted source (``asserted_by``).

    A new value for a single-valued predicate supersedes the active one from
    ``valid_from`` (default now); the same value changes nothing.
    """
    principal.require(body.project_id)
    assertion = manual.Assertion(
        project_id=body.project_id,
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
    async with db.transaction(project_id=body.project_id) as conn:
        written = await manual.assert_fact(conn, providers.embedder, assertion)
        return await _written(conn, body.project_id, written)


@router.patch("/v1/facts/{fact_id}", responses=WRITE_ERRORS)
async def patch_fact(
    fact_id: UUID, body: FactPatchIn, principal: PrincipalDep, db: DbDep, providers: ProvidersDep
) -> FactWriteOut:
    """Correct a fact, or change its status.

    With ``value`` and/or ``qualifiers``: a new version supersedes the fact
    (lineage in ``supersedes_id``; the old one gets ``valid_to``). With
    ``status``: one lifecycle transition; ``superseded`` retires the fact
    and sets ``valid_to`` (given, else now).
    """
    principal.require(body.project_id)
    project = body.project_id
    async with db.transaction(project_id=project) as conn:
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
                conn, providers.embedder, project_id=project, fact_id=fact_id, c=correction
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


@router.post("/v1/facts/{fact_id}/status", responses=WRITE_ERRORS)
async def set_fact_status(
    fact_id: UUID, body: StatusIn, principal: PrincipalDep, db: DbDep
) -> FactOut:
    """Apply one lifecycle transition; a stale ``expected_version`` is a 409.

    ``superseded`` ends the fact's truth: ``valid_to`` is set to now.
    """
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
