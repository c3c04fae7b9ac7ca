"""Which unread sentences are worth a vector (providers/extraction/by_meaning.py: ``worth_a_vector``)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime

import numpy as np

from haki.providers.embed import MINILM_SPACE
from haki.providers.extraction.by_meaning import RulesExtractor, fact_possible, worth_a_vector
from haki.providers.extraction.meaning import Unread
from haki.providers.extraction.meaning import readable as wish_readable
from haki.providers.extraction.meaning_facts import FAMILIES, FactReader, candidate
from haki.providers.extraction.meaning_facts import readable as fact_readable
from haki.providers.extraction.types import EventRow

SENTENCES = [
    "i'm settled in Denver now",
    "on est à grenoble depuis septembre",
    "I don't live in Denver any more",
    "my sister lives in Lyon",
    "i had such a long day at work",
    "we got a pup last week, his name is Biscuit",
    "my husband Dev cooked tonight",
    "I work at Airbus in Toulouse",
    "i'm 34 years old",
    "my email is sam@example.org",
    "i went vegan this year",
    "we're thinking of moving to Oslo",
]


def _fact(sentence: str, wish: bool = False) -> Unread:
    return Unread(sentence, "user", wish=wish, fact=True)


def test_a_sentence_is_possible_exactly_when_some_family_reads_a_fact_from_it() -> None:
    # Exact, not a heuristic: the vector only picks the family, so skipping
    # the others' vectors can never change a fact.
    for sentence in SENTENCES:
        unread = _fact(sentence)
        any_family = any(candidate(unread, f) is not None for f in FAMILIES)
        assert fact_possible(unread) is any_family, sentence
    assert fact_possible(_fact("i'm settled in Denver now"))
    assert not fact_possible(_fact("i had such a long day at work"))  # no value
    assert not fact_possible(_fact("I don't live in Denver any more"))  # guarded


def test_only_the_sentences_some_reader_may_read_keep_a_vector() -> None:
    city = _fact("i'm settled in Denver now")
    day_fact = _fact("i had such a long day at work")
    day_both = _fact("i had such a long day at work", wish=True)
    wish_only = Unread("always answer in French", "user", wish=True, fact=False)
    kept = worth_a_vector([city, day_fact, day_both, wish_only], wishes=True, facts=True)
    # A sentence the wish reader reads keeps its vector and its fact mark.
    assert kept == [city, day_both, wish_only]
    assert kept[0] is city and kept[1] is day_both
    assert worth_a_vector([city, wish_only], wishes=False, facts=True) == [city]
    assert worth_a_vector([city, day_both], wishes=False, facts=False) == []
    assert worth_a_vector([city, day_both], wishes=True, facts=False) == [
        Unread(day_both.sentence, "user", wish=True, fact=False)
    ]


class _Space:
    """An embedder in the readers' space recording what it is asked; every vector says home_city."""

    name = "fake-minilm"
    dim = 384
    space = MINILM_SPACE

    def __init__(self) -> None:
        self.asked: list[str] = []

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        self.asked.extend(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        out[:, FAMILIES.index("home_city")] = 1.0
        return out

    def embed_query(self, text: str) -> np.ndarray:
        vector: np.ndarray = self.embed_documents([text])[0]
        return vector


def _axis_reader() -> FactReader:
    weights = np.zeros((len(FAMILIES), 384))
    for i in range(len(FAMILIES)):
        weights[i, i] = 10.0
    return FactReader(weights=weights, bias=np.zeros(len(FAMILIES)), space=tuple(MINILM_SPACE))


def test_the_extractor_embeds_no_fact_only_sentence_no_family_could_read() -> None:
    readable_city = "on est à grenoble depuis septembre"
    # Read by the fact reader only (too long for the wish reader), holding no value.
    unreadable = (
        "i honestly had such a long and tiring day at work today that i barely remember "
        "getting home and falling asleep on the couch with the lights still on"
    )
    assert fact_readable(unreadable) and not wish_readable(unreadable)
    embedder = _Space()
    extractor = RulesExtractor(embedder)
    extractor.facts, extractor.reader = _axis_reader(), None
    event = EventRow(
        id=uuid.uuid4(),
        org_id="o",
        project_id="p",
        subject_type="user",
        subject_id="u",
        kind="message",
        occurred_at=datetime(2026, 10, 15, tzinfo=UTC),
        payload={"text": f"{unreadable}. {readable_city}"},
        origin_trust="trusted",
    )
    (found,) = asyncio.run(extractor.extract([event]))
    assert embedder.asked == [readable_city]
    assert [c.value for c in found if c.predicate == "home_city"] == ["Grenoble"]
