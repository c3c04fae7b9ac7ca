"""Chat French and names said after their noun, end to end: "jsuis…" is read as "je suis…" and
stored as typed; "adopted a cat… her name is miso" stores the pet by its name from the day of
the adoption (``text.contractions``, ``providers.extraction.tied_names``)."""

from __future__ import annotations

from said import facts_after

PROJECT = "chatnames"


async def test_a_contracted_verb_is_read_and_its_words_kept_as_typed(client):
    facts = await facts_after(
        client, PROJECT, "contracted", "2026-05-10T09:00:00+02:00", "jsuis végétarienne depuis 2019"
    )
    [diet] = [f for f in facts if f["predicate"] == "diet"]
    assert diet["valid_from"].startswith("2019")
    assert diet["evidence_span"] == "jsuis végétarienne depuis 2019"


async def test_a_name_said_after_its_noun_names_the_pet_from_the_adoption_day(client):
    # Tuesday 2026-05-12 in Paris: "on saturday" is 2026-05-09.
    facts = await facts_after(
        client,
        PROJECT,
        "named",
        "2026-05-12T10:00:00+02:00",
        "i adopted a kitten on saturday!! her name is noisette and she hides under the bed",
    )
    pets = [f for f in facts if f["predicate"] == "pet"]
    assert [p["value"] for p in pets] == ["Noisette"], facts
    assert pets[0]["qualifiers"].get("kind") == "kitten"
    assert pets[0]["valid_from"].startswith("2026-05-0")
