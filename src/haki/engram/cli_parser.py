"""The whole ``engram`` argparse tree: ``--help``, every command, every error message.

``cli`` reads the two commands a host runs on every prompt (``engram load`` and
``engram hook``) without it; this module is imported for everything else.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import commands

EPILOG = "Memories live in .agents/engram/ (workspace) and $ENGRAM_GLOBAL_DIR (default ~/.engram)."


def parse(argv: Sequence[str], only: str | None) -> argparse.Namespace:
    """``argv`` parsed by the tree of ``only`` (every command when ``None``)."""
    _remember_gettext_lookups()
    return build_parser(only).parse_args(argv)


class _Formatter(argparse.HelpFormatter):
    """``HelpFormatter`` with the terminal width found without importing ``shutil``:
    argparse builds a formatter for every argument it checks, and that import alone
    costs a hook call about 9 ms."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        super().__init__(prog, indent_increment, max_help_position, width or _columns() - 2)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)


def _columns() -> int:
    """``shutil.get_terminal_size().columns``: ``$COLUMNS``, else the terminal, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def _remember_gettext_lookups() -> None:
    """argparse passes each message through gettext, which searches the locale folders
    again on every call when no catalogue exists (it keeps only catalogues it found):
    about 1 ms a message, 17 ms for ``engram load``. The answer cannot change within
    one process, so each search runs once."""
    import gettext

    search = gettext.find
    if getattr(search, "engram_remembered", False):
        return
    found: dict[tuple[Any, ...], Any] = {}

    def find(domain: str, localedir: Any = None, languages: Any = None, all: bool = False) -> Any:
        key = (domain, localedir, None if languages is None else tuple(languages), all)
        if key not in found:
            found[key] = search(domain, localedir, languages, all)
        result = found[key]
        return list(result) if isinstance(result, list) else result

    find.engram_remembered = True  # type: ignore[attr-defined]
    gettext.find = find


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    common = _Parser(add_help=False)
    common.add_argument(
        "-C", "--workspace", type=Path, help="start looking for .agents/engram here (default: cwd)"
    )
    common.add_argument(
        "--global-dir",
        type=Path,
        help="global memory root (default: $ENGRAM_GLOBAL_DIR or ~/.engram)",
    )
    common.add_argument("--no-global", action="store_true", help="ignore the global memory root")

    parser = _Parser(
        prog="engram",
        description="Repo-local memories for coding agents: route the right rules, skills and knowledge into context.",
        epilog=EPILOG,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    # One sink for the commands not requested: each ArgumentParser built costs gettext lookups.
    discarded = _Parser(add_help=False, conflict_handler="resolve")

    def command(name: str, help_: str, description: str) -> argparse.ArgumentParser:
        if only is not None and name != only:
            return discarded
        return sub.add_parser(
            name, parents=[common], help=help_, description=description, epilog=EPILOG
        )

    p = command(
        "load",
        "route memories for a task and print them for an agent",
        "Route the memories relevant to QUERY and print a compact, tiered context batch: "
        "the top results as bodies, the rest as one-line cards, ending with a fetch line.",
    )
    p.add_argument("query", nargs="*", help="the task or prompt to route")
    p.add_argument("--id", dest="ids", help="fetch these memories' bodies (comma-separated ids)")
    p.add_argument(
        "--files",
        nargs="+",
        metavar="PATH",
        default=(),
        help="files being worked on: memories whose applies_to globs match them are routed",
    )
    p.add_argument(
        "--all", action="store_true", help="every visible routed match, as bodies, no compact limit"
    )
    p.add_argument(
        "--full", action="store_true", help="legacy wider output: every selected memory as a body"
    )
    p.add_argument("--disclosure", choices=("auto", "full"), help="override load.disclosure")
    p.add_argument(
        "--budget-tokens",
        type=_positive,
        help="cap the output; bodies become cards, then cards drop",
    )
    p.add_argument("--limit", type=_positive, help="override load.limit")
    p.add_argument("--expand-top", type=_non_negative, help="override load.expand_top")
    p.add_argument(
        "--role",
        action="append",
        help="only memories for this role (repeatable; overrides config roles)",
    )
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="show candidates, restrictions and reasons; render nothing",
    )
    p.add_argument("--json", action="store_true", help="print the load plan as JSON")
    p.set_defaults(func=commands.run_load)

    p = command(
        "index", "build or refresh the index", "Refresh the cached index of every memory root."
    )
    p.add_argument(
        "--rebuild", action="store_true", help="discard the cache and re-parse every file"
    )
    p.set_defaults(func=commands.run_index)

    p = command(
        "distil",
        "build the static embedding table routing ranks with (once per machine)",
        "Run every vocabulary entry of the bundled all-MiniLM-L6-v2 through the model once and "
        "store the rows (int8) under $ENGRAM_MODEL_DIR or ~/.cache/engram/models. "
        "engram init and engram index do it when the table is missing.",
    )
    p.add_argument("--force", action="store_true", help="rebuild even if the table exists")
    p.set_defaults(func=commands.run_distil)

    p = command(
        "verify",
        "report files edited outside engram and stale sources",
        "Compare memory files and their sources with the hashes in engram.lock.json. Exit 1 on findings.",
    )
    p.set_defaults(func=commands.run_verify)

    p = command(
        "rehash",
        "accept current files and sources as recorded",
        "Record the current hash of every memory file and source in engram.lock.json.",
    )
    p.set_defaults(func=commands.run_rehash)

    p = command(
        "init",
        "create .agents/engram/ in this repository",
        "Create the workspace layout, a commented config.yaml, .engramignore and the lock file.",
    )
    p.set_defaults(func=commands.run_init)

    p = command(
        "add",
        "write a new memory from the template",
        "Write .agents/engram/<type dir>/<id>.md with valid frontmatter and record its hash.",
    )
    p.add_argument("type", choices=("rule", "skill", "knowledge"), help="memory type")
    p.add_argument("--id", required=True, help="lower-case slug, unique in the root")
    p.add_argument("--directive", required=True, help="one imperative line")
    p.add_argument("--tags", default="", help="comma-separated tags")
    p.add_argument("--summary", default="", help="one-line summary")
    p.add_argument("--triggers", default="", help="comma-separated words or phrases")
    p.add_argument("--applies-to", default="", help="comma-separated path globs")
    p.add_argument("--depends-on", default="", help="comma-separated prerequisite ids")
    p.add_argument(
        "--sources", default="", help="comma-separated files whose changes make this memory stale"
    )
    p.add_argument(
        "--level", default="foundation", help="foundation | intermediate | advanced | integer"
    )
    p.add_argument(
        "--content", default="", help="body text for '## Content' (default: the directive)"
    )
    p.add_argument(
        "--global", dest="to_global", action="store_true", help="write to the global root"
    )
    p.set_defaults(func=commands.run_add)

    p = command(
        "lint",
        "check schema, ids, depends_on, cycles and body sizes",
        "Check every memory file. Exit 1 when there are errors; warnings alone exit 0.",
    )
    p.set_defaults(func=commands.run_lint)

    p = command(
        "graph",
        "show depends_on layers (cycles are errors)",
        "Print dependency layers, foundations first. A cycle exits 2.",
    )
    p.add_argument(
        "--rebuild", action="store_true", help="rebuild the index first (after manual edits)"
    )
    p.add_argument("--json", action="store_true", help="print layers as JSON")
    p.set_defaults(func=commands.run_graph)

    p = command(
        "benchmark",
        "measure routing on a cases file",
        "Run each case {query, expect[], forbid[], category} and report precision@k, recall@k, "
        "forbidden hits, zero-match correctness, tokens per load and latency p50/p95, "
        "then a table per kind of task (category).",
    )
    p.add_argument("cases", type=Path, help="JSON cases file")
    p.add_argument(
        "-k", type=_positive, help="cut-off for precision/recall (default: file's k or 5)"
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument(
        "--split", help="only the cases whose 'split' field has this value (e.g. tune, holdout)"
    )
    p.add_argument(
        "--no-misses", action="store_true", help="print the figures without the missed cases"
    )
    p.add_argument(
        "--process",
        type=_non_negative,
        default=20,
        metavar="N",
        help="time N of the tasks as whole processes on a fresh copy of the repository "
        "(cold index): engram load and the Claude UserPromptSubmit hook (0: skip)",
    )
    p.add_argument(
        "--baseline",
        type=Path,
        metavar="CHECKOUT",
        help="with --process: time another checkout's src/ in the same run, task by task",
    )
    p.set_defaults(func=commands.run_benchmark)

    # The hosts module is imported only when a command that takes --host is built.
    hosts: tuple[str, ...] = ()
    if only is None or only in ("hook", "hooks", "mcp"):
        from .hooks.hosts import HOSTS as hosts

    p = command(
        "hook",
        "answer one agent-host hook event (reads the event JSON on stdin)",
        "The single entry point every installed hook runs. Reads the host's event JSON on "
        "stdin, injects the routed memories the session has not seen yet, and prints the "
        "host's answer. Any failure prints the host's no-op answer and exits 0.",
    )
    p.add_argument("--host", required=True, choices=hosts, help="the agent host calling")
    p.set_defaults(func=commands.run_hook)

    p = command(
        "hooks",
        "install, remove or inspect agent-host hooks",
        "Merge Engram's hook entries into a host's own configuration (other hooks are kept "
        "in place), remove only ours, or show what is installed.",
    )
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    for action, help_ in (
        ("install", "write Engram's hooks into the host configuration"),
        ("uninstall", "remove Engram's hooks (and generated rule files) only"),
        ("status", "show installed hooks, rule files and the command they run"),
    ):
        a = actions.add_parser(action, parents=[common], help=help_, description=help_)
        a.add_argument(
            "--host",
            action="append",
            choices=hosts,
            help="claude | codex | gemini | cursor (repeatable; status defaults to all)",
        )
        a.add_argument(
            "--global",
            dest="to_global",
            action="store_true",
            help="the host's user-level config (~/.claude, ~/.codex, ~/.gemini, ~/.cursor)",
        )
        if action == "install":
            a.add_argument(
                "--command",
                dest="program",
                default="engram",
                help="program the hook runs (default: engram on PATH)",
            )
        a.set_defaults(func=commands.run_hooks)

    p = command(
        "mcp",
        "serve Engram over MCP (stdio), or install it into a host",
        "Without an action, serve the engram_load, engram_search, engram_fetch, engram_verify "
        "and engram_status tools over stdio. 'engram mcp install --host H' registers the server "
        "in the host's MCP configuration.",
    )
    p.add_argument("action", nargs="?", choices=("serve", "install", "uninstall"), default="serve")
    p.add_argument("--host", action="append", choices=hosts, help="host to (un)register with")
    p.add_argument(
        "--global",
        dest="to_global",
        action="store_true",
        help="the host's user-level config instead of the project's",
    )
    p.add_argument("--command", dest="program", default="engram", help="program the host runs")
    p.set_defaults(func=commands.run_mcp)
    return parser


def _positive(value: str) -> int:
    n = int(value)
    if n <= 0:
        raise argparse.ArgumentTypeError("must be a positive integer")
    return n


def _non_negative(value: str) -> int:
    n = int(value)
    if n < 0:
        raise argparse.ArgumentTypeError("must be zero or more")
    return n
