"""Stage 4c: a later turn that may correct a fact without a value to read.

Patterns and identity resolution supersede what the extractor reads as a
correction; people also correct themselves in words no pattern lists
("sorry, the email I gave you is wrong", "en fait je ne bois plus de thé"),
and such a turn must not leave the old fact served as current. For every
turn of the subject that corrected nothing through identity resolution,
this stage fetches the subject's held facts with their closeness to the
turn (``ABOUT``), lets ``doubt_plan.read_turn`` decide which one the turn
takes back, and replaces it with the value the turn gives (read in the
sentence, or a fact the rules stated from the same turn in its family, or
a phrase of no shape the turn sets in its place: ``free_value``) or
else puts it in a ``doubt`` conflict set: the context assembler holds it
back and the packet warns that a fact is withheld pending resolution
("a later statement may have corrected them"). Resolving the set (``POST
/v1/conflicts/{id}/resolve``) settles it either way. ``doubt_plan`` says
how a turn is read, and at which thresholds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from uuid import UUID

from ..ledger.transitions import set_status
from ..providers.extraction.corrections import correction_cue
from ..providers.extraction.types import EventRow
from ..storage import Connection
from .apply import NewFact, supersede_held
from .computed import may_compute
from .corrections import Held, in_turn, replace_in, self_negated
from .doubt_plan import (
    may_take_back,
    read_lived,
    read_respelling,
    read_turn,
    says_wrong,
    statements,
    subject_words,
)
from .free_value import free_value
from .identity import value_key
from .life_events import tells_an_end
from .misspoke import adds_value
from .predicates import spec
from .renamed import may_rename
from .restate import RESTATE_CUED_DOUBT_SIMILARITY, RESTATE_DOUBT_SIMILARITY, siblings
from .said_change import may_respell
from .said_close import reaches
from .typed_value import may_type, restating
from .vocab_switch import may_switch

# The subject's active facts a turn may be about, with their similarity to
# the turn: its speakers' own (``subject_words``), held since before the
# turn, first stated by another event (the turn may restate them), not
# already held by an open conflict set.
ABOUT = """
SELECT f.id, f.predicate, f.value, f.qualifiers,
       CASE WHEN f.embedding IS NULL OR e.embedding IS NULL
                 -- two spaces' vectors (of two models, maybe two sizes) are not compared
                 OR coalesce(f.embedding_space, 1::smallint) <> coalesce(e.embedding_space, 1::smallint)
            THEN NULL
            ELSE (1 - (f.embedding <=> e.embedding))::float8 END AS similarity,
       -- the turn against the chunk the fact was read from (its evidence in it)
       (SELECT max(1 - (c.embedding <=> e.embedding))::float8 FROM episode_chunks c
        WHERE c.project_id = f.project_id AND c.event_id = ANY(f.source_event_ids)
          AND c.embedding IS NOT NULL AND e.embedding IS NOT NULL
          AND coalesce(c.embedding_space, 1::smallint) = coalesce(e.embedding_space, 1::smallint)
          AND (f.evidence_span IS NULL OR strpos(c.text, f.evidence_span) > 0)) AS said,
       %(event_id)s = ANY(f.source_event_ids) AS restated
FROM facts f JOIN events e ON e.id = %(event_id)s AND e.project_id = f.project_id
WHERE f.project_id = %(project_id)s AND f.subject_id = %(subject_id)s AND f.status = 'active'
  -- only the turn's speakers' facts (named, or none for an unnamed user):
  -- the closeness subquery above runs for the rows kept
  AND (f.qualifiers ->> 'speaker' = ANY(%(named)s)
       OR (%(unnamed)s AND f.qualifiers ->> 'speaker' IS NULL))
  -- a fact this turn first stated is its own, not a candidate; one it only
  -- restated (reinforcement appends the turn to the sources) still is:
  -- "it's guitar, I only play bass when our bassist flakes" corrects "bass"
  AND f.source_event_ids[1] IS DISTINCT FROM %(event_id)s
  AND coalesce(f.valid_from, f.recorded_from) < e.occurred_at
  AND NOT EXISTS (
      SELECT 1 FROM conflict_sets c
      WHERE c.project_id = f.project_id AND c.subject_id = f.subject_id AND c.status = 'open'
        AND f.id = ANY(c.fact_ids))
ORDER BY f.id"""

OPEN_DOUBT = """
INSERT INTO conflict_sets (org_id, project_id, subject_type, subject_id, fact_ids, kind, reason)
VALUES (%(org_id)s, %(project_id)s, %(subject_type)s, %(subject_id)s, %(fact_ids)s, 'doubt', %(reason)s)"""


# The facts a turn itself stated: a value the rules read in the turn,
# beside the fact the turn corrects, is what replaces it ("Changement : pas
# de réunion avant 10h" beside "avant 9h", a multi-valued schedule).
STATED = """
SELECT predicate, value, qualifiers FROM facts
WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s AND status = 'active'
  AND %(event_id)s = ANY(source_event_ids)
ORDER BY id"""


async def _read_beside(conn: Connection, event: EventRow, target: Held) -> object | None:
    """The one value the event stated in the target's family, kind and speaker, if another."""
    cur = await conn.execute(
        STATED,
        {"project_id": event.project_id, "subject_id": event.subject_id, "event_id": event.id},
    )
    family = spec(target.predicate).identity_family
    kind = target.qualifiers.get("kind")
    found = [
        r["value"]
        for r in await cur.fetchall()
        if spec(r["predicate"]).identity_family == family
        and r["qualifiers"].get("speaker") == target.qualifiers.get("speaker")
        and (kind is None or r["qualifiers"].get("kind") in (None, kind))
        and value_key(r["value"]) != value_key(target.value)
        and not _kind_for_name(target, r["value"])
    ]
    return found[0] if len(found) == 1 else None


def _kind_for_name(target: Held, value: object) -> bool:
    """A pet stored by its kind (a lower-case value: "my cat isn't Rex" states
    ``pet: cat``) is no new name for a named pet."""
    return (
        spec(target.predicate).identity_family == "pet"
        and str(value).islower()
        and not str(target.value).islower()
    )


@dataclass(slots=True)
class Doubted:
    """What the doubt stage did to one subject."""

    doubted: int = 0
    replaced: int = 0
    created: list[NewFact] = field(default_factory=list)


async def doubt_subject(
    conn: Connection,
    project_id: str,
    subject_id: str,
    events: Sequence[EventRow],
    corrected: set[UUID],
) -> Doubted:
    """Replace, or else put in doubt, the fact each uncorrected correcting turn takes back."""
    out = Doubted()
    for event in sorted(events, key=lambda e: (e.occurred_at, str(e.id))):
        if event.origin_trust != "trusted":
            continue
        turn, speakers = subject_words(event)
        if not turn:
            continue
        respell_only = not may_take_back(turn)
        if respell_only and not (
            may_respell(turn)
            or may_switch(turn)
            or may_rename(turn)
            or may_type(turn)
            or may_compute(turn)
        ):
            continue
        if event.id in corrected and not tells_an_end(turn):
            continue
        cur = await conn.execute(
            ABOUT,
            {
                "event_id": event.id,
                "project_id": project_id,
                "subject_id": subject_id,
                "named": sorted(s for s in speakers if s is not None),
                "unnamed": None in speakers,
            },
        )
        held = [
            Held(
                r["id"],
                r["predicate"],
                r["value"],
                r["qualifiers"],
                r["similarity"],
                r["said"],
                r["restated"],
            )
            for r in await cur.fetchall()
        ]
        # A turn whose fact the rules corrected ("je suis célibataire" replaces
        # "en couple") is read only for the life event it tells, which may
        # end others ("Julien et moi on s'est quittés" ends the partner).
        reading = (
            read_lived(turn, held)
            if event.id in corrected
            else read_respelling(turn, held)
            if respell_only
            else read_turn(turn, held)
        )
        if reading.lived:
            for fact, sentence in reading.lived:
                new = await _replace_or_end(conn, event, fact, sentence, held, turn)
                out.replaced += 1
                out.created.extend([new] if new else [])
            continue
        ended = reading.ended or reading.close
        if ended is not None:
            # A held value written out beside words saying it ended, or a
            # change said close to the fact's own sentence: replaced by what
            # the turn gives in its place, else doubted.
            replaced, new = await _replace_or_doubt(conn, event, *ended, held, turn)
            if replaced:
                out.replaced += 1
                out.created.extend([new] if new else [])
            else:
                out.doubted += not ended[0].restated
            continue
        if reading.changed is not None:
            # A change said of the fact with no value of its shape: the
            # value the rules read in the turn in its family, else doubt.
            replaced, _ = await _replace_or_doubt(conn, event, reading.changed, turn, held, turn)
            out.replaced += replaced
            out.doubted += not (replaced or reading.changed.restated)
            continue
        if reading.slot is not None:
            slot = reading.slot
            twin = await _read_beside(conn, event, slot)
            replaced, _ = await _supersede_with(conn, event, slot, twin, turn, turn)
            if replaced:
                out.replaced += 1
                continue
            floor = (
                RESTATE_CUED_DOUBT_SIMILARITY if correction_cue(turn) else RESTATE_DOUBT_SIMILARITY
            )
            # The fact's own sentence, close to the turn, says the same.
            if (slot.similarity or 0.0) >= floor or reaches(slot, statements(turn)):
                replaced, new = await _settle(conn, event, slot, turn, held)
                out.replaced += replaced
                out.created.extend([new] if new else [])
                out.doubted += not (replaced or slot.restated)
            continue
        found, target = reading.found, reading.target
        if found is not None:
            replaced, new = await supersede_held(
                conn, event, found.target.id, found.value, found.sentence
            )
            if replaced:
                out.replaced += 1
                out.created.extend([new] if new else [])
                # The same value read twice from one sentence ("bass", "bass
                # in a cover band") ends with it.
                for twin in restating(found.target, held):
                    await _end(conn, event, twin, found.sentence)
                continue
        if target is None:
            continue
        twin = None if siblings(target, held) else await _read_beside(conn, event, target)
        replaced, _ = await _supersede_with(conn, event, target, twin, turn, turn)
        if replaced:
            out.replaced += 1
            continue
        if not says_wrong(turn, held) and not self_negated(turn):
            # A held value after a negation, with no word saying it was
            # wrong, no new value of its own and not said of the speaker
            # ("that cake is not vegan"): the sentence may speak of anything
            # else. Nothing is doubted.
            continue
        replaced, new = await _settle(conn, event, target, turn, held)
        out.replaced += replaced
        out.created.extend([new] if new else [])
        out.doubted += not (replaced or target.restated)
    return out


async def _replacement(
    conn: Connection, event: EventRow, target: Held, sentence: str, held: Sequence[Held]
) -> object | None:
    """The turn's value in the target's family, else one of its shape in
    ``sentence``, else the one value of its shape the turn's other statements give."""
    twin = await _read_beside(conn, event, target)
    if twin is None:
        found = replace_in([sentence], target, held)
        twin = found.value if found is not None else None
    if twin is None:
        twin = in_turn(statements(subject_words(event)[0]), target, held)
    return twin


async def _replace_or_doubt(
    conn: Connection, event: EventRow, target: Held, sentence: str, held: Sequence[Held], turn: str
) -> tuple[bool, NewFact | None]:
    """Supersede ``target`` with the turn's value in its family or of its shape; else doubt it."""
    twin = await _replacement(conn, event, target, sentence, held)
    replaced, new = await _supersede_with(conn, event, target, twin, turn, sentence)
    if replaced:
        return True, new
    return await _settle(conn, event, target, turn, held)


async def _replace_or_end(
    conn: Connection, event: EventRow, target: Held, sentence: str, held: Sequence[Held], turn: str
) -> NewFact | None:
    """Supersede ``target`` with the turn's value, else end it: a life event ended it."""
    twin = await _replacement(conn, event, target, sentence, held)
    replaced, new = await _supersede_with(conn, event, target, twin, turn, sentence)
    if not replaced and not target.restated:
        await _end(conn, event, target, sentence)
    return new


async def _end(conn: Connection, event: EventRow, target: Held, sentence: str) -> None:
    await set_status(
        conn,
        project_id=event.project_id,
        fact_id=target.id,
        status="superseded",
        valid_to=event.occurred_at,
        reason=f"ended by event {event.id}: {sentence[:200]}",
    )


async def _supersede_with(
    conn: Connection, event: EventRow, target: Held, twin: object | None, turn: str, said: str
) -> tuple[bool, NewFact | None]:
    """Supersede ``target`` with ``twin``, unless the turn adds a value beside it ("also")."""
    if twin is None or adds_value(turn):
        return False, None
    return await supersede_held(conn, event, target.id, twin, said)


async def _settle(
    conn: Connection, event: EventRow, target: Held, turn: str, held: Sequence[Held]
) -> tuple[bool, NewFact | None]:
    """Supersede ``target`` with the one phrase the turn sets in its place
    (``free_value``: a value of no shape), else put it in doubt."""
    said = statements(subject_words(event)[0])
    new = free_value(said, target.value, [f.value for f in held])
    replaced, created = await _supersede_with(conn, event, target, new, turn, turn)
    if not replaced and not target.restated:
        # A fact the rules read again in this very turn ("I really don't
        # like olives" restating ``dislikes: olives``) is affirmed by it:
        # only a value the turn sets in its place replaces it.
        await _open_doubt(conn, event, target, turn)
    return replaced, created


async def _open_doubt(conn: Connection, event: EventRow, target: Held, turn: str) -> None:
    await conn.execute(
        OPEN_DOUBT,
        {
            "org_id": event.org_id,
            "project_id": event.project_id,
            "subject_type": event.subject_type,
            "subject_id": event.subject_id,
            "fact_ids": [target.id],
            "reason": f"doubt: event {event.id} may correct it: {turn[:200]}",
        },
    )
