"""Life events that end what a fact holds, by the predicates they end (pure).

People rarely correct a job, a relationship, a pet or a diet by saying the
old value was wrong; they tell what happened: "got laid off", "we split
up", "Bubbles passed away", "I eat meat again", "j'ai quitté Renault". No
new value of the fact's shape is given, and often none is named. Each
entry below is an event, the predicates whose state it ends, and how the
sentence must point at the fact:

- ``speaker``: the event ends the state by itself when the speaker is its
  subject ("I", "we", "je", "on", or no subject at all: "got laid off from
  Deloitte"); one's job, one's couple, one's diet are one's own;
- ``thing``: the sentence must also name the held value or a topic word of
  the predicate ("the cat passed away"; "I nearly died laughing" ends no
  pet);
- ``named``: a verb that ends anything ("left", "quitté") ends only the
  held value the sentence writes out ("left Spotify in June").

The decision (which held fact, replaced or ended) is ``takeback.status_ended``;
``corrections.ends_status`` reads the same table as a topic beside a
correction cue. Cost: one regex per entry per statement on turns that pass
the doubt stage's gate; a wrong reading ends a fact nobody corrected, so
the words are events, not moods ("fed up with my job" ends nothing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from ..text.memo import memo

JOB = frozenset({"employer", "occupation"})
COUPLE = frozenset({"relationship_status", "partner", "spouse"})

Pointer = Literal["speaker", "thing", "named"]


@dataclass(frozen=True, slots=True)
class LifeEvent:
    words: re.Pattern[str]
    ends: frozenset[str]
    pointer: Pointer


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


EVENTS: tuple[LifeEvent, ...] = (
    LifeEvent(
        _rx(
            r"\b(?:retired|retiring|retraite|laid off|made redundant|lost my job"
            r"|(?:got|been|was|were|just) (?:fired|sacked|let go)|handed in my notice|resigned"
            r"|between jobs|out of work|unemployed|démissionn\w*|licenci\w*|viré\w*|au chômage"
            r"|perdu (?:mon|son) (?:boulot|travail|emploi|job|taf)"
            # Leaving the job itself, named by a word for it rather than the employer.
            r"|(?:quit|left|leaving|quitting|lâché|quitté|plaqué) (?:my|the|mon|ma|le|la) (?:job|firm"
            r"|company|boulot|travail|emploi|taf|boîte|poste))\b"
        ),
        JOB,
        "speaker",
    ),
    LifeEvent(
        _rx(
            r"\b(?:divorc\w*|separated|séparée?s?|broke up|split up|called it quits|dumped (?:me|him|her)"
            r"|(?:wedding|engagement)(?:'s|’s| is) off|ended things|no longer together"
            r"|not together any ?more|rompu|c'est fini|(?:on|nous) s'est quitt\w*"
            r"|nous nous sommes quitt\w*|plus ensemble|called (?:it|the (?:wedding|engagement)) off"
            r"|went (?:our|our own|separate|their) (?:separate )?ways|annulé (?:le|notre) mariage)\b"
        ),
        COUPLE,
        "speaker",
    ),
    LifeEvent(
        _rx(
            r"\b(?:passed away|died|ran away|est morte?|sont morts|décédée?|nous a quittés?"
            r"|parti\w* au paradis)\b"
        ),
        frozenset({"pet"}),
        "thing",
    ),
    # What one does only to an animal of one's own: the verb names the pet.
    LifeEvent(
        _rx(
            r"\b(?:put (?:him|her|it|them) down|put (?:him|her|it|them) to sleep|put to sleep"
            r"|rehom\w*|re-hom\w*|gave (?:him|her|it) away|faire (?:piquer|endormir)"
            r"|fait (?:piquer|endormir)|donné (?:le|la|notre|mon|ma) \w+ à adopter)\b"
        ),
        frozenset({"pet"}),
        "speaker",
    ),
    LifeEvent(
        _rx(
            r"\b(?:(?:eat|eating|ate|having) (?:meat|fish|chicken|dairy|cheese|eggs|everything|anything)"
            r" again|back (?:on|to) (?:meat|eating meat|fish)|remang\w*|mange (?:de tout|tout)"
            r" (?:maintenant|à nouveau|de nouveau)|(?:mange|manger) (?:de nouveau|à nouveau)"
            r"|(?:recommencé|repris|recommence|reprends) à manger (?:de la |du )?(?:viande|poisson))\b"
        ),
        frozenset({"diet"}),
        "speaker",
    ),
    LifeEvent(
        _rx(
            r"\b(?:left|leaving|quit|quitté|quitter|lâché|plaqué|plus chez"
            r"|moved (?:out|away) (?:of|from)|(?:last|final) day (?:at|with|in)"
            r"|dernier jour (?:chez|à|au))\b"
        ),
        JOB | COUPLE | frozenset({"home_city"}),
        "named",
    ),
    # A thing one owned, sold or given away, ends only the one written out;
    # a determiner says the thing is one's own ("sold the civic", "vendu ma
    # voiture"), where "sold tickets at the gala" sells no possession.
    LifeEvent(
        _rx(
            r"\b(?:sold|selling|got rid of|traded in|vendu|revendu|gave away)"
            r"(?= (?:my|our|the|le|la|l'|ma|mon|notre|nos|mes)\b)"
        ),
        frozenset({"owns"}),
        "named",
    ),
)


def events_in(sentence: str) -> list[tuple[LifeEvent, re.Match[str]]]:
    """The life events a sentence tells, each time with where it is said."""
    return [(e, m) for e in EVENTS for m in e.words.finditer(sentence)]


# Asked of a turn by the doubt stage's gate, then again by its readers: memoised per text.
@memo
def tells_an_end(turn: str) -> bool:
    """Does the turn tell any life event of the table?"""
    return any(e.words.search(turn) for e in EVENTS)


def ends_by_itself(sentence: str, predicate: str) -> bool:
    """The sentence tells an event that ends a state of ``predicate`` when the speaker lives it."""
    return any(predicate in e.ends and e.pointer == "speaker" for e, _ in events_in(sentence))
