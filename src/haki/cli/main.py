"""Entry point: a click group; each command module registers its commands here."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..errors import HakiError


class HakiGroup(click.Group):
    """Turns HakiError into one clean line and exit code 2 instead of a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except HakiError as exc:
            where = f" ({exc.field})" if exc.field and exc.field not in exc.message else ""
            click.echo(f"error: {exc.code}: {exc.message}{where}", err=True)
            sys.exit(2)


@click.group(cls=HakiGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="haki")
def cli() -> None:
    """Haki: long-term memory for AI agents.

    Server commands start the API and its worker on PostgreSQL + pgvector
    (an embedded server in HAKI_DATA_DIR when HAKI_DATABASE_URL is unset).
    All settings come from HAKI_* environment variables.
    """


def _register() -> None:
    from . import backup, embeddings, facts, keys, mcp, portability, retention, server, worker

    server.register(cli)
    keys.register(cli)
    worker.register(cli)
    mcp.register(cli)
    facts.register(cli)
    embeddings.register(cli)
    backup.register(cli)
    portability.register(cli)
    retention.register(cli)


_register()


def main() -> None:
    cli(prog_name="haki")
