"""``haki keys``: bootstrap and manage API keys with direct database access.

This is how the first key of an installation is made: the HTTP routes
always need an existing credential. The secret is printed once, alone on
stdout (``KEY=$(haki keys create --project P)``); details go to stderr.
"""

from __future__ import annotations

import uuid

import click

from ..errors import NotFound
from .database import run_with_database as _run


@click.group()
def keys() -> None:
    """Create, list and revoke per-project API keys."""


@keys.command("create")
@click.option("--project", "project_id", required=True, help="Project the key may access.")
@click.option(
    "--org", "org_id", default="default", show_default=True, help="Organisation of the project."
)
@click.option("--label", default="", help="Free text shown in listings.")
def create(project_id: str, org_id: str, label: str) -> None:
    """Create a key and print it once; only its hash is stored."""
    from .. import auth

    issued = _run(lambda db: auth.issue(db, org_id=org_id, project_id=project_id, label=label))
    click.echo(
        f"created key {issued.record.id} ({issued.record.prefix}…) for project {project_id}",
        err=True,
    )
    click.echo("store it now: it cannot be shown again", err=True)
    click.echo(issued.secret)


@keys.command("list")
@click.option("--project", "project_id", required=True, help="Project whose keys to list.")
def list_(project_id: str) -> None:
    """List a project's keys (prefix only), oldest first."""
    from .. import auth

    for key in _run(lambda db: auth.list_keys(db, project_id)):
        used = key.last_used_at.isoformat(timespec="seconds") if key.last_used_at else "never"
        state = (
            f"revoked {key.revoked_at.isoformat(timespec='seconds')}"
            if key.revoked_at
            else "active"
        )
        click.echo(f"{key.id}  {key.prefix}…  {state}  last used {used}  {key.label}")


@keys.command("revoke")
@click.argument("key_id")
def revoke(key_id: str) -> None:
    """Revoke a key by id; requests with it are refused at once."""
    from .. import auth

    try:
        parsed = uuid.UUID(key_id)
    except ValueError:
        raise NotFound("no such API key", field="KEY_ID") from None
    record = _run(lambda db: auth.revoke(db, parsed, project_id=None))
    click.echo(f"revoked {record.id} ({record.prefix}…) of project {record.project_id}")


def register(group: click.Group) -> None:
    group.add_command(keys)
