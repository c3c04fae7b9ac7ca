"""Workloads for ``bench/context_latency.py``: what is stored, and what is asked.

- ``corpus``: the template corpus of ``context_corpus`` (facts and turns
  over a few hundred names, places, foods, jobs and hobbies), copied in.
- ``conversational``: one subject, 10,000 short third-person events built
  from 40 first names, 30 places, 25 things and 10 action templates
  ("Alice bought a guitar in Lisbon."), captured in batches of 100 and
  consolidated through the API; questions name one or two of those people
  and a place or thing ("What did Alice buy in Lisbon?"). Every word of a
  question is shared by hundreds of turns, so the full-text leg fetches a
  full per-term share for each (about 750 rows a call), and the pool and the
  neighbours run close to their caps.
- ``locomo``: the LoCoMo dev conversations, one subject each (about 550
  turns), captured and consolidated like ``bench/locomo.py`` does, asked
  their own questions.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import httpx

FIRST_NAMES = [
    "Alice", "Bruno", "Chen", "Dara", "Elena", "Farid", "Greta", "Hiro", "Ines", "Jonas",
    "Kofi", "Lena", "Marco", "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tariq",
    "Uma", "Victor", "Wen", "Ximena", "Yusuf", "Zoe", "Amara", "Boris", "Carla", "Dmitri",
    "Esther", "Felix", "Gloria", "Hassan", "Ingrid", "Jamal", "Keiko", "Luis", "Mira", "Nico",
]  # fmt: skip
PLACES = [
    "Lisbon", "Porto", "Osaka", "Nairobi", "Lima", "Oslo", "Hanoi", "Dakar", "Quebec", "Seville",
    "Tbilisi", "Cusco", "Bergen", "Kyoto", "Accra", "Krakow", "Valparaiso", "Marrakesh", "Tallinn",
    "Cebu", "Bruges", "Zanzibar", "Galway", "Lyon", "Hobart", "Dubrovnik", "Medellin", "Sapporo",
    "Tromso", "Granada",
]  # fmt: skip
THINGS = [
    "guitar", "violin", "bicycle", "camera", "piano", "kayak", "telescope", "laptop", "tent",
    "drone", "surfboard", "chessboard", "sewing machine", "typewriter", "accordion", "saxophone",
    "motorbike", "easel", "microscope", "harp", "canoe", "loom", "pottery wheel", "cello",
    "record player",
]  # fmt: skip
# Each template: the event, then the question asked about it.
ACTIONS = [
    ("{a} bought a {thing} in {place}.", "What did {a} buy in {place}?"),
    (
        "{a} started learning the {thing} with a teacher from {place}.",
        "Who taught {a} the {thing}?",
    ),
    ("{a} travelled to {place} with {b}.", "Where did {a} travel with {b}?"),
    ("{a} moved away from {place} to live closer to {b}.", "Why did {a} move away from {place}?"),
    ("{a} lost a {thing} on the way to {place}.", "What did {a} lose on the way to {place}?"),
    ("{a} gave {b} a {thing} after the trip to {place}.", "What did {a} give {b} in {place}?"),
    ("{a} met {b} at a {thing} fair in {place}.", "Where did {a} meet {b}?"),
    ("{a} sold the old {thing} to a collector in {place}.", "Who bought the {thing} from {a}?"),
    (
        "{a} repaired the {thing} of {b} before leaving for {place}.",
        "When did {a} fix the {thing}?",
    ),
    ("{a} taught {b} to play the {thing} in {place}.", "Who taught {b} the {thing} in {place}?"),
]


@dataclass(frozen=True, slots=True)
class Ask:
    subject_id: str
    query: str


def _fill(template: str, rng: random.Random) -> str:
    a, b = rng.sample(FIRST_NAMES, 2)
    return template.format(a=a, b=b, thing=rng.choice(THINGS), place=rng.choice(PLACES))


def conversational_events(n: int, seed: int = 16) -> list[tuple[datetime, str]]:
    """``n`` events in bursts of 3–15, minutes apart, bursts hours to days apart."""
    rng = random.Random(seed)
    at = datetime(2024, 1, 1, 9, tzinfo=UTC)
    out: list[tuple[datetime, str]] = []
    while len(out) < n:
        for _ in range(rng.randint(3, 15)):
            out.append((at, _fill(rng.choice(ACTIONS)[0], rng)))
            at += timedelta(minutes=rng.randint(1, 6))
        at += timedelta(hours=rng.randint(2, 60))
    return out[:n]


def conversational_questions(n: int, seed: int = 61) -> list[str]:
    """``n`` distinct questions of the templates' form."""
    rng = random.Random(seed)
    seen: dict[str, None] = {}
    while len(seen) < n:
        seen.setdefault(_fill(rng.choice(ACTIONS)[1], rng), None)
    return list(seen)


SLOTS = ("a", "b", "thing", "place")


def _pattern(template: str) -> re.Pattern[str]:
    """A template as a regular expression, each slot a named group."""
    out = re.escape(template)
    for slot in SLOTS:
        out = out.replace(re.escape("{" + slot + "}"), f"(?P<{slot}>.+?)")
    return re.compile(f"^{out}$")


_EVENTS = [_pattern(event) for event, _ in ACTIONS]
_QUESTIONS = [_pattern(question) for _, question in ACTIONS]


_VOCABULARY = {"a": FIRST_NAMES, "b": FIRST_NAMES, "thing": THINGS, "place": PLACES}


def _parse(text: str, patterns: list[re.Pattern[str]]) -> tuple[int, dict[str, str]] | None:
    """The template ``text`` was filled from, and its slots. A slot must hold
    a word of its list: "Who taught Jonas the guitar in Lisbon?" also fits
    "Who taught {a} the {thing}?" with "guitar in Lisbon" as the thing."""
    for k, pattern in enumerate(patterns):
        m = pattern.match(text)
        if m and all(v in _VOCABULARY[slot] for slot, v in m.groupdict().items()):
            return k, m.groupdict()
    return None


# A question's answering events, by the question's text.
Answers = dict[str, set[str]]


def conversational_answers(events: list[str], questions: list[str]) -> Answers:
    """Each question's answering events: those of its action template whose
    names, place and thing agree with every one the question gives ("What
    did Alice buy in Lisbon?": each "Alice bought a … in Lisbon."). Questions
    are drawn apart from the events, so some have none (left out)."""
    by_action: dict[int, list[tuple[str, dict[str, str]]]] = {}
    for text in events:
        if parsed := _parse(text, _EVENTS):
            by_action.setdefault(parsed[0], []).append((text, parsed[1]))
    answers: Answers = {}
    for question in questions:
        if not (parsed := _parse(question, _QUESTIONS)):
            continue
        k, given = parsed
        found = {
            text
            for text, slots in by_action.get(k, [])
            if all(slots[name] == value for name, value in given.items())
        }
        if found:
            answers[question] = found
    return answers


def capture(
    client: httpx.Client, project: str, subject: str, events: list[tuple[datetime, dict[str, str]]]
) -> None:
    """Capture (time, payload) events in batches of 100, then consolidate the subject."""
    for start in range(0, len(events), 100):
        batch = [
            {
                "project_id": project,
                "subject_id": subject,
                "kind": "conversation.message",
                "occurred_at": at.isoformat(),
                "actor_type": "user",
                "payload": payload,
            }
            for at, payload in events[start : start + 100]
        ]
        r = client.post(
            "/v1/capture",
            json={"events": batch, "idempotency_key": f"{project}:{subject}:{start}"},
        )
        r.raise_for_status()
    r = client.post(
        "/v1/consolidate/subject",
        params={"project_id": project, "subject_id": subject},
        timeout=None,
    )
    r.raise_for_status()


def spread(asks: list[Ask], n: int) -> list[Ask]:
    """``n`` asks taken evenly across the list (all subjects, all kinds of question)."""
    if len(asks) <= n:
        return asks
    step = len(asks) / n
    return [asks[int(i * step)] for i in range(n)]


def chunks(items: list[Ask], size: int) -> Iterator[list[Ask]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]
