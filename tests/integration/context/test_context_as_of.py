"""as_of: the packet as it would have been at that business time."""

from datetime import UTC, datetime, timedelta

NOW = datetime.now(UTC)
QUERY = "Where does she live?"


async def _history(seed):
    old = await seed.fact(
        "lives in Paris",
        predicate="home_city",
        status="superseded",
        valid_from=NOW - timedelta(days=100),
        valid_to=NOW - timedelta(days=10),
    )
    new = await seed.fact(
        "lives in Lyon", predicate="home_city", valid_from=NOW - timedelta(days=10)
    )
    early = await seed.episode("I just moved to Paris!", occurred_at=NOW - timedelta(days=100))
    late = await seed.episode("Moving to Lyon next week.", occurred_at=NOW - timedelta(days=11))
    return old, new, early, late


async def test_as_of_in_the_past_serves_what_was_valid_then(api, seed):
    old, new, early, _late = await _history(seed)
    out, trace = await api.ask_and_inspect(QUERY, as_of=(NOW - timedelta(days=50)).isoformat())
    assert api.fact_ids(out) == [str(old)]
    assert [e["event_id"] for e in out["packet"]["episodes"]] == [str(early)]
    assert trace["as_of"] is not None
    assert str(new) not in {d["id"] for d in trace["decisions"]}


async def test_without_as_of_serves_the_current_value(api, seed):
    _old, new, early, late = await _history(seed)
    out = await api.ask(QUERY)
    assert api.fact_ids(out) == [str(new)]
    assert {e["event_id"] for e in out["packet"]["episodes"]} == {str(early), str(late)}


async def test_as_of_measures_volatility_at_that_time(api, seed):
    trip = await seed.fact(
        "is in Rome this week",
        predicate="current_location",
        volatility="ephemeral",
        valid_from=NOW - timedelta(days=52),
    )
    then = await api.ask("Where is she right now?", as_of=(NOW - timedelta(days=50)).isoformat())
    assert api.fact_ids(then) == [str(trip)] and then["packet"]["warnings"] == []
    now = await api.ask("Where is she right now?")
    assert now["packet"]["facts"] == [] and now["packet"]["warnings"]


async def test_naive_as_of_is_read_as_utc(api, seed):
    await _history(seed)
    naive = (NOW - timedelta(days=50)).replace(tzinfo=None).isoformat()
    out = await api.ask(QUERY, as_of=naive)
    assert [f["value"] for f in out["packet"]["facts"]] == ["lives in Paris"]
