"""The readers by meaning, wired after the patterns (``rules``): the ``rules`` provider.

``rules.extract_payload`` reads what the patterns read and collects the
subject's sentences nothing read (``meaning.Unread``). Those worth a vector
(``worth_a_vector``) are embedded in one call, then read by the wish reader
(``meaning``) and the fact reader (``meaning_facts``); what they add joins
the patterns' candidates, and every candidate takes the moment its words say
(``rules.dated``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .meaning import Unread, reader_for
from .meaning import read as meaning_read
from .meaning_facts import FAMILIES, value_of
from .meaning_facts import candidate as fact_candidate
from .meaning_facts import read as facts_read
from .meaning_facts import reader_for as fact_reader_for
from .render import utterances
from .rules import as_typed, dated, extract_payload
from .types import Candidate, EventRow

if TYPE_CHECKING:
    import numpy as np

    from ..embed import Embedder
    from .meaning import WishReader
    from .meaning_facts import FactReader


def _added(
    found: list[Candidate], more: Sequence[Candidate | None], payload: dict[str, Any]
) -> list[Candidate]:
    """``found`` and then each of ``more`` whose (predicate, value) it does not hold yet.

    The readers by meaning read the written-out text (``text.contractions``);
    what they add keeps the words of the ``payload`` as typed.
    """
    seen = {(c.predicate, str(c.value).lower(), c.retract) for c in found}
    said = "\n".join(u.text for u in utterances(payload))
    out = list(found)
    for cand in more:
        if cand is not None:
            cand = as_typed(cand, said)
            if (key := (cand.predicate, str(cand.value).lower(), False)) not in seen:
                seen.add(key)
                out.append(cand)
    return out


def read_by_meaning(
    unread: Sequence[Unread],
    vectors: np.ndarray,
    wish_reader: WishReader | None,
    fact_reader: FactReader | None,
) -> list[list[Candidate]]:
    """What each unread sentence states by meaning: a fact (``meaning_facts``), else its wishes.

    A fact comes first: its value is typed and checked, where a habit is
    the whole sentence kept as a taste.
    """
    facts = facts_read(fact_reader, unread, vectors) if fact_reader else [None] * len(unread)
    wished = meaning_read(wish_reader, unread, vectors) if wish_reader else [[]] * len(unread)
    return [[f] if f is not None else w for f, w in zip(facts, wished, strict=True)]


def fact_possible(unread: Unread) -> bool:
    """Whether some family's vector could make ``unread`` a fact.

    ``meaning_facts.candidate`` depends on the sentence and the family only;
    the vector just picks the family. A sentence from which no family takes
    a value (or where each one that does is guarded) reads nothing whatever
    its vector, so it needs none. The value is looked for first: it is the
    cheap half (regular expressions, a dictionary), where the guard runs the
    risk readers; on the LoCoMo turns taken as the user's own, about one
    fact-only sentence in seven holds a value some family would keep.
    """
    sentence = unread.sentence.strip()
    return any(
        (found := value_of(family, sentence)) is not None
        and fact_candidate(unread, family, found) is not None
        for family in FAMILIES
    )


def worth_a_vector(unread: Sequence[Unread], wishes: bool, facts: bool) -> list[Unread]:
    """The sentences of ``unread`` some reader may read, each marked for the readers that may.

    ``wishes``/``facts``: whether the wish and the fact reader read. A sentence
    the wish reader reads has its vector anyway and is kept as it is (the
    fact reader then reads it as before); one only the fact reader would
    read is kept only if some family could (``fact_possible``), so the check
    runs on those sentences alone.
    """
    out = []
    for u in unread:
        if wishes and u.wish:
            out.append(u if facts or not u.fact else replace(u, fact=False))
        elif facts and u.fact and fact_possible(u):
            out.append(u)
    return out


def extract_with_vectors(
    payload: dict[str, Any], embedder: Embedder, facts: bool = True
) -> list[Candidate]:
    """``extract_payload`` and what the readers by meaning add, for one payload (benches).

    Without ``facts`` only the wish reader reads, as before the fact reader.
    """
    unread: list[Unread] = []
    found = extract_payload(payload, unread)
    fact_reader = fact_reader_for(embedder) if facts else None
    unread = worth_a_vector(unread, wishes=True, facts=fact_reader is not None)
    if not unread:
        return found
    vectors = embedder.embed_documents([u.sentence for u in unread])
    read = read_by_meaning(unread, vectors, reader_for(embedder), fact_reader)
    return _added(found, [c for cs in read for c in cs], payload)


class RulesExtractor:
    """The patterns, and with an embedder of the readers' space, wishes and facts read by meaning.

    ``meaning`` reads wishes and habits, ``meaning_facts`` everyday facts.

    The unread sentences of all the events go to the embedder in one call,
    each distinct sentence once; its document cache serves a sentence seen
    in an earlier job.
    """

    name = "rules"

    def __init__(self, embedder: Embedder | None = None) -> None:
        self.embedder = embedder
        self.reader = reader_for(embedder) if embedder is not None else None
        self.facts = fact_reader_for(embedder) if embedder is not None else None

    async def extract(self, events: Sequence[EventRow]) -> list[list[Candidate]]:
        if (self.reader is None and self.facts is None) or self.embedder is None:
            return [dated(extract_payload(event.payload), event.occurred_at) for event in events]
        unread: list[list[Unread]] = [[] for _ in events]
        found = [extract_payload(e.payload, u) for e, u in zip(events, unread, strict=True)]
        # A sentence only a missing reader, or no family, would read is not
        # worth a vector (``worth_a_vector``).
        wish, fact = self.reader is not None, self.facts is not None
        unread = [worth_a_vector(us, wish, fact) for us in unread]
        sentences = [u.sentence for us in unread for u in us]
        if not sentences:
            return [dated(f, e.occurred_at) for f, e in zip(found, events, strict=True)]
        vectors = await asyncio.to_thread(self.embedder.embed_documents, sentences)
        read = iter(
            read_by_meaning([u for us in unread for u in us], vectors, self.reader, self.facts)
        )
        return [
            dated(_added(f, [c for _ in us for c in next(read)], e.payload), e.occurred_at)
            for f, us, e in zip(found, unread, events, strict=True)
        ]
