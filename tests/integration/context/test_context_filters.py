"""Hard filters run before any score: what they remove is never served."""

from datetime import UTC, datetime, timedelta

NOW = datetime.now(UTC)
QUERY = "Where does she live?"


async def test_inactive_invalid_and_foreign_facts_are_never_considered(api, seed):
    current = await seed.fact("lives in Lyon", predicate="home_city")
    hidden = [
        await seed.fact(
            "lives in Paris",
            predicate="home_city",
            status="superseded",
            valid_to=NOW - timedelta(days=3),
        ),
        await seed.fact("lives in Nice", predicate="home_city", valid_to=NOW - timedelta(days=1)),
        await seed.fact("lives in Lille", predicate="home_city", status="candidate"),
        await seed.fact("lives in Brest", predicate="home_city", status="disputed"),
        await seed.fact("lives in Metz", predicate="home_city", subject_id="bob"),
        await seed.fact("lives in Caen", predicate="home_city", project_id="other"),
    ]
    out, trace = await api.ask_and_inspect(QUERY)
    assert api.fact_ids(out) == [str(current)]
    decided = {d["id"] for d in trace["decisions"]}
    assert not decided & {str(h) for h in hidden}


async def test_open_conflict_blocks_before_scoring_and_warns(api, seed):
    a = await seed.fact("lives in Lyon", predicate="home_city")
    b = await seed.fact("lives in Paris", predicate="home_city")
    other = await seed.fact("works as a nurse", predicate="occupation")
    await seed.conflict(a, b)
    out, trace = await api.ask_and_inspect(QUERY)
    packet = out["packet"]
    assert api.fact_ids(out) == [str(other)]
    assert packet["warnings"] == ["open_conflict: 2 fact(s) hidden pending conflict resolution"]
    assert packet["status"] == "degraded" and packet["empty_reason"] is None
    for fid in (a, b):
        d = api.decision(trace, fid)
        assert (d["action"], d["reason_code"], d["score"], d["rank"]) == (
            "blocked",
            "conflict_open",
            None,
            None,
        )


async def test_resolved_conflict_no_longer_blocks(api, seed):
    a = await seed.fact("lives in Lyon", predicate="home_city")
    await seed.conflict(a, status="resolved")
    out = await api.ask(QUERY)
    assert api.fact_ids(out) == [str(a)] and out["packet"]["warnings"] == []


async def test_conflict_of_another_subject_does_not_block(api, seed):
    a = await seed.fact("lives in Lyon", predicate="home_city")
    await seed.conflict(a, subject_id="bob")
    out = await api.ask(QUERY)
    assert api.fact_ids(out) == [str(a)]


async def test_volatility_expired_fact_is_hidden_counted_and_traced(api, seed):
    stale = await seed.fact(
        "is in Rome this week",
        predicate="current_location",
        volatility="ephemeral",
        valid_from=NOW - timedelta(days=10),
    )
    fresh = await seed.fact(
        "is in Oslo this week",
        predicate="current_location",
        volatility="ephemeral",
        valid_from=NOW - timedelta(days=30),
        last_reinforced_at=NOW - timedelta(days=2),
    )
    slow = await seed.fact(
        "lives in Lyon",
        predicate="home_city",
        volatility="slow",
        valid_from=NOW - timedelta(days=400),
    )
    out, trace = await api.ask_and_inspect("Where is she right now?")
    packet = out["packet"]
    assert api.fact_ids(out) == [str(fresh)]
    assert packet["warnings"] == [
        "volatility_expired: 2 fact(s) hidden past their volatility horizon"
    ]
    assert packet["status"] == "degraded"
    for fid in (stale, slow):
        d = api.decision(trace, fid)
        assert (d["action"], d["reason_code"], d["score"]) == (
            "excluded",
            "volatility_expired",
            None,
        )


async def test_both_warnings_together(api, seed):
    a = await seed.fact("lives in Lyon", predicate="home_city")
    await seed.conflict(a)
    await seed.fact(
        "is in Rome",
        predicate="current_location",
        volatility="ephemeral",
        valid_from=NOW - timedelta(days=8),
    )
    out = await api.ask(QUERY)
    assert out["packet"]["warnings"] == [
        "open_conflict: 1 fact(s) hidden pending conflict resolution",
        "volatility_expired: 1 fact(s) hidden past their volatility horizon",
    ]
    assert out["packet"]["facts"] == [] and out["packet"]["empty_reason"] is None


async def test_full_text_leg_applies_the_same_hard_filters(api, seed):
    # Every fact shares the query's rare word, so each would be a lexical match.
    current = await seed.fact("zorblax badge number 1", predicate="badge")
    ineligible = [
        await seed.fact(
            "zorblax badge number 2",
            predicate="badge",
            status="superseded",
            valid_to=NOW - timedelta(days=1),
        ),
        await seed.fact(
            "zorblax badge number 3", predicate="badge", valid_to=NOW - timedelta(days=1)
        ),
        await seed.fact("zorblax badge number 4", predicate="badge", subject_id="bob"),
        await seed.fact("zorblax badge number 5", predicate="badge", project_id="other"),
        await seed.fact(
            "zorblax badge number 6", predicate="badge", embed=False, status="disabled"
        ),
    ]
    out, trace = await api.ask_and_inspect("zorblax")
    assert api.fact_ids(out) == [str(current)]
    assert not {d["id"] for d in trace["decisions"]} & {str(i) for i in ineligible}


async def test_fact_without_embedding_is_found_by_full_text(api, seed):
    fid = await seed.fact("zorblax badge", predicate="badge", embed=False)
    out, trace = await api.ask_and_inspect("zorblax")
    assert api.fact_ids(out) == [str(fid)]
    assert api.decision(trace, fid)["score"]["semantic"] == 0.0
