"""The episode full-text leg takes kept term estimates only under its statistics' token (0174).

A scope larger than ``episode_term_postings`` has its terms estimated from
the statistics; the leg returns those estimates with the statistics' token,
uses estimates handed back with that token instead of computing them, and
ignores them under any other token, which an ANALYZE of changed rows gives.
"""

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest

from haki.context.config import DEFAULT
from haki.context.episode_candidates import LEXICAL, EpisodeQuery, lexical_params
from haki.context.term_estimates import TermEstimates

PROJECT, SUBJECT = "proj", "alice"
TURNS = 400
START = datetime(2026, 1, 1, tzinfo=UTC)
EVENT = "00000000-0000-0000-0000-000000000174"
# In every turn: estimated at about TURNS postings, over the term cap below.
COMMON = "guitar"
RARE = "lisbon"
TERMS = [COMMON, RARE]
# A scope of 400 turns is past this, so the statistics are read; "guitar"
# (400 postings) is over it and left out.
CFG = replace(DEFAULT, episode_term_postings=100, episode_lexical_postings=8192)


def _insert(owner: psycopg.Connection, first: int, texts: list[str]) -> None:
    with (
        owner.cursor() as cur,
        cur.copy(
            "COPY episode_chunks (event_id, ordinal, project_id, subject_id, kind, occurred_at, text) "
            "FROM STDIN"
        ) as copy,
    ):
        for i, text in enumerate(texts, first):
            copy.write_row((EVENT, i, PROJECT, SUBJECT, "m", START + timedelta(minutes=i), text))


@pytest.fixture
def scope(db_url: str) -> str:
    with psycopg.connect(db_url, autocommit=True) as owner:
        owner.execute(
            "INSERT INTO events (id, project_id, subject_id, kind, occurred_at, payload, hash, "
            "idempotency_key) VALUES (%s, %s, %s, 'm', %s, '{}', 'h', 'k')",
            (EVENT, PROJECT, SUBJECT, START),
        )
        texts = [f"Alice played the guitar, take {i}" for i in range(TURNS)]
        texts[::40] = [f"Alice played the guitar in Lisbon, take {i}" for i in range(10)]
        _insert(owner, 0, texts)
        owner.execute("ANALYZE episode_chunks")
    return db_url


def _leg(db_url: str, kept: TermEstimates | None) -> list[dict[str, Any]]:
    q = EpisodeQuery(PROJECT, SUBJECT, START + timedelta(days=365))
    with psycopg.connect(db_url, row_factory=psycopg.rows.dict_row) as conn, conn.transaction():
        conn.execute("SET LOCAL ROLE haki_app")
        conn.execute("SELECT set_config('app.project_id', %s, true)", (PROJECT,))
        return conn.execute(LEXICAL, lexical_params(q, TERMS, CFG, kept)).fetchall()


def _returned(rows: list[dict[str, Any]]) -> list[tuple[Any, Any, Any]]:
    return [(r["token"], r["estimated_terms"], r["estimates"]) for r in rows if r["token"]]


def _ids(rows: list[dict[str, Any]]) -> list[Any]:
    return [(r["id"], r["postings"]) for r in rows]


def test_estimates_are_returned_once_and_used_under_their_token(scope: str) -> None:
    first = _leg(scope, None)
    assert first, "the rare term brings its turns"
    [(token, terms, estimates)] = _returned(first)  # on one row only
    assert terms == sorted(TERMS)
    by_term = dict(zip(terms, estimates, strict=True))
    assert by_term[COMMON] > CFG.episode_term_postings >= by_term[RARE] > 0
    # Only the rare term was looked up: its estimate is the leg's postings.
    assert {r["postings"] for r in first} == {by_term[RARE]}

    kept = TermEstimates()
    kept.learn(PROJECT, SUBJECT, token, terms, estimates)
    again = _leg(scope, kept)
    assert _ids(again) == _ids(first)
    assert _returned(again) == []  # given, so not computed: nothing to keep

    # Estimates handed back under the token are used as they are: claimed
    # rare, the common term is looked up too.
    claimed = TermEstimates()
    claimed.learn(PROJECT, SUBJECT, token, terms, [1 if t == COMMON else by_term[t] for t in terms])
    widened = _leg(scope, claimed)
    assert len(widened) > len(first)
    assert {r["postings"] for r in widened} == {1 + by_term[RARE]}


def test_other_statistics_have_another_token(scope: str) -> None:
    [(token, terms, estimates)] = _returned(_leg(scope, None))
    stale = TermEstimates()
    stale.learn(PROJECT, SUBJECT, token + 1, terms, [1] * len(terms))
    # Under another token the kept estimates are ignored and computed again.
    assert _returned(_leg(scope, stale)) == [(token, terms, estimates)]

    with psycopg.connect(scope, autocommit=True) as owner:
        _insert(owner, TURNS, [f"Alice sang in Porto, take {i}" for i in range(TURNS)])
        owner.execute("ANALYZE episode_chunks")
    kept = TermEstimates()
    kept.learn(PROJECT, SUBJECT, token, terms, [1] * len(terms))
    [(new_token, new_terms, new_estimates)] = _returned(_leg(scope, kept))
    assert new_token != token and new_terms == terms
    assert new_estimates != [1] * len(terms)
