"""The read path, in the contract's order.

1. load the workspace index and, when enabled, the global index;
2. workspace entries win over global duplicates;
3. ignore rules and role filters hide entries;
4. routing selects a compact batch (prerequisites first);
5. hash and safety checks run before any content can be shown.

``load`` is a plain in-process function so hooks can call it without a CLI.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

from .body import body_of, sections
from .errors import MemoryNotFound
from .index import Index, open_index
from .plan import Item, LoadPlan, LoadRequest, Skip
from .routing import DEFAULT_ROUTING, Pool, route
from .selection import Picked, select
from .sha import sha256_hex
from .usage import read_usage, record_fetch
from .workspace import Root, Roots, locate


def load(
    request: LoadRequest,
    roots: Roots | None = None,
    today: str | None = None,
    fill_seconds: float | None = None,
) -> LoadPlan:
    """``fill_seconds`` spends up to that long, once the plan is made, deriving the vectors
    still missing (``vectors.fill``), so that later loads derive none: for what runs once
    per session, not per prompt."""
    roots = roots or locate()
    config = roots.config
    # Written once routing is done: a rebuilt index then holds the vectors it derived.
    indexes = [open_index(root, config.ignore, write=False) for root in roots.all()]
    try:
        plan = _plan(request, roots, indexes, today or time.strftime("%Y-%m-%d"))
        if fill_seconds is not None:
            from .vectors import fill

            until = time.perf_counter() + fill_seconds
            for ix in indexes:
                fill(ix, until)
        return plan
    finally:
        from .vectors import save

        for ix in indexes:
            save(ix)


def _plan(request: LoadRequest, roots: Roots, indexes: list[Index], today: str) -> LoadPlan:
    config = roots.config
    roles = config.roles if request.roles is None else request.roles
    # Asked by id, a memory for another role loads: the filter keeps routing away from it,
    # not the agent that names it (archived memories likewise load only this way).
    pool, hidden, restrictions = merge_and_filter(indexes, () if request.ids else roles)
    root_of: dict[str, Root] = {root.scope: root for root in roots.all()}
    problems = tuple(
        f"{ix.root.scope}:{p.path}:{p.line}: {p.message}" for ix in indexes for p in ix.problems
    )
    full = request.full or request.all or request.disclosure == "full"
    disclosure = "full" if full else (request.disclosure or config.load.disclosure)
    expand_top = config.load.expand_top if request.expand_top is None else request.expand_top

    if request.ids:
        picked = _fetch(request.ids, pool)
        if request.record_usage:
            record_fetch(roots.workspace, [p.doc.id for p in picked])
        batch, skipped = _gate(picked, root_of, read_body=True)
        return LoadPlan(
            request.query,
            (),
            batch,
            (),
            skipped,
            tuple(hidden),
            len(pool),
            len(picked),
            tuple(restrictions),
            "full",
            expand_top,
            request.budget_tokens,
            problems,
        )

    routed = route(
        request.query,
        pool,
        today,
        usage=read_usage(roots.workspace),
        vector_scores=request.vector_scores,
        paths=request.files,
        query_vector=lambda: _query_vector(request.query),
    )
    limit = (
        None if request.all else (request.limit if request.limit is not None else config.load.limit)
    )
    cfg = DEFAULT_ROUTING
    selection = select(
        routed.ranked,
        pool.lookup,
        limit,
        today,
        cfg.min_relative,
        min_marginal=cfg.min_marginal,
        new_relative=cfg.new_relative,
        card_relative=cfg.card_relative,
    )
    batch, skipped = _gate(selection.batch, root_of, read_body=True)
    cards, skipped_cards = _gate(selection.overflow, root_of, read_body=False)
    routed_ids = {s.doc.id for s in routed.ranked}
    total = len(routed_ids | {p.doc.id for p in selection.batch})
    omitted = tuple(hidden) + tuple(Skip(o.id, o.scope, o.reason, o.detail) for o in routed.omitted)
    return LoadPlan(
        request.query,
        routed.anchors,
        batch,
        cards,
        skipped + skipped_cards,
        omitted,
        len(pool),
        total,
        tuple(restrictions) + routed.restrictions,
        disclosure,
        expand_top,
        request.budget_tokens,
        problems + selection.problems,
    )


def _query_vector(query: str) -> list[float] | None:
    """The task's static vector; None without a table (routing then stays lexical)."""
    if not query.strip():
        return None
    from .semantic import open_table

    table = open_table()
    return None if table is None else table.embed([(query, 1)])


def merge_and_filter(
    indexes: Sequence[Index], roles: Sequence[str]
) -> tuple[Pool, list[Skip], list[str]]:
    """Steps 2 and 3: shadow global duplicates, then apply ignore and role filters."""
    refs: list[tuple[int, int]] = []
    positions: list[dict[int, int]] = []
    by_id: dict[str, int] = {}
    hidden: list[Skip] = []
    taken: set[str] = set()
    role_set = set(roles)
    for i, ix in enumerate(indexes):
        local: dict[int, int] = {}
        scope = ix.root.scope
        for no, mid in enumerate(ix.ids):
            if mid in taken:
                hidden.append(
                    Skip(mid, scope, "shadowed", "workspace memory with the same id wins")
                )
                continue
            taken.add(mid)
            if no in ix.hidden_by_ignore:
                hidden.append(Skip(mid, scope, "ignored", ix.doc(no).path))
                continue
            doc_roles = ix.roles.get(no)
            if role_set and doc_roles and not role_set.intersection(doc_roles):
                hidden.append(Skip(mid, scope, "role", ",".join(doc_roles)))
                continue
            local[no] = by_id[mid] = len(refs)
            refs.append((i, no))
        positions.append(local)
    restrictions = []
    for reason in ("shadowed", "ignored", "role"):
        count = sum(1 for h in hidden if h.reason == reason)
        if count:
            label = f"role filter [{', '.join(sorted(role_set))}]" if reason == "role" else reason
            restrictions.append(f"{label}: {count} hidden")
    return Pool(tuple(indexes), tuple(refs), tuple(positions), by_id), hidden, restrictions


def _fetch(ids: Sequence[str], pool: Pool) -> list[Picked]:
    wanted = list(dict.fromkeys(ids))
    missing = [i for i in wanted if pool.lookup(i) is None]
    if missing and len(missing) == len(wanted):
        import difflib

        hints = list(
            dict.fromkeys(m for i in missing for m in difflib.get_close_matches(i, pool.by_id, 3))
        )
        hint = f"; did you mean {', '.join(hints)}?" if hints else ""
        raise MemoryNotFound(f"no visible memory with id {', '.join(missing)}{hint}")
    found = [doc for i in wanted if (doc := pool.lookup(i)) is not None]
    return [Picked(doc, 0.0, n, "fetched", ()) for n, doc in enumerate(found)]


def _gate(
    picked: Sequence[Picked], root_of: Mapping[str, Root], read_body: bool
) -> tuple[tuple[Item, ...], tuple[Skip, ...]]:
    """Step 5: nothing reaches the renderer unless its hash and content check out."""
    items: list[Item] = []
    skipped: list[Skip] = []
    for p in picked:
        doc = p.doc
        if doc.unsafe:
            skipped.append(Skip(doc.id, doc.scope, "unsafe", unsafe_reason(doc.unsafe)))
            continue
        if doc.edited_outside:
            skipped.append(
                Skip(
                    doc.id,
                    doc.scope,
                    "hash_mismatch",
                    "edited outside engram; review it, then run engram rehash",
                )
            )
            continue
        body = None
        if read_body:
            try:
                raw = (root_of[doc.scope].path / doc.path).read_bytes()
            except OSError:
                skipped.append(Skip(doc.id, doc.scope, "missing", doc.path))
                continue
            if sha256_hex(raw) != doc.sha256:
                skipped.append(Skip(doc.id, doc.scope, "hash_mismatch", "changed since indexing"))
                continue
            # The safety scan in the index covered exactly these bytes (same sha256).
            body = sections(body_of(raw.decode("utf-8", "replace")))[1]
        items.append(
            Item(
                doc.id,
                doc.type,
                doc.authority,
                doc.scope,
                doc.path,
                doc.directive,
                doc.summary,
                p.score,
                p.rank,
                p.origin,
                doc.stale,
                doc.depends_on,
                p.reasons,
                body,
            )
        )
    return tuple(items), tuple(skipped)


def unsafe_reason(findings: Sequence[str]) -> str:
    """``secret (github-token), injection (system-tag)`` from ``kind:name`` labels."""
    kinds: dict[str, list[str]] = {}
    for finding in findings:
        kind, _, name = finding.partition(":")
        kinds.setdefault(kind, []).append(name)
    return ", ".join(f"{kind} ({', '.join(names)})" for kind, names in sorted(kinds.items()))
