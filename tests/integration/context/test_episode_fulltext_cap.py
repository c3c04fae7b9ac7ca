"""The episode full-text leg caps each term's matches without losing rare terms."""

import psycopg


def _leg(db_url: str, terms: list[str], term_limit: int, fetch_limit: int = 2000) -> list[str]:
    with psycopg.connect(db_url) as conn, conn.transaction():
        conn.execute("SET LOCAL ROLE haki_app")
        conn.execute("SELECT set_config('app.project_id', 'proj', true)")
        rows = conn.execute(
            "SELECT c.text FROM context_episode_lexical('alice', now(), %s::text[], 64, %s, %s) t "
            "JOIN episode_chunks c ON c.id = t.id ORDER BY t.fulltext DESC, t.id",
            (terms, term_limit, fetch_limit),
        ).fetchall()
    return [r[0] for r in rows]


def test_a_rare_term_is_ranked_however_common_the_other_terms(db_url):
    with psycopg.connect(db_url, autocommit=True) as owner:
        owner.execute(
            "INSERT INTO events (id, project_id, subject_id, kind, occurred_at, payload, hash, idempotency_key) "
            "VALUES ('00000000-0000-0000-0000-000000000001', 'proj', 'alice', 'm', now(), '{}', 'h', 'k')"
        )
        texts = [f"Anna said hello number {i}" for i in range(40)] + [
            "Anna said the marathon went well"
        ]
        with owner.cursor() as cur:
            cur.executemany(
                "INSERT INTO episode_chunks (event_id, ordinal, project_id, subject_id, kind, occurred_at, text) "
                "VALUES ('00000000-0000-0000-0000-000000000001', %s, 'proj', 'alice', 'm', now() - interval '1 day', %s)",
                list(enumerate(texts)),
            )
    capped = _leg(db_url, ["anna", "said", "marathon"], term_limit=5)
    assert capped[0] == "Anna said the marathon went well"
    # Each common term brought at most 5 rows, the rare one its own, and at
    # most 5 more match all three.
    assert len(capped) <= 5 + 5 + 1 + 5
    uncapped = _leg(db_url, ["anna", "said", "marathon"], term_limit=1000)
    assert len(uncapped) == 41 and uncapped[0] == capped[0]
    # 9 fetches in all, 3 per term: the rare term still brings its row.
    assert (
        _leg(db_url, ["anna", "said", "marathon"], term_limit=1000, fetch_limit=9)[0] == capped[0]
    )
