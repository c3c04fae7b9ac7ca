"""The ``engram`` command line.

argparse rather than click keeps the hook path fast: ``engram load`` runs on
every prompt, so each command imports only what it needs. The common forms of
``engram load`` and ``engram hook`` are read here without argparse, whose import and
parser tree cost those calls several ms; anything else (``--help``, an abbreviated or
unknown option, a mistake to report) goes to the argparse tree in ``cli_parser``, which
defines every command.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace

from . import commands
from .errors import EngramError

TYPE_CHECKING = False  # ``typing`` stays unimported at run time (see record.py)
if TYPE_CHECKING:
    from typing import Any


def main(argv: Sequence[str] | None = None) -> int:
    as_program = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    # Building only the requested sub-command keeps the other calls fast: argparse
    # pays a gettext lookup for every parser it creates.
    only = argv[0] if argv and argv[0] in COMMANDS else None
    # One task and exit: the cyclic collector would walk every object a cold index build
    # makes (about 40 passes, 4 ms) to free nothing the exit does not. A caller that runs
    # ``main`` inside a longer-lived process (tests) gets it back, at the price of one pass.
    paused = only in SHORT_LIVED and gc.isenabled()
    if paused:
        gc.disable()
    try:
        code = _run(argv, only)
    finally:
        if paused and not as_program:
            gc.enable()
    if paused and as_program:
        _exit_now(code)
    return code


def _exit_now(code: int) -> None:
    """End a one-task process once its answer is out. The interpreter's own exit frees
    every object a cold index build made, one by one, and runs a last collection: about
    12 ms of CPU (a tenth of a cold ``engram load``) for memory the kernel takes back at
    once. Every file this process writes is closed (and the memo committed) before its
    command returns, and no atexit handler is registered on this path."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # the reader went away, or the stream is closed
            pass
    os._exit(code)


def _run(argv: list[str], only: str | None) -> int:
    args: Any = fast_args(argv)
    if args is None:
        from .cli_parser import parse

        args = parse(argv, only)
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        sys.stdout = None  # the reader went away (``| head``); nothing left to report
        return 0
    except EngramError as exc:
        print(f"engram: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except OSError as exc:
        print(
            f"engram: error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "),
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        return 130


# Commands that answer one task and exit (``engram mcp`` and ``benchmark`` live longer).
SHORT_LIVED = ("load", "hook")
COMMANDS = (
    "load",
    "index",
    "distil",
    "verify",
    "rehash",
    "init",
    "add",
    "lint",
    "graph",
    "benchmark",
    "hook",
    "hooks",
    "mcp",
)


# The options of the two hot commands, as ``cli_parser`` defines them: option -> (dest,
# kind). A test checks that ``fast_args`` and argparse agree on every form read here.
_COMMON = {
    "-C": ("workspace", "path"),
    "--workspace": ("workspace", "path"),
    "--global-dir": ("global_dir", "path"),
    "--no-global": ("no_global", "flag"),
}
_OPTIONS = {
    "load": {
        **_COMMON,
        "--id": ("ids", "text"),
        "--files": ("files", "files"),
        "--all": ("all", "flag"),
        "--full": ("full", "flag"),
        "--disclosure": ("disclosure", "disclosure"),
        "--budget-tokens": ("budget_tokens", "positive"),
        "--limit": ("limit", "positive"),
        "--expand-top": ("expand_top", "non_negative"),
        "--role": ("role", "append"),
        "--dry-run": ("dry_run", "flag"),
        "--json": ("json", "flag"),
    },
    "hook": {**_COMMON, "--host": ("host", "host")},
}
_DEFAULTS: dict[str, dict[str, Any]] = {
    "load": {
        "query": [],
        "ids": None,
        "files": (),
        "all": False,
        "full": False,
        "disclosure": None,
        "budget_tokens": None,
        "limit": None,
        "expand_top": None,
        "role": None,
        "dry_run": False,
        "json": False,
    },
    "hook": {"host": None},
}


def fast_args(argv: Sequence[str]) -> SimpleNamespace | None:
    """What argparse would make of ``argv`` for ``engram load`` or ``engram hook``; ``None``
    when the form is one argparse must read (help, an error, an abbreviation, an option
    between query words)."""
    command = argv[0] if argv else ""
    options = _OPTIONS.get(command)
    if options is None:
        return None
    values: dict[str, Any] = {"workspace": None, "global_dir": None, "no_global": False}
    values.update(_DEFAULTS[command])
    query: list[str] = []
    closed = False  # an option came after the query: another query word is an error
    i, n = 1, len(argv)
    while i < n:
        token = argv[i]
        i += 1
        if token == "--":
            rest = argv[i:]
            if query or "--" in rest or command != "load":
                return None
            query = list(rest)
            break
        if not token.startswith("-"):
            if command != "load" or closed:
                return None
            query.append(token)
            continue
        closed = bool(query)
        name, eq, attached = token.partition("=")
        spec = options.get(name)
        if spec is None or (eq and (not name.startswith("--") or not attached)):
            return None
        dest, kind = spec
        if kind == "flag" or kind == "files":
            if eq:
                return None
            if kind == "flag":
                values[dest] = True
                continue
            files = []
            while i < n and not argv[i].startswith("-"):
                files.append(argv[i])
                i += 1
            if not files:
                return None
            values[dest] = files
            continue
        if eq:
            raw = attached
        elif i < n:
            raw = argv[i]
            i += 1
        else:
            return None
        value = None if raw.startswith("-") else _value(kind, raw)
        if value is None:
            return None
        values[dest] = [*(values[dest] or []), value] if kind == "append" else value
    if command == "hook":
        if values["host"] is None:
            return None
        func = commands.run_hook
    else:
        values["query"] = query
        func = commands.run_load
    return SimpleNamespace(command=command, func=func, **values)


def _value(kind: str, raw: str) -> Any:
    """``raw`` as the option's type; ``None`` when argparse would report it."""
    if kind == "path":
        return Path(raw)
    if kind in ("text", "append"):
        return raw
    if kind == "disclosure":
        return raw if raw in ("auto", "full") else None
    if kind == "host":
        from .hooks.hosts import HOSTS

        return raw if raw in HOSTS else None
    try:
        number = int(raw)
    except ValueError:
        return None
    floor = 1 if kind == "positive" else 0
    return number if number >= floor else None


if __name__ == "__main__":
    raise SystemExit(main())
