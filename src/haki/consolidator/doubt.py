"""Stage 4c: a later turn that may correct a fact without a value to read.

The extractor reads corrections it has patterns for ("…, not Rex", "I'm
not a nurse any more") and identity resolution supersedes or retracts the
fact. People also correct themselves in words no pattern lists: "sorry,
the email I gave you is wrong", "we changed our indentation rules", "en
fait je ne bois plus de thé". Such a turn must not leave the old fact
served as current. For every turn of the subject that

1. says something changed or was wrong (``corrections.correction_cue``: "no
   longer", "wrong", "changed", "broke up", "en fait … plus", …), and
2. corrected nothing through identity resolution,

the active facts it is **about** are looked for, by pattern and by meaning:
a fact is about the turn when the turn names its value ("Tom" for
``partner = Tom``, "thé" for ``prefers = thé``); or holds a topic word of
its predicate (``text.topics``: "email" for an ``email`` fact) and the
turn's embedding is at least ``TOPIC_SIMILARITY`` from the fact's; or,
with no shared word, when their similarity reaches ``MEANING_SIMILARITY``. The closest such fact, held
since before the turn and from another event, is put in a ``doubt``
conflict set: the context assembler holds it back and the packet warns that
a fact is withheld pending resolution, which the rendered block says in
words ("a later statement may have corrected them"). Resolving the set
(``POST /v1/conflicts/{id}/resolve``) settles it either way.

One fact per turn at most, and only facts of the same subject: a doubt that
lands on the wrong fact hides it until someone looks, which is the price of
never serving a corrected fact as current.

Thresholds (local MiniLM; turn embedding = mean of its chunks, fact
embedding = question + sentence, ``fact_text``): a correction turn and the
fact it is about scored 0.41–0.63 on the cases this was tuned on
(tests/integration/consolidator/test_doubt.py, bench cases), the best
unrelated fact up to 0.48 ("Oops, wrong number" against an age).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from uuid import UUID

from ..providers.extraction.corrections import correction_cue
from ..providers.extraction.render import extraction_text, utterances
from ..providers.extraction.types import SUBJECT_ROLES, EventRow
from ..storage import Connection
from ..text.topics import AskedQuestion, asks_about, names_value

TOPIC_SIMILARITY = 0.25
MEANING_SIMILARITY = 0.55

# The subject's active facts a turn may be about, with their similarity to
# the turn: held since before the turn, from other events, not already held
# by an open conflict set.
ABOUT = """
SELECT f.id, f.predicate, f.value, f.qualifiers ->> 'speaker' AS speaker,
       CASE WHEN f.embedding IS NULL OR e.embedding IS NULL
                 -- two spaces' vectors (of two models, maybe two sizes) are not compared
                 OR coalesce(f.embedding_space, 1::smallint) <> coalesce(e.embedding_space, 1::smallint)
            THEN NULL
            ELSE (1 - (f.embedding <=> e.embedding))::float8 END AS similarity
FROM facts f JOIN events e ON e.id = %(event_id)s AND e.project_id = f.project_id
WHERE f.project_id = %(project_id)s AND f.subject_id = %(subject_id)s AND f.status = 'active'
  AND NOT (%(event_id)s = ANY(f.source_event_ids))
  AND coalesce(f.valid_from, f.recorded_from) < e.occurred_at
  AND NOT EXISTS (
      SELECT 1 FROM conflict_sets c
      WHERE c.project_id = f.project_id AND c.subject_id = f.subject_id AND c.status = 'open'
        AND f.id = ANY(c.fact_ids))
ORDER BY f.id"""

OPEN_DOUBT = """
INSERT INTO conflict_sets (org_id, project_id, subject_type, subject_id, fact_ids, kind, reason)
VALUES (%(org_id)s, %(project_id)s, %(subject_type)s, %(subject_id)s, %(fact_ids)s, 'doubt', %(reason)s)"""


def subject_words(event: EventRow) -> tuple[str, frozenset[str | None]]:
    """What the subject said in the event (user turns), as the extractor reads it, and who spoke.

    A named speaker's turn can only put their own facts in doubt (facts
    qualified with that ``speaker``); an unnamed user's, only facts without one.
    """
    said = [u for u in utterances(event.payload) if u.role in SUBJECT_ROLES]
    text = extraction_text("\n".join(u.text for u in said)) if said else ""
    return text, frozenset(u.speaker or None for u in said)


def _written(value: object, said: str) -> bool:
    text = str(value).casefold().strip()
    return len(text) >= 2 and re.search(rf"(?<!\w){re.escape(text)}(?!\w)", said) is not None


def closest(turn: str, rows: Iterable[tuple[UUID, str, object, float | None]]) -> UUID | None:
    """The fact a correcting turn is about (pure): its value named; or its topic
    named and close enough; or, without a shared word, very close by meaning."""
    asked = AskedQuestion.of(turn)
    said = turn.casefold()
    best: tuple[float, str, UUID] | None = None
    for fact_id, predicate, value, similarity in rows:
        sim = similarity if similarity is not None else 0.0
        # The value as written too: "thé" is a stop word once unaccented.
        named = predicate != "name" and (names_value(asked, value) or _written(value, said))
        topical = asks_about(asked, predicate) and (similarity is None or sim >= TOPIC_SIMILARITY)
        if named or topical or sim >= MEANING_SIMILARITY:
            # Its value named first, then its topic, then the closest; the id breaks ties.
            key = (sim + (2.0 if named else 1.0 if topical else 0.0), str(fact_id), fact_id)
            if best is None or key[:2] > best[:2]:
                best = key
    return best[2] if best else None


async def doubt_subject(
    conn: Connection,
    project_id: str,
    subject_id: str,
    events: Sequence[EventRow],
    corrected: set[UUID],
) -> int:
    """Open a ``doubt`` set for the fact each uncorrected correcting turn is about; count them."""
    opened = 0
    for event in sorted(events, key=lambda e: (e.occurred_at, str(e.id))):
        if event.id in corrected or event.origin_trust != "trusted":
            continue
        turn, speakers = subject_words(event)
        if not turn or not correction_cue(turn):
            continue
        cur = await conn.execute(
            ABOUT, {"event_id": event.id, "project_id": project_id, "subject_id": subject_id}
        )
        rows = [
            (r["id"], r["predicate"], r["value"], r["similarity"])
            for r in await cur.fetchall()
            if r["speaker"] in speakers
        ]
        target = closest(turn, rows)
        if target is None:
            continue
        await conn.execute(
            OPEN_DOUBT,
            {
                "org_id": event.org_id,
                "project_id": project_id,
                "subject_type": event.subject_type,
                "subject_id": subject_id,
                "fact_ids": [target],
                "reason": f"doubt: event {event.id} may correct it: {turn[:200]}",
            },
        )
        opened += 1
    return opened
