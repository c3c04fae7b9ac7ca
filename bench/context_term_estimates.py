"""What the episode full-text leg's term estimates cost, and so what caching
them could save at most.

``context_episode_lexical`` counts the scope's turns (up to
``episode_term_postings`` + 1) and, in a scope larger than that, reads the
statistics of ``episode_chunks_scope_lexemes`` from ``pg_stats`` and matches
every query term against the scope's keyed words by prefix, to keep the
terms whose postings fit the caps. This script puts beside the function, in
the bench database, a copy of it (``pg_get_functiondef``, renamed) that takes
the terms kept and their postings as parameters instead, skipping the count
and the statistics; the estimates are computed beforehand for each question
by a third function holding the same SQL. Both then answer the workload's
questions in alternating blocks on one connection, and the script prints
the backend's CPU per call (``/proc``) and how many results were the same.
The difference is the most a cache of the estimates could save; a cache
still has to learn when the statistics changed. The scratch functions are
dropped afterwards.

    .venv/bin/python bench/context_latency.py --workload corpus --data-dir /tmp/ctx
    .venv/bin/python bench/context_term_estimates.py /tmp/ctx/corpus --queries 200
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg

sys.path.insert(0, str(Path(__file__).parent))
from context_corpus import queries
from context_data import PROJECT, SUBJECT, start_bench_db
from context_statement_cpu import backend_cpu_ms
from haki.context.candidates import read_settings
from haki.context.config import recipe
from haki.text.lexicon import query_terms

SCOPE_COUNT = """    SELECT count(*) INTO v_scope FROM (
        SELECT 1 FROM episode_chunks c
        WHERE c.project_id = v_project AND c.subject_id = p_subject_id
        LIMIT p_term_postings + 1) s;"""
STATS_START = "        SELECT greatest(c.reltuples, 0) INTO v_rows"
STATS_END = "        v_count := cardinality(v_terms);\n        IF v_count = 0 THEN"
LAST_PARAM = "p_rank_items integer DEFAULT 8192)"

ARGS = "%(s)s, %(at)s, %(terms)s::text[], %(k)s, %(tl)s, %(fl)s, %(tp)s, %(p)s, %(ri)s"
REAL = f"SELECT * FROM context_episode_lexical({ARGS}) t ORDER BY t.id"
GIVEN = (
    f"SELECT * FROM scratch_lexical_given({ARGS}, %(kept)s::text[], %(postings)s) t ORDER BY t.id"
)
ESTIMATES = f"SELECT * FROM scratch_lexical_estimates({ARGS})"


def scratch_functions(definition: str) -> tuple[str, str]:
    """(the leg taking its estimates as parameters, the estimates alone), from
    the live definition of ``context_episode_lexical``."""
    for part in (SCOPE_COUNT, STATS_START, STATS_END, LAST_PARAM):
        if part not in definition:
            raise SystemExit(f"context_episode_lexical changed; update this script ({part!r})")
    head = definition.replace("public.context_episode_lexical(", "public.SCRATCH_NAME(", 1)
    start, end = head.index(STATS_START), head.index(STATS_END)
    given = (
        head[:start] + "        v_terms := p_kept; v_postings := p_kept_postings;\n" + head[end:]
    )
    given = given.replace(
        SCOPE_COUNT,
        f"    IF p_kept IS NOT NULL THEN v_scope := p_term_postings + 1; ELSE\n{SCOPE_COUNT}\n    END IF;",
    ).replace(
        LAST_PARAM,
        LAST_PARAM[:-1] + ", p_kept text[] DEFAULT NULL, p_kept_postings integer DEFAULT NULL)",
    )
    # The estimates alone: the body up to the end of the statistics block.
    estimates = head[:end].replace(
        "RETURNS TABLE(id uuid, fulltext double precision, fetched integer, ranked integer, "
        "postings integer)",
        "RETURNS TABLE(out_kept text[], out_postings integer)",
    )
    estimates += "    END IF;\n    RETURN QUERY SELECT v_terms, v_postings;\nEND\n$function$\n"
    return (
        given.replace("SCRATCH_NAME", "scratch_lexical_given"),
        estimates.replace("SCRATCH_NAME", "scratch_lexical_estimates"),
    )


def run(url: str, n: int) -> None:
    cfg = recipe()
    with psycopg.connect(url, autocommit=True) as admin:
        definition = admin.execute(
            "SELECT pg_get_functiondef('context_episode_lexical'::regproc)"
        ).fetchone()
        assert definition is not None
        given, estimates = scratch_functions(definition[0])
        admin.execute(given.encode())
        admin.execute(estimates.encode())
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("SET ROLE haki_app")
            pid = conn.info.backend_pid
            base: dict[str, Any] = {
                "s": SUBJECT,
                "at": datetime.now(UTC),
                "k": cfg.episode_candidates,
                "tl": cfg.episode_term_matches,
                "fl": cfg.episode_lexical_rows,
                "tp": cfg.episode_term_postings,
                "p": cfg.episode_lexical_postings,
                "ri": cfg.episode_rank_items,
            }

            def begin() -> None:
                conn.execute("BEGIN")
                conn.execute("SELECT set_config('app.project_id', %s, true)", (PROJECT,))
                for name, value in read_settings(cfg).items():
                    conn.execute("SELECT set_config(%s, %s, true)", (name, value))

            asks = [base | {"terms": query_terms(q, cfg.max_query_terms)} for q in queries(n)]
            begin()
            for a in asks:
                row = conn.execute(ESTIMATES, a).fetchone()
                # No row: the leg returns before any estimate (no usable term).
                a["kept"], a["postings"] = row if row is not None else ([], 0)
            conn.execute("COMMIT")
            cpu = {REAL: 0.0, GIVEN: 0.0}
            same = calls = 0
            for block in range(4):
                out: dict[str, list[Any]] = {}
                for stmt in (REAL, GIVEN) if block % 2 else (GIVEN, REAL):
                    begin()
                    before = backend_cpu_ms(pid)
                    out[stmt] = [conn.execute(stmt, a, prepare=True).fetchall() for a in asks]
                    cpu[stmt] += backend_cpu_ms(pid) - before
                    conn.execute("COMMIT")
                same += sum(x == y for x, y in zip(out[REAL], out[GIVEN], strict=True))
                calls += len(asks)
        load = " / ".join(f"{x:.2f}" for x in os.getloadavg()[:2])
        print(f"{n} questions x 4 blocks a side, load {load}; backend CPU per call:")
        print(f"  estimates read on every call: {cpu[REAL] / calls:.3f} ms")
        print(f"  estimates given:              {cpu[GIVEN] / calls:.3f} ms")
        print(f"  results the same: {same} of {calls}")
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute("DROP FUNCTION IF EXISTS scratch_lexical_given")
            admin.execute("DROP FUNCTION IF EXISTS scratch_lexical_estimates")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("data", type=Path, help="DIR/corpus of a context_latency.py --data-dir run")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--shared-buffers", default="1GB")
    args = ap.parse_args()
    server, url = start_bench_db(args.data, args.shared_buffers)
    try:
        run(url, args.queries)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
