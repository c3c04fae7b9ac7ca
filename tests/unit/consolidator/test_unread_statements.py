"""Statements the rules used to leave unread: a fact before a closing
question, "im" without its apostrophe, a relation with its modifier, a
listed predicate named by its noun, a diet told by its practice; and the
shapes that must stay unread (pure, no database)."""

from __future__ import annotations

import pytest

from bench_modules import load_bench
from haki.providers.extraction.plain import plainer
from haki.providers.extraction.questions import stated_before_question
from haki.providers.extraction.respell import apostrophes_restored
from haki.providers.extraction.rules import extract_utterance
from haki.providers.extraction.types import Utterance

quality = load_bench("extraction_quality.py", "extraction_quality")


def read(text: str) -> set[tuple[str, object]]:
    return {
        (c.predicate, c.value)
        for c in extract_utterance(Utterance(role="user", speaker=None, text=text))
        if not c.retract
    }


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("my sister Rachel is visiting next week, any restaurant recs?", ("sister", "Rachel")),
        ("my boyfriend Tom is super into bouldering, any gift ideas?", ("partner", "Tom")),
        ("im single, not really looking rn", ("relationship_status", "single")),
        ("my little brother Jake just turned 16", ("brother", "Jake")),
        ("ma grande sœur Julie habite à Lyon", ("sister", "Julie")),
        ("my best friend Sam is here", ("friend", "Sam")),
        ("my main hobby is chess", ("hobby", "chess")),
        ("mon passe-temps c'est la voile", ("hobby", "voile")),
        ("my instrument is the cello", ("plays", "cello")),
        ("im doing keto rn so keep meal ideas low carb", ("diet", "keto")),
        ("I'm on a keto diet", ("diet", "keto")),
        ("je fais du keto depuis un mois", ("diet", "keto")),
        (
            "I'm in the Riverside Rowing Club, we race most weekends",
            ("member_of", "Riverside Rowing Club"),
        ),
        (
            "i'm part of the downtown toastmasters group",
            ("member_of", "downtown toastmasters group"),
        ),
        (
            "je suis à l'AMAP du quartier, on récupère les paniers",
            ("member_of", "AMAP du quartier"),
        ),
        (
            "je me suis inscrite au Tennis Club de Nantes hier",
            ("member_of", "Tennis Club de Nantes"),
        ),
        (
            "I've been a member of the Osaka Running Club since 2023",
            ("member_of", "Osaka Running Club"),
        ),
        ("je suis bénévole aux Restos du Cœur depuis janvier", ("volunteers_at", "Restos du Cœur")),
        ("so yeah i started working as a paralegal two months ago", ("occupation", "paralegal")),
        ("honestly picked up knitting last year during a rough patch", ("hobby", "knitting")),
        ("i only started playing the cello two years ago", ("learning", "cello")),
        ("I'm a freelance brand designer based in Austin, mostly remote", ("home_city", "Austin")),
        ("I'm 34 btw, if that matters for the insurance thing", ("age", 34)),
        ("mon num c'est le 06 12 34 56 78", ("phone", "06 12 34 56 78")),
        ("je bosse comme infirmier depuis que j'ai eu mon diplôme", ("occupation", "infirmier")),
        ("I drive a 2012 Civic, it's ancient but runs fine", ("owns", "Civic")),
        ("on a récupéré notre chien Filou vendredi dernier", ("pet", "Filou")),
    ],
)
def test_the_statement_is_read(text, fact):
    assert fact in read(text)


@pytest.mark.parametrize(
    "text",
    [
        "do you know my sister Rachel, she lives in Paris?",
        "can my sister Rachel come, is that ok?",
        "my hobby is killing me",
        "I'm doing vegan food tonight",
        "je fais du keto ce soir",
        "I'm in Paris for the week",
        "I'm in the team meeting",
        "je suis au club ce soir",
        "I'm part of the problem",
    ],
)
def test_what_is_asked_or_said_in_passing_stays_unread(text):
    assert not {f for f in read(text) if f[0] in {"sister", "hobby", "diet", "member_of"}}


def test_only_a_first_person_clause_before_the_question_is_stated():
    assert stated_before_question("I live in Paris, right?") == "I live in Paris"
    assert stated_before_question("Rachel is visiting, any recs?") is None
    assert stated_before_question("if I move, would you help?") is None
    assert stated_before_question("my sister Rachel is visiting") is None


def test_a_plainer_sentence_keeps_its_hedges():
    assert plainer("so yeah i only started running") == "i started running"
    assert plainer("honestly picked up knitting") == "I picked up knitting"
    assert plainer("I probably started running") is None
    assert plainer("I started running") is None


def test_bare_contractions_are_restored_but_a_capital_im_is_kept():
    assert apostrophes_restored("im tired, ive slept") == "I'm tired, I've slept"
    assert apostrophes_restored("send me an IM") == "send me an IM"
    assert apostrophes_restored("time is imminent") == "time is imminent"


def test_the_bench_compares_a_closed_vocabulary_value_in_its_stored_form():
    assert quality.matches(
        {"predicate": "diet", "value": "vegetarian"}, {"predicate": "diet", "value": "végétarienne"}
    )
    assert quality.matches(
        {"predicate": "units", "value": "imperial"}, {"predicate": "units", "value": "fahrenheit"}
    )
    assert not quality.matches(
        {"predicate": "diet", "value": "vegan"}, {"predicate": "diet", "value": "végétarienne"}
    )
