"""``haki backup`` / ``haki restore``: the whole database as one ``pg_dump`` archive."""

from __future__ import annotations

from pathlib import Path

import click

from ..config import load_settings


@click.command()
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
def backup(path: Path) -> None:
    """Write the database to PATH (a pg_dump custom-format archive).

    Consistent while `haki serve` runs: pg_dump reads one snapshot. With no
    HAKI_DATABASE_URL it reads the embedded server in HAKI_DATA_DIR (the
    running one, or one started for the backup).
    """
    from ..storage.backup import backup as write_backup
    from ..storage.bootstrap import prepare_database

    prepared = prepare_database(load_settings(), migrate=False)
    try:
        write_backup(prepared.url, path)
    finally:
        prepared.stop()
    click.echo(f"backup written to {path}")


@click.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Embedded data directory to restore into (default HAKI_DATA_DIR); it must be new or empty.",
)
def restore(path: Path, data_dir: Path | None) -> None:
    """Load a `haki backup` archive into a new embedded data directory (or the
    empty database of HAKI_DATABASE_URL), then apply newer migrations."""
    from ..storage.backup import restore as load_backup
    from ..storage.bootstrap import prepare_database
    from ..storage.migrate import upgrade

    overrides: dict[str, object] = {}
    if data_dir is not None:  # an explicit directory means the embedded server
        overrides = {"data_dir": data_dir, "database_url": None}
    prepared = prepare_database(load_settings(**overrides), migrate=False)
    try:
        load_backup(prepared.url, path)
        upgrade(prepared.url)  # an archive from an older release catches up
    finally:
        prepared.stop()
    where = data_dir or "the configured database"
    click.echo(f"restored {path} into {where}")


def register(group: click.Group) -> None:
    group.add_command(backup)
    group.add_command(restore)
