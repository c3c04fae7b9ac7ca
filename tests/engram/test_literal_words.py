"""Words the task names but does not ask about: quoted literals and function words are not
the seed's meaningful terms (``admission.quoted_words``, ``admission.FUNCTION_WORDS``)."""

from __future__ import annotations

from haki.engram import LoadRequest, load
from haki.engram.admission import FUNCTION_WORDS, extra_rejection, quoted_words
from haki.engram.record import replace
from haki.engram.routing import DEFAULT_ROUTING

TODAY = "2026-06-01"
CFG = DEFAULT_ROUTING


def test_short_quoted_spans_are_literals_apostrophes_and_backticks_are_not() -> None:
    assert quoted_words("rename the 'Commit' button to 'Submit'") == {"commit", "submit"}
    assert quoted_words("add a \u201creport a bug\u201d link") == {"report", "a", "bug"}
    assert quoted_words("renomme le bouton \u00ab Valider \u00bb") == {"valider"}
    assert quoted_words("don't touch the user's cart") == frozenset()
    assert quoted_words("why does `pytest` skip this") == frozenset()  # a code name
    # A long quoted span is a message to search for, not a label.
    assert quoted_words("it fails with 'database is locked on every run'") == frozenset()


def test_a_memory_matched_only_by_quoted_words_is_left_out() -> None:
    quoted = frozenset({"commit", "submit"})
    assert extra_rejection(("commit",), set(), CFG, quoted) == "quoted words only"
    assert extra_rejection(("commit", "button"), set(), CFG, quoted) is None
    assert extra_rejection(("commit", "code"), {"code"}, CFG, quoted) == "quoted words only"
    assert extra_rejection(("commit",), set(), replace(CFG, quoted_literals=False), quoted) is None
    assert extra_rejection(("commit",), set(), CFG) is None  # nothing quoted


def test_function_words_are_not_anchors() -> None:
    assert {"per", "instead", "without", "never"} <= FUNCTION_WORDS
    assert not {"commit", "cache", "timeout", "session"} & FUNCTION_WORDS


def _ids(repo, task: str) -> list[str]:
    plan = load(LoadRequest(task, record_usage=False), repo.roots(), today=TODAY)
    return [i.id for i in plan.batch]


def test_a_quoted_label_does_not_load_the_memory_its_word_names(repo) -> None:
    repo.add(
        "commit-messages",
        tags=["commit", "git"],
        triggers=["commit message"],
        directive="Write commit messages in the imperative, under 72 characters.",
    )
    assert _ids(repo, "rename the 'Commit' button in the survey editor to 'Submit'") == []
    assert _ids(repo, "write the commit message for this change") == ["commit-messages"]


def test_a_function_word_alone_does_not_load_a_memory(repo) -> None:
    repo.add(
        "rate-limits",
        tags=["api", "limits"],
        directive="Throttle calls per client with a token bucket.",
    )
    assert _ids(repo, "totals per store") == []
    assert _ids(repo, "add rate limits per client to the api") == ["rate-limits"]
