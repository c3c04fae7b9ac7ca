"""Two meaningful anchors, one in a strong field: the seed's own evidence, exempt from the
weak-meaning veto that keeps accidental one-word matches out."""

from __future__ import annotations

from haki.engram import LoadRequest, load
from haki.engram.admission import two_anchor_match
from haki.engram.index import FIELD_BITS, open_index
from haki.engram.loader import _query_vector, merge_and_filter
from haki.engram.record import replace
from haki.engram.routing import DEFAULT_ROUTING, route
from haki.engram.vocabulary import names_stack

TODAY = "2026-06-01"
ID, TAGS, DIRECTIVE = FIELD_BITS["id"], FIELD_BITS["tags"], FIELD_BITS["directive"]
TRIGGERS, SUMMARY, CONTENT = FIELD_BITS["triggers"], FIELD_BITS["summary"], FIELD_BITS["content"]


def test_two_meaningful_words_one_in_a_strong_field_are_two_anchor_evidence() -> None:
    assert two_anchor_match([("spawn", DIRECTIVE | TRIGGERS), ("user", SUMMARY)], set())
    assert two_anchor_match([("slow", ID | TAGS), ("layout", CONTENT)], set())


def test_words_met_only_in_weak_fields_are_not() -> None:
    assert not two_anchor_match([("export", CONTENT), ("name", CONTENT | TRIGGERS)], set())
    assert not two_anchor_match([("images", CONTENT), ("marketing", SUMMARY)], set())


def test_a_stack_name_or_a_generic_word_is_not_a_second_anchor() -> None:
    assert names_stack("python") and names_stack("py") and not names_stack("pytest")
    assert not two_anchor_match([("python", TAGS), ("version", TRIGGERS)], set())
    assert not two_anchor_match([("py", ID | TAGS), ("variable", CONTENT)], set())
    assert not two_anchor_match([("code", DIRECTIVE), ("assert", DIRECTIVE)], {"code"})
    assert not two_anchor_match([("assert", DIRECTIVE)], set())


def _security_repo(repo) -> None:
    repo.add(
        "command-injection",
        tags=["security", "injection"],
        triggers=["exec", "spawn", "shell"],
        directive="Run subprocesses with spawn and an argument array, never through a shell.",
        summary="No shell; allowlist the program; user input never becomes a command line.",
    )
    repo.add("git-remotes", tags=["git"], triggers=["remote", "fork"], directive="Push to origin.")
    repo.add("url-fetch", tags=["ssrf"], triggers=["fetch url"], directive="Allowlist hosts.")
    repo.add("changelog", tags=["changelog"], triggers=["changelog"], directive="Note changes.")
    repo.add("go-errors", tags=["go", "errors"], triggers=["wrap error"], directive="Wrap errors.")
    # A pool of a usual size: in a handful of memories the veto's floor scales down.
    for topic in FILLER_TOPICS:
        repo.add(f"{topic}-notes", tags=[topic], directive=f"Follow the team's {topic} setup.")


FILLER_TOPICS = [
    "kafka",
    "redis",
    "graphql",
    "terraform",
    "helm",
    "kubernetes",
    "webpack",
    "babel",
    "sass",
    "tailwind",
    "django",
    "flask",
    "rails",
    "laravel",
    "gradle",
    "maven",
    "swiftui",
    "android",
    "flutter",
    "unity",
    "pandas",
    "numpy",
    "spark",
    "airflow",
    "dbt",
]


TASK = "spawn the git clone with the repo url the user entered"


def test_a_paraphrase_sharing_two_anchors_loads_and_the_veto_would_drop_it(repo) -> None:
    _security_repo(repo)
    roots = repo.roots()
    plan = load(LoadRequest(TASK, record_usage=False), roots, today=TODAY)
    assert "command-injection" in [i.id for i in plan.batch]
    # The same pool and task without the exemption: the veto refuses it on meaning.
    pool, _, _ = merge_and_filter([open_index(r, roots.config.ignore) for r in roots.all()], ())
    vetoed = route(
        TASK,
        pool,
        TODAY,
        query_vector=_query_vector(TASK),
        cfg=replace(DEFAULT_ROUTING, two_anchor_exempt=False),
    )
    omitted = {o.id: o.detail for o in vetoed.omitted}
    assert "meaning" in omitted["command-injection"]


def test_a_single_anchor_match_is_still_vetoed(repo) -> None:
    repo.add("db-migrations", tags=["migrations"], triggers=["migration"], directive="Reversible.")
    repo.add("commit-footer", tags=["git"], triggers=["commit footer"], directive="No footers.")
    plan = load(
        LoadRequest("migrate the Android app from Java to Kotlin", record_usage=False),
        repo.roots(),
        today=TODAY,
    )
    assert plan.batch == ()
