"""POST /v1/forget: disable or delete, a receipt with counts, and nothing left behind."""

import hashlib
import json
import uuid

import psycopg
from ledger_helpers import insert_fact, sql_rows
from psycopg import sql

from haki.forget import subject_reference

SUBJECT = "forget-me-7f3a9c"

CHUNK = """INSERT INTO episode_chunks (event_id, ordinal, project_id, subject_id, kind, occurred_at, text)
VALUES (%s, 0, 'p1', %s, 'turn', now(), %s)"""
CONFLICT = """INSERT INTO conflict_sets (project_id, subject_id, fact_ids, kind)
VALUES ('p1', %s, %s, 'contradiction')"""
TRACE = """INSERT INTO context_traces (project_id, subject_id, query, packet, decisions)
VALUES ('p1', %s, 'where?', %s, %s) RETURNING id"""
FEEDBACK_ON_TRACE = "INSERT INTO feedback (project_id, subject_id, trace_id, rating) VALUES ('p1', %s, %s, 'useful')"
FEEDBACK_ON_FACT = (
    "INSERT INTO feedback (project_id, fact_id, rating) VALUES ('p1', %s, 'incorrect')"
)
TRANSITION = """INSERT INTO fact_transitions (project_id, subject_id, fact_id, from_status, to_status, version)
VALUES ('p1', %s, %s, 'candidate', 'active', 2)"""


def ev(i: int, subject: str = SUBJECT) -> dict:
    return {
        "project_id": "p1",
        "subject_id": subject,
        "kind": "conversation.turn",
        "occurred_at": f"2026-01-01T10:00:{i:02d}Z",
        "payload": {"messages": [{"role": "user", "content": f"m{i}"}]},
    }


async def seed_subject(client, db_url) -> tuple[list[str], list[str]]:
    """Everything the other services would have written about SUBJECT (and a neighbour)."""
    mine = (await client.post("/v1/capture", json={"events": [ev(0), ev(1), ev(2)]})).json()
    mixed = (
        await client.post("/v1/capture", json={"events": [ev(3), ev(4, subject="neighbour")]})
    ).json()
    event_ids = [e["id"] for e in mine["events"]] + [mixed["events"][0]["id"]]
    neighbour_event = mixed["events"][1]["id"]
    facts = [
        insert_fact(db_url, subject_id=SUBJECT, predicate=f"p{i}", source_event_ids=[event_ids[i]])
        for i in range(3)
    ]
    other_fact = insert_fact(db_url, subject_id="neighbour", source_event_ids=[neighbour_event])
    packet = json.dumps({"facts": [{"id": facts[0]}]})
    decisions = json.dumps([{"id": facts[0], "action": "included"}])
    with psycopg.connect(db_url) as conn:
        for n, event_id in enumerate(event_ids):
            conn.execute(CHUNK, (event_id, SUBJECT, f"chunk {n}"))
        conn.execute(CONFLICT, (SUBJECT, facts[:2]))
        (trace_id,) = conn.execute(TRACE, (SUBJECT, packet, decisions)).fetchone()
        conn.execute(FEEDBACK_ON_TRACE, (SUBJECT, trace_id))
        conn.execute(FEEDBACK_ON_FACT, (facts[1],))
        conn.execute(TRANSITION, (SUBJECT, facts[0]))
        conn.execute("UPDATE jobs SET status = 'done' WHERE subject_id = %s", (SUBJECT,))
    return event_ids, [*facts, other_fact, neighbour_event]


def scan_all_tables(db_url: str, needles: list[str]) -> list[tuple[str, str]]:
    """Every row of every public table, as text, searched for each needle."""
    found = []
    with psycopg.connect(db_url) as conn:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
            )
        ]
        for table in tables:
            every_row = sql.SQL("SELECT t::text FROM {} AS t").format(sql.Identifier(table))
            for (text,) in conn.execute(every_row):
                found += [(table, n) for n in needles if n in text]
    return found


async def test_subject_delete_leaves_no_row_anywhere(client, db_url):
    event_ids, (*facts, other_fact, neighbour_event) = await seed_subject(client, db_url)
    assert scan_all_tables(db_url, [SUBJECT])  # the scan does see the seeded rows
    r = await client.post(
        "/v1/forget", json={"project_id": "p1", "subject_id": SUBJECT, "mode": "delete"}
    )
    assert r.status_code == 200, r.text
    receipt = r.json()
    assert receipt["mode"] == "delete"
    assert receipt["scope"] == "subject"
    assert receipt["target"] == {"project_id": "p1", "subject_id": SUBJECT, "fact_id": None}
    expected = {
        "facts_disabled": 0,
        "facts_deleted": 3,
        "events_deleted": 4,
        "chunks_deleted": 4,
        "traces_deleted": 1,
        "conflict_sets_deleted": 1,
    }
    assert {k: receipt[k] for k in expected} == expected
    assert scan_all_tables(db_url, [SUBJECT, *event_ids, *facts]) == []
    # the neighbour keeps its event (scrubbed out of the shared job) and its fact
    assert sql_rows(db_url, "SELECT count(*) FROM events WHERE subject_id = 'neighbour'") == [(1,)]
    assert sql_rows(db_url, "SELECT count(*) FROM facts WHERE id = %s", other_fact) == [(1,)]
    (payload,) = sql_rows(db_url, "SELECT payload FROM jobs WHERE subject_id IS NULL")[0]
    assert payload["event_ids"] == [neighbour_event]
    stored = sql_rows(db_url, "SELECT id::text, subject_id, mode, counts FROM forget_receipts")
    assert stored[0][0] == receipt["forget_id"]
    # Keyed: the stored reference is the HMAC under the server's generated
    # secret, not a plain hash anyone can recompute from a guessed id.
    [(key,)] = sql_rows(
        db_url, "SELECT value FROM server_secrets WHERE name = 'forget_receipt_key'"
    )
    assert len(key) == 64
    assert stored[0][1] == subject_reference(key.encode(), "p1", SUBJECT)
    assert stored[0][1] != "sha256:" + hashlib.sha256(SUBJECT.encode()).hexdigest()
    assert stored[0][3]["events_deleted"] == 4


async def test_subject_disable_takes_facts_out_of_service(client, db_url):
    ids = {
        s: insert_fact(db_url, subject_id=SUBJECT, predicate=s, status=s)
        for s in ("candidate", "active", "disputed", "superseded", "disabled")
    }
    other = insert_fact(db_url, subject_id="neighbour")
    body = {"project_id": "p1", "subject_id": SUBJECT, "mode": "disable"}
    r = (await client.post("/v1/forget", json=body)).json()
    # Superseded facts too: as_of would serve them otherwise.
    assert r["facts_disabled"] == 4 and r["facts_deleted"] == 0 and r["events_deleted"] == 0
    status = dict(
        sql_rows(db_url, "SELECT predicate, status FROM facts WHERE subject_id = %s", SUBJECT)
    )
    assert status == {
        "candidate": "disabled",
        "active": "disabled",
        "disputed": "disabled",
        "superseded": "disabled",
        "disabled": "disabled",
    }
    assert sql_rows(db_url, "SELECT version FROM facts WHERE id = %s", ids["active"]) == [(2,)]
    assert sql_rows(db_url, "SELECT status FROM facts WHERE id = %s", other) == [("active",)]
    assert sql_rows(db_url, "SELECT count(*) FROM fact_transitions WHERE reason = 'forget'") == [
        (4,)
    ]


async def test_fact_disable_is_idempotent(client, db_url):
    fact_id = insert_fact(db_url)
    body = {"project_id": "p1", "fact_id": fact_id, "mode": "disable"}
    assert (await client.post("/v1/forget", json=body)).json()["facts_disabled"] == 1
    assert (await client.post("/v1/forget", json=body)).json()["facts_disabled"] == 0
    assert sql_rows(db_url, "SELECT status, version FROM facts WHERE id = %s", fact_id) == [
        ("disabled", 2)
    ]


async def test_fact_delete_is_not_recoverable(client, db_url):
    a, b, c = (insert_fact(db_url, predicate=p, value=f'"{p}-secret"') for p in ("x", "y", "z"))
    newer = insert_fact(db_url, predicate="x", supersedes_id=a)
    served = json.dumps({"facts": [{"id": a, "value": "x-secret"}]})
    with psycopg.connect(db_url) as conn:
        conn.execute(CONFLICT, ("u1", [a, b]))
        conn.execute(CONFLICT, ("u1", [a, b, c]))
        conn.execute(TRACE, ("u1", served, "[]"))
        conn.execute(TRACE, ("u1", "{}", "[]"))
        conn.execute(FEEDBACK_ON_FACT, (a,))
    r = await client.post("/v1/forget", json={"project_id": "p1", "fact_id": a, "mode": "delete"})
    assert r.status_code == 200
    receipt = r.json()
    assert (
        receipt["facts_deleted"],
        receipt["conflict_sets_deleted"],
        receipt["traces_deleted"],
    ) == (1, 1, 1)
    assert scan_all_tables(db_url, ["x-secret"]) == []
    assert [n for t, n in scan_all_tables(db_url, [a]) if t != "forget_receipts"] == []
    assert sql_rows(db_url, "SELECT fact_ids::text[] FROM conflict_sets") == [([b, c],)]
    assert sql_rows(db_url, "SELECT supersedes_id FROM facts WHERE id = %s", newer) == [(None,)]
    assert sql_rows(db_url, "SELECT counts FROM forget_receipts")[0][0]["facts_deleted"] == 1
    again = await client.post(
        "/v1/forget", json={"project_id": "p1", "fact_id": a, "mode": "delete"}
    )
    assert again.status_code == 404


async def test_forget_needs_exactly_one_target(client):
    for body in (
        {"project_id": "p1", "mode": "delete"},
        {"project_id": "p1", "mode": "delete", "subject_id": "u1", "fact_id": str(uuid.uuid4())},
        {"project_id": "p1", "mode": "delete", "subject_id": None, "fact_id": None},
    ):
        r = await client.post("/v1/forget", json=body)
        assert r.status_code == 422 and r.json()["error"]["type"] == "invalid_payload"
    r = await client.post(
        "/v1/forget", json={"project_id": "p1", "mode": "erase", "subject_id": "u1"}
    )
    assert r.status_code == 422 and r.json()["error"]["field"] == "mode"


async def test_forget_in_another_project_touches_nothing(client, db_url):
    fact_id = insert_fact(db_url)
    r = await client.post(
        "/v1/forget", json={"project_id": "p2", "fact_id": fact_id, "mode": "delete"}
    )
    assert r.status_code == 404
    r = await client.post(
        "/v1/forget", json={"project_id": "p2", "subject_id": "u1", "mode": "delete"}
    )
    assert r.json()["facts_deleted"] == 0
    assert sql_rows(db_url, "SELECT count(*) FROM facts") == [(1,)]
