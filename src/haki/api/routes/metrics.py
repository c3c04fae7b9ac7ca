"""``GET /metrics``: every series in Prometheus text format, for a scraper.

Guarded like the API: with auth on it takes the admin key or
``HAKI_METRICS_TOKEN`` as a bearer; a project key is refused (403), since the
figures span every project. With a metrics token set, one of the two is
needed even in dev mode. Left out of the OpenAPI document: it is for
operators, not API callers.
"""

from __future__ import annotations

import hmac
import logging

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ...auth import resolve
from ...errors import ForbiddenScope, HakiError, NotFound, Unauthorized
from ...jobs.figures import queue_figures
from ...observability import metrics
from ..auth import bearer_token, is_admin_key
from ..deps import StateDep
from ..state import AppState

log = logging.getLogger(__name__)

router = APIRouter(tags=["metrics"])

PATH = "/metrics"
# A scrape waits this long for a pooled connection to count the queue, then
# answers without the queue's series rather than hang with the pool.
QUEUE_WAIT_S = 1.0


async def check_scraper(request: Request, state: AppState) -> None:
    settings = state.settings
    token = settings.metrics_token
    if token is None and not settings.auth_enabled:
        return
    given = bearer_token(request)
    if token is not None and hmac.compare_digest(given.encode(), token.encode()):
        return
    if is_admin_key(given, settings):
        return
    if settings.auth_enabled and await resolve(state.db, given) is not None:
        raise ForbiddenScope("/metrics spans every project: use the admin key or the metrics token")
    raise Unauthorized("missing or invalid metrics token")


@router.get(PATH, include_in_schema=False)
async def scrape(request: Request, state: StateDep) -> Response:
    if not state.settings.metrics_enabled:
        raise NotFound("metrics are turned off (HAKI_METRICS_ENABLED=false)")
    await check_scraper(request, state)
    extra = []
    try:
        async with state.db.transaction(system=True, wait_s=QUEUE_WAIT_S) as conn:
            extra = metrics.queue_families(await queue_figures(conn))
    except HakiError as exc:  # the database is away: the process's own series still answer
        log.info("scrape without the queue's series: %s", exc)
    return Response(metrics.render(extra), media_type=metrics.CONTENT_TYPE)
