"""The ``engram`` command line.

argparse rather than click keeps the hook path fast: ``engram load`` runs on
every prompt, so each command imports only what it needs.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .errors import EngramError

EPILOG = "Memories live in .agents/engram/ (workspace) and $ENGRAM_GLOBAL_DIR (default ~/.engram)."


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # Building only the requested sub-command keeps hook calls fast: argparse
    # pays a gettext lookup for every parser it creates.
    only = argv[0] if argv and argv[0] in COMMANDS else None
    args = build_parser(only).parse_args(argv)
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


COMMANDS = (
    "load",
    "index",
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


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "-C", "--workspace", type=Path, help="start looking for .agents/engram here (default: cwd)"
    )
    common.add_argument(
        "--global-dir",
        type=Path,
        help="global memory root (default: $ENGRAM_GLOBAL_DIR or ~/.engram)",
    )
    common.add_argument("--no-global", action="store_true", help="ignore the global memory root")

    parser = argparse.ArgumentParser(
        prog="engram",
        description="Repo-local memories for coding agents: route the right rules, skills and knowledge into context.",
        epilog=EPILOG,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help_: str, description: str) -> argparse.ArgumentParser:
        if only is not None and name != only:
            return argparse.ArgumentParser(add_help=False)  # discarded: not the requested command
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
    p.set_defaults(func=_load)

    p = command(
        "index", "build or refresh the index", "Refresh the cached index of every memory root."
    )
    p.add_argument(
        "--rebuild", action="store_true", help="discard the cache and re-parse every file"
    )
    p.set_defaults(func=_index)

    p = command(
        "verify",
        "report files edited outside engram and stale sources",
        "Compare memory files and their sources with the hashes in engram.lock.json. Exit 1 on findings.",
    )
    p.set_defaults(func=_verify)

    p = command(
        "rehash",
        "accept current files and sources as recorded",
        "Record the current hash of every memory file and source in engram.lock.json.",
    )
    p.set_defaults(func=_rehash)

    p = command(
        "init",
        "create .agents/engram/ in this repository",
        "Create the workspace layout, a commented config.yaml, .engramignore and the lock file.",
    )
    p.set_defaults(func=_init)

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
    p.set_defaults(func=_add)

    p = command(
        "lint",
        "check schema, ids, depends_on, cycles and body sizes",
        "Check every memory file. Exit 1 when there are errors; warnings alone exit 0.",
    )
    p.set_defaults(func=_lint)

    p = command(
        "graph",
        "show depends_on layers (cycles are errors)",
        "Print dependency layers, foundations first. A cycle exits 2.",
    )
    p.add_argument(
        "--rebuild", action="store_true", help="rebuild the index first (after manual edits)"
    )
    p.add_argument("--json", action="store_true", help="print layers as JSON")
    p.set_defaults(func=_graph)

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
    p.set_defaults(func=_benchmark)

    from .hooks.hosts import HOSTS

    p = command(
        "hook",
        "answer one agent-host hook event (reads the event JSON on stdin)",
        "The single entry point every installed hook runs. Reads the host's event JSON on "
        "stdin, injects the routed memories the session has not seen yet, and prints the "
        "host's answer. Any failure prints the host's no-op answer and exits 0.",
    )
    p.add_argument("--host", required=True, choices=HOSTS, help="the agent host calling")
    p.set_defaults(func=_hook)

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
            choices=HOSTS,
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
        a.set_defaults(func=_hooks)

    p = command(
        "mcp",
        "serve Engram over MCP (stdio), or install it into a host",
        "Without an action, serve the engram_load, engram_search, engram_fetch, engram_verify "
        "and engram_status tools over stdio. 'engram mcp install --host H' registers the server "
        "in the host's MCP configuration.",
    )
    p.add_argument("action", nargs="?", choices=("serve", "install", "uninstall"), default="serve")
    p.add_argument("--host", action="append", choices=HOSTS, help="host to (un)register with")
    p.add_argument(
        "--global",
        dest="to_global",
        action="store_true",
        help="the host's user-level config instead of the project's",
    )
    p.add_argument("--command", dest="program", default="engram", help="program the host runs")
    p.set_defaults(func=_mcp)
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


def _split(value: str | None) -> tuple[str, ...]:
    return tuple(v.strip() for v in (value or "").split(",") if v.strip())


def _roots(args: argparse.Namespace) -> Any:
    from .workspace import locate

    return locate(args.workspace, args.global_dir, False if args.no_global else None)


def _load(args: argparse.Namespace) -> int:
    from .disclosure import explain, render
    from .loader import load
    from .plan import LoadRequest

    query = " ".join(args.query)
    ids = _split(args.ids)
    roots = _roots(args)
    files = _repo_paths(args.files, roots.workspace.base)
    if not query.strip() and not ids and not files:
        raise EngramError("give a query, --id or --files")
    request = LoadRequest(
        query=query,
        ids=ids,
        files=files,
        all=args.all,
        full=args.full,
        disclosure=args.disclosure,
        budget_tokens=args.budget_tokens,
        limit=args.limit,
        expand_top=args.expand_top,
        roles=tuple(args.role) if args.role else None,
        record_usage=not args.dry_run,
    )
    plan = load(request, roots)
    if args.dry_run and not args.json:
        sys.stdout.write(explain(plan))
        return 0
    rendering = render(plan)
    if args.json:
        data = plan.to_dict()
        data["rendered"] = {
            "bodies": rendering.bodies,
            "cards": rendering.cards,
            "dropped": rendering.dropped,
            "tokens": rendering.tokens,
        }
        if not args.dry_run:
            data["text"] = rendering.text
        print(json.dumps(data, indent=2))
        return 0
    sys.stdout.write(rendering.text)
    return 0


def _index(args: argparse.Namespace) -> int:
    from .hooks import rules
    from .hooks.commands import print_rule_sync
    from .index import open_index

    roots = _roots(args)
    for root in roots.all():
        ix = open_index(root, roots.config.ignore, rebuild=args.rebuild)
        state = "rebuilt" if ix.rebuilt else "up to date"
        print(
            f"{root.scope}: {len(ix.docs)} memories, {len(ix.problems)} problems ({state}) {root.path}"
        )
        for p in ix.problems:
            print(f"  {root.scope}:{p.path}:{p.line}: {p.message}")
    for synced in rules.sync_existing(roots):
        print_rule_sync(synced, roots.workspace.base)
    return 0


def _verify(args: argparse.Namespace) -> int:
    from .integrity import verify

    findings = verify(_roots(args).all())
    for f in findings:
        print(f"{f.status}: {f.scope}:{f.path}" + (f" ({f.detail})" if f.detail else ""))
    if not findings:
        print("ok: every memory and source matches its recorded hash")
    return 1 if any(f.status != "untracked" for f in findings) else 0


def _rehash(args: argparse.Namespace) -> int:
    from .integrity import rehash_report
    from .loader import unsafe_reason

    changed, refused = rehash_report(_roots(args).all())
    print(f"recorded {changed} changed hash{'es' if changed != 1 else ''}")
    for r in refused:
        print(
            f"refused: {r.scope}:{r.path} holds {unsafe_reason(r.findings)}; "
            "remove it from the file, then run engram rehash again"
        )
    return 1 if refused else 0


def _init(args: argparse.Namespace) -> int:
    from .authoring import init

    created = init(_roots(args).workspace)
    for path in created:
        print(f"created {path}")
    if not created:
        print("already initialised")
    print(
        "next steps:\n"
        '  engram add rule --id <slug> --directive "<one imperative line>"   # a first memory\n'
        "  engram hooks install --host claude   # or codex, gemini, cursor: memories reach "
        "the agent by themselves\n"
        "  engram mcp install --host claude     # or expose engram_load/engram_fetch as MCP tools"
    )
    return 0


def _add(args: argparse.Namespace) -> int:
    from .authoring import NewMemory, add

    roots = _roots(args)
    root = roots.global_ if args.to_global else roots.workspace
    if root is None:
        raise EngramError("the global root is disabled")
    new = NewMemory(
        type=args.type,
        id=args.id,
        directive=args.directive,
        tags=_split(args.tags),
        summary=args.summary,
        triggers=_split(args.triggers),
        applies_to=_split(args.applies_to),
        depends_on=_split(args.depends_on),
        sources=_split(args.sources),
        level=args.level,
        content=args.content,
    )
    other = roots.workspace if args.to_global else roots.global_
    other_ids: set[str] = set()
    if other is not None:
        from .index import open_index

        other_ids = set(open_index(other, roots.config.ignore).ids)
    print(f"created {add(root, new, other_ids=other_ids)}")
    return 0


def _lint(args: argparse.Namespace) -> int:
    from .authoring import lint

    findings = lint(_roots(args))
    for f in findings:
        print(f"{f.severity}: {f.where}: {f.message}")
    errors = sum(1 for f in findings if f.severity == "error")
    print(f"{errors} errors, {len(findings) - errors} warnings")
    return 1 if errors else 0


def _graph(args: argparse.Namespace) -> int:
    from . import graph
    from .errors import GraphCycleError
    from .index import open_index
    from .loader import merge_and_filter

    roots = _roots(args)
    indexes = [open_index(root, roots.config.ignore, rebuild=args.rebuild) for root in roots.all()]
    pool, _, _ = merge_and_filter(indexes, ())
    docs = [pool.doc(pos) for pos in range(len(pool))]
    g = graph.build({d.id: d.depends_on for d in docs})
    if args.json:
        print(json.dumps({"layers": g.layers, "cycles": g.cycles, "broken": g.broken}, indent=2))
    else:
        for n, layer in enumerate(g.layers):
            print(f"layer {n}: {', '.join(layer)}")
        for node, dep in g.broken:
            print(f"broken: {node} depends on missing {dep}")
    if g.cycles:
        raise GraphCycleError([[*list(c), c[0]] for c in g.cycles])
    return 0


def _benchmark(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from .benchmark import format_report, read_cases, run

    k, cases = read_cases(args.cases)
    if args.split:
        cases = tuple(c for c in cases if c.split == args.split)
        if not cases:
            raise EngramError(f"no case has split {args.split!r}")
    report = run(cases, _roots(args), args.k or k)
    if args.json:
        print(json.dumps(asdict(report), indent=2))
    else:
        sys.stdout.write(format_report(report, show_misses=not args.no_misses))
    return 0


def _repo_paths(paths: Sequence[str], repo: Path) -> tuple[str, ...]:
    """``--files`` as repository-relative paths (absolute or cwd-relative accepted)."""
    from .hooks.events import relative_paths

    return relative_paths(tuple(paths), Path.cwd(), repo)


def _hook(args: argparse.Namespace) -> int:
    from .hooks.commands import hook

    return hook(args)


def _hooks(args: argparse.Namespace) -> int:
    from .hooks.commands import hooks

    return hooks(args)


def _mcp(args: argparse.Namespace) -> int:
    from .hooks.commands import mcp

    return mcp(args)


if __name__ == "__main__":
    raise SystemExit(main())
