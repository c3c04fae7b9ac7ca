"""``GET /health``: liveness plus what the database and the embedder are doing."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ..deps import StateDep

router = APIRouter(tags=["health"])

HEALTH_EXAMPLE = {
    "status": "ok",
    "database": "ok",
    "database_detail": "answering",
    "storage": "ok",
    "embedder": {"status": "ok", "name": "all-MiniLM-L6-v2", "dim": 384},
}


@router.get(
    "/health",
    summary="Liveness and readiness",
    responses={
        200: {
            "description": (
                "Ready, or `status: degraded` while the embedder loads or the database's "
                "disk is full (`storage: full`, reads served, writes answer "
                "`507 insufficient_storage`; `storage_detail` quotes the server)."
            ),
            "content": {"application/json": {"example": HEALTH_EXAMPLE}},
        },
        503: {
            "description": (
                "Not ready: `database` is `unavailable` (not answering) or `restarting` "
                "(the embedded server is being started again); `database_detail` says more. "
            ),
            "headers": {
                "Retry-After": {
                    "description": "Seconds to wait before retrying.",
                    "schema": {"type": "integer"},
                }
            },
        },
    },
)
async def health(state: StateDep) -> JSONResponse:
    """200 when the database answers; 503 with what is happening when it does not."""
    db_ok = await state.db.ping()
    watch = state.db.watch
    embedder = state.providers.embedder
    database = "ok" if db_ok else (watch.state if watch and watch.down else "unavailable")
    full = watch.storage_full() if watch else None
    body: dict[str, Any] = {
        "status": "ok" if db_ok and state.embedder_ready and full is None else "degraded",
        "database": database,
        "database_detail": watch.detail if watch else ("answering" if db_ok else "not answering"),
        "storage": "ok" if full is None else "full",
        "embedder": {
            "status": "ok" if state.embedder_ready else "loading",
            "name": embedder.name,
            "dim": embedder.dim,
        },
    }
    if full is not None:
        body["storage_detail"] = full
    if db_ok:
        # A full disk still serves reads: 200 keeps the instance in rotation,
        # and ``status: degraded`` with ``storage: full`` says why writes fail.
        return JSONResponse(body)
    retry = str(watch.retry_after_s() if watch else 2)
    return JSONResponse(body, status_code=503, headers={"Retry-After": retry})
