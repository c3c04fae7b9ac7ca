"""Routing in a repository of a few memories: the task's weight counts idf over a
neutral pool, the coverage floor scales with the pool, generic words are not anchors,
and a far weaker match is not shown as a card."""

from __future__ import annotations

from haki.engram import LoadRequest, load
from haki.engram.admission import weak_meaning as _weak_meaning
from haki.engram.disclosure import render
from haki.engram.routing import DEFAULT_ROUTING

TODAY = "2026-06-01"


def plan_for(repo, query: str):
    return load(LoadRequest(query, record_usage=False), repo.roots(), today=TODAY)


def ids(plan) -> list[str]:
    return [i.id for i in plan.batch]


def _small_repo(repo) -> None:
    repo.add(
        "cli-flags",
        tags=["flags", "cli"],
        triggers=["flag"],
        directive="Flags use kebab-case and every command line flag has a help text.",
    )
    repo.add(
        "go-errors", tags=["errors", "go"], triggers=["error handling"], directive="Wrap errors."
    )
    repo.add(
        "changelog", tags=["changelog"], triggers=["changelog"], directive="Note every change."
    )


def test_one_shared_trigger_word_loads_in_a_small_repository(repo) -> None:
    # Five anchors and one of them meets the trigger: on the pool's own idf the unknown
    # words outweighed it (21% of the task, under a 30% floor) and nothing loaded.
    _small_repo(repo)
    plan = plan_for(repo, "add a --dry-run flag to the sync command")
    assert ids(plan) == ["cli-flags"]


def test_an_unrelated_task_still_loads_nothing_in_a_small_repository(repo) -> None:
    _small_repo(repo)
    plan = plan_for(repo, "rename the Slack channel for deploy notifications")
    rendering = render(plan)
    assert plan.batch == () and rendering.cards == ()


def test_generic_words_neither_lengthen_the_task_nor_count_as_matches(repo) -> None:
    # "keep", "getting" and "code" are generic: the task has three anchors, not six, so
    # one match on a curated field admits; "keep" in the directive admits nothing alone.
    repo.add("money-cents", tags=["money"], triggers=["price", "rounding"], directive="Use cents.")
    repo.add("db-migrations", tags=["migrations"], directive="Keep schema changes reversible.")
    plan = plan_for(repo, "keep getting rounding bugs in the invoice code")
    assert ids(plan) == ["money-cents"]
    assert "keep" not in plan.anchors or all(i.id != "db-migrations" for i in plan.batch)


def test_the_coverage_floor_scales_with_the_pool() -> None:
    cfg = DEFAULT_ROUTING
    # A small pool's floor is low, but under the full floor the memory still needs some
    # meaning in common with the task.
    small_floor = cfg.weak_coverage * 3 / cfg.idf_pool
    assert _weak_meaning(0.2, 0.45, small_floor, cfg) is None
    assert _weak_meaning(0.2, 0.2, small_floor, cfg) is not None
    # At full size the floor is the configured one, and meaning must reach weak_meaning.
    assert _weak_meaning(0.2, 0.45, cfg.weak_coverage, cfg) is not None
    assert _weak_meaning(0.35, 0.1, cfg.weak_coverage, cfg) is None


def _doc(mid: str):
    from haki.engram.index import Doc

    return Doc(
        mid, "rule", "instruction", "workspace", f"rules/{mid}.md", mid, "", "", (), (), (),
        "foundation", "high", "active", None, (), "0" * 64, None, False, (), False, 10.0, 5,
    )  # fmt: skip


def test_a_far_weaker_match_is_not_offered_as_a_card() -> None:
    from haki.engram.routing import Scored
    from haki.engram.selection import select

    ranked = [
        Scored(_doc("best"), 10.0, ("a",), (), (("a", 0.9),), 0.9),
        Scored(_doc("near"), 3.0, ("a",), (), (("a", 0.9),), 0.9),
        Scored(_doc("far"), 1.0, ("a",), (), (("a", 0.9),), 0.9),
    ]
    picked = select(ranked, lambda _: None, 8, TODAY, 0.5, 5, 0.2, 0.2, card_relative=0.2)
    assert [p.doc.id for p in picked.batch] == ["best"]
    # 3.0 is 30 % of the best: a card; 1.0 is 10 %: nothing.
    assert [p.doc.id for p in picked.overflow] == ["near"]
    everything = select(ranked, lambda _: None, 8, TODAY, 0.5, 5, 0.2, 0.2)
    assert [p.doc.id for p in everything.overflow] == ["near", "far"]
