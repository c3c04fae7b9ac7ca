"""The user's own name corrected or changed (pure)."""

from __future__ import annotations

import uuid

import pytest

from haki.consolidator.corrections import Held
from haki.consolidator.doubt_plan import read_respelling, read_turn, statements
from haki.consolidator.renamed import may_rename, renamed


def name(value: str) -> Held:
    return Held(uuid.uuid4(), "name", value, {}, 0.3)


@pytest.mark.parametrize(
    ("turn", "old", "new"),
    [
        ("Actually everyone calls me Katie, please use Katie.", "Kate", "Katie"),
        ("I go by Sam these days.", "Samantha", "Sam"),
        ("Appelle-moi Juju, c'est plus simple.", "Julie", "Juju"),
        # A respelling beside a cue.
        ("It's John with an h, sorry.", "Jon", "John"),
    ],
)
def test_a_name_framed_anew_or_respelt_beside_a_cue_replaces_the_name(turn, old, new):
    fact = name(old)
    found = renamed(statements(turn), [fact])
    assert found is not None and found.target is fact and found.value == new
    reading = read_turn(turn, [fact])
    assert reading.found is not None and reading.found.value == new


@pytest.mark.parametrize(
    "turn",
    [
        "Call me tomorrow.",
        "Call me Monday about it.",
        # A nickname bound to a place, someone else's name.
        "My friends call me Sunny at work.",
        "My son goes by Theo.",
        # The held name itself.
        "Call me Kate.",
        # A capitalised word after "it's" with no cue, and no respelling.
        "It's Jane from accounting.",
        "Sorry, it is Jane.",
    ],
)
def test_no_frame_of_the_speakers_own_name_renames_nothing(turn):
    assert renamed(statements(turn), [name("Kate")]) is None


def test_two_names_framed_or_two_held_say_not_which():
    assert renamed(statements("Call me Sam, or call me Sammy."), [name("Samantha")]) is None
    two = [name("Kate"), name("Katherine")]
    assert renamed(statements("Everyone calls me Katie."), two) is None


def test_a_turn_with_only_the_frame_is_read_for_it():
    turn = "Call me Sam."
    assert may_rename(turn) and not may_rename("Call me tomorrow")
    found = read_respelling(turn, [name("Samantha")]).found
    assert found is not None and found.value == "Sam"
