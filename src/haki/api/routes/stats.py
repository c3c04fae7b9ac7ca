"""GET /v1/stats/overview: project usage figures."""

from __future__ import annotations

from fastapi import APIRouter

from ...context.stats import daily, overview
from ...retention import get_policy, list_receipts
from ..auth import PrincipalDep
from ..deps import DbDep, TracesDep
from ..schemas.context import DayCountOut, StatsOverviewOut
from ..schemas.fields import ProjectQuery
from ..schemas.retention import RetentionOut

router = APIRouter(tags=["stats"])


@router.get("/v1/stats/overview", summary="Project usage figures")
async def stats_overview(
    principal: PrincipalDep, db: DbDep, traces: TracesDep, project_id: ProjectQuery = None
) -> StatsOverviewOut:
    project = principal.project(project_id)
    await traces.wait_all()  # count the calls already answered
    async with db.transaction(project_id=project) as conn:
        o = await overview(conn, project)
        days = await daily(conn, project)
        policy = await get_policy(conn, project)
        receipts = await list_receipts(conn, project, limit=1)
    return StatsOverviewOut(
        project_id=project,
        active_facts=o.active_facts,
        events_this_week=o.events_this_week,
        recall_p50_ms=o.recall_p50_ms,
        recall_p99_ms=o.recall_p99_ms,
        injection_rate=o.injection_rate,
        hit_rate=o.injection_rate,
        context_tokens_served=o.context_tokens_served,
        recall_count=o.recall_count,
        per_day=[
            DayCountOut(day=d.day, events=d.events, context_calls=d.context_calls) for d in days
        ],
        retention=RetentionOut.of(policy, receipts),
    )
