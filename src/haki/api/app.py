"""The FastAPI application: lifespan (database, providers, background work) and routers."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any

from fastapi import APIRouter, Depends, FastAPI
from starlette.routing import Route

from .. import __version__
from ..config import Settings, load_settings
from ..consolidator.project_spaces import ProjectSpaces
from ..consolidator.spaces import use_embedder_space
from ..context import recipe
from ..context.trace_writer import TraceWriter
from ..observability import tracing
from ..providers import Providers, build_providers
from ..storage import Database, PreparedDatabase, prepare_database
from ..storage.secrets import RECEIPT_KEY, server_secret
from ..storage.watch import DatabaseWatch
from . import docs
from .auth import guard_v1
from .errors import install_error_handlers
from .mcp_mount import PATH as MCP_PATH
from .mcp_mount import McpEndpoint
from .middleware import BodyLimitMiddleware, RequestIdMiddleware
from .openapi import install_openapi
from .routes import (
    capture,
    conflicts,
    console,
    consolidate,
    context,
    device,
    events,
    export,
    facts,
    feedback,
    forget,
    gateway,
    health,
    inspect,
    jobs,
    keys,
    metrics,
    retention,
    stats,
    subjects,
    timeline,
)
from .state import AppState

log = logging.getLogger(__name__)

DESCRIPTION = """Long-term memory for AI agents: capture events, read facts, get a context
packet before each model call. Every error answers with one envelope,
`{"error": {"type", "message", "field"}}`; the types are listed in docs/api.md.
Every response carries an `x-request-id` header."""

# Request bodies are small JSON documents, except a capture batch (up to
# 1,000 events of up to 256 KiB each, refused whole past this cap before it
# is parsed).
MAX_BODY_BYTES = 1024 * 1024
BODY_LIMITS = {
    "/v1/capture": capture.MAX_BODY_BYTES,
    # A chat completion carries the whole conversation, images included.
    "/gateway/v1/chat/completions": 32 * 1024 * 1024,
}

# Background tasks started with the app (e.g. the in-process worker); each
# receives the AppState and runs until cancelled.
BackgroundTask = Callable[[AppState], "asyncio.Future[None] | asyncio.Task[None]"]


# The collector's first threshold in a serving process. A context call holds
# a few thousand container objects at its peak (rows, their dicts, scores)
# and reference counting frees them when it returns; at CPython's default
# (700) the collector ran 1.3 times a LoCoMo call, in its middle, walking
# what the call still held, and now and then a full collection of up to 7
# ms: 0.56 ms a call in all. At 20,000 no collection ran in 850 LoCoMo
# calls; it still runs once that many objects outlive their calls, which is
# what it is for (reference cycles).
GC_THRESHOLD = (20_000, 10, 10)


def settle_heap() -> None:
    """Collect, then freeze every object start-up left alive, and collect
    less often from then on (``GC_THRESHOLD``).

    A full collection walks every object the collector tracks, and it runs
    inside whichever call happens to cross its threshold: over what a
    started server holds (modules, the app, its schemas, the models' Python
    objects) one took 78 ms of a 40 ms call. Frozen objects are never
    walked again; what calls allocate later is collected as usual.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)


def create_app(
    settings: Settings | None = None,
    *,
    database_url: str | None = None,
    providers: Providers | None = None,
    background: bool = True,
    freeze_heap: bool = False,
    healed_elsewhere: bool = False,
) -> FastAPI:
    """Build the app. ``database_url`` skips embedded start-up and migrations (tests).

    ``freeze_heap`` (the server processes of ``haki serve``) hides what
    start-up allocated from the garbage collector (``settle_heap``).
    ``healed_elsewhere``: the database is an embedded server that another
    process restarts if it dies (the parent of ``serve --workers``).
    """
    settings = settings or load_settings()
    recipe(settings.context_recipe)  # an unknown recipe refuses to start
    # Before the pool opens: its connections trace statements only if tracing is on.
    tracing.configure(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        prepared = None
        url = database_url
        if url is None:
            prepared = await asyncio.to_thread(prepare_database, settings)
            url = prepared.url
        db = Database(
            url,
            min_size=settings.db_pool_min,
            max_size=settings.db_pool_max,
            timeout=settings.db_timeout_s,
        )
        await db.open()
        watch = (
            prepared.watch()
            if prepared is not None
            else DatabaseWatch(
                url,
                restarted_elsewhere=healed_elsewhere,
                what="the embedded database" if healed_elsewhere else "the database",
            )
        )
        watch.on_recovery = db.refresh
        watch.on_url_change = db.reconnect
        db.watch = watch
        state = AppState(
            settings=settings,
            db=db,
            providers=providers or build_providers(settings),
            traces=TraceWriter(db),
        )
        app.state.haki = state
        await use_embedder_space(db, state.providers.embedder)
        state.spaces = ProjectSpaces(db, settings, state.providers.embedder)
        state.extras[RECEIPT_KEY] = await server_secret(db, RECEIPT_KEY, settings.receipt_key)
        await asyncio.to_thread(state.providers.embedder.embed_query, "warm up")
        state.embedder_ready = True
        tasks = [asyncio.create_task(watch.run())]
        tasks += [
            asyncio.create_task(start(state)) for start in _background_tasks(settings, background)
        ]
        if not settings.auth_enabled:
            log.warning("AUTH IS OFF (dev mode): every /v1 route is open on %s", settings.host)
        announce(settings, prepared)
        if freeze_heap:
            settle_heap()
        try:
            async with mcp.running():  # the MCP endpoint's task group
                yield
        finally:
            await gateway.close_upstream(state)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await state.traces.close()  # the traces of calls already answered
            await db.close()
            tracing.flush()
            if prepared is not None:
                await asyncio.to_thread(prepared.stop)

    app = FastAPI(
        title="Haki",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        dependencies=[Depends(guard_v1)],
        docs_url=None,  # served by .docs from packaged assets, not a CDN
        redoc_url=None,
    )
    install_error_handlers(app)
    # Added last runs first: the request id (and the security headers) wraps
    # everything, the cap included.
    app.add_middleware(BodyLimitMiddleware, default=MAX_BODY_BYTES, limits=BODY_LIMITS)
    app.add_middleware(RequestIdMiddleware)
    for router in _routers():
        app.include_router(router)
    console.install(app)
    docs.install(app)
    mcp = McpEndpoint(app, settings)
    app.router.routes.append(Route(MCP_PATH, endpoint=mcp, include_in_schema=False))
    install_openapi(app)
    return app


def announce(settings: Settings, prepared: PreparedDatabase | None) -> None:
    """The few lines a start prints: where it serves, where data lives, auth, docs."""
    base = f"http://{settings.host}:{settings.port}"
    if prepared is not None and prepared.embedded is not None:
        data = f"{prepared.embedded.pgdata} (embedded PostgreSQL + pgvector)"
    else:
        data = "external PostgreSQL (HAKI_DATABASE_URL)"
    auth = (
        "on: /v1 needs Authorization: Bearer <key>"
        if settings.auth_enabled
        else "off (dev mode, loopback only)"
    )
    log.info("Haki %s serving on %s", __version__, base)
    log.info("  data: %s", data)
    log.info("  auth: %s", auth)
    log.info("  docs: %s/docs (OpenAPI document: %s/openapi.json)", base, base)


def _routers() -> list[APIRouter]:
    return [
        health.router,
        keys.router,
        capture.router,
        timeline.router,
        events.router,
        facts.router,
        forget.router,
        context.router,
        inspect.router,
        stats.router,
        feedback.router,
        consolidate.router,
        conflicts.router,
        jobs.router,
        gateway.router,
        subjects.router,
        export.router,
        retention.router,
        device.router,
        metrics.router,
    ]


def _background_tasks(
    settings: Settings, enabled: bool
) -> list[Callable[[AppState], Coroutine[Any, Any, None]]]:
    tasks: list[Callable[[AppState], Coroutine[Any, Any, None]]] = []
    if enabled and settings.worker_in_process:
        tasks.append(consolidate.in_process_worker)
        tasks.append(retention.in_process_retention)
    return tasks
