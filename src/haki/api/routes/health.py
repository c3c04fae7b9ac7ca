from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ..deps import StateDep

router = APIRouter(tags=["health"])


@router.get("/health")
async def health(state: StateDep) -> JSONResponse:
    """Liveness plus the state of the database and the embedder."""
    db_ok = await state.db.ping()
    embedder = state.providers.embedder
    body = {
        "status": "ok" if db_ok and state.embedder_ready else "degraded",
        "database": "ok" if db_ok else "unavailable",
        "embedder": {
            "status": "ok" if state.embedder_ready else "loading",
            "name": embedder.name,
            "dim": embedder.dim,
        },
    }
    return JSONResponse(body, status_code=200 if db_ok else 503)
