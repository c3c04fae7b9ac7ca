"""What each ``engram`` sub-command does, given the arguments ``cli`` parsed.

Every handler imports what it needs when it runs, so the hook path
(``engram hook``, on every prompt) pays only for its own modules.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

from .errors import EngramError

TYPE_CHECKING = False  # ``typing`` stays unimported at run time (see record.py)
if TYPE_CHECKING:
    import argparse
    from typing import Any


def _split(value: str | None) -> tuple[str, ...]:
    return tuple(v.strip() for v in (value or "").split(",") if v.strip())


def _roots(args: argparse.Namespace) -> Any:
    from .workspace import locate

    return locate(args.workspace, args.global_dir, False if args.no_global else None)


def run_load(args: argparse.Namespace) -> int:
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


def run_index(args: argparse.Namespace) -> int:
    from .hooks import rules
    from .hooks.commands import print_rule_sync
    from .vectors import fill_roots

    roots = _roots(args)
    ensure_table()
    # Indexing on purpose derives every vector, so that no later load has to.
    for ix in fill_roots(roots, rebuild=args.rebuild):
        root = ix.root
        state = "rebuilt" if ix.rebuilt else "up to date"
        print(
            f"{root.scope}: {len(ix.docs)} memories, {len(ix.problems)} problems ({state}) {root.path}"
        )
        for p in ix.problems:
            print(f"  {root.scope}:{p.path}:{p.line}: {p.message}")
    for synced in rules.sync_existing(roots):
        print_rule_sync(synced, roots.workspace.base)
    return 0


def ensure_table(force: bool = False) -> None:
    """Distil the static embedding table once per machine (routing's semantic signal).
    Without the model packages routing stays lexical: said once, never an error."""
    from .semantic import table_path

    if table_path().is_file() and not force:
        return
    from .distil import distil

    print("distilling the static embedding table from MiniLM (once per machine)…", flush=True)
    try:
        path, seconds = distil()
    except EngramError as exc:
        print(f"engram: {exc}", file=sys.stderr)  # it says routing stays lexical
        return
    print(f"wrote {path} in {seconds:.0f} s")


def run_distil(args: argparse.Namespace) -> int:
    ensure_table(force=args.force)
    return 0


def run_verify(args: argparse.Namespace) -> int:
    from .integrity import verify

    findings = verify(_roots(args).all())
    for f in findings:
        print(f"{f.status}: {f.scope}:{f.path}" + (f" ({f.detail})" if f.detail else ""))
    if not findings:
        print("ok: every memory and source matches its recorded hash")
    return 1 if any(f.status != "untracked" for f in findings) else 0


def run_rehash(args: argparse.Namespace) -> int:
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


def run_init(args: argparse.Namespace) -> int:
    from .authoring import init

    if args.workspace is not None:
        # ``init -C DIR`` initialises DIR, even inside another repository: the user named
        # the folder (later commands find it, ``.agents/engram`` being the first marker).
        from .workspace import WORKSPACE_DIR, Root

        base = args.workspace.resolve()
        workspace = Root("workspace", base / WORKSPACE_DIR, base)
    else:
        workspace = _roots(args).workspace
    created = init(workspace)
    for path in created:
        print(f"created {path}")
    if not created:
        print("already initialised")
    ensure_table()
    print(
        "next steps:\n"
        '  engram add rule --id <slug> --directive "<one imperative line>"   # a first memory\n'
        "  engram hooks install --host claude   # or codex, gemini, cursor: memories reach "
        "the agent by themselves\n"
        "  engram mcp install --host claude     # or expose engram_load/engram_fetch as MCP tools"
    )
    return 0


def run_add(args: argparse.Namespace) -> int:
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


def run_lint(args: argparse.Namespace) -> int:
    from .authoring import lint

    findings = lint(_roots(args))
    for f in findings:
        print(f"{f.severity}: {f.where}: {f.message}")
    errors = sum(1 for f in findings if f.severity == "error")
    print(f"{errors} errors, {len(findings) - errors} warnings")
    return 1 if errors else 0


def run_graph(args: argparse.Namespace) -> int:
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


def run_benchmark(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from .benchmark import format_report, read_cases, run

    k, cases = read_cases(args.cases)
    if args.split:
        cases = tuple(c for c in cases if c.split == args.split)
        if not cases:
            raise EngramError(f"no case has split {args.split!r}")
    roots = _roots(args)
    report = run(cases, roots, args.k or k)
    timings = {}
    if args.process:
        from .timing import Side, cold_runs

        step = max(1, len(cases) // args.process)
        queries = [c.query for c in cases[::step]][: args.process]
        sides = [Side("this checkout")]
        if args.baseline:
            sides.append(Side("baseline", str(Path(args.baseline).resolve() / "src")))
        global_dir = roots.global_.path if roots.global_ else None
        timings = cold_runs(roots.workspace.base, global_dir, queries, sides)
    if args.json:
        data = asdict(report)
        data["process"] = {name: asdict(t) for name, t in timings.items()}
        print(json.dumps(data, indent=2))
    else:
        sys.stdout.write(format_report(report, show_misses=not args.no_misses))
        if timings:
            from .timing import format_timings

            sys.stdout.write("\n" + "\n".join(format_timings(timings)) + "\n")
    return 0


def _repo_paths(paths: Sequence[str], repo: Path) -> tuple[str, ...]:
    """``--files`` as repository-relative paths (absolute or cwd-relative accepted)."""
    if not paths:  # the usual ``engram load -- TASK``: no need to import the hooks' events
        return ()
    from .hooks.events import relative_paths

    return relative_paths(tuple(paths), Path.cwd(), repo)


def run_hook(args: argparse.Namespace) -> int:
    from .hooks.commands import hook

    return hook(args)


def run_hooks(args: argparse.Namespace) -> int:
    from .hooks.commands import hooks

    return hooks(args)


def run_mcp(args: argparse.Namespace) -> int:
    from .hooks.commands import mcp

    return mcp(args)
