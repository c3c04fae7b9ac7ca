"""Everyday facts read by meaning (``meaning_facts``) on the real server, as it is built.

The shared ``providers`` fixture runs the rules alone; the server builds its
extractor with its embedder, which turns the readers by meaning on, so this
module does the same.
"""

import pytest
from test_injection import capture, facts, readers_on

providers = pytest.fixture(name="providers")(readers_on)


async def test_a_city_no_pattern_reads_replaces_the_one_held(client):
    """The move said in words no rule holds supersedes the city held, from its own month."""
    await capture(client, "f1", "j'habite à Lyon, dans le 7e")
    await capture(
        client,
        "f1",
        "grosse nouvelle j'ai eu le poste !! et au fait on a déménagé, on est à grenoble"
        " depuis septembre",
        minute=5,
    )
    cities = {f["value"]: f for f in await facts(client, "f1") if f["predicate"] == "home_city"}
    assert cities["Grenoble"]["status"] == "active"
    assert cities["Grenoble"]["confidence"] < 0.6
    assert cities["Lyon"]["status"] != "active"


async def test_a_trip_and_someone_elses_city_are_not_read(client):
    await capture(client, "f2", "we visited Nantes with the kids, lovely old town")
    await capture(client, "f2", "ma soeur vit à grenoble depuis septembre", minute=5)
    assert not [f for f in await facts(client, "f2") if f["predicate"] == "home_city"]
