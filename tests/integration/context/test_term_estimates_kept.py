"""The episode full-text leg takes the server's term estimates only under its statistics' token (0174).

A scope larger than ``episode_term_postings`` has its terms estimated from
the statistics; the leg returns what the estimates come from with the
statistics' token, from which the server works out the same estimates, uses
estimates handed back with that token instead of computing them, and
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
PLACES = {"madrid": 16, "malaga": 9, "paris": 7, "parma": 23, "oslo": 97, "rome": 5}
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
        # Words of several frequencies, some sharing a prefix.
        for place, every in PLACES.items():
            for i in range(1, TURNS, every):
                texts[i] += f", then {place}"
        _insert(owner, 0, texts)
        owner.execute("ANALYZE episode_chunks")
    return db_url


def _leg(db_url: str, kept: TermEstimates | None, terms: list[str] = TERMS) -> list[dict[str, Any]]:
    q = EpisodeQuery(PROJECT, SUBJECT, START + timedelta(days=365))
    with psycopg.connect(db_url, row_factory=psycopg.rows.dict_row) as conn, conn.transaction():
        conn.execute("SET LOCAL ROLE haki_app")
        conn.execute("SELECT set_config('app.project_id', %s, true)", (PROJECT,))
        return conn.execute(LEXICAL, lexical_params(q, terms, CFG, kept)).fetchall()


def _returned(rows: list[dict[str, Any]]) -> list[tuple[Any, Any, Any, Any]]:
    return [
        (r["token"], r["scope_words"], r["scope_freqs"], r["scope_rows"])
        for r in rows
        if r["token"] is not None
    ]


def _ids(rows: list[dict[str, Any]]) -> list[Any]:
    return [(r["id"], r["postings"]) for r in rows]


def test_the_server_works_out_the_estimates_the_leg_computes(scope: str) -> None:
    [returned] = _returned(_leg(scope, None))  # on one row only
    kept = TermEstimates()
    kept.learn(PROJECT, SUBJECT, *returned)
    terms = [*PLACES, "ma", "par", "p", "lis", "x", "take", "guitar"]
    known = kept.known(PROJECT, SUBJECT, terms)
    assert known["token"] == returned[0] and known["known_terms"] == terms
    estimates = dict(zip(terms, known["known_estimates"], strict=True))
    compared = 0
    for term in terms:
        # One term alone: the leg's postings are its own estimate when kept.
        rows = _leg(scope, None, [term])
        if rows:
            assert rows[0]["postings"] == estimates[term], term
            compared += 1
        else:
            assert estimates[term] == 0 or estimates[term] > CFG.episode_term_postings, term
    assert compared >= 6
    assert estimates["ma"] > estimates["madrid"] > 0 and estimates["x"] == 0


def test_estimates_given_under_the_token_are_used(scope: str) -> None:
    first = _leg(scope, None)
    assert first, "the rare term brings its turns"
    [returned] = _returned(first)
    kept = TermEstimates()
    kept.learn(PROJECT, SUBJECT, *returned)
    again = _leg(scope, kept)
    assert _ids(again) == _ids(first)
    assert _returned(again) == []  # given, so the statistics were not read

    # Estimates handed back under the token are used as they are: claimed
    # rare, the common term is looked up too.
    claimed = {COMMON: 1, RARE: kept.known(PROJECT, SUBJECT, [RARE])["known_estimates"][0]}
    widened = _leg(scope, _Claimed(returned[0], claimed))
    assert len(widened) > len(first)
    assert {r["postings"] for r in widened} == {1 + claimed[RARE]}


class _Claimed(TermEstimates):
    """Hands the leg estimates of its own, under a given token."""

    def __init__(self, token: int, estimates: dict[str, int]) -> None:
        super().__init__()
        self._token, self._estimates = token, estimates

    def known(self, project_id: str, subject_id: str, terms: Any) -> dict[str, Any]:
        return {
            "token": self._token,
            "known_terms": list(self._estimates),
            "known_estimates": list(self._estimates.values()),
        }


def test_other_statistics_have_another_token(scope: str) -> None:
    [returned] = _returned(_leg(scope, None))
    token = returned[0]
    # Under another token what is handed is ignored and computed again.
    assert _returned(_leg(scope, _Claimed(token + 1, dict.fromkeys(TERMS, 1)))) == [returned]

    with psycopg.connect(scope, autocommit=True) as owner:
        _insert(owner, TURNS, [f"Alice sang in Porto, take {i}" for i in range(TURNS)])
        owner.execute("ANALYZE episode_chunks")
    [again] = _returned(_leg(scope, _Claimed(token, dict.fromkeys(TERMS, 1))))
    assert again[0] != token and again[1] != returned[1]
