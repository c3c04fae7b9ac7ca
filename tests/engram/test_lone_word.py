"""One shared word far in meaning: a short task's only known word met in another sense
stays out, whatever share of the task it is (``admission.lone_far_word``)."""

from __future__ import annotations

from test_two_anchor import FILLER_TOPICS

from haki.engram import LoadRequest, load
from haki.engram.admission import lone_far_word
from haki.engram.index import FIELD_BITS
from haki.engram.record import replace
from haki.engram.routing import DEFAULT_ROUTING

TODAY = "2026-06-01"
CFG = DEFAULT_ROUTING
TAGS, TRIGGERS, CONTENT = FIELD_BITS["tags"], FIELD_BITS["triggers"], FIELD_BITS["content"]
DIRECTIVE = FIELD_BITS["directive"]
SESSION = [("session", TAGS | CONTENT)]


def test_one_word_in_a_strong_field_far_in_meaning_is_out_in_a_usual_pool() -> None:
    out = "one word (session, strong field), meaning 0.20"
    assert lone_far_word(SESSION, 4, 144, 0.2, CFG) == out
    assert lone_far_word(SESSION, 4, 144, 0.45, CFG) is None


def test_one_word_in_weak_fields_only_needs_the_meaning_of_a_related_pair() -> None:
    weak = [("upgrade", TRIGGERS | CONTENT)]
    assert lone_far_word(weak, 4, 144, 0.45, CFG) == "one word (upgrade, weak field), meaning 0.45"
    assert lone_far_word(weak, 4, 144, 0.52, CFG) is None


def test_one_word_met_in_the_directive_only_needs_the_meaning_of_a_related_pair() -> None:
    # The seed admits on a directive word; what the memory is about is its id and tags.
    button = [("button", DIRECTIVE | CONTENT)]
    assert lone_far_word(button, 4, 144, 0.44, CFG) == "one word (button, directive), meaning 0.44"
    assert lone_far_word(button, 4, 144, 0.52, CFG) is None
    assert lone_far_word([("button", DIRECTIVE | TAGS)], 4, 144, 0.44, CFG) is None
    assert lone_far_word(button, 4, 144, 0.44, replace(CFG, lone_topic_fields=False)) is None


def test_two_words_or_a_short_task_are_left_to_the_seed() -> None:
    assert lone_far_word([*SESSION, ("commit", TRIGGERS)], 4, 144, 0.2, CFG) is None
    assert lone_far_word([("freeze", TAGS)], 2, 144, 0.2, CFG) is None  # "holiday freeze"
    assert lone_far_word(SESSION, 4, 144, None, CFG) is None  # no table: words decide


def test_a_small_pool_or_the_switch_off_keeps_the_match() -> None:
    assert lone_far_word(SESSION, 4, 5, 0.2, CFG) is None
    assert lone_far_word(SESSION, 4, 144, 0.2, replace(CFG, lone_far_meaning=0.0)) is None


def _pool(repo) -> None:
    repo.add(
        "jwt-tokens",
        tags=["security", "jwt"],
        triggers=["session", "login token"],
        directive="Sign JWTs with a rotated key and keep their expiry short.",
        summary="Access tokens expire in minutes; refresh tokens are stored hashed.",
    )
    # A pool of a usual size (``idf_pool``): in a handful of memories the rule is off.
    for topic in [*FILLER_TOPICS, "nginx", "celery", "jest", "vite", "prisma"]:
        repo.add(f"{topic}-notes", tags=[topic], directive=f"Follow the team's {topic} setup.")


def _loaded(repo, task: str) -> list[str]:
    plan = load(LoadRequest(task, record_usage=False), repo.roots(), today=TODAY)
    return [i.id for i in plan.batch]


def test_the_word_in_another_sense_loads_nothing_and_the_same_sense_loads(repo) -> None:
    _pool(repo)
    # "session: triggers" alone (a weak field), at a cosine of about 0.2, explaining a
    # third of the task.
    assert _loaded(repo, "update the session timetable on the conference page") == []
    assert _loaded(repo, "sessions expire too late after login") == ["jwt-tokens"]
