"""Which held facts the doubt stage compares a turn with (``doubt.ABOUT``), by
their sources: a fact the turn first stated is the turn's own and never a
candidate; a fact stated before and only restated by the turn (reinforcement
appends the turn to its sources) still is, since a turn that corrects a value
often repeats it ("it's guitar, I only play bass when our bassist flakes")."""

from __future__ import annotations

import uuid

import psycopg

from haki.consolidator.doubt import ABOUT


def _fact(conn: psycopg.Connection, predicate: str, value: str, sources: list[uuid.UUID]) -> None:
    conn.execute(
        "INSERT INTO facts (project_id, subject_id, predicate, value, status, valid_from,"
        " source_event_ids) VALUES ('p1', 'u1', %s, %s, 'active', now() - interval '2 days', %s)",
        (predicate, f'"{value}"', sources),
    )


def _event(conn: psycopg.Connection, key: str, days_ago: int) -> uuid.UUID:
    row = conn.execute(
        "INSERT INTO events (project_id, subject_id, kind, occurred_at, payload, hash,"
        " idempotency_key) VALUES ('p1', 'u1', 'm', now() - %s * interval '1 day', '{}', %s, %s)"
        " RETURNING id",
        (days_ago, key, key),
    ).fetchone()
    assert row is not None
    return row[0]


def test_a_fact_the_turn_only_restated_is_a_candidate_and_one_it_first_stated_is_not(db_url):
    with psycopg.connect(db_url) as conn:
        before, turn, later = _event(conn, "a", 2), _event(conn, "b", 1), _event(conn, "c", 0)
        _fact(conn, "plays", "bass", [before, turn])  # stated before, restated by the turn
        _fact(conn, "member_of", "cover band", [turn])  # first stated by the turn
        _fact(conn, "hobby", "climbing", [turn, later])  # first stated by the turn, then again
        _fact(conn, "home_city", "Lyon", [before])  # another turn's only
        _fact(conn, "email", "a@b.example", [])  # asserted through the API, no event
        rows = conn.execute(
            ABOUT,
            {
                "event_id": turn,
                "project_id": "p1",
                "subject_id": "u1",
                "named": [],
                "unnamed": True,
            },
        ).fetchall()
    assert sorted(r[1] for r in rows) == ["email", "home_city", "plays"]
