"""Per-project API keys: create (the secret is shown once), list, revoke.

A project key manages the keys of its own project only; the admin key
manages any project's. Creating a key therefore always takes an existing
credential: the first key of an installation comes from ``haki keys create``.
"""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter

from ... import auth
from ...errors import ForbiddenScope, KeyNotFound, NotFound
from ..auth import PrincipalDep
from ..deps import DbDep
from ..schemas.fields import ProjectQuery, id_path
from ..schemas.keys import KeyCreatedOut, KeyCreateIn, KeyListOut, KeyOut, KeyRevokedOut

router = APIRouter(tags=["keys"])

DEFAULT_ORG = "default"


@router.post("/v1/keys", status_code=201, summary="Create an API key")
async def create_key(body: KeyCreateIn, db: DbDep, principal: PrincipalDep) -> KeyCreatedOut:
    """The secret is in this response only; it is never stored or shown again."""
    project = principal.project(body.project_id)
    if principal.org_id is not None and body.org_id not in (None, principal.org_id):
        raise ForbiddenScope("this key may not access that project")
    org_id = body.org_id or principal.org_id or DEFAULT_ORG
    issued = await auth.issue(db, org_id=org_id, project_id=project, label=body.label or "")
    return KeyCreatedOut.issued(issued)


@router.get("/v1/keys", summary="List a project's API keys")
async def list_keys(
    db: DbDep, principal: PrincipalDep, project_id: ProjectQuery = None
) -> KeyListOut:
    # A project key lists its own project; the admin key, every project unless it names one.
    principal.require(project_id)
    keys = await auth.list_keys(db, project_id or principal.project_id)
    return KeyListOut(keys=[KeyOut.of(k) for k in keys])


@router.delete("/v1/keys/{key_id}", summary="Revoke an API key")
async def revoke_key(
    key_id: Annotated[str, id_path("the API key")], db: DbDep, principal: PrincipalDep
) -> KeyRevokedOut:
    try:
        parsed = uuid.UUID(key_id)
    except ValueError:
        raise KeyNotFound("no such API key", field="key_id") from None
    try:
        record = await auth.revoke(db, parsed, project_id=principal.project_id)
    except NotFound:
        raise KeyNotFound("no such API key", field="key_id") from None
    assert record.revoked_at is not None  # revoke() always sets it
    return KeyRevokedOut(id=record.id, revoked_at=record.revoked_at)
