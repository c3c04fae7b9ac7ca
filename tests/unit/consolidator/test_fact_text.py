"""Facts read as sentences people say; the fact-question set covers every predicate."""

from __future__ import annotations

import json
from pathlib import Path

from haki.consolidator.fact_text import TEMPLATES, fact_embedding_text, fact_sentence
from haki.consolidator.predicates import SPECS

QUESTIONS = Path(__file__).resolve().parents[3] / "bench" / "data" / "fact_questions.json"


def test_sentences_read_like_speech():
    assert fact_sentence("home_city", "Lyon", {}) == "The user lives in Lyon."
    assert fact_sentence("occupation", "midwife", {}) == "The user works as a midwife."
    assert fact_sentence("occupation", "engineer", {"speaker": "Tom"}) == (
        "Tom works as an engineer."
    )
    assert fact_sentence("pet", "Miso", {"kind": "cat"}) == "The user has a pet cat named Miso."
    assert fact_sentence("age", 34, {}) == "The user is 34 years old."
    assert fact_sentence("favorite_book", "Dune", {}) == "The user's favorite book is Dune."
    assert fact_sentence("diet", "vegetarian", {}) == "The user is vegetarian."
    assert fact_sentence("mood", "calm", {}) == "The user's mood is calm."
    assert fact_sentence("friend", "Priya", {"entity": "work"}) == (
        "The user's friend is Priya (entity: work)."
    )


def test_the_embedding_text_leads_with_the_question_in_both_languages():
    text = fact_embedding_text("home_city", "Lyon", {})
    assert text == "Where does the user live? Où habite-t-il ? The user lives in Lyon."


def test_every_known_predicate_has_its_own_sentence():
    assert set(SPECS) <= set(TEMPLATES)


def test_the_question_set_covers_every_predicate_in_both_languages():
    data = json.loads(QUESTIONS.read_text(encoding="utf-8"))
    pairs, never = data["pairs"], data["never_said"]
    assert len(pairs) >= 150 and len(never) >= 100
    asked = {p["predicate"] for p in pairs}
    held = {f["predicate"] for facts in data["profiles"].values() for f in facts}
    assert set(SPECS) <= asked
    assert held == asked
    assert {p["lang"] for p in pairs} == {"en", "fr"} == {n["lang"] for n in never}
    for p in pairs:
        facts = data["profiles"][p["profile"]]
        assert any(
            f["predicate"] == p["predicate"] and p.get("value", f["value"]) == f["value"]
            for f in facts
        ), p
