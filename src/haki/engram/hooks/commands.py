"""The ``engram hook``, ``engram hooks`` and ``engram mcp`` commands.

Kept apart from ``cli.py`` so the other commands never import them.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from ..errors import EngramError
from ..workspace import Roots, locate

TYPE_CHECKING = False  # ``typing`` stays unimported at run time (see record.py)
if TYPE_CHECKING:
    import argparse
    from typing import Any


def roots_of(args: argparse.Namespace) -> Roots:
    return locate(args.workspace, args.global_dir, False if args.no_global else None)


def hook(args: argparse.Namespace) -> int:
    from .runtime import DEADLINE, run

    _deadline(DEADLINE)
    try:
        raw = sys.stdin.read()
        out = run(args.host, raw, args.global_dir, False if args.no_global else None)
    except BaseException as exc:  # the deadline, a closed stdin: answer no-op all the same
        print(f"engram hook: {type(exc).__name__}: {exc}", file=sys.stderr)
        out = "{}\n"
    finally:
        _deadline(0)
    sys.stdout.write(out)
    sys.stdout.flush()
    return 0


def _deadline(seconds: float) -> None:
    import signal

    if not hasattr(signal, "setitimer"):
        return
    if seconds <= 0:
        signal.setitimer(signal.ITIMER_REAL, 0)  # cancel
        return

    def expire(_signum: int, _frame: object) -> None:
        raise TimeoutError(f"gave up after {seconds:g} s")

    signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)


def hooks(args: argparse.Namespace) -> int:
    from . import install as inst
    from . import rules
    from .hosts import HOSTS, host

    roots = roots_of(args)
    project = roots.workspace.base
    names = args.host or (list(HOSTS) if args.action == "status" else None)
    if not names:
        raise EngramError("name a host: --host claude|codex|gemini|cursor")
    path_rules = roots.config.hooks.path_rules
    if args.action == "install" and roots.workspace.path.is_dir():
        from ..vectors import fill_roots

        # Every memory vector derived now: the first prompts then derive none.
        fill_roots(roots)
    for name in dict.fromkeys(names):
        spec = host(name)
        path = spec.config_path(project, args.to_global)
        shown = _shown(path, project)
        if args.action == "install":
            change = inst.install(spec, path, spec.command(args.program), path_rules)
            state = "installed" if change.changed else "already installed"
            print(f"{name}: {state} in {shown} ({', '.join(change.events)})")
            # Cursor has no file event to hook: its rule files are the only path route.
            native = path_rules == "native" or name == "cursor"
            if name in rules.RULE_DIRS and native and not args.to_global:
                print_rule_sync(rules.sync(roots, name), project)
            elif name in rules.RULE_DIRS and not args.to_global:
                removed = rules.remove(project, name)
                if removed:
                    print(
                        f"{name}: removed {len(removed)} generated rule files (path_rules: hooks)"
                    )
            if name == "codex":
                from .codex_trust import trust

                config, count = trust(spec, path)
                print(
                    f"codex: trusted Engram's {count} hook handlers in {_shown(config, project)} "
                    "([hooks.state] trusted_hash, as codex /hooks records it); without it "
                    "Codex skips them silently"
                )
            _print_host_note(name, args.program)
        elif args.action == "uninstall":
            change = inst.uninstall(spec, path)
            if name == "codex":
                from .codex_trust import untrust

                untrust()
            if change.changed:
                print(f"{name}: removed Engram's hooks from {shown} ({', '.join(change.events)})")
            else:
                print(f"{name}: no Engram hooks in {shown}")
            if name in rules.RULE_DIRS and not args.to_global:
                removed = rules.remove(project, name)
                if removed:
                    print(f"{name}: removed {len(removed)} generated rule files")
        else:
            events = inst.installed_events(spec, path)
            wanted = [r.event for r in spec.registrations(path_rules)]
            missing = [e for e in wanted if e not in events]
            if not events:
                print(f"{name}: not installed ({shown})")
                continue
            command = inst.installed_command(spec, path) or ""
            print(f"{name}: {', '.join(events)} in {shown}; runs: {command}")
            if missing:
                print(f"  missing: {', '.join(missing)} (run engram hooks install --host {name})")
            for line in _will_not_run(name, spec, path, project):
                print(f"  will not run: {line}")
            directory = project / rules.RULE_DIRS.get(name, Path("-"))
            if name in rules.RULE_DIRS and directory.is_dir():
                count = len(list(directory.glob("*" + rules.SUFFIX[name])))
                print(f"  rule files: {count} in {_shown(directory, project)}")
            _check_program(command.split(" hook ")[0])
    return 0


def print_rule_sync(synced: Any, project: Path) -> None:
    where = _shown(synced.directory, project)
    print(
        f"{synced.host}: {synced.total} path rule files in {where} "
        f"({len(synced.written)} written, {len(synced.removed)} removed)"
    )


def _will_not_run(name: str, spec: Any, path: Path, project: Path) -> list[str]:
    """Why a host would skip hooks that are installed, from its own settings files."""
    if name == "codex":
        from .codex_trust import untrusted

        events = untrusted(spec, path)
        if events:
            return [
                f"codex has no trust recorded for {', '.join(events)} (codex exec skips "
                "untrusted hooks silently); run: engram hooks install --host codex"
            ]
    if name == "gemini" and os.environ.get("GEMINI_CLI_TRUST_WORKSPACE") != "true":
        trusted = Path.home() / ".gemini" / "trustedFolders.json"
        try:
            folders = json.loads(trusted.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            folders = {}
        resolved = project.resolve()
        ok = isinstance(folders, dict) and any(
            value in ("TRUST_FOLDER", "TRUST_PARENT")
            and (resolved == Path(key) or Path(key) in resolved.parents)
            for key, value in folders.items()
        )
        if not ok and path.is_relative_to(project):
            return [
                "gemini runs project hooks only in a trusted folder: trust this folder "
                "when Gemini CLI asks (or set GEMINI_CLI_TRUST_WORKSPACE=true)"
            ]
    return []


def _print_host_note(name: str, program: str) -> None:
    notes = {
        "gemini": "gemini: project hooks run only in a trusted folder: trust it when Gemini "
        "CLI asks (headless: GEMINI_CLI_TRUST_WORKSPACE=true)",
        "cursor": "cursor: session-start context is best effort; path rules in "
        ".cursor/rules/engram/ carry the path-scoped memories",
    }
    if name in notes:
        print(notes[name])
    _check_program(program)


_CHECKED: set[str] = set()


def _check_program(program: str) -> None:
    import shlex
    import shutil

    if program in _CHECKED:
        return
    _CHECKED.add(program)
    try:
        first = shlex.split(program)[0] if program.strip() else ""
    except ValueError:
        first = program
    if first and shutil.which(first) is None:
        print(
            f"warning: {first!r} is not on PATH here; hosts will fail to run it "
            "(pass --command /absolute/path/to/engram)",
            file=sys.stderr,
        )


def _shown(path: Path, project: Path) -> str:
    try:
        return path.relative_to(project).as_posix()
    except ValueError:
        home = Path.home()
        try:
            return "~/" + path.relative_to(home).as_posix()
        except ValueError:
            return str(path)


MCP_APPROVAL = {
    "claude": "claude: a project .mcp.json server runs once approved "
    "(enabledMcpjsonServers); the tools are read-only (readOnlyHint)",
    "codex": 'codex: default_tools_approval_mode = "approve" lets the model call the '
    "read-only tools (without it every call fails under approval policy never); "
    "required = true makes Codex wait for the server before the first request "
    "(without it the tools miss that request) and stop if it cannot start; "
    "a project .codex/config.toml is read only in a trusted project",
    "gemini": 'gemini: "trust": true lists and runs the tools without a confirmation; '
    "without it Gemini CLI lists none in its default approval mode",
    "cursor": "cursor: enable the engram server in Cursor's MCP settings on first use",
}


def mcp(args: argparse.Namespace) -> int:
    if args.action == "serve":
        from ..mcp_server import serve

        serve(roots_of(args))
        return 0
    from ..mcp_install import approve_claude, install_mcp, uninstall_mcp

    if not args.host:
        raise EngramError("name a host: --host claude|codex|gemini|cursor")
    roots = roots_of(args)
    project = roots.workspace.base
    for name in dict.fromkeys(args.host):
        if args.action == "install":
            path, changed = install_mcp(name, project, args.to_global, args.program)
            state = "registered" if changed else "already registered"
            print(f"{name}: {state} the engram MCP server in {_shown(path, project)}")
            print(f"  {MCP_APPROVAL[name]}")
            if name == "claude" and not args.to_global:
                approved, _ = approve_claude(project)
                print(f"  approved it for you in {_shown(approved, project)} (not committed)")
            _check_program(args.program)
        else:
            path, changed = uninstall_mcp(name, project, args.to_global)
            if name == "claude" and not args.to_global:
                approve_claude(project, approve=False)
            state = "removed the engram MCP server from" if changed else "no engram MCP server in"
            print(f"{name}: {state} {_shown(path, project)}")
    return 0
