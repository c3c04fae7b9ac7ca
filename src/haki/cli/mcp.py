"""``haki mcp``: the MCP server over stdio, and ``haki mcp install`` to wire a host."""

from __future__ import annotations

from pathlib import Path

import click

from ..mcp import install as wiring

_HOST = click.Choice(wiring.HOSTS)


@click.group(invoke_without_command=True)
@click.option("--url", envvar="HAKI_URL", help="The Haki server (HAKI_URL).")
@click.option("--api-key", envvar="HAKI_API_KEY", help="A project key (HAKI_API_KEY).")
@click.option(
    "--project-id", envvar="HAKI_PROJECT_ID", help="Project, when the key does not fix it."
)
@click.option(
    "--subject-id", envvar="HAKI_SUBJECT_ID", help="Whose memory this is (HAKI_SUBJECT_ID)."
)
@click.pass_context
def mcp(
    ctx: click.Context,
    url: str | None,
    api_key: str | None,
    project_id: str | None,
    subject_id: str | None,
) -> None:
    """Serve Haki's MCP tools over stdio, for hosts that spawn a process.

    The process talks to a running server (HAKI_URL, HAKI_API_KEY); the key
    fixes the project and HAKI_SUBJECT_ID the subject, so the model cannot
    change either. Hosts that speak HTTP use the server's /mcp endpoint
    instead: see `haki mcp install`.
    """
    if ctx.invoked_subcommand is not None:
        return
    from ..mcp.stdio import serve

    serve(url, api_key, project_id, subject_id)


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


def _wiring(host: str, transport: str, url: str, subject_id: str | None) -> wiring.Wiring:
    return wiring.Wiring(host=host, transport=transport, url=url, subject_id=subject_id)  # type: ignore[arg-type]


@mcp.command("install")
@_wiring_options
@click.option("--print", "print_only", is_flag=True, help="Show the resulting file; write nothing.")
def install_cmd(
    host: str,
    global_: bool,
    transport: str,
    url: str,
    subject_id: str | None,
    root: Path,
    print_only: bool,
) -> None:
    """Add Haki to an agent host's MCP configuration (merged; re-running changes nothing).

    The key is never written: the entry names HAKI_API_KEY, which the host
    expands when it connects. Export it (and HAKI_SUBJECT_ID) where the host runs.
    """
    w = _wiring(host, transport, url, subject_id)
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
