"""Embeddings stay in their rows (migration 0107): a distance never reads TOAST.

A turn or a fact of a few hundred characters makes a row of more than 2 kB
with its 1,544-byte embedding and its tsvector: past PostgreSQL's default
toast_tuple_target the embedding would be moved out of line, and every
distance the cosine leg and the neighbours compute would fetch it back.
"""

import psycopg
from pgvector.psycopg import register_vector

EVENT = "00000000-0000-0000-0000-000000000107"
# 640 characters of distinct words: with the embedding and the tsvector, a
# row of about 3 kB, past the 2 kB at which PostgreSQL moves values out by default.
LONG = " ".join(f"word{i:03d}" for i in range(80))


def test_long_rows_keep_their_embedding_inline(db_url, hash_embedder):
    vector = hash_embedder.embed_documents([LONG])[0]
    with psycopg.connect(db_url, autocommit=True) as owner:
        register_vector(owner)
        owner.execute(
            "INSERT INTO events (id, project_id, subject_id, kind, occurred_at, payload, hash, idempotency_key) "
            "VALUES (%s, 'proj', 'alice', 'm', now(), '{}', 'h', 'k107')",
            (EVENT,),
        )
        owner.execute(
            "INSERT INTO episode_chunks (event_id, ordinal, project_id, subject_id, kind, occurred_at, text, embedding) "
            "VALUES (%s, 0, 'proj', 'alice', 'm', now(), %s, %s)",
            (EVENT, LONG, vector),
        )
        owner.execute(
            "INSERT INTO facts (project_id, subject_id, predicate, value, status, search_text, embedding) "
            "VALUES ('proj', 'alice', 'note', to_jsonb(%s::text), 'active', %s, %s)",
            (LONG, LONG, vector),
        )
        for table in ("episode_chunks", "facts"):
            row = owner.execute(
                f"SELECT pg_column_size(t.*) AS size, pg_column_toast_chunk_id(t.embedding) AS chunk "
                f"FROM {table} t WHERE t.project_id = 'proj'"
            ).fetchone()
            assert row is not None
            size, chunk = row
            assert size > 2_500, (table, size)  # the row is long enough to have been toasted
            assert chunk is None, table  # and its embedding is in the row
