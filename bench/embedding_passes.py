"""Where the model's passes go in a consolidation: texts per stage, passes, runs, tokens, CPU.

    PYTHONPATH=src .venv/bin/python bench/embedding_passes.py --workload short --events 10000
    PYTHONPATH=src .venv/bin/python bench/embedding_passes.py --workload locomo --limit 1000 --speakers user

Runs ``bench/consolidate.py``'s LoCoMo drain (a worker in this process, the
server's extractor) on LoCoMo dev turns or on the short turns (seeded as
user and assistant messages, jobs of 100, one subject), with
``LocalEmbedder``'s methods wrapped to count, per consolidation stage: the
texts asked for, those distinct within their call, those run through the
model (the rest come from the document cache), their tokens, the runs and
runs of one text, and the process CPU spent tokenising and in inference.
Also the texts two stages share. The counts are exact; the CPU figures are
contended like any on a shared machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from pathlib import Path

from psycopg.types.json import Jsonb

from haki.consolidator import stages
from haki.providers import embed

sys.path.insert(0, str(Path(__file__).resolve().parent))
import consolidate as bench
import short_turns

counts: dict[str, Counter[str]] = defaultdict(Counter)
asked: dict[str, list[str]] = defaultdict(list)
_documents, _infer, _run = (
    embed.LocalEmbedder.embed_documents,
    embed.LocalEmbedder._infer,
    embed.LocalEmbedder._run,
)
# The stage of the call being served (the embedder runs in worker threads,
# and the stage stack is the event loop's).
_current = ["none"]


def embed_documents(self, texts):  # type: ignore[no-untyped-def]
    where = stages.current() or "none"
    _current[0] = where
    counts[where].update(calls=1, texts=len(texts), distinct_in_call=len(set(texts)))
    asked[where].extend(texts)
    return _documents(self, texts)


def infer(self, texts):  # type: ignore[no-untyped-def]
    c = counts[_current[0]]
    began = time.process_time()
    encoded = self._loaded_tokenizer().encode_batch(list(texts))
    c.update(passes=len(texts), tokens=sum(len(e.ids) for e in encoded))
    c["tokenizer_cpu_ms"] += round((time.process_time() - began) * 1000)
    began = time.process_time()
    out = _infer(self, texts)
    c["inference_cpu_ms"] += round((time.process_time() - began) * 1000)
    return out


def run(self, session, rows):  # type: ignore[no-untyped-def]
    counts[_current[0]].update(runs=1, runs_of_one=int(len(rows) == 1))
    return _run(self, session, rows)


def short_rows(n: int) -> list[tuple[str, int, dict]]:
    return [
        (
            "short-1",
            0,
            {
                "id": uuid.uuid4(),
                "project_id": "bench",
                "subject_id": "short-1",
                "occurred_at": at,
                "payload": Jsonb({"messages": [{"role": role, "content": text}]}),
                "source": Jsonb({}),
                "hash": f"sha256:{uuid.uuid4().hex}",
                "key": uuid.uuid4().hex,
            },
        )
        for role, text, at in short_turns.turns(n)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workload", choices=["locomo", "short"], default="short")
    parser.add_argument("--events", type=int, default=2000, help="short: turns")
    parser.add_argument("--limit", type=int, help="locomo: the first N turns")
    parser.add_argument("--speakers", choices=["named", "user"], default="named")
    args = parser.parse_args()
    embed.LocalEmbedder.embed_documents = embed_documents  # type: ignore[method-assign]
    embed.LocalEmbedder._infer = infer  # type: ignore[method-assign]
    embed.LocalEmbedder._run = run  # type: ignore[method-assign]
    if args.workload == "short":
        bench.load_turns = lambda *_a, **_k: short_rows(args.events)
    drain = argparse.Namespace(
        limit=args.limit,
        conversations=None,
        batch=100 if args.workload == "short" else 50,
        embedder="local",
        documents=None,
        workers=1,
        speakers=args.speakers,
    )
    from haki.storage.embedded import start_embedded

    with tempfile.TemporaryDirectory(prefix="haki-passes-") as tmp:
        server = start_embedded(Path(tmp))
        try:
            result = asyncio.run(bench.run_locomo(server.admin_url, drain))
        finally:
            server.stop()
    keys = ("events", "process_cpu_s", "events_per_cpu_s", "stages")
    print(json.dumps({k: result[k] for k in keys}))
    for where in sorted(counts):
        print(where, json.dumps({**counts[where], "distinct_in_run": len(set(asked[where]))}))
    names = sorted(asked)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            print(f"shared {a} / {b}: {len(set(asked[a]) & set(asked[b]))}")


if __name__ == "__main__":
    main()
