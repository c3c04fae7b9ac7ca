"""A trace written as json + packed decisions (migration 0175) answers as one written as jsonb.

Rows written before the migration keep their ``jsonb`` packet and decisions;
inspect, the guard's recently served facts and a fact's forget read both forms.
"""

import uuid

import orjson

from haki.context.forgetting import forget_fact
from haki.context.trace import recently_served
from haki.context.trace_codec import decode

PROJECT, SUBJECT = "proj", "alice"

ROW = """
SELECT packet, packet_served::text AS served, decisions, decision_columns
FROM context_traces WHERE id = %(id)s"""

# The same trace as the writer stored it before 0175, under another id.
OLD_FORM = """
INSERT INTO context_traces (
    id, project_id, subject_id, query, purpose, recipe, recipe_config, as_of,
    packet, decisions, token_count, facts_served, duration_ms, timings, created_at)
SELECT %(new)s, project_id, subject_id, query, purpose, recipe, recipe_config, as_of,
    %(packet)s::jsonb, %(decisions)s::jsonb, token_count, facts_served, duration_ms, timings,
    created_at - interval '1 second'
FROM context_traces WHERE id = %(id)s"""


async def _row(db, trace_id):
    async with db.transaction(project_id=PROJECT) as conn:
        return await (await conn.execute(ROW, {"id": trace_id})).fetchone()


async def _old_copy(db, trace_id) -> str:
    row = await _row(db, trace_id)
    new = str(uuid.uuid4())
    params = {
        "new": new,
        "id": trace_id,
        "packet": row["served"],
        "decisions": orjson.dumps(decode(row["decision_columns"])).decode(),
    }
    async with db.transaction(project_id=PROJECT) as conn:
        await conn.execute(OLD_FORM, params)
    return new


async def _served_trace(api, seed):
    event = await seed.episode("We flew to Lisbon for the conference.")
    fact = await seed.fact("Lisbon", predicate="trip_city", source_event_ids=[event])
    for city in ("Rome", "Oslo"):
        await seed.fact(f"visited {city}", predicate="trip")
    out, trace = await api.ask_and_inspect("Where did she travel?")
    assert str(fact) in api.fact_ids(out)
    return event, fact, out, trace


async def test_new_rows_hold_the_compact_forms(api, seed, db):
    _, _, out, trace = await _served_trace(api, seed)
    row = await _row(db, trace["trace_id"])
    assert row["packet"] is None and row["decisions"] is None
    assert orjson.loads(row["served"]) == out["packet"]
    assert len(row["decision_columns"]) < 60 * len(trace["decisions"])


async def test_inspect_answers_alike_for_both_forms(api, seed, db):
    _, _, out, trace = await _served_trace(api, seed)
    old = await _old_copy(db, trace["trace_id"])
    again = await api.inspect(old)
    assert (await _row(db, old))["decision_columns"] is None
    for key in ("trace_id", "created_at"):
        trace.pop(key), again.pop(key)
    assert again == trace
    assert trace["packet"] == out["packet"]


async def test_recently_served_reads_both_forms(api, seed, db):
    _, _, out, trace = await _served_trace(api, seed)
    served = [(f["predicate"], f["value"]) for f in out["packet"]["facts"]]
    async with db.transaction(project_id=PROJECT) as conn:
        new_only = await recently_served(conn, PROJECT, [SUBJECT])
    assert new_only == served
    await _old_copy(db, trace["trace_id"])  # older: listed after the new one
    async with db.transaction(project_id=PROJECT) as conn:
        both = await recently_served(conn, PROJECT, [SUBJECT])
    assert both == served + served


async def test_forgetting_a_fact_removes_the_traces_that_named_it(api, seed, db):
    event, fact, _, trace = await _served_trace(api, seed)
    old = await _old_copy(db, trace["trace_id"])
    second, _ = await api.ask_and_inspect("Where did she travel?")
    async with db.transaction(project_id=PROJECT) as conn:
        # The fact's own id: in the packed decisions and the packet of both forms.
        done = await forget_fact(conn, project_id=PROJECT, subject_id=SUBJECT, fact_id=fact)
    assert done["traces_deleted"] == 3
    for gone in (trace["trace_id"], old, second["trace_id"]):
        assert await _row(db, gone) is None
    # A trace that names the forgotten fact's source event only in its packet goes too.
    out, later = await api.ask_and_inspect("We flew to Lisbon for the conference?")
    assert str(event) in [e["event_id"] for e in out["packet"]["episodes"]]
    async with db.transaction(project_id=PROJECT) as conn:
        done = await forget_fact(
            conn, project_id=PROJECT, subject_id=SUBJECT, fact_id=uuid.uuid4(), event_ids=[event]
        )
    assert done["traces_deleted"] == 1 and await _row(db, later["trace_id"]) is None
