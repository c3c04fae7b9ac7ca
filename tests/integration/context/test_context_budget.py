"""The token budget: a ceiling on what is rendered, with over_budget traced."""

import pytest


async def test_packing_respects_budget_and_traces_over_budget(api, seed):
    ids = [
        await seed.fact(
            f"enjoys hiking in the {place} mountains every summer with friends", predicate="hobby"
        )
        for place in ("Alps", "Pyrenees", "Vosges", "Jura", "Rockies")
    ]
    out, trace = await api.ask_and_inspect("What are her hobbies?", budget_tokens=45)
    assert 0 < out["token_count"] <= 45
    served = api.fact_ids(out)
    assert 1 <= len(served) < len(ids)
    assert sum(len(f["text"]) // 4 for f in out["packet"]["facts"]) == out["token_count"]
    over = [d for d in trace["decisions"] if d["reason_code"] == "over_budget"]
    assert over and all(
        d["action"] == "excluded" and d["kind"] in ("fact", "episode") for d in over
    )
    included = [d for d in trace["decisions"] if d["action"] == "included"]
    assert {d["id"] for d in included} == set(served)
    # Greedy by score: every included fact outranks every fact left out for budget.
    fact_over = [d for d in over if d["kind"] == "fact"]
    assert max(d["rank"] for d in included) < min(d["rank"] for d in fact_over)


async def test_default_budget_is_900(api, seed):
    # About 50 tokens a fact, 40 of them: a packet fills any default up to ~2,000.
    for n in range(40):
        await seed.fact(f"lives in city number {n} of the long list of places " + "x" * 130)
    out = await api.ask("Where does she live?")
    trace = await api.inspect(out["trace_id"])
    largest = max(len(f["text"]) // 4 for f in out["packet"]["facts"])
    assert 900 - largest < out["token_count"] <= 900
    assert trace["token_count"] == out["token_count"]
    assert any(d["reason_code"] == "over_budget" for d in trace["decisions"])


def test_openapi_documents_the_default_budget_of_the_settings():
    from haki.api.schemas.context import ContextIn
    from haki.config import Settings

    schema = ContextIn.model_json_schema()["properties"]["budget_tokens"]
    assert schema["default"] == Settings.model_fields["default_budget_tokens"].default == 900


@pytest.mark.parametrize("budget", [0, -5])
async def test_non_positive_integer_budget_is_budget_exceeded(client, budget):
    r = await client.post(
        "/v1/context",
        json={"project_id": "p", "subject_id": "s", "query": "x", "budget_tokens": budget},
    )
    assert r.status_code == 422
    assert r.json()["error"] == {
        "type": "budget_exceeded",
        "message": "budget_tokens must be a positive integer",
        "field": "budget_tokens",
    }


async def test_budget_of_one_token_serves_nothing_larger(api, seed):
    await seed.fact("lives in Lyon", predicate="home_city")
    out = await api.ask("Where does she live?", budget_tokens=1)
    assert out["token_count"] <= 1 and out["packet"]["facts"] == []
    assert out["packet"]["empty_reason"] is None
