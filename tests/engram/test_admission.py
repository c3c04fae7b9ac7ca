"""Admission and recall across wording: the floor, generic words, folding, variants, stacks."""

from __future__ import annotations

from haki.engram import LoadRequest, load
from haki.engram.disclosure import NOTHING_MATCHED, explain, render
from haki.engram.text import anchors, query_paths
from haki.engram.vocabulary import task_anchors, task_clauses, task_languages, term

TODAY = "2026-06-01"


def plan_for(repo, query: str, **kw):
    return load(LoadRequest(query, record_usage=False, **kw), repo.roots(), today=TODAY)


def ids(plan) -> list[str]:
    return [i.id for i in plan.batch]


def reasons(plan) -> dict[str, str]:
    return {s.id: f"{s.reason}: {s.detail}" for s in plan.omitted}


def test_derived_forms_and_shorthand_meet_the_memory_words() -> None:
    assert term("capitalization") == term("capitalize")
    assert term("authorization") == term("authorize")
    assert term("injection") == term("inject")
    assert term("retried") == term("retry") == term("retries")
    assert term("analysis") == "analysis"  # -sis is not a British -ise
    (a11y,) = task_anchors("a11y")
    assert a11y.alternates == (term("accessibility"),)
    assert [a.generic for a in task_anchors("refactor the code")] == [False, True]


def test_comment_is_an_english_word_here_and_contractions_are_not_anchors() -> None:
    assert anchors("don't comment the obvious") == ["comment", "obvious"]


def test_paths_keep_their_leading_dot_and_drop_a_full_stop() -> None:
    assert query_paths("edit .github/workflows/ci.yml and ./src/a.py.") == [
        ".github/workflows/ci.yml",
        "src/a.py",
    ]


def test_languages_come_from_words_tools_and_extensions() -> None:
    assert task_languages("wrap errors in Go", []) == {"go"}
    assert task_languages("go ahead and add jest tests", []) == {"js"}
    assert task_languages("edit the parser", ["pkg/parser/parser_test.go"]) == {"go"}
    assert task_languages("tidy the readme", []) == frozenset()


def test_a_task_that_shares_only_generic_words_loads_nothing_and_says_so(repo) -> None:
    repo.add("service-layer", tags=["architecture"], directive="Keep the service code thin.")
    repo.add("reuse-code", tags=["refactoring"], directive="Reuse existing code and helpers.")
    plan = plan_for(repo, "improve the code of the service")
    assert plan.batch == () and plan.omitted_cards == ()
    assert set(reasons(plan).values()) == {"weak_match: generic words only"}
    assert render(plan).text.splitlines()[1] == NOTHING_MATCHED
    assert NOTHING_MATCHED in explain(plan)


def test_a_weak_match_needs_meaning_and_a_strong_one_loads(repo) -> None:
    repo.add("commit-footer", tags=["git"], triggers=["commit footer"], directive="No footers.")
    repo.add("db-migrations", tags=["migrations"], triggers=["migration"], directive="Reversible.")
    # "migrate" meets the tag, but the task moves an app to another language.
    plan = plan_for(repo, "migrate the Android app from Java to Kotlin")
    assert plan.batch == ()
    assert "meaning" in reasons(plan)["db-migrations"]
    assert ids(plan_for(repo, "what goes in the commit footer")) == ["commit-footer"]
    assert ids(plan_for(repo, "write a migration for the orders table")) == ["db-migrations"]


def test_a_whole_trigger_phrase_counts_more_than_its_words(repo) -> None:
    repo.add("a11y", tags=["accessibility"], triggers=["screen reader"], directive="Use ARIA.")
    repo.add("reader-io", tags=["io"], directive="Stream files with a buffered reader.")
    plan = plan_for(repo, "make the buttons readable by screen readers")
    assert ids(plan) == ["a11y"]


def test_a_second_intent_loads_when_it_explains_a_part_the_first_does_not(repo) -> None:
    repo.add("pytest-style", tags=["pytest", "testing"], directive="Use pytest fixtures.")
    repo.add("ruff-format", tags=["ruff", "formatting"], directive="Run ruff format.")
    repo.add("pytest-markers", tags=["pytest"], directive="Mark slow pytest tests.")
    plan = plan_for(repo, "add a pytest fixture for the client and run ruff format on it")
    assert set(ids(plan)[:2]) == {"pytest-style", "ruff-format"}


def test_a_retired_memory_hands_its_match_to_its_current_variant(repo) -> None:
    repo.add(
        "black-isort",
        tags=["python", "formatting", "black", "isort"],
        directive="Format with Black and sort imports with isort.",
        lifecycle="superseded",
    )
    repo.add("ruff-format", tags=["python", "formatting", "ruff"], directive="Run ruff format.")
    repo.add("python-logging", tags=["python", "logging"], directive="Log with structured fields.")
    plan = plan_for(repo, "sort the imports with isort")
    assert ids(plan) == ["ruff-format"]
    assert plan.batch[0].reasons == ("current variant of black-isort (superseded)",)
    assert reasons(plan)["black-isort"] == "lifecycle: superseded"


def test_a_memory_for_another_language_stays_out(repo) -> None:
    repo.add("pytest-names", tags=["python", "testing"], triggers=["unit test"], directive="x.")
    repo.add("vitest-names", tags=["typescript", "testing"], triggers=["unit test"], directive="y.")
    repo.add("test-coverage", tags=["testing"], triggers=["unit test"], directive="Cover edges.")
    plan = plan_for(repo, "unit test in typescript")
    assert "pytest-names" not in ids(plan)
    assert reasons(plan)["pytest-names"] == "other_stack: for python, task is js"
    assert ids(plan)[0] == "vitest-names"


def test_a_path_trigger_outranks_a_word_match(repo) -> None:
    repo.add("workflow-approval", tags=["ci"], applies_to=[".github/workflows/*.yml"])
    repo.add("ci-notes", tags=["ci", "github"], directive="The CI gate runs on GitHub.")
    plan = plan_for(repo, "edit .github/workflows/ci.yml")
    assert ids(plan)[0] == "workflow-approval"
    assert plan.restrictions == ()  # a path's "workflows" is not a request for skills


def test_archived_and_other_role_memories_load_only_by_id(repo) -> None:
    repo.add("api-errors", tags=["api"], role=["backend"])
    repo.add("api-old", tags=["api"], lifecycle="archived")
    repo.add("api-hooks", tags=["api"], role=["frontend"])
    routed = plan_for(repo, "api", roles=("frontend",))
    assert ids(routed) == ["api-hooks"]
    fetched = plan_for(repo, "", ids=("api-errors", "api-old"), roles=("frontend",))
    assert ids(fetched) == ["api-errors", "api-old"]


def test_the_seed_admission_rule() -> None:
    from haki.engram.admission import admits

    # Fewer than four anchors: one match suffices, on any field.
    assert admits(3, 1, strong=False)
    assert admits(1, 1, strong=False)
    assert not admits(3, 0, strong=False)
    # Four anchors or more: two matches, or one on a strong field.
    assert not admits(4, 1, strong=False)
    assert admits(4, 2, strong=False)
    assert admits(5, 1, strong=True)
    # An applies_to path is a strong field even when no word matched.
    assert admits(0, 0, strong=True)
    # A semantic score has no argument here: vectors cannot admit.
    assert not admits(6, 0, strong=False)


def test_a_tag_match_admits_what_the_rest_of_a_long_task_does_not_explain(repo) -> None:
    repo.add("db-migrations", tags=["migrations"], triggers=["migration"], directive="Reversible.")
    plan = plan_for(repo, "add a column to the users table with a new migration")
    assert ids(plan) == ["db-migrations"]


def test_a_task_splits_into_clauses_but_not_between_two_nouns() -> None:
    unwrap, anyhow = task_clauses(
        "replace the unwrap calls in the config loader and add context with anyhow"
    )
    assert term("unwrap") in unwrap and term("anyhow") not in unwrap
    assert term("anyhow") in anyhow
    assert task_clauses("explain the difference between TCP and UDP") == []
    assert len(task_clauses("ajoute un test de régression, puis ouvre une PR en brouillon")) == 2
    assert task_clauses("fix it and test it") == []  # no clause names a topic of its own


def test_each_ask_of_a_two_part_task_is_judged_on_its_own_clause(repo) -> None:
    repo.add(
        "no-unwrap",
        tags=["rust", "errors"],
        triggers=["unwrap"],
        directive="Avoid unwrap() outside tests; propagate errors with ?.",
    )
    repo.add(
        "error-context",
        tags=["rust", "errors"],
        triggers=["anyhow", "thiserror"],
        directive="Use thiserror in libraries and anyhow with .context() in binaries.",
    )
    repo.add("config-files", tags=["config"], directive="Keep defaults in config.toml.")
    # "anyhow" is a quarter of the whole task but all of its second clause.
    plan = plan_for(
        repo, "replace the unwrap calls in the config loader and add context with anyhow"
    )
    assert {"no-unwrap", "error-context"} <= set(ids(plan))
