"""The end said of the thing a fact holds, not of its value (pure)."""

from __future__ import annotations

import uuid

from haki.consolidator.corrections import Held
from haki.consolidator.doubt_plan import read_turn
from haki.consolidator.thing_ended import thing_ended


def held(
    predicate: str, value: object, similarity: float | None = 0.3, said: float | None = None
) -> Held:
    return Held(uuid.uuid4(), predicate, value, {}, similarity, said)


def test_a_thing_parted_with_by_its_topic_ends_the_fact():
    phone = held("phone", "555-0134", 0.1)
    found = thing_ended(["j'ai résilié ma ligne, plus de portable pour l'instant"], [phone], 0.25)
    assert found is not None and found[0] == phone


def test_what_one_owns_is_tied_by_meaning():
    car = held("owns", "2014 Civic", 0.1, 0.3)
    assert thing_ended(["sold the car yesterday!"], [car], 0.25) == (car, "sold the car yesterday!")
    assert (
        thing_ended(["sold the car yesterday!"], [held("owns", "2014 Civic", 0.1, 0.1)], 0.25)
        is None
    )
    reading = read_turn("sold the car yesterday! so skip the car costs", [car])
    assert reading.ended is not None and reading.ended[0] == car


def test_someone_elses_thing_and_a_fact_of_no_thing_are_not_ended():
    phone = held("phone", "555-0134")
    assert thing_ended(["my sister cancelled her phone line"], [phone], 0.25) is None
    assert thing_ended(["sold the house"], [held("home_city", "Lyon", 0.9)], 0.25) is None
    assert thing_ended(["I sold my phone"], [phone, held("phone", "555-0199")], 0.25) is None


def test_closing_or_losing_reaches_what_one_owns_only_by_its_value():
    owned = held("owns", "great turnout", 0.3, 0.3)
    # LoCoMo: a job lost is no thing owned; eyes closed neither.
    assert (
        thing_ended(["I lost my job at the mechanical engineering company."], [owned], 0.25) is None
    )
    assert thing_ended(["I closed my eyes and listened."], [owned], 0.25) is None
