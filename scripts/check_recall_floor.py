"""Calibrate HAKI_RECALL_MAX_DISTANCE for the configured embedder on LoCoMo (dev half).

The recall gate drops candidates whose cosine distance to the query exceeds
the floor. The right floor depends on the embedder (HAKI_EMBED_PROVIDER), so
it is measured, never copied. For every question of the labelled set, the
conversation's turns are ranked by cosine distance (the top ``--top-k``
stand in for the assembler's candidates), the gate is applied at each
threshold, and the table shows the trade-off:

- evidence recall: mean share of a question's evidence turns still served;
- injection rate: share of calls that serve at least one item (what
  ``GET /v1/stats/overview`` reports, to watch in production);
- adversarial injection: the same on category-5 questions, whose answer is
  not in the conversation (lower is better);
- precision: share of served turns that are evidence.

    .venv/bin/python scripts/check_recall_floor.py
    HAKI_EMBED_PROVIDER=sentence-transformers .venv/bin/python scripts/check_recall_floor.py --top-k 16

With ``--facts`` the same gate is measured on facts, with the fact-question
set (bench/data/fact_questions.json): each question is asked of its
profile's facts (embedded as the consolidator embeds them), and the table
shows the share of questions whose fact passes the floor (kept) and the
share of never-said questions for which no fact passes (empty, i.e.
``no_relevant_memory``), per language, next to the same figures for facts
embedded as ``predicate label: value`` (how facts were embedded before):

    .venv/bin/python scripts/check_recall_floor.py --facts
    .venv/bin/python scripts/check_recall_floor.py --facts bench/data/fact_questions_heldout.json --half odd

Runs offline (no server, no database): embeddings come from the same
provider factory the server uses, and the gate rule from haki.context.gate.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from haki.config import load_settings
from haki.consolidator.fact_text import fact_embedding_text, first_name
from haki.consolidator.predicates import spec
from haki.context.config import EPISODE_TOP_K
from haki.context.gate import passes
from haki.providers.embedders import build_embedder
from haki.text.topics import AskedQuestion, on_topic

DEFAULT_DATA = (
    Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo_dev.json"
)
FACT_QUESTIONS = Path(__file__).resolve().parents[1] / "bench" / "data" / "fact_questions.json"
ADVERSARIAL = 5
THRESHOLDS = [0.0] + [round(0.30 + 0.05 * i, 2) for i in range(15)]


@dataclass(frozen=True, slots=True)
class Question:
    distances: np.ndarray  # cosine distance to every turn of its conversation
    evidence: frozenset[int]  # indexes of its evidence turns
    adversarial: bool


def load(path: Path, embedder, max_conversations: int | None) -> list[Question]:
    data = json.loads(path.read_text(encoding="utf-8"))[:max_conversations]
    questions: list[Question] = []
    for conv in data:
        turns = [
            turn
            for key, session in sorted(conv["conversation"].items())
            if key.startswith("session_") and isinstance(session, list)
            for turn in session
        ]
        texts = [
            f"{t['speaker']}: {t['text']}"
            + (f" [image: {t['blip_caption']}]" if t.get("blip_caption") else "")
            for t in turns
        ]
        index = {t["dia_id"]: i for i, t in enumerate(turns)}
        print(f"embedding {len(texts)} turns of {conv['sample_id']}", file=sys.stderr, flush=True)
        turn_vecs = embedder.embed_documents(texts)
        qa = [q for q in conv["qa"] if q.get("evidence")]
        q_vecs = embedder.embed_documents([q["question"] for q in qa])
        for q, vec in zip(qa, q_vecs, strict=True):
            evidence = frozenset(index[e] for e in q["evidence"] if e in index)
            if evidence:
                questions.append(
                    Question(1.0 - turn_vecs @ vec, evidence, q.get("category") == ADVERSARIAL)
                )
    return questions


def evaluate(questions: list[Question], threshold: float, top_k: int) -> dict[str, float]:
    recall, injected, adv_injected, served, relevant = [], [], [], 0, 0
    for q in questions:
        top = np.argsort(q.distances, kind="stable")[:top_k]
        kept = [int(i) for i in top if passes(float(q.distances[i]), threshold)]
        hit = len(q.evidence.intersection(kept))
        served += len(kept)
        relevant += hit
        (adv_injected if q.adversarial else injected).append(bool(kept))
        if not q.adversarial:
            recall.append(hit / len(q.evidence))
    return {
        "recall": float(np.mean(recall)),
        "injection": float(np.mean(injected)),
        "adversarial_injection": float(np.mean(adv_injected)) if adv_injected else float("nan"),
        "items": served / len(questions),
        "precision": relevant / served if served else float("nan"),
    }


def legacy_text(predicate: str, value: object, qualifiers: dict, _name: str | None) -> str:
    """How facts were embedded before fact_text: "lives in: Lyon"."""
    shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return f"{spec(predicate).readable}: {shown}"


@dataclass(frozen=True, slots=True)
class FactQuestion:
    lang: str
    distances: np.ndarray  # cosine distance to every fact of the profile
    on_topic: np.ndarray  # per fact: does the question ask about it (text.topics)
    answers: frozenset[int]  # indexes of the facts that answer it; empty: never said


def load_fact_questions(
    path: Path, embedder, render, half: str | None = None
) -> list[FactQuestion]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if half:  # every other question: one half to develop on, the other kept unseen
        start = 0 if half == "even" else 1
        data = {
            **data,
            "pairs": data["pairs"][start::2],
            "never_said": data["never_said"][start::2],
        }
    profiles = {}
    for name, facts in sorted(data["profiles"].items()):
        # Facts name the subject once it said its name, as the consolidator writes them.
        own = next((first_name(f["value"]) for f in facts if f["predicate"] == "name"), None)
        texts = [render(f["predicate"], f["value"], f.get("qualifiers", {}), own) for f in facts]
        profiles[name] = (facts, embedder.embed_documents(texts))
    out: list[FactQuestion] = []
    for item in data["pairs"] + data["never_said"]:
        facts, vecs = profiles[item["profile"]]
        answers = frozenset(
            i
            for i, f in enumerate(facts)
            if "predicate" in item
            and f["predicate"] == item["predicate"]
            and item.get("value", f["value"]) == f["value"]
        )
        if "predicate" in item and not answers:
            raise SystemExit(f"no fact of {item['profile']} answers {item['q']!r}")
        asked = AskedQuestion.of(item["q"])
        topic = np.array([on_topic(asked, f["predicate"], f["value"]) for f in facts])
        distances = 1.0 - vecs @ embedder.embed_query(item["q"])
        out.append(FactQuestion(item["lang"], distances, topic, answers))
    return out


def fact_rates(
    questions: list[FactQuestion], threshold: float, *, topics: bool
) -> dict[str, float]:
    """Share of questions keeping an answering fact; share of never-said ones left empty.

    With ``topics`` the rule is the server's (context.gate.Gate with
    ``threshold`` as the fact floor); without, cosine distance alone.
    """

    def kept(q: FactQuestion, i: int) -> bool:
        if topics:
            return fact_passes_at(q, i, threshold)
        return passes(float(q.distances[i]), threshold)

    rates: dict[str, float] = {}
    for lang in ("all", "en", "fr"):
        chosen = [q for q in questions if lang in ("all", q.lang)]
        pairs = [q for q in chosen if q.answers]
        never = [q for q in chosen if not q.answers]
        rates[f"kept_{lang}"] = float(np.mean([any(kept(q, i) for i in q.answers) for q in pairs]))
        rates[f"empty_{lang}"] = float(
            np.mean([not any(kept(q, i) for i in range(len(q.distances))) for q in never])
        )
    return rates


def fact_passes_at(q: FactQuestion, i: int, fact_floor: float) -> bool:
    # The gate is on (any episode floor above 0); fact_floor 0 means topics only.
    return bool(q.on_topic[i]) or (fact_floor > 0 and passes(float(q.distances[i]), fact_floor))


def facts_main(path: Path, embedder, min_empty: float, half: str | None) -> None:
    now = load_fact_questions(path, embedder, fact_embedding_text, half)
    before = load_fact_questions(path, embedder, legacy_text, half)
    pairs = sum(1 for q in now if q.answers)
    print(
        f"\nembedder {embedder.name}; {pairs} fact questions, {len(now) - pairs} never-said "
        f"questions ({path.name}{f', {half} half' if half else ''})\n"
    )
    print(
        "Gate on facts (the server's rule): a fact passes when the question asks about it "
        "(text.topics), or within the fact floor (HAKI_RECALL_FACT_MAX_DISTANCE); "
        "'distance only' is the cosine floor alone; 'before' embeds facts as 'label: value'.\n"
    )
    print(
        "| fact floor | kept | kept en | kept fr | empty | empty en | empty fr "
        "| distance only: kept | distance only: empty | before: kept | before: empty |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    rows = []
    for t in THRESHOLDS:
        m = fact_rates(now, t, topics=True)
        d = fact_rates(now, t, topics=False)
        b = fact_rates(before, t, topics=False)
        rows.append((t, m))
        label = "topics only" if t == 0 else f"{t:.2f}"
        print(
            f"| {label} | {m['kept_all']:.3f} | {m['kept_en']:.3f} | {m['kept_fr']:.3f} "
            f"| {m['empty_all']:.3f} | {m['empty_en']:.3f} | {m['empty_fr']:.3f} "
            + (
                f"| {d['kept_all']:.3f} | {d['empty_all']:.3f} "
                f"| {b['kept_all']:.3f} | {b['empty_all']:.3f} |"
                if t
                else "| – | – | – | – |"
            )
        )
    ok = [(t, m) for t, m in rows if m["empty_all"] >= min_empty]
    if ok:
        t, m = max(ok, key=lambda r: r[0])
        print(
            f"\nloosest fact floor leaving ≥ {min_empty:.0%} of never-said questions empty: "
            f"{'topics only' if t == 0 else f'{t:.2f}'} (facts kept {m['kept_all']:.1%}, "
            f"never-said empty {m['empty_all']:.1%})"
        )


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--data", type=Path, default=DEFAULT_DATA, help="LoCoMo JSON (default: the dev half)"
    )
    ap.add_argument(
        "--top-k", type=int, default=EPISODE_TOP_K, help="candidates per question before the gate"
    )
    ap.add_argument(
        "--conversations", type=int, default=None, help="use only the first N conversations"
    )
    ap.add_argument(
        "--max-recall-loss",
        type=float,
        default=0.05,
        help="suggest the tightest floor losing at most this share of ungated recall",
    )
    ap.add_argument(
        "--facts",
        nargs="?",
        const=FACT_QUESTIONS,
        type=Path,
        help="measure the gate on facts with the fact-question set instead of LoCoMo episodes",
    )
    ap.add_argument(
        "--min-empty",
        type=float,
        default=0.8,
        help="with --facts: report the loosest fact floor leaving this share of never-said "
        "questions empty",
    )
    ap.add_argument(
        "--half",
        choices=("even", "odd"),
        help="with --facts: only every other question (even: 0, 2, …; odd: 1, 3, …)",
    )
    args = ap.parse_args()
    settings = load_settings()
    embedder = build_embedder(settings)
    if args.facts:
        facts_main(args.facts, embedder, args.min_empty, args.half)
        return
    questions = load(args.data, embedder, args.conversations)
    rows = [(t, evaluate(questions, t, args.top_k)) for t in THRESHOLDS]
    base = rows[0][1]["recall"]

    print(
        f"\nembedder {embedder.name}; {len(questions)} questions; top-{args.top_k} turns per question\n"
    )
    print(
        "| max distance | evidence recall | injection rate | adversarial injection | items/call | precision |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    for t, m in rows:
        label = "off" if t == 0 else f"{t:.2f}"
        print(
            f"| {label} | {m['recall']:.3f} | {m['injection']:.3f} | {m['adversarial_injection']:.3f} "
            f"| {m['items']:.2f} | {m['precision']:.3f} |"
        )
    keep = [t for t, m in rows[1:] if m["recall"] >= (1 - args.max_recall_loss) * base]
    if keep:
        print(
            f"\nsuggested HAKI_RECALL_MAX_DISTANCE={min(keep):.2f} for {embedder.name} "
            f"(keeps ≥ {1 - args.max_recall_loss:.0%} of ungated evidence recall)"
        )
    else:
        print("\nno threshold keeps enough recall; leave the gate off")


if __name__ == "__main__":
    main()
