"""The endpoint end to end: a relevant fact is served, traced and inspectable."""


async def test_relevant_fact_is_served_and_traced(api, seed):
    tea = await seed.fact(
        "prefers green tea over coffee", predicate="drink_preference", fact_kind="preference"
    )
    await seed.fact("lives in Lyon", predicate="home_city")
    ep = await seed.episode("We talked about her trip to Japan in May.")
    out, trace = await api.ask_and_inspect("What does she like to drink?")
    packet = out["packet"]
    assert packet["status"] == "ok" and packet["warnings"] == [] and packet["empty_reason"] is None
    assert packet["facts"][0]["id"] == str(tea)
    assert {e["event_id"] for e in packet["episodes"]} == {str(ep)}
    assert 0 < out["token_count"] <= 900
    assert trace["packet"] == packet
    assert api.decision(trace, tea) | {"score": None} == {
        "kind": "fact",
        "id": str(tea),
        "action": "included",
        "reason_code": "top_score",
        "rank": 1,
        "score": None,
        "tokens": api.decision(trace, tea)["tokens"],
        "fact_id": str(tea),  # the id again, under the name older clients read
        "episode_id": None,
    }
    assert set(trace["timings"]) >= {
        "embed_ms",
        "candidates_ms",
        "score_ms",
        "pack_ms",
        "multihop_ms",
        "episodes_ms",
        "trace_ms",
    }
