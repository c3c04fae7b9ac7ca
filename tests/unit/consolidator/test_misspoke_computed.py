"""A slip told, digits swapped and an age moved by the turn (pure)."""

from __future__ import annotations

import uuid

import pytest

from haki.consolidator.computed import computed
from haki.consolidator.corrections import Held
from haki.consolidator.doubt_plan import may_take_back, read_turn, says_wrong
from haki.consolidator.misspoke import misspoke, quote_against, quoted, swapped


def held(predicate: str, value: object, similarity: float | None = 0.3) -> Held:
    return Held(uuid.uuid4(), predicate, value, {}, similarity)


def test_digits_swapped_are_a_slip():
    assert swapped(52, 25) and swapped("1987", "1978")
    assert not swapped(52, 53) and not swapped(52, 52) and not swapped(52, 125)


def test_a_number_with_its_digits_swapped_replaces_the_held_one_without_a_cue():
    age = held("age", 52)
    reading = read_turn("euh non 25 ans pas 52 mdr", [age])
    assert reading.found is not None and reading.found.value == 25


def test_a_held_value_quoted_as_said_points_at_it_and_like_i_said_does_not():
    tea = held("likes", "thé vert")
    assert quoted("jsais pas pourquoi j'ai dit thé vert, c'est le rooibos", [tea]) == tea
    assert quoted("like I said, thé vert is great", [tea]) is None
    assert says_wrong("why did I say thé vert", [tea])
    assert misspoke("j'ai inversé les chiffres") and not misspoke("I moved to Lyon")


@pytest.mark.parametrize(
    ("turn", "new"),
    [
        ("it was my birthday last week so add a year lol", 28),
        ("I'm a year older since we talked, had my birthday", 28),
        ("c'était mon anniversaire hier", 28),
    ],
)
def test_an_age_moved_by_the_turn(turn, new):
    age = held("age", 27)
    found = computed([turn], [age])
    assert found is not None and found.value == new


@pytest.mark.parametrize(
    "turn",
    ["my birthday is next week", "my son's birthday was great", "add a year to the loan term"],
)
def test_a_birthday_to_come_someone_elses_or_a_year_added_to_a_thing_moves_nothing(turn):
    assert computed([turn], [held("age", 27)]) is None


@pytest.mark.parametrize(
    "turn",
    [
        "jme suis trompée c'est ma sœur Léa qui vient, Camille c'est ma belle-sœur.",
        "oops I got them mixed up, my sister is Léa, Camille is my cousin",
    ],
)
def test_a_second_value_of_a_many_valued_predicate_said_with_a_slip_replaces_the_one_named(turn):
    camille = held("sister", "Camille")
    reading = read_turn(turn, [camille])
    assert reading.target == camille and reading.found is not None and reading.found.value == "Léa"


def test_a_second_value_said_without_a_slip_replaces_nothing():
    camille = held("sister", "Camille")
    assert (
        read_turn("ma sœur Léa vient aussi, Camille c'est la plus grande.", [camille]).found is None
    )


@pytest.mark.parametrize(
    "turn",
    [
        "I said Anna but my sister's name is Hanna, with an H.",
        "j'ai dit Lyon mais en fait j'habite à Villeurbanne",
        "I told you 29 but I'm 31, I always forget",
    ],
)
def test_a_quote_set_against_what_follows_is_worth_reading(turn):
    assert quote_against(turn) and may_take_back(turn)


@pytest.mark.parametrize(
    "turn", ["I told you I'm vegan", "like I said, green tea but whatever", "my sister is Hanna"]
)
def test_a_quote_restated_or_no_quote_is_no_reason_to_read(turn):
    assert not quote_against(turn)


def test_a_quote_set_against_what_follows_points_at_the_quoted_fact():
    anna = held("sister", "Anna")
    assert read_turn("I said Anna but my sister's name is Hanna, with an H.", [anna]).target == anna
