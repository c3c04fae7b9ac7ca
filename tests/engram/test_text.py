from haki.engram.text import anchors, estimate_tokens, query_paths, stem, terms, words
from haki.text import lexicon


def test_anchors_drop_english_and_french_stop_words_and_generic_memory_words() -> None:
    assert anchors("Quelle est la règle pour the memory rules of alembic migrations?") == [
        "alembic",
        "migrations",
    ]


def test_generic_words_alone_give_no_anchor() -> None:
    assert anchors("rules knowledge skill workflow for the agent") == []


def test_light_stemming_folds_plurals_and_verb_forms() -> None:
    assert stem("migrations") == stem("migration") == stem("migrating") == stem("migrated")
    assert stem("releases") == stem("release")
    assert stem("policies") == stem("policy")
    assert stem("api") == "api"


def test_terms_are_stemmed_without_stop_words() -> None:
    assert terms("The tests are running") == ["test", "run"]


def test_query_paths_finds_file_like_tokens() -> None:
    assert "migrations/versions/001_init.py" in query_paths(
        "edit migrations/versions/001_init.py now"
    )
    assert "app.test.ts" in query_paths("fix app.test.ts")


def test_token_estimate_is_four_chars_per_token() -> None:
    assert estimate_tokens("abcd" * 10) == 10


def test_words_match_the_shared_lexicon_with_and_without_accents() -> None:
    for text in (
        "Run the migration \u2014 then deploy \u2192 prod",  # non-ASCII, no accent
        "Cr\u00e9er une migration pour la table des commandes",
        "\u00c9CRIRE le r\u00e9sum\u00e9 \u2014 c\u0153ur, na\u00efve",  # upper case folds first
        "plain ascii text, C++ and C#",
        "\u00fcber \u00df stra\u00dfe",  # letters the table leaves alone
    ):
        assert words(text) == lexicon.words(text), text
