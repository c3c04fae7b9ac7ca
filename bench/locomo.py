"""LoCoMo evidence-recall benchmark, through the public HTTP API.

Protocol (../shared/data/locomo/README.md): ingest every turn as one event,
consolidate, ask each question that has evidence at several budgets, and map
what was served back to dialog ids (an episode through its event, a fact
through its source events). A BM25-over-turns floor, packed under the same
budget and cost rule, is printed beside Haki in the same table.

Beside evidence recall, ``answer`` is the share of the reference answer's
content words (stemmed) found in the text served: evidence recall counts a
turn once any part of it is served, this checks that the words that answer
the question came with it. Adversarial questions have no answer and are left
out of that column.

    .venv/bin/python bench/locomo.py                 # dev half, starts its own server
    .venv/bin/python bench/locomo.py --conversations 1 --questions 20
    .venv/bin/python bench/locomo.py --base-url http://127.0.0.1:8100 --out bench/out/locomo.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import re
import statistics
import sys
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _server import REPO, running_server
from haki.text.lexicon import terms as content_terms

DATA = REPO.parent / "shared" / "data" / "locomo" / "locomo_dev.json"
BUDGETS = (300, 900, 1500)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
_DATE = re.compile(r"(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+(\w+),?\s+(\d{4})", re.I)
_MONTHS = {
    m: i
    for i, m in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ],
        start=1,
    )
}


@dataclass(frozen=True, slots=True)
class Turn:
    sample_id: str
    dia_id: str
    speaker: str
    text: str
    caption: str | None
    occurred_at: datetime

    def rendered(self) -> str:
        image = f" [shares image: {self.caption}]" if self.caption else ""
        return f"{self.speaker}: {self.text}{image}"


@dataclass(frozen=True, slots=True)
class Question:
    sample_id: str
    text: str
    evidence: frozenset[str]
    category: int
    answer: frozenset[str]  # the reference answer's content terms (empty: none)


@dataclass(slots=True)
class Outcome:
    recall: float
    tokens: int
    latency_ms: float
    category: int
    answer: float | None = None  # share of the answer's terms served; None: no answer


def answer_share(q: Question, served_text: str) -> float | None:
    if not q.answer:
        return None
    return len(q.answer & set(content_terms(served_text))) / len(q.answer)


@dataclass(slots=True)
class RunResult:
    outcomes: dict[tuple[str, int], list[Outcome]] = field(
        default_factory=lambda: defaultdict(list)
    )
    timings: dict[str, float] = field(default_factory=dict)


def parse_session_date(raw: str) -> datetime:
    m = _DATE.search(raw)
    if not m:
        raise ValueError(f"unrecognised session date: {raw!r}")
    hour, minute, ampm, day, month, year = m.groups()
    h = int(hour) % 12 + (12 if ampm.lower() == "pm" else 0)
    return datetime(int(year), _MONTHS[month.lower()], int(day), h, int(minute), tzinfo=UTC)


def evidence_ids(raw: Sequence[str]) -> frozenset[str]:
    """Evidence lists sometimes pack several ids in one string; split them."""
    return frozenset(t for item in raw for t in re.findall(r"D\d+:\d+", str(item)))


def load(
    path: Path, conversations: int | None, questions: int | None
) -> tuple[list[Turn], list[Question]]:
    data = json.loads(path.read_text())[:conversations]
    turns: list[Turn] = []
    qs: list[Question] = []
    for conv in data:
        sid, c = conv["sample_id"], conv["conversation"]
        sessions = sorted((int(k.split("_")[1]), k) for k in c if re.fullmatch(r"session_\d+", k))
        for _, key in sessions:
            start = parse_session_date(c[f"{key}_date_time"])
            for pos, t in enumerate(c[key]):
                turns.append(
                    Turn(
                        sid,
                        t["dia_id"],
                        t["speaker"],
                        t["text"],
                        t.get("blip_caption"),
                        start + timedelta(seconds=pos),
                    )
                )
        conv_qs = [
            Question(
                sid,
                q["question"],
                evidence_ids(q.get("evidence") or []),
                int(q["category"]),
                frozenset(content_terms(str(q.get("answer") or ""))),
            )
            for q in conv["qa"]
            if evidence_ids(q.get("evidence") or [])
        ]
        qs.extend(conv_qs[:questions])
    return turns, qs


def cost(text: str) -> int:
    return max(1, len(text) // 4)


# --- BM25 floor -----------------------------------------------------------

_WORD = re.compile(r"\w+", re.UNICODE)


def _terms(text: str) -> list[str]:
    return _WORD.findall(text.lower())


class BM25:
    def __init__(self, docs: Sequence[str], k1: float = 1.2, b: float = 0.75):
        self.docs = [Counter(_terms(d)) for d in docs]
        self.lengths = [sum(d.values()) for d in self.docs]
        self.avg = (sum(self.lengths) / len(self.lengths)) if self.docs else 1.0
        df = Counter(t for d in self.docs for t in d)
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
        self.k1, self.b = k1, b

    def rank(self, query: str) -> list[int]:
        q = set(_terms(query))
        scores = []
        for i, (d, length) in enumerate(zip(self.docs, self.lengths, strict=True)):
            s = 0.0
            for t in q & d.keys():
                tf = d[t]
                s += (
                    self.idf[t]
                    * tf
                    * (self.k1 + 1)
                    / (tf + self.k1 * (1 - self.b + self.b * length / self.avg))
                )
            scores.append((-s, i))
        return [i for s, i in sorted(scores) if s < 0]


def bm25_floor(
    turns: list[Turn], questions: list[Question], budgets: Sequence[int], result: RunResult
) -> None:
    by_conv: dict[str, list[Turn]] = defaultdict(list)
    for t in turns:
        by_conv[t.sample_id].append(t)
    index = {sid: BM25([t.rendered() for t in ts]) for sid, ts in by_conv.items()}
    for q in questions:
        start = time.perf_counter()
        ranked = index[q.sample_id].rank(q.text)
        ms = (time.perf_counter() - start) * 1000
        conv = by_conv[q.sample_id]
        for budget in budgets:
            served, used, texts = set(), 0, []
            for i in ranked:
                c = cost(conv[i].rendered())
                if used + c <= budget:
                    served.add(conv[i].dia_id)
                    texts.append(conv[i].rendered())
                    used += c
            result.outcomes[("bm25", budget)].append(
                Outcome(
                    len(served & q.evidence) / len(q.evidence),
                    used,
                    ms,
                    q.category,
                    answer_share(q, "\n".join(texts)),
                )
            )


# --- Haki over HTTP -------------------------------------------------------


async def ingest(
    client: httpx.AsyncClient, project: str, turns: list[Turn], progress
) -> dict[str, str]:
    """Capture turns in batches of 100; return event id -> dia id."""
    event_to_dia: dict[str, str] = {}
    for start in range(0, len(turns), 100):
        batch = turns[start : start + 100]
        events = [
            {
                "project_id": project,
                "subject_id": t.sample_id,
                "kind": "conversation.message",
                "occurred_at": t.occurred_at.isoformat(),
                "actor_type": "user",
                "actor_id": t.speaker,
                "payload": {
                    "speaker": t.speaker,
                    "text": t.text,
                    **({"blip_caption": t.caption} if t.caption else {}),
                },
                "source": {"dataset": "locomo", "sample_id": t.sample_id, "dia_id": t.dia_id},
            }
            for t in batch
        ]
        r = await client.post(
            "/v1/capture", json={"events": events, "idempotency_key": f"{project}:{start}"}
        )
        r.raise_for_status()
        for t, ev in zip(batch, r.json()["events"], strict=True):
            event_to_dia[ev["id"]] = t.dia_id
        progress(len(batch))
    return event_to_dia


async def consolidate(client: httpx.AsyncClient, project: str, subjects: Sequence[str]) -> None:
    for subject in subjects:
        r = await client.post(
            "/v1/consolidate/subject",
            params={"project_id": project, "subject_id": subject},
            timeout=None,
        )
        r.raise_for_status()


def served_text(packet: dict) -> str:
    return "\n".join(
        item.get("text", "") for key in ("facts", "episodes") for item in packet.get(key, [])
    )


def served_dia_ids(packet: dict, event_to_dia: dict[str, str]) -> set[str]:
    ids = {ep["event_id"] for ep in packet.get("episodes", [])}
    for f in packet.get("facts", []):
        ids.update(f.get("source_event_ids") or [])
    return {event_to_dia[i] for i in ids if i in event_to_dia}


async def ask(
    client: httpx.AsyncClient,
    project: str,
    questions: list[Question],
    budgets: Sequence[int],
    event_to_dia: dict[str, str],
    result: RunResult,
    progress,
) -> None:
    for q in questions:
        for budget in budgets:
            start = time.perf_counter()
            r = await client.post(
                "/v1/context",
                json={
                    "project_id": project,
                    "subject_id": q.sample_id,
                    "query": q.text,
                    "budget_tokens": budget,
                },
            )
            ms = (time.perf_counter() - start) * 1000
            r.raise_for_status()
            body = r.json()
            if body["token_count"] > budget:
                raise AssertionError(f"token_count {body['token_count']} over budget {budget}")
            served = served_dia_ids(body["packet"], event_to_dia)
            result.outcomes[("haki", budget)].append(
                Outcome(
                    len(served & q.evidence) / len(q.evidence),
                    body["token_count"],
                    ms,
                    q.category,
                    answer_share(q, served_text(body["packet"])),
                )
            )
        progress(1)


async def run_haki(
    client: httpx.AsyncClient,
    turns: list[Turn],
    questions: list[Question],
    budgets: Sequence[int],
    result: RunResult,
    quiet: bool = True,
) -> None:
    from rich.progress import Progress

    project = f"locomo-{uuid.uuid4().hex[:8]}"
    with Progress(disable=quiet, transient=True) as bar:
        task = bar.add_task("ingest", total=len(turns))
        start = time.perf_counter()
        event_to_dia = await ingest(client, project, turns, lambda n: bar.advance(task, n))
        result.timings["ingest_s"] = time.perf_counter() - start
        start = time.perf_counter()
        await consolidate(client, project, sorted({t.sample_id for t in turns}))
        result.timings["consolidate_s"] = time.perf_counter() - start
        task = bar.add_task("questions", total=len(questions))
        start = time.perf_counter()
        await ask(
            client,
            project,
            questions,
            budgets,
            event_to_dia,
            result,
            lambda n: bar.advance(task, n),
        )
        result.timings["questions_s"] = time.perf_counter() - start


# --- report ---------------------------------------------------------------


def percentile(values: Sequence[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))]


def summarise(result: RunResult) -> list[dict]:
    rows = []
    for (system, budget), outs in sorted(result.outcomes.items()):
        row = {
            "system": system,
            "budget": budget,
            "questions": len(outs),
            "recall": statistics.fmean(o.recall for o in outs),
            "all_evidence": statistics.fmean(1.0 if o.recall == 1.0 else 0.0 for o in outs),
            "answer": statistics.fmean(a)
            if (a := [o.answer for o in outs if o.answer is not None])
            else None,
            "mean_tokens": statistics.fmean(o.tokens for o in outs),
            "p50_ms": percentile([o.latency_ms for o in outs], 50),
            "p95_ms": percentile([o.latency_ms for o in outs], 95),
        }
        for cat in CATEGORIES:
            cat_outs = [o.recall for o in outs if o.category == cat]
            row[f"cat{cat}"] = statistics.fmean(cat_outs) if cat_outs else None
        rows.append(row)
    return rows


def print_table(rows: list[dict], timings: dict[str, float]) -> None:
    head = [
        "system",
        "budget",
        "n",
        "recall",
        "all-ev",
        "answer",
        *[f"c{c} {CATEGORIES[c][:6]}" for c in CATEGORIES],
        "tokens",
        "p50 ms",
        "p95 ms",
    ]
    print(" | ".join(head))
    print(" | ".join("---" for _ in head))
    for r in rows:
        cats = [f"{r[f'cat{c}']:.1%}" if r[f"cat{c}"] is not None else "-" for c in CATEGORIES]
        print(
            " | ".join(
                [
                    r["system"],
                    str(r["budget"]),
                    str(r["questions"]),
                    f"{r['recall']:.1%}",
                    f"{r['all_evidence']:.1%}",
                    f"{r['answer']:.1%}" if r["answer"] is not None else "-",
                    *cats,
                    f"{r['mean_tokens']:.0f}",
                    f"{r['p50_ms']:.1f}",
                    f"{r['p95_ms']:.1f}",
                ]
            )
        )
    if timings:
        print("\n" + ", ".join(f"{k} {v:.1f}" for k, v in sorted(timings.items())))


async def main_async(args: argparse.Namespace) -> RunResult:
    turns, questions = load(Path(args.data), args.conversations, args.questions)
    print(
        f"{len(turns)} turns, {len(questions)} questions with evidence, budgets {args.budgets}",
        file=sys.stderr,
    )
    result = RunResult()
    if args.baseline == "bm25":
        bm25_floor(turns, questions, args.budgets, result)
    env = {"HAKI_CONTEXT_RECIPE": args.recipe} if args.recipe else None
    with running_server(args.base_url, env=env) as url:
        async with httpx.AsyncClient(base_url=url, timeout=60) as client:
            await run_haki(client, turns, questions, args.budgets, result, quiet=args.quiet)
    return result


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--data", default=str(DATA), help="LoCoMo JSON (default: the shared dev half)"
    )
    parser.add_argument("--base-url", help="use a running server instead of starting one")
    parser.add_argument(
        "--budgets", type=lambda s: [int(x) for x in s.split(",")], default=list(BUDGETS)
    )
    parser.add_argument("--conversations", type=int, help="only the first N conversations")
    parser.add_argument(
        "--questions", type=int, help="only the first N questions of each conversation"
    )
    parser.add_argument("--baseline", choices=["bm25", "none"], default="bm25")
    parser.add_argument(
        "--recipe", help="retrieval recipe for the started server (HAKI_CONTEXT_RECIPE)"
    )
    parser.add_argument("--out", help="write the summary as JSON here")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    args = parser.parse_args(argv)
    result = asyncio.run(main_async(args))
    rows = summarise(result)
    print_table(rows, result.timings)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps({"rows": rows, "timings": result.timings}, indent=2))


if __name__ == "__main__":
    main()
