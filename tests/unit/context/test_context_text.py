"""Query text → full-text terms, and multi-hop entity rules (pure)."""

import pytest

from haki.context.multihop import entities
from haki.context.query import asks_for_list
from haki.text.lexicon import query_words


def test_content_words_only():
    assert query_words("When did Anna move to Lyon?", 64) == ["anna", "move", "lyon"]


@pytest.mark.parametrize(
    "text", ["", "   ", "the and of or", "🙂🤔", '"" - -- ! & | <-> :*', "___ _"]
)
def test_nothing_left_is_no_terms(text):
    assert query_words(text, 64) == []


def test_operators_and_quotes_never_survive():
    terms = query_words('"lyon" -paris OR nice & (rome) | !oslo <-> a:*', 64)
    assert terms == ["lyon", "paris", "nice", "rome", "oslo"]
    assert all(term.isalnum() for term in terms)


def test_terms_are_distinct_and_capped():
    assert query_words("lyon LYON Lyon paris " * 1000, 64) == ["lyon", "paris"]
    assert len(query_words(" ".join(f"w{i}" for i in range(5_000)), 64)) == 64


def test_unicode_words_are_kept():
    assert query_words("Où habite Zoë à Zürich ? 東京", 64) == [
        "habite",
        "zoë",
        "zürich",
        "東京",
    ]


def test_entities_ranked_by_frequency_then_name():
    texts = ["sister: Anna", "friend: Anna knows Bruno", "colleague: Bruno and Chloe"]
    assert entities(texts, "who is my sister", 2) == ["Anna", "Bruno"]


def test_entities_skip_sentence_starts_query_words_and_short_words():
    texts = ["The Lyon office. And Paris too", "She met Al in Lyon", "Mais Rome"]
    assert entities(texts, "tell me about paris", 5) == ["Lyon", "Rome"]


def test_entity_regex_accepts_accented_names():
    assert entities(["Élodie et Zoé habitent à Évry"], "", 3) == ["Zoé", "Élodie", "Évry"]


@pytest.mark.parametrize(
    "question",
    [
        "What activities does Melanie partake in?",
        "Which cities has Jon visited?",
        "What kind of deals did Tim sign?",
        "How many children does Melanie have?",
        "What do both Joanna and Nate like?",
        "In what ways is Caroline helping?",
        "Quels livres a-t-elle lus ?",
        "Combien d'enfants a-t-il ?",
    ],
)
def test_questions_asking_for_several_things(question):
    assert asks_for_list(question)


@pytest.mark.parametrize(
    "question",
    [
        "What is Caroline's identity?",
        "What does Melanie do to destress?",
        "What has John cooked?",
        "When did Melanie run a charity race?",
        "Where did Caroline move from?",
        "What did Melanie paint recently?",
        "",
    ],
)
def test_questions_asking_for_one_thing(question):
    assert not asks_for_list(question)
