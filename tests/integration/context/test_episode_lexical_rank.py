"""The episode full-text leg scores a match against its own terms (migration 0104).

ts_rank_cd zeroes a 32 kB buffer per query item, so each match is scored
against the OR of the terms it matches instead of all of them. The score
must be the one the whole OR gives, for turns that repeat a word, match
several terms, or match two terms with one word (a term that is a prefix of
another).
"""

from datetime import UTC, datetime, timedelta

import psycopg

from haki.context.config import DEFAULT
from haki.context.episode_candidates import EpisodeQuery, lexical_params

PROJECT, SUBJECT = "proj", "alice"
START = datetime(2026, 1, 1, tzinfo=UTC)
EVENT = "00000000-0000-0000-0000-000000000105"
TERMS = ["gui", "guitar", "lisbon", "buy", "tuesday"]
TEXTS = [
    "guitar",
    "guitar guitar guitar",
    "a guitarist in Lisbon bought a guitar",
    "Lisbon, then Lisbon again, and a guitar in Lisbon",
    "buy buy buy: guidance on what to buy",
    "Tuesday in Lisbon: buy the guitar, play the guitar",
    "nothing that matches here",
    "guilt, guile and a guide",
]


def test_each_match_scores_as_against_every_term(db_url):
    with psycopg.connect(db_url, autocommit=True) as owner:
        owner.execute(
            "INSERT INTO events (id, project_id, subject_id, kind, occurred_at, payload, hash, "
            "idempotency_key) VALUES (%s, %s, %s, 'm', %s, '{}', 'h', 'k')",
            (EVENT, PROJECT, SUBJECT, START),
        )
        with (
            owner.cursor() as cur,
            cur.copy(
                "COPY episode_chunks (event_id, ordinal, project_id, subject_id, kind, "
                "occurred_at, text) FROM STDIN"
            ) as copy,
        ):
            for i, text in enumerate(TEXTS):
                copy.write_row(
                    (EVENT, i, PROJECT, SUBJECT, "m", START + timedelta(minutes=i), text)
                )
        every = " | ".join(f"{t}:*" for t in TERMS)
        expected = owner.execute(
            "SELECT id, ts_rank_cd(search_vector, to_tsquery('simple', %s), 32)::float8 AS r "
            "FROM episode_chunks WHERE search_vector @@ to_tsquery('simple', %s) "
            "ORDER BY r DESC, id",
            (every, every),
        ).fetchall()
        owner.execute("SET ROLE haki_app")
        owner.execute("SELECT set_config('app.project_id', %s, false)", (PROJECT,))
        q = EpisodeQuery(PROJECT, SUBJECT, START + timedelta(days=1))
        got = owner.execute(
            "SELECT t.id, t.fulltext FROM context_episode_lexical(%(subject_id)s, %(at)s, "
            "%(terms)s::text[], %(lex_k)s, %(term_limit)s, %(fetch_limit)s) t",
            lexical_params(q, TERMS, DEFAULT),
        ).fetchall()
    assert len(expected) == len(TEXTS) - 1
    # The same rows, order and scores, to the last bit; and the scores differ,
    # so the order is the scores' and not only the ids'.
    assert [tuple(r) for r in got] == [tuple(r) for r in expected]
    assert len({r[1] for r in expected}) >= 4
