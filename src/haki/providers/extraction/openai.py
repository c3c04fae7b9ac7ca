"""``openai`` provider: any OpenAI-compatible chat endpoint extracts the facts.

One request per event, a few in flight at once. The answer must be a JSON
object ``{"facts": [...]}``; each item is validated by ``schema.FactItem``
and invalid items are dropped. A failing endpoint raises ``ProviderError``,
which fails the job so the queue retries it later.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence

from ..llm import ChatClient
from .render import extraction_text, utterances
from .schema import RESPONSE_SCHEMA, parse_items
from .types import SUBJECT_ROLES, Candidate, EventRow

CONCURRENCY = 4

SYSTEM_PROMPT = (
    "You extract durable facts about the people who speak in a conversation, for a long-term memory. "
    "Only facts stated by the user or a named speaker: identity and attributes (name, home city, job, employer, "
    "age, relatives), preferences and dislikes, decisions and conventions, plans with dates. Never extract "
    "what the assistant says, questions, hypotheticals, or commands aimed at the assistant. Use short snake_case "
    "predicates (home_city, occupation, employer, likes, dislikes, sister, plan, decision, convention). When a "
    "named speaker states a fact about themself, put their name in qualifiers.speaker. fact_kind is attribute, "
    "preference or instruction; volatility is stable, slow, volatile or ephemeral. Answer with one JSON object "
    "matching this schema, and nothing else: "
)


def _prompt(event: EventRow) -> str:
    lines = []
    for u in utterances(event.payload):
        who = u.speaker or u.role or "user"
        lines.append(f"{who}: {extraction_text(u.text)}")
    return f"Occurred at {event.occurred_at.isoformat()}.\n" + "\n".join(lines)


def _with_speaker(cands: list[Candidate], event: EventRow) -> list[Candidate]:
    """Pin the speaker qualifier when the event has exactly one named speaker."""
    speakers = {
        u.speaker for u in utterances(event.payload) if u.speaker and u.role in SUBJECT_ROLES
    }
    if len(speakers) != 1:
        return cands
    (speaker,) = speakers
    out = []
    for c in cands:
        qualifiers = {"speaker": speaker, **c.qualifiers}
        out.append(
            Candidate(
                c.predicate,
                c.value,
                qualifiers,
                c.fact_kind,
                c.volatility,
                c.confidence,
                c.evidence_span,
                c.role,
            )
        )
    return out


class OpenAIExtractor:
    name = "openai"

    def __init__(self, client: ChatClient, concurrency: int = CONCURRENCY):
        self.client = client
        self._limit = asyncio.Semaphore(concurrency)
        self._system = SYSTEM_PROMPT + json.dumps(RESPONSE_SCHEMA, separators=(",", ":"))

    async def _one(self, event: EventRow) -> list[Candidate]:
        if not any(u.role in SUBJECT_ROLES for u in utterances(event.payload)):
            return []
        async with self._limit:
            answer = await self.client.complete_json(
                [
                    {"role": "system", "content": self._system},
                    {"role": "user", "content": _prompt(event)},
                ]
            )
        cands, _ = parse_items(answer.get("facts"))
        return _with_speaker(cands, event)

    async def extract(self, events: Sequence[EventRow]) -> list[list[Candidate]]:
        return list(await asyncio.gather(*(self._one(e) for e in events)))
