"""``haki retention``: set, show and enforce a project's retention policy."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import click

from ..config import load_settings
from .database import run_with_database as _run

if TYPE_CHECKING:
    from ..storage import Database


def _json(value: Any) -> str:
    def plain(v: Any) -> Any:
        return v.isoformat() if isinstance(v, datetime) else str(v)

    return json.dumps(value, default=plain, sort_keys=True)


def _shown(policy: Any, receipts: list[Any]) -> dict[str, Any]:
    from dataclasses import asdict

    return {**asdict(policy), "receipts": [asdict(r) for r in receipts]}


@click.group()
def retention() -> None:
    """How long a project keeps raw events and context traces."""


@retention.command("set")
@click.option("--project", "project_id", required=True)
@click.option("--events-days", type=click.IntRange(min=1), help="Keep events this many days.")
@click.option("--traces-days", type=click.IntRange(min=1), help="Keep traces this many days.")
def set_command(project_id: str, events_days: int | None, traces_days: int | None) -> None:
    """Set the policy (a term left out: kept for ever). Prints it as JSON."""
    from ..retention import list_receipts, set_policy

    async def work(db: Database) -> dict[str, Any]:
        async with db.transaction(project_id=project_id) as conn:
            policy = await set_policy(
                conn, project_id, events_days=events_days, traces_days=traces_days
            )
            return _shown(policy, await list_receipts(conn, project_id))

    click.echo(_json(_run(work)))


@retention.command("show")
@click.option("--project", "project_id", required=True)
def show_command(project_id: str) -> None:
    """Print the policy and the latest receipts as JSON."""
    from ..retention import get_policy, list_receipts

    async def work(db: Database) -> dict[str, Any]:
        async with db.transaction(project_id=project_id) as conn:
            policy = await get_policy(conn, project_id)
            return _shown(policy, await list_receipts(conn, project_id))

    click.echo(_json(_run(work)))


@retention.command("run")
@click.option("--project", "project_id", help="Only this project (default: every policy).")
@click.option("--batch", type=click.IntRange(min=1), help="Rows per transaction.")
def run_command(project_id: str | None, batch: int | None) -> None:
    """Enforce the policies now, as the worker does each HAKI_RETENTION_INTERVAL_S.
    Prints the receipts of the runs that deleted rows, as JSON lines."""
    from dataclasses import asdict

    from ..retention import enforce_all, enforce_project

    size = batch or load_settings().retention_batch

    async def work(db: Database) -> list[Any]:
        now = datetime.now(UTC)
        if project_id is None:
            return await enforce_all(db, now=now, batch=size)
        receipt = await enforce_project(db, project_id, now=now, batch=size)
        return [] if receipt is None else [receipt]

    for receipt in _run(work):
        click.echo(_json(asdict(receipt)))


def register(group: click.Group) -> None:
    group.add_command(retention)
