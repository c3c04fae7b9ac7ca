-- Full-text columns are generated: the tsvector is built once at write time
-- and never re-parsed per query. 'simple' keeps the index language-neutral
-- (English and French memories share one project).
ALTER TABLE facts
    ADD COLUMN search_vector tsvector
    GENERATED ALWAYS AS (to_tsvector('simple', search_text)) STORED;
ALTER TABLE episode_chunks
    ADD COLUMN search_vector tsvector
    GENERATED ALWAYS AS (to_tsvector('simple', text)) STORED;

CREATE INDEX facts_search_vector ON facts USING gin (search_vector);
CREATE INDEX episode_chunks_search_vector ON episode_chunks USING gin (search_vector);

CREATE INDEX facts_embedding ON facts USING hnsw (embedding vector_cosine_ops);
CREATE INDEX episode_chunks_embedding ON episode_chunks USING hnsw (embedding vector_cosine_ops);
CREATE INDEX events_embedding ON events USING hnsw (embedding vector_cosine_ops);
