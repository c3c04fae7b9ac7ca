"""The recall gate: on by default for facts (on topic, or within the fact floor);
episodes pass unless an episode floor is set below 2.0; 0 turns it off."""

QUERY = "Where does she live?"


async def _seed(seed):
    near = await seed.fact("lives in Lyon", predicate="home_city")
    far = await seed.fact("quantum chromodynamics lecture notes", predicate="note")
    ep = await seed.episode("The weather forecast for the stock market looks grim.")
    return near, far, ep


async def test_by_default_unrelated_facts_stay_out_and_episodes_pass(app_client, seed):
    # The default decided from measurements: a fact the question does not ask
    # about is not served; episodes are not gated (that floor costs recall).
    near, far, ep = await _seed(seed)
    async with app_client() as api:
        out, trace = await api.ask_and_inspect(QUERY)
    assert api.fact_ids(out) == [str(near)]
    assert [e["event_id"] for e in out["packet"]["episodes"]] == [str(ep)]
    d = api.decision(trace, far)
    assert (d["action"], d["reason_code"]) == ("excluded", "below_relevance_floor")
    assert trace["recipe_config"]["recall_max_distance"] == 2.0


async def test_gate_off_serves_even_unrelated_rows(app_client, seed):
    near, far, ep = await _seed(seed)
    async with app_client(recall_max_distance=0) as api:
        out, trace = await api.ask_and_inspect(QUERY)
    assert set(api.fact_ids(out)) == {str(near), str(far)}
    assert [e["event_id"] for e in out["packet"]["episodes"]] == [str(ep)]
    assert not [d for d in trace["decisions"] if d["reason_code"] == "below_relevance_floor"]
    assert trace["recipe_config"]["recall_max_distance"] == 0.0


async def test_gate_excludes_facts_and_episodes_beyond_the_floor(app_client, seed):
    near, far, _ep = await _seed(seed)
    async with app_client(recall_max_distance=0.75) as api:
        out, trace = await api.ask_and_inspect(QUERY)
    assert api.fact_ids(out) == [str(near)] and out["packet"]["episodes"] == []
    assert out["packet"]["status"] == "ok" and out["packet"]["empty_reason"] is None
    for item_id in (far,):
        d = api.decision(trace, item_id)
        assert (d["action"], d["reason_code"]) == ("excluded", "below_relevance_floor")
        assert 1 - d["score"]["semantic"] > 0.75
    [ep_decision] = [d for d in trace["decisions"] if d["kind"] == "episode"]
    assert ep_decision["reason_code"] == "below_relevance_floor"
    assert trace["recipe_config"]["recall_max_distance"] == 0.75


async def test_gate_emptying_a_result_is_no_relevant_memory_with_status_ok(app_client, seed):
    await seed.fact("quantum chromodynamics lecture notes", predicate="note")
    await seed.episode("The weather forecast for the stock market looks grim.")
    async with app_client(recall_max_distance=0.3) as api:
        out = await api.ask(QUERY)
    packet = out["packet"]
    assert packet["facts"] == [] and packet["episodes"] == []
    assert packet["empty_reason"] == "no_relevant_memory"
    assert packet["status"] == "ok" and packet["warnings"] == []
    assert out["token_count"] == 0


async def test_empty_scope_is_an_unknown_subject_not_no_relevant_memory(app_client):
    async with app_client(recall_max_distance=0.3) as api:
        out = await api.ask(QUERY)
    assert out["packet"]["empty_reason"] == "unknown_subject"
    assert out["packet"]["status"] == "ok"


async def test_gate_does_not_claim_an_empty_result_it_did_not_cause(app_client, seed):
    await seed.fact("lives in Lyon", predicate="home_city")
    async with app_client(recall_max_distance=0.9) as api:
        out = await api.ask(QUERY, budget_tokens=1)
    assert out["packet"]["facts"] == [] and out["packet"]["empty_reason"] is None
