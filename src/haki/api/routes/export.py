"""``GET /v1/subjects/{subject_id}/export``: one subject's memory as JSON lines."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Path
from fastapi.responses import StreamingResponse

from ...errors import NotFound
from ...portability import dump_line, export_lines, subject_exists
from ...storage.secrets import RECEIPT_KEY
from ..auth import PrincipalDep
from ..deps import DbDep, StateDep
from ..openapi import errors
from ..schemas.fields import SUBJECT_ID, Identifier, ProjectQuery

router = APIRouter(tags=["subjects"])

MEDIA_TYPE = "application/x-ndjson"


@router.get(
    "/v1/subjects/{subject_id}/export",
    summary="Export a subject's memory",
    responses={
        **errors(404),
        200: {"content": {MEDIA_TYPE: {}}, "description": "JSON lines (docs/operations.md)"},
    },
    response_class=StreamingResponse,
)
async def export_subject(
    principal: PrincipalDep,
    db: DbDep,
    state: StateDep,
    subject_id: Annotated[Identifier, Path(description=SUBJECT_ID)],
    project_id: ProjectQuery = None,
) -> StreamingResponse:
    """Events, episode chunks, facts with every version, their status transitions,
    conflicts and forget receipts, one JSON object per line between a header and an
    end line that counts the rows. `haki import` replays it into another project."""
    project = principal.project(project_id)
    async with db.transaction(project_id=project) as conn:
        if not await subject_exists(conn, project, subject_id):
            raise NotFound(
                f"project {project} holds no event or fact of subject {subject_id}",
                field="subject_id",
            )
    key = state.extras[RECEIPT_KEY]
    assert isinstance(key, bytes)

    async def lines() -> AsyncIterator[bytes]:
        async with db.transaction(project_id=project) as conn:
            async for line in export_lines(
                conn, project_id=project, subject_id=subject_id, receipt_key=key
            ):
                yield dump_line(line)

    filename = f"haki-{project}-{subject_id}.jsonl".replace('"', "")
    return StreamingResponse(
        lines(),
        media_type=MEDIA_TYPE,
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )
