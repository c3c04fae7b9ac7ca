"""POST /v1/feedback: ratings on traces and facts; incorrect disputes a fact."""

import uuid


async def _status(seed, fid):
    return await seed.fetchval("SELECT status FROM facts WHERE id = %(id)s", {"id": fid})


async def test_incorrect_disputes_the_fact_and_it_is_no_longer_served(api, seed):
    fid = await seed.fact("lives in Lyon", predicate="home_city")
    out = await api.ask("Where does she live?")
    r = await api.client.post(
        "/v1/feedback",
        json={
            "project_id": "proj",
            "subject_id": "alice",
            "trace_id": out["trace_id"],
            "fact_id": str(fid),
            "rating": "incorrect",
            "comment": "she moved",
        },
    )
    assert r.status_code == 201 and r.json()["fact_status"] == "disputed"
    assert await _status(seed, fid) == "disputed"
    assert (await api.ask("Where does she live?"))["packet"]["facts"] == []
    again = await api.client.post(
        "/v1/feedback", json={"project_id": "proj", "fact_id": str(fid), "rating": "incorrect"}
    )
    assert again.status_code == 201 and again.json()["fact_status"] == "disputed"
    count = await seed.fetchval("SELECT count(*) FROM feedback WHERE fact_id = %(id)s", {"id": fid})
    assert count == 2


async def test_useful_on_a_trace_is_recorded_without_touching_facts(api, seed):
    fid = await seed.fact("lives in Lyon", predicate="home_city")
    out = await api.ask("Where does she live?")
    r = await api.client.post(
        "/v1/feedback", json={"project_id": "proj", "trace_id": out["trace_id"], "rating": "useful"}
    )
    assert (
        r.status_code == 201
        and r.json()["status"] == "recorded"
        and r.json()["fact_status"] is None
    )
    assert await _status(seed, fid) == "active"


async def test_incorrect_on_a_deleted_fact_is_an_illegal_transition(api, seed):
    fid = await seed.fact("lives in Lyon", predicate="home_city", status="deleted")
    r = await api.client.post(
        "/v1/feedback", json={"project_id": "proj", "fact_id": str(fid), "rating": "incorrect"}
    )
    assert r.status_code == 422 and r.json()["error"]["type"] == "illegal_status_transition"
    assert await seed.fetchval("SELECT count(*) FROM feedback") == 0


async def test_feedback_needs_a_target_in_scope(api, seed):
    r = await api.client.post("/v1/feedback", json={"project_id": "proj", "rating": "useful"})
    assert r.status_code == 422 and r.json()["error"]["type"] == "invalid_payload"
    r = await api.client.post(
        "/v1/feedback",
        json={"project_id": "proj", "trace_id": str(uuid.uuid4()), "rating": "useful"},
    )
    assert r.status_code == 404
    other = await seed.fact("lives in Rome", predicate="home_city", project_id="other")
    r = await api.client.post(
        "/v1/feedback", json={"project_id": "proj", "fact_id": str(other), "rating": "incorrect"}
    )
    assert r.status_code == 404
    r = await api.client.post(
        "/v1/feedback", json={"project_id": "proj", "fact_id": str(other), "rating": "great"}
    )
    assert r.status_code == 422 and r.json()["error"]["field"] == "rating"
