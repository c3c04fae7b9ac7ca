"""``haki mcp``: the MCP server over stdio, and ``haki mcp install`` to wire a host."""

from __future__ import annotations

import shutil
import sys
from dataclasses import replace
from pathlib import Path

import click

from ..mcp import install as wiring

_HOST = click.Choice(wiring.HOSTS)


@click.group(invoke_without_command=True)
@click.option("--url", envvar="HAKI_URL", help="The Haki server (HAKI_URL).")
@click.option("--api-key", envvar="HAKI_API_KEY", help="A project key (HAKI_API_KEY).")
@click.option(
    "--project-id",
    envvar="HAKI_PROJECT_ID",
    help="Project, only when the key does not fix it (the admin key).",
)
@click.option(
    "--subject-id", envvar="HAKI_SUBJECT_ID", help="Whose memory this is (HAKI_SUBJECT_ID)."
)
@click.option(
    "--verbose",
    is_flag=True,
    envvar="HAKI_MCP_VERBOSE",
    help="Log every HTTP request to stderr (HAKI_MCP_VERBOSE=1); warnings only by default.",
)
@click.pass_context
def mcp(
    ctx: click.Context,
    url: str | None,
    api_key: str | None,
    project_id: str | None,
    subject_id: str | None,
    verbose: bool,
) -> None:
    """Serve Haki's MCP tools over stdio, for hosts that spawn a process.

    The process talks to a running server (HAKI_URL, HAKI_API_KEY); a project
    key fixes the project (HAKI_PROJECT_ID only with the admin key) and
    HAKI_SUBJECT_ID the subject, so the model cannot change either. Hosts
    that speak HTTP use the server's /mcp endpoint instead: see `haki mcp install`.
    """
    if ctx.invoked_subcommand is not None:
        return
    from ..mcp.stdio import serve

    serve(url, api_key, project_id, subject_id, verbose=verbose)


def _wiring_options(fn: click.decorators.FC) -> click.decorators.FC:
    for option in reversed(
        [
            click.option("--host", "host", type=_HOST, required=True, help="The agent host."),
            click.option(
                "--global", "global_", is_flag=True, help="The user's config, not this project's."
            ),
            click.option(
                "--transport",
                type=click.Choice(["http", "stdio"]),
                default="http",
                show_default=True,
                help="http: the host connects to <url>/mcp; stdio: it spawns `haki mcp`.",
            ),
            click.option(
                "--url",
                envvar="HAKI_URL",
                default="http://127.0.0.1:8100",
                show_default=True,
                help="The Haki server.",
            ),
            click.option(
                "--subject-id",
                help="Write this subject into the config (default: the host expands "
                "$HAKI_SUBJECT_ID when it connects).",
            ),
            click.option(
                "--dir",
                "root",
                type=click.Path(file_okay=False, path_type=Path),
                default=".",
                help="Project directory.",
            ),
        ]
    ):
        fn = option(fn)
    return fn


def stdio_command() -> str:
    """``haki`` when the host will find it on PATH, else this installation's absolute path
    (a host spawns the command with its own PATH, often without this virtualenv)."""
    if shutil.which("haki"):
        return "haki"
    here = Path(sys.executable).parent / "haki"
    if here.is_file():
        click.echo(f"note: haki is not on PATH here; the entry runs {here}", err=True)
        return str(here)
    click.echo(
        "warning: 'haki' is not on PATH here; the host will fail to start it "
        "(activate the virtualenv that installed haki, then run this again)",
        err=True,
    )
    return "haki"


def _wiring(host: str, transport: str, url: str, subject_id: str | None) -> wiring.Wiring:
    return wiring.Wiring(host=host, transport=transport, url=url, subject_id=subject_id)  # type: ignore[arg-type]


@mcp.command("install")
@_wiring_options
@click.option(
    "--project-id",
    help="stdio only: write this project into the entry (needed with the admin key; "
    "a project key fixes its own project).",
)
@click.option("--print", "print_only", is_flag=True, help="Show the resulting file; write nothing.")
def install_cmd(
    host: str,
    global_: bool,
    transport: str,
    url: str,
    subject_id: str | None,
    root: Path,
    project_id: str | None,
    print_only: bool,
) -> None:
    """Add Haki to an agent host's MCP configuration (merged; re-running changes nothing).

    The key is never written: the entry names HAKI_API_KEY, which the host
    expands when it connects. Export it (and HAKI_SUBJECT_ID) where the host runs.
    """
    w = _wiring(host, transport, url, subject_id)
    if transport == "stdio":
        w = replace(w, command=stdio_command(), project_id=project_id)
    path = wiring.config_path(w.host, root, global_=global_, home=Path.home())
    change = wiring.plan(w, path)
    if print_only:
        click.echo(change.after, nl=False)
        return
    written = wiring.apply(change)
    click.echo(f"{'updated' if written else 'unchanged'}: {path}")
    if written:
        click.echo(f"next: export {wiring.KEY_VAR}=hk_... and {wiring.SUBJECT_VAR}=<user id>")


@mcp.command("uninstall")
@_wiring_options
def uninstall_cmd(
    host: str, global_: bool, transport: str, url: str, subject_id: str | None, root: Path
) -> None:
    """Remove the Haki entry from an agent host's MCP configuration (nothing else)."""
    w = _wiring(host, transport, url, subject_id)
    path = wiring.config_path(w.host, root, global_=global_, home=Path.home())
    written = wiring.apply(wiring.plan(w, path, remove=True))
    click.echo(f"{'removed from' if written else 'not in'}: {path}")


def register(cli: click.Group) -> None:
    cli.add_command(mcp)
