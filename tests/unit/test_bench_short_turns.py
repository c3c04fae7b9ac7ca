"""bench/short_turns.py: the short-turn workload of bench/consolidate.py."""

import pytest

from bench_modules import load_bench
from haki.providers.extraction.rules import extract_utterance
from haki.providers.extraction.types import Utterance


@pytest.fixture(scope="module")
def short_turns():
    return load_bench("short_turns.py", "bench_short_turns")


def test_the_same_count_gives_the_same_turns(short_turns):
    assert short_turns.turns(500) == short_turns.turns(500)
    assert short_turns.turns(500)[:100] == short_turns.turns(100)


def test_turns_alternate_and_are_mostly_unique(short_turns):
    turns = short_turns.turns(2000)
    assert [role for role, _, _ in turns[:4]] == ["user", "assistant", "user", "assistant"]
    assert [at for _, _, at in turns] == sorted(at for _, _, at in turns)
    assert len({text for _, text, _ in turns}) > 1000


def test_some_user_turns_state_facts_and_changes_of_mind(short_turns):
    said = [extract_utterance(Utterance(r, None, t)) for r, t, _ in short_turns.turns(2000)]
    facts = [c for cands in said for c in cands]
    assert 50 < len(facts) < 1000
    assert {"home_city", "likes", "pet", "plan"} <= {c.predicate for c in facts}
    assert any(c.retract for c in facts)
