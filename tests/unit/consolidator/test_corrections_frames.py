"""A held value named after a negation is taken back only when the turn says
something was wrong, or states the new value as what the thing is: everyday
sentences that merely contrast two things end nothing (pure, no database)."""

from __future__ import annotations

import uuid

import pytest

from haki.consolidator.corrections import Held, about_someone_else, self_negated
from haki.consolidator.doubt_plan import plan


def held(predicate: str, value: object, **qualifiers: object) -> Held:
    return Held(uuid.uuid4(), predicate, value, dict(qualifiers), None)


@pytest.mark.parametrize(
    ("turn", "fact"),
    [
        ("I'm flying to Paris next week, not Berlin.", held("home_city", "Berlin")),
        ("Let's meet in Cork, not Dublin.", held("home_city", "Dublin")),
        ("The parcel ships from Leeds, not London.", held("home_city", "London")),
        ("I use Bing, not Google.", held("employer", "Google")),
        ("The recipe needs 12 eggs, not 34.", held("age", 34)),
        ("We need 5 chairs, not 34.", held("age", 34)),
        ("Tell Max, not Rex, to sit.", held("pet_name", "Rex", kind="dog")),
    ],
)
def test_a_contrast_without_a_cue_or_a_copula_replaces_nothing(turn: str, fact: Held) -> None:
    _, found = plan(turn, [fact])
    assert found is None


@pytest.mark.parametrize(
    ("turn", "fact", "new"),
    [
        ("It's Max, not Rex.", held("pet_name", "Rex", kind="dog"), "Max"),
        ("c'est Max, pas Rex.", held("pet_name", "Rex", kind="chien"), "Max"),
        ("Sorry, the dog's name is Max, not Rex.", held("pet_name", "Rex", kind="dog"), "Max"),
        ("I typed it wrong: Lana, not Luna.", held("pet_name", "Luna", kind="cat"), "Lana"),
        ("update: I'm at EY now, not Deloitte.", held("employer", "Deloitte"), "EY"),
    ],
)
def test_a_value_stated_as_what_the_thing_is_replaces_the_named_one(
    turn: str, fact: Held, new: str
) -> None:
    target, found = plan(turn, [fact])
    assert target == fact and found is not None and found.value == new


def test_french_plus_negates_only_after_ne() -> None:
    fact = held("home_city", "Paris")
    assert plan("We visited Lyon plus Paris last summer.", [fact]) == (None, None)
    diet = held("diet", "vegan")
    assert plan("Je ne suis plus vegan.", [diet])[0] == diet


def test_only_the_speakers_own_negation_puts_a_fact_in_doubt_without_a_cue() -> None:
    assert self_negated("Turns out I'm not allergic to peanuts after all.")
    assert self_negated("je ne mange plus de viande")
    assert not self_negated("That cake is not vegan, so skip it.")
    assert not self_negated("Tell Max, not Rex, to sit.")


def test_a_named_owner_starts_where_a_word_starts() -> None:
    assert about_someone_else("Ana's sister is Hanna, not Anna.", "name", {})
    # A capital inside a hyphenated run is no owner.
    assert not about_someone_else("my key is ab-Cd's brother-ish, not x", "email", {})
