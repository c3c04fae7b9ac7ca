"""POST /v1/context latency over HTTP on loopback, one workload at a time.

Workloads (``context_workloads``): ``corpus`` (N facts and N episode chunks
from the template corpus, copied in), ``100k`` (the same at 100,000 rows),
``long`` (the 100k data asked long messages: two to five of its own
sentences, nearly every word one that thousands of its rows use; it shares
the 100k database), ``hostile`` (the 100k data asked what nobody shaped:
pasted noise and logs, numbers, single letters, one word repeated, symbols,
strings of its most frequent words; ``context_hostile``, the same database),
``conversational`` (10,000 short third-person events in one subject, whose
every question word is shared by hundreds of turns) and ``locomo`` (the
LoCoMo dev conversations, one scope of about 550 turns each). A ``haki
serve`` subprocess runs against the seeded database, whose context tables
and indexes are first read into ``shared_buffers`` (``_prewarm``: the memory
of a server that has been answering for a while; ``--cold`` skips it),
warmed up, and the workload's distinct queries are sent one after the other.
Printed per workload: p50/p95/p99 of the whole call (query embedding
included), and of the same queries again (the server's query-embedding cache
answers), the per-stage split from ``Server-Timing``, the rows each fact and
episode step handled (``Haki-Work``), median and most, beside its cap, and
the CPU the ``haki serve`` process and its PostgreSQL spent per call in the
first pass (``/proc``): on two cores a call's latency follows that sum. On
``conversational``, also how many questions got one of their answering
events (``context_workloads.conversational_answers``: the events of the
question's action template with the same names, place and thing), a check
that a faster call still brings back what was asked about. Beside a baseline,
also how many queries were served the same packet by both versions (fact and
episode texts in order, warnings, status: ``packet_texts``).

``--baseline REPO`` serves the same data a second time from another
checkout (its ``.venv``), and sends each query to both servers, alternating
which goes first: both versions are measured in the same time window, on
the same data, which is the only fair comparison on a shared machine. The
baseline gets its own database at its own schema (its own migrations, its
own SQL functions): a change to a SQL function is measured against the
function it replaces. The ``corpus`` rows are copied in once, at the
baseline's schema, and the copy for this checkout migrated; the
``conversational`` and ``locomo`` events are captured and consolidated by
each version's own server, so what consolidation leaves behind (index
state, planner statistics) is part of what is compared.

``--rounds N`` repeats the measurement N times against the same warm
servers, each round with its own distinct queries: one table per round
shows how much the figures move on a shared machine.

Vectors (``corpus``): with ``--vectors real`` (default up to 20,000 rows)
every text is embedded with the local MiniLM embedder. Beyond that, ``--vectors
topic`` embeds one centroid per text template and gives each row a unit
vector drawn around its template's centroid. ``corpus`` (without
``--baseline``) also prints the SQL cost of the fact phase 1 + 2 against the
naive full scan, and of the fact full-text leg alone at the recipe's word
limit (``fulltext_max_term_matches``) against twice that, on the same queries.

    .venv/bin/python bench/context_latency.py                          # corpus, 10,000 + 10,000
    .venv/bin/python bench/context_latency.py --workload all           # every workload
    .venv/bin/python bench/context_latency.py --workload conversational --baseline ../i16-base
    .venv/bin/python bench/context_latency.py --workload 100k
    .venv/bin/python bench/context_latency.py --workload long --data-dir DIR  # reuses DIR/100k
    .venv/bin/python bench/context_latency.py --workload hostile --data-dir DIR  # the same
    .venv/bin/python bench/context_latency.py --rounds 3               # three rounds, one line each
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import psycopg
from pgvector.psycopg import register_vector
from psycopg.rows import dict_row

sys.path.insert(0, str(Path(__file__).resolve().parent))
import context_workloads as workloads
from _cpu import postmaster_pid, tree_cpu_ms
from _prewarm import prewarm
from _server import running_server, server_pid
from context_data import (
    CAPTURED,
    PROJECT,
    SUBJECT,
    baseline_python,
    baseline_upgrade,
    copy_data_dir,
    log,
    seed_workload,
    serve_env,
    start_bench_db,
)
from haki.context.candidates import (
    LEXICAL,
    SEMANTIC,
    FactQuery,
    LexicalLeg,
    fact_caps,
    fulltext_params,
    read_settings,
    scope_params,
)
from haki.context.config import DEFAULT
from haki.context.episode_candidates import episode_caps
from haki.providers.embed import LocalEmbedder
from haki.storage.db import local_settings
from haki.storage.migrate import upgrade
from haki.text.lexicon import query_words

# What the two-phase retrieval replaces: every eligible fact of the scope
# scored in SQL, then the top CANDIDATE_LIMIT kept.
NAIVE_SCAN = """
SELECT f.id, f.predicate, f.value, f.confidence, f.valid_from, f.recorded_from, f.last_reinforced_at,
       f.source_event_ids, f.fact_kind, f.volatility,
       0.65 * (1 - (f.embedding <=> %(vec)s))
     + 0.25 * ts_rank_cd(f.search_vector, websearch_to_tsquery('simple', %(tsq)s), 32)
     + 0.10 * exp(-extract(epoch FROM (%(at)s - coalesce(f.valid_from, f.recorded_from))) / 2592000.0) AS total
FROM facts f
WHERE f.project_id = %(project_id)s AND f.subject_id = %(subject_id)s AND f.status = 'active'
  AND (f.valid_to IS NULL OR f.valid_to > %(at)s)
ORDER BY total DESC, f.id
LIMIT 256"""


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def summary(values: list[float]) -> str:
    return f"{pct(values, 50):7.2f} | {pct(values, 95):7.2f} | {pct(values, 99):7.2f}"


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f} / {five:.2f}"


@dataclass
class Side:
    """What one server measured: call times, per-stage times and work counts."""

    name: str
    base_url: str
    total: list[float] = field(default_factory=list)
    cached: list[float] = field(default_factory=list)
    stages: dict[str, list[float]] = field(default_factory=dict)
    work: dict[str, list[int]] = field(default_factory=dict)
    served: list[int] = field(default_factory=list)
    slowest: list[tuple[float, str]] = field(default_factory=list)
    # conversational: per question that has an answering event, whether one was served
    answered: list[bool] = field(default_factory=list)
    # What each query was served (first pass), to compare versions: ``packet_texts``.
    packets: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    pids: tuple[int | None, int | None] = (None, None)  # haki serve, the database's postmaster
    cpu_ms: tuple[float, float] = (0.0, 0.0)  # per call, first pass: server, database

    def cpu(self) -> tuple[float, float]:
        return tree_cpu_ms(self.pids[0]), tree_cpu_ms(self.pids[1])


def call(client: httpx.Client, ask: workloads.Ask) -> tuple[float, httpx.Response]:
    t0 = time.perf_counter()
    r = client.post(
        "/v1/context",
        json={"project_id": PROJECT, "subject_id": ask.subject_id, "query": ask.query},
    )
    ms = (time.perf_counter() - t0) * 1000
    r.raise_for_status()
    return ms, r


def packet_texts(packet: dict[str, Any]) -> tuple[Any, ...]:
    """A packet as the model reads it: its facts' and episodes' texts in order,
    warnings, status, empty reason. Ids and capture times are left out: the
    conversational and LoCoMo workloads are captured by each server apart."""
    return (
        tuple(f["text"] for f in packet["facts"]),
        tuple(e["text"] for e in packet["episodes"]),
        tuple(packet["warnings"]),
        packet["status"],
        packet["empty_reason"],
    )


def record(
    side: Side, ask: workloads.Ask, ms: float, r: httpx.Response, answers: workloads.Answers
) -> None:
    side.total.append(ms)
    side.slowest.append((ms, ask.query))
    for part in r.headers["server-timing"].split(", "):
        name, _, dur = part.partition(";dur=")
        side.stages.setdefault(name, []).append(float(dur))
    for part in filter(None, r.headers.get("haki-work", "").split(", ")):
        name, _, n = part.partition("=")
        side.work.setdefault(name, []).append(int(n))
    body = r.json()
    side.packets.setdefault(f"{ask.subject_id}\x00{ask.query}", packet_texts(body["packet"]))
    side.served.append(len(body["packet"]["facts"]) + len(body["packet"]["episodes"]))
    if ask.query in answers:
        served = [e["text"] for e in body["packet"]["episodes"]]
        side.answered.append(any(a in text for a in answers[ask.query] for text in served))


def measure(
    sides: list[Side],
    asks: list[workloads.Ask],
    warm_up: list[workloads.Ask],
    answers: workloads.Answers,
) -> None:
    """Each query to every server, the order rotating from one query to the
    next; then the same queries again (their embeddings now cached)."""
    with ExitStack() as stack:
        clients = [
            stack.enter_context(httpx.Client(base_url=s.base_url, timeout=60)) for s in sides
        ]
        for ask in warm_up:  # connections, plans, caches; never measured
            for client in clients:
                call(client, ask)
        before = [s.cpu() for s in sides]
        for n, ask in enumerate(asks):
            for k in range(len(sides)):
                i = (n + k) % len(sides)
                record(sides[i], ask, *call(clients[i], ask), answers)
        for s, (serve0, db0) in zip(sides, before, strict=True):
            serve1, db1 = s.cpu()
            s.cpu_ms = ((serve1 - serve0) / len(asks), (db1 - db0) / len(asks))
        for n, ask in enumerate(asks):
            for k in range(len(sides)):
                i = (n + k) % len(sides)
                sides[i].cached.append(call(clients[i], ask)[0])


@contextlib.contextmanager
def servers(url: str, baseline: tuple[Path, str] | None) -> Iterator[list[Side]]:
    """This checkout's server, and the baseline's (checkout, database URL)."""
    with ExitStack() as stack:
        sides = [Side("this", stack.enter_context(running_server(env=serve_env(url))))]
        if baseline is not None:
            repo, base_url = baseline
            base = running_server(env=serve_env(base_url), python=baseline_python(repo))
            sides.append(Side("baseline", stack.enter_context(base)))
        yield sides


def git_head(repo: Path) -> str:
    out = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return out.stdout.strip() or "?"


# The fact full-text leg at the recipe's word limit and at twice it (the
# limit before 2026-12-03): docs/context.md, "Full-text query".
WORD_LIMITS = (DEFAULT.fulltext_max_term_matches, 2 * DEFAULT.fulltext_max_term_matches)


@dataclass
class SqlRun:
    """Statement times (ms) of ``sql_run``, per query."""

    two_phase: list[float] = field(default_factory=list)
    naive: list[float] = field(default_factory=list)
    # The lexical statement alone at each of WORD_LIMITS, and the matches it ranked.
    lexical: dict[int, list[float]] = field(default_factory=lambda: {n: [] for n in WORD_LIMITS})
    ranked: dict[int, list[int]] = field(default_factory=lambda: {n: [] for n in WORD_LIMITS})


def sql_run(url: str, queries: list[str], embedder: LocalEmbedder) -> SqlRun:
    """Phase 1 + 2 (its lexical and semantic statements, back to back) against
    the naive full scan, and the lexical statement alone at each word limit
    (alternating which runs first), as the application role, same vectors."""
    run = SqlRun()
    with psycopg.connect(url) as conn:
        register_vector(conn)
        for i, q in enumerate(queries):
            vec = embedder.embed_query(q)
            terms = query_words(q, DEFAULT.max_query_terms)
            params = (
                FactQuery(PROJECT, SUBJECT, datetime.now(UTC), bounded=False).params()
                | fulltext_params(DEFAULT)
                | {"vec": vec, "terms": terms, "tsq": " or ".join(terms), "top_k": DEFAULT.top_k}
                | scope_params(DEFAULT)
            )
            with conn.transaction():
                conn.execute("SET LOCAL ROLE haki_app")
                conn.execute(*local_settings(read_settings(DEFAULT), PROJECT))
                t0 = time.perf_counter()
                with conn.cursor(row_factory=dict_row) as cur:
                    leg = LexicalLeg.of(cur.execute(LEXICAL, params).fetchall())
                conn.execute(SEMANTIC, params | leg.params()).fetchall()
                run.two_phase.append((time.perf_counter() - t0) * 1000)
                # The naive scan planned as a plain read plans it, not under
                # the context read's generic plans without sequential scans.
                conn.execute("SET LOCAL enable_seqscan = on")
                conn.execute("SET LOCAL plan_cache_mode = auto")
                t0 = time.perf_counter()
                conn.execute(NAIVE_SCAN, params).fetchall()
                run.naive.append((time.perf_counter() - t0) * 1000)
                for limit in WORD_LIMITS if i % 2 == 0 else WORD_LIMITS[::-1]:
                    t0 = time.perf_counter()
                    with conn.cursor(row_factory=dict_row) as cur:
                        rows = cur.execute(LEXICAL, params | {"max_term_matches": limit})
                        leg = LexicalLeg.of(rows.fetchall())
                    run.lexical[limit].append((time.perf_counter() - t0) * 1000)
                    run.ranked[limit].append(leg.ranked)
    return run


# The bounds each Haki-Work count stays under with the default recipe.
WORK_CAPS = fact_caps(DEFAULT).as_dict() | episode_caps(DEFAULT).as_dict()


def _short(query: str, width: int = 80) -> str:
    """A query as the tables show it: a pasted page is cut, its length said."""
    return query if len(query) <= width else f"{query[:width]}… ({len(query):,} chars)"


def print_sides(title: str, sides: list[Side], repos: dict[str, Path]) -> None:
    print(f"\n### {title}\n")
    print("| version | measure (ms) | p50 | p95 | p99 |")
    print("|---|---|---:|---:|---:|")
    for s in sides:
        label = f"{s.name} ({git_head(repos[s.name])})"
        print(f"| {label} | HTTP call, query embedding included | {summary(s.total)} |")
        print(f"| {label} | same query again (embedding cached) | {summary(s.cached)} |")
    if len(sides) == 2:
        this, base = (s.packets for s in sides)
        same = sum(this[k] == base.get(k) for k in this)
        print(
            f"\npackets identical to the baseline's (texts, order, warnings): {same} of {len(this)}"
        )
    for s in sides:
        print(
            f"\n{s.name}: server stages, p50 / p95 / max (ms): "
            + ", ".join(
                f"{name} {pct(v, 50):.1f} / {pct(v, 95):.1f} / {max(v):.1f}"
                for name, v in s.stages.items()
            )
        )
        if s.work:
            print(
                f"{s.name}: rows per call, p50 / max (cap): "
                + ", ".join(
                    f"{k} {pct(v, 50):.0f} / {max(v)} ({WORK_CAPS.get(k, '?')})"
                    for k, v in s.work.items()
                )
            )
        if any(s.cpu_ms):
            print(
                f"{s.name}: CPU per call (first pass, /proc): haki serve {s.cpu_ms[0]:.1f} ms, "
                f"PostgreSQL {s.cpu_ms[1]:.1f} ms"
            )
        worst = sorted(s.slowest, reverse=True)[:3]
        print(f"{s.name}: slowest: " + "; ".join(f"{ms:.1f} ms {_short(q)!r}" for ms, q in worst))
        print(f"{s.name}: items served per call: median {statistics.median(s.served):.0f}")
        if s.answered:
            print(
                f"{s.name}: an answering event served for {sum(s.answered)} of the "
                f"{len(s.answered)} questions that have one ({sum(s.answered) / len(s.answered):.1%})"
            )


def run_workload(name: str, args: argparse.Namespace, embedder: LocalEmbedder) -> None:
    with tempfile.TemporaryDirectory(prefix="haki-ctx-bench-") as tmp, ExitStack() as stack:
        root = Path(tmp) if args.data_dir is None else args.data_dir
        # ``long`` asks other questions of the 100k data: one copy serves both.
        stored = "100k" if name in ("long", "hostile") else name
        data, base_data = root / stored, root / f"{stored}-baseline"
        captured = name in CAPTURED
        if args.baseline and data.exists() and not base_data.exists() and not captured:
            sys.exit(f"{data} was seeded without a baseline copy: remove it to seed both")
        copy_for_baseline = args.baseline is not None and not base_data.exists() and not captured
        data.mkdir(parents=True, exist_ok=True)
        server, url = start_bench_db(data, args.shared_buffers)
        stack.callback(lambda: server.stop())
        if copy_for_baseline:
            baseline_upgrade(args.baseline, url)
        else:
            upgrade(url)
        seeded = seed_workload(name, url, args, embedder)
        asks, warm, desc = seeded.asks, seeded.warm, seeded.desc
        base: tuple[Path, str] | None = None
        if args.baseline:
            if copy_for_baseline:
                server.stop()
                copy_data_dir(data, base_data)
                server, url = start_bench_db(data, args.shared_buffers)
                upgrade(url)
            base_data.mkdir(parents=True, exist_ok=True)
            base_server, base_url = start_bench_db(base_data, args.shared_buffers)
            stack.callback(base_server.stop)
            if captured:
                baseline_upgrade(args.baseline, base_url)
                seed_workload(name, base_url, args, embedder, baseline_python(args.baseline))
            base = (args.baseline, base_url)
        repos = {"this": Path(__file__).resolve().parents[1]}
        if args.baseline:
            repos["baseline"] = args.baseline.resolve()
        if not args.cold:
            for side_url in (url, *([base[1]] if base else [])):
                warmed = prewarm(side_url)
                log(
                    f"prewarmed {warmed.bytes / 2**20:,.0f} MB into shared_buffers: "
                    f"{len(warmed.loaded)} relations, {len(warmed.skipped)} left out"
                )
        before = load()
        with servers(url, base) as sides:
            for side, pgdata in zip(sides, (data / "pg", base_data / "pg"), strict=False):
                side.pids = (server_pid(side.base_url), postmaster_pid(pgdata))
            for n in range(args.rounds):
                round_sides = [Side(s.name, s.base_url, pids=s.pids) for s in sides]
                mine = asks[n * args.queries : (n + 1) * args.queries] or asks[: args.queries]
                measure(round_sides, mine, warm if n == 0 else [], seeded.answers)
                title = (
                    f"{name}: POST /v1/context — {desc}; {len(mine)} queries, sequential, "
                    f"loopback, default budget; {before} → {load()}"
                    + ("" if args.rounds == 1 else f"; round {n + 1} of {args.rounds}")
                )
                print_sides(title, round_sides, repos)
        if name == "corpus" and not args.baseline:
            print_sql_run(sql_run(url, [a.query for a in asks[: args.queries]], embedder))


def print_sql_run(run: SqlRun) -> None:
    print("\n| fact SQL (ms) | p50 | p95 | p99 |")
    print("|---|---:|---:|---:|")
    print(f"| phase 1 + 2 (two indexed top-64, scored union) | {summary(run.two_phase)} |")
    print(f"| naive full scan (score every active fact) | {summary(run.naive)} |")
    ratio = statistics.median(run.naive) / statistics.median(run.two_phase)
    print(f"naive / two-phase (p50): {ratio:.1f}x")
    print("\n| fact full-text leg alone (ms) | p50 | p95 | p99 | matches ranked, p50 / max |")
    print("|---|---:|---:|---:|---:|")
    for limit in WORD_LIMITS:
        which = "the recipe" if limit == DEFAULT.fulltext_max_term_matches else "the previous limit"
        ranked = run.ranked[limit]
        print(
            f"| words in at most {limit:,} facts ({which}) | {summary(run.lexical[limit])} "
            f"| {pct([float(n) for n in ranked], 50):.0f} / {max(ranked)} |"
        )


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--workload",
        choices=["corpus", "conversational", "locomo", "100k", "long", "hostile", "all"],
        default="corpus",
        help="what to store and ask (all: every workload, one after the other)",
    )
    ap.add_argument("--rows", type=int, default=10_000, help="corpus: facts, and as many chunks")
    ap.add_argument("--events", type=int, default=10_000, help="conversational: events captured")
    ap.add_argument("--queries", type=int, default=200, help="distinct queries per round")
    ap.add_argument(
        "--rounds", type=int, default=1, help="measurements per workload, one table each"
    )
    ap.add_argument(
        "--baseline",
        type=Path,
        help="another checkout (with its .venv) served on the same database and measured alongside",
    )
    ap.add_argument(
        "--data-dir",
        type=Path,
        help="keep each workload's embedded database under DIR/<workload> (the baseline's copy under DIR/<workload>-baseline) and reuse it next time",
    )
    ap.add_argument(
        "--vectors",
        choices=["real", "topic"],
        default=None,
        help="corpus: real MiniLM vectors (default up to 20,000 rows) or topic-clustered ones",
    )
    ap.add_argument(
        "--cold",
        action="store_true",
        help="skip the prewarm: measure servers whose database was just started",
    )
    ap.add_argument(
        "--shared-buffers",
        default="1GB",
        help="shared_buffers of the temporary embedded server (its default, 128MB, holds neither the "
        "100k-row heap nor its hnsw index)",
    )
    args = ap.parse_args()
    if args.rounds < 1 or args.queries < 1:
        ap.error("--rounds and --queries must be positive")
    if args.baseline and not (args.baseline / ".venv" / "bin" / "python").exists():
        ap.error(f"--baseline {args.baseline}: no .venv/bin/python there (run make install in it)")
    embedder = LocalEmbedder()
    names = (
        ["corpus", "conversational", "locomo", "100k", "long", "hostile"]
        if args.workload == "all"
        else [args.workload]
    )
    for name in names:
        run_workload(name, args, embedder)


if __name__ == "__main__":
    main()
