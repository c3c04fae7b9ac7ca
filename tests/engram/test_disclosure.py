"""Tiered output, budget demotion and the never-cut guarantee."""

from __future__ import annotations

from haki.engram import LoadRequest, load
from haki.engram.disclosure import explain, render
from haki.engram.text import estimate_tokens

TODAY = "2026-06-01"


def corpus(repo, n: int = 6) -> None:
    for i in range(n):
        # Later memories repeat the tag less, so the ranking is a-b-c-... by construction.
        body = "\n".join(
            f"- Step {j} of the queue procedure, with enough words to weigh something."
            for j in range(6)
        )
        repo.add(
            f"queue-{chr(97 + i)}",
            tags=["queue"] * 1,
            directive=f"Queue rule {i}." + " queue" * (n - i),
            content=body,
        )


def plan(repo, **kw):
    return load(LoadRequest("queue", record_usage=False, **kw), repo.roots(), today=TODAY)


def test_auto_disclosure_expands_top_three_and_cards_the_rest(repo) -> None:
    corpus(repo)
    p = plan(repo)
    r = render(p)
    assert r.bodies == ("queue-a", "queue-b", "queue-c")
    assert r.cards == ("queue-d", "queue-e", "queue-f")
    lines = r.text.splitlines()
    assert lines[0] == "loaded 6 memory files / 6 total related memories"
    assert "### queue-a [rule, instruction]" in lines
    assert "- queue-d [rule] Queue rule 3. queue queue queue" in lines
    assert lines[-1] == "fetch: engram load --id queue-d,queue-e,queue-f"


def test_frontmatter_and_hidden_sections_never_render(repo) -> None:
    corpus(repo, 2)
    text = render(plan(repo, full=True)).text
    for hidden in (
        "---",
        "id: queue-a",
        "Hidden context line",
        "hidden origin",
        "## Context",
        "## Origin",
    ):
        assert hidden not in text


def test_limit_overflow_becomes_omitted_cards(repo) -> None:
    corpus(repo, 8)
    p = plan(repo, limit=2)
    r = render(p)
    assert [i.id for i in p.batch] == ["queue-a", "queue-b"]
    assert r.cards == (
        "queue-c",
        "queue-d",
        "queue-e",
        "queue-f",
        "queue-g",
    )  # at most five omitted
    assert r.text.startswith("loaded 2 memory files / 8 total related memories")


def test_budget_demotes_bodies_before_dropping_cards(repo) -> None:
    corpus(repo)
    full = render(plan(repo))
    budget = full.tokens - 1
    r = render(plan(repo, budget_tokens=budget))
    assert r.bodies == ("queue-a", "queue-b")  # lowest-ranked body demoted first
    assert r.dropped == ()
    assert r.tokens <= budget


def test_budget_drops_lowest_cards_last_and_never_cuts_text(repo) -> None:
    corpus(repo)
    r = render(plan(repo, budget_tokens=60))
    assert r.bodies == ()
    assert r.dropped and r.dropped[0] == "queue-f"
    assert r.tokens <= 60 or r.cards == ()
    bodies = render(plan(repo, full=True))
    for line in r.text.splitlines():
        assert line in bodies.text.splitlines() or line.startswith(("- ", "fetch:", "loaded"))


def test_bodies_are_whole_or_absent(repo) -> None:
    corpus(repo)
    full_body = "\n".join(
        f"- Step {j} of the queue procedure, with enough words to weigh something."
        for j in range(6)
    )
    for budget in range(20, 600, 15):
        text = render(plan(repo, budget_tokens=budget)).text
        if "### queue-a" in text:
            assert full_body in text
        assert estimate_tokens(text) <= budget or "### " not in text


def test_full_disclosure_and_all(repo) -> None:
    corpus(repo, 10)
    assert render(plan(repo, disclosure="full")).cards == ()
    assert len(render(plan(repo, full=True)).bodies) == 8
    assert len(render(plan(repo, all=True)).bodies) == 10


def test_dry_run_explains_without_bodies(repo) -> None:
    corpus(repo, 3)
    repo.add("queue-old", tags=["queue"], valid_until="2020-01-01")
    text = explain(plan(repo))
    assert "anchors: queue" in text
    assert "candidates: 4 visible, 3 related, 3 selected, 0 skipped" in text
    assert "omitted  queue-old (workspace): lifecycle: valid_until 2020-01-01 passed" in text
    assert "queue: " in text  # match reasons name the fields
    assert "Step 0" not in text


def test_zero_match_output(repo) -> None:
    corpus(repo, 2)
    p = load(LoadRequest("banana bread recipe", record_usage=False), repo.roots(), today=TODAY)
    assert render(p).text == (
        "loaded 0 memory files / 0 total related memories\n"
        "nothing matched: no memory covers this task closely enough to load\n"
    )
