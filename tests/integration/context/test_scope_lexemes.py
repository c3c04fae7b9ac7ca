"""The episode full-text leg reads its own scope's postings, not the table's (migration 0103).

A small subject shares the table with a large one that uses the same words:
the lookup of the small one's words must read the small one's matches only,
whatever the other holds, and return what a plain `@@` over the scope returns.
"""

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import psycopg
import pytest
from plans import nested_plans

from haki.context.config import DEFAULT
from haki.context.episode_candidates import LEXICAL, EpisodeQuery, lexical_params
from haki.text.lexicon import query_terms

PROJECT = "proj"
SMALL, LARGE = "alice", "bob"
SMALL_TURNS, LARGE_TURNS = 12, 3_000
QUESTION = "Which guitar did she buy in Lisbon?"
START = datetime(2026, 1, 1, tzinfo=UTC)
EVENT = "00000000-0000-0000-0000-000000000103"


def _copy_turns(owner: psycopg.Connection, rows: list[tuple[str, str, str]]) -> None:
    with (
        owner.cursor() as cur,
        cur.copy(
            "COPY episode_chunks (event_id, ordinal, project_id, subject_id, kind, occurred_at, text) "
            "FROM STDIN"
        ) as copy,
    ):
        for i, (project, subject, text) in enumerate(rows):
            copy.write_row((EVENT, i, project, subject, "m", START + timedelta(minutes=i), text))


@pytest.fixture
def shared_table(db_url: str) -> str:
    """A small and a large subject of one project, and the small one's name in
    another project, all using the question's words."""
    with psycopg.connect(db_url, autocommit=True) as owner:
        owner.execute(
            "INSERT INTO events (id, project_id, subject_id, kind, occurred_at, payload, hash, "
            "idempotency_key) VALUES (%s, %s, %s, 'm', %s, '{}', 'h', 'k'), "
            "(%s, 'other', %s, 'm', %s, '{}', 'h', 'k')",
            (EVENT, PROJECT, SMALL, START, EVENT, SMALL, START),
        )
        rows = [
            (PROJECT, SMALL, f"Alice bought a guitar in Lisbon, take {i}")
            for i in range(SMALL_TURNS)
        ]
        rows += [
            (PROJECT, LARGE, f"Bob wants the guitar from Lisbon, day {i}")
            for i in range(LARGE_TURNS)
        ]
        rows += [("other", SMALL, f"Another Alice: a guitar in Lisbon {i}") for i in range(200)]
        _copy_turns(owner, rows)
        owner.execute("ANALYZE episode_chunks")
    return db_url


# Postings caps wide enough to look every term up: in the large subject each
# occurs in all of its turns, which the default caps would leave out (0105).
WIDE = replace(
    DEFAULT, episode_term_postings=2 * LARGE_TURNS, episode_lexical_postings=8 * LARGE_TURNS
)


def _lexical(conn: psycopg.Connection, subject: str) -> list[tuple]:
    q = EpisodeQuery(PROJECT, subject, START + timedelta(days=365))
    params = lexical_params(q, query_terms(QUESTION, WIDE.max_query_terms), WIDE)
    return conn.execute(LEXICAL, params).fetchall()


def _as_app(conn: psycopg.Connection) -> None:
    conn.execute("SET ROLE haki_app")
    conn.execute("SELECT set_config('app.project_id', %s, false)", (PROJECT,))


@pytest.mark.superuser
def test_a_small_scope_reads_its_own_postings(shared_table):
    q = EpisodeQuery(PROJECT, SMALL, START + timedelta(days=365))
    params = lexical_params(q, query_terms(QUESTION, DEFAULT.max_query_terms), DEFAULT)
    # No setting: the keyed GIN is the only index a lookup can read (0104).
    plans, rows = nested_plans(shared_table, LEXICAL, params)
    scans = [
        line
        for line in plans.splitlines()
        if "Bitmap Index Scan on episode_chunks_scope_lexemes" in line
    ]
    assert scans, plans
    # Each lookup's bitmap holds the small scope's matches: never the large
    # subject's 3,000 turns, nor the other project's 200.
    read = [int(float(line.split("rows=")[-1].split()[0])) for line in scans]
    assert max(read) <= SMALL_TURNS, plans
    assert len(rows) == SMALL_TURNS
    # 'guitar' and 'lisbon' fetch the 12 turns each; 'buy' and the turns
    # matching every term, none.
    assert {r[1] for r in rows} == {2 * SMALL_TURNS}


@pytest.mark.superuser
@pytest.mark.parametrize("plan", ["force_custom_plan", "force_generic_plan"])
def test_a_lookup_never_reads_the_scope_index(shared_table, plan):
    """The scope is in every keyed word already: a lookup that also read the
    scope's btree would read every turn of the scope for each term. The
    generic plan, which the plan cache of a long-lived connection settles
    on, does not know the scope's size and took it (migration 0104). Only
    the count of the scope's turns (0105) reads the btree, once, up to the
    per-term postings cap."""
    q = EpisodeQuery(PROJECT, LARGE, START + timedelta(days=365))
    params = lexical_params(q, query_terms(QUESTION, WIDE.max_query_terms), WIDE)
    plans, rows = nested_plans(shared_table, LEXICAL, params, (f"plan_cache_mode = {plan}",))
    lookups = [p for p in plans.split("duration: ") if "hits AS MATERIALIZED" in p]
    assert len(lookups) == 1, plans
    scans = [line.strip() for line in lookups[0].splitlines() if "Index Scan" in line]
    assert scans, plans
    assert all("on episode_chunks_scope_lexemes" in line for line in scans), plans
    assert "Seq Scan on episode_chunks" not in plans, plans
    assert len(rows) == DEFAULT.episode_candidates


def test_the_scoped_lookup_returns_what_a_plain_match_returns(shared_table):
    """The same ids as the scope's turns that match a term's prefix."""
    with psycopg.connect(shared_table, autocommit=True) as conn:
        _as_app(conn)
        for subject, expected in ((SMALL, SMALL_TURNS), (LARGE, DEFAULT.episode_candidates)):
            ids = {r[0] for r in _lexical(conn, subject)}
            plain = {
                r[0]
                for r in conn.execute(
                    "SELECT id FROM episode_chunks WHERE project_id = %s AND subject_id = %s "
                    "AND search_vector @@ to_tsquery('simple', 'guitar:* | lisbon:*')",
                    (PROJECT, subject),
                ).fetchall()
            }
            assert len(ids) == expected
            assert ids <= plain


def test_a_word_at_the_lexeme_limit_is_stored(db_url):
    """A lexeme holds at most 2,046 bytes: the scope key must not push a long
    word over it, or the insert of its turn would fail."""
    long_word = "x" * 2_040
    with psycopg.connect(db_url, autocommit=True) as owner:
        owner.execute(
            "INSERT INTO events (id, project_id, subject_id, kind, occurred_at, payload, hash, "
            "idempotency_key) VALUES (%s, %s, %s, 'm', %s, '{}', 'h', 'k')",
            (EVENT, PROJECT, SMALL, START),
        )
        _copy_turns(owner, [(PROJECT, SMALL, f"guitar {long_word}")])
        _as_app(owner)
        assert len(_lexical(owner, SMALL)) == 1
