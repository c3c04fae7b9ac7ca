-- Vectors of any size: a space's model decides the dimensions, not the schema.
--
-- Up to here the vector columns were vector(384), the one size the hnsw
-- indexes could take. They become plain ``vector`` (any size); hnsw needs a
-- fixed size, so each indexed size has its own partial expression index
-- (``embedding::vector(N)`` over the rows of N dimensions). A search names
-- its size as a literal so the planner can match that index: the 384-d
-- default keeps its static statements (one generic plan per connection, as
-- in 0111); another size's hnsw branch is a statement built with the size
-- and planned per call.
--
-- A space's vectors all have its declared dimensions: the stamp trigger
-- refuses any other size (SQLSTATE HK001, storage.db maps it to
-- EmbeddingDimensionMismatch) and the transaction writes nothing.
DROP INDEX IF EXISTS facts_embedding;
DROP INDEX IF EXISTS episode_chunks_embedding;

-- The stamp triggers of 0120 name the column: off while its type changes.
DROP TRIGGER facts_embedding_space ON facts;
DROP TRIGGER episode_chunks_embedding_space ON episode_chunks;
DROP TRIGGER events_embedding_space ON events;

ALTER TABLE facts ALTER COLUMN embedding TYPE vector;
ALTER TABLE episode_chunks ALTER COLUMN embedding TYPE vector;
ALTER TABLE events ALTER COLUMN embedding TYPE vector;

CREATE TRIGGER facts_embedding_space BEFORE INSERT OR UPDATE OF embedding ON facts
    FOR EACH ROW EXECUTE FUNCTION stamp_embedding_space();
CREATE TRIGGER episode_chunks_embedding_space BEFORE INSERT OR UPDATE OF embedding ON episode_chunks
    FOR EACH ROW EXECUTE FUNCTION stamp_embedding_space();
CREATE TRIGGER events_embedding_space BEFORE INSERT OR UPDATE OF embedding ON events
    FOR EACH ROW EXECUTE FUNCTION stamp_embedding_space();

-- The sizes with an hnsw index (providers.embed.INDEXED_DIMENSIONS lists the
-- same): MiniLM and e5-small (384), e5-base/nomic/bge-base (768), bge-large
-- and mxbai (1024), text-embedding-3-small (1536), and the Matryoshka cuts
-- of text-embedding-3-* (256, 512). pgvector's hnsw stops at 2,000.
DO $$
DECLARE
    size  integer;
    tbl   text;
BEGIN
    FOREACH size IN ARRAY ARRAY[256, 384, 512, 768, 1024, 1536] LOOP
        FOREACH tbl IN ARRAY ARRAY['facts', 'episode_chunks'] LOOP
            EXECUTE format(
                'CREATE INDEX %I ON %I USING hnsw ((embedding::vector(%s)) vector_cosine_ops) '
                'WHERE vector_dims(embedding) = %s',
                -- 384 keeps the name it had (bench and checks read it).
                tbl || '_embedding' || CASE WHEN size = 384 THEN '' ELSE '_' || size END,
                tbl, size, size);
        END LOOP;
    END LOOP;
END
$$;

CREATE FUNCTION embedding_space_dimensions(p_space smallint) RETURNS integer
    LANGUAGE sql STABLE PARALLEL SAFE
    SET search_path = public, pg_temp
AS $$
    SELECT dimensions FROM embedding_spaces WHERE id = p_space
$$;

-- The stamp of 0120, now also the guard: a vector of another size than its
-- space's is refused. NULL space (no process space) reads as space 1.
CREATE OR REPLACE FUNCTION stamp_embedding_space() RETURNS trigger
    LANGUAGE plpgsql
AS $$
DECLARE
    v_dims integer;
BEGIN
    NEW.embedding_space := CASE WHEN NEW.embedding IS NULL THEN NULL
        ELSE nullif(current_setting('haki.embedding_space', true), '')::smallint END;
    IF NEW.embedding IS NOT NULL THEN
        v_dims := embedding_space_dimensions(coalesce(NEW.embedding_space, 1::smallint));
        IF v_dims IS NOT NULL AND vector_dims(NEW.embedding) <> v_dims THEN
            RAISE EXCEPTION 'a % vector has % dimensions; its embedding space % has %',
                TG_TABLE_NAME, vector_dims(NEW.embedding), coalesce(NEW.embedding_space, 1), v_dims
                USING ERRCODE = 'HK001';
        END IF;
    END IF;
    RETURN NEW;
END
$$;

CREATE FUNCTION check_staged_dimensions() RETURNS trigger
    LANGUAGE plpgsql
AS $$
DECLARE
    v_dims integer := embedding_space_dimensions(NEW.space);
BEGIN
    IF vector_dims(NEW.embedding) <> v_dims THEN
        RAISE EXCEPTION 'a staged % vector has % dimensions; its embedding space % has %',
            NEW.kind, vector_dims(NEW.embedding), NEW.space, v_dims
            USING ERRCODE = 'HK001';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER embedding_staging_dimensions BEFORE INSERT OR UPDATE OF embedding ON embedding_staging
    FOR EACH ROW EXECUTE FUNCTION check_staged_dimensions();

-- The cosine legs of 0120 for any size. The exact branch orders by
-- cosine_distance(), which takes any size; the hnsw branch orders by the
-- indexed expression of the query's size, under the partial index's
-- predicate (vector_dims(embedding) = N). Within one space every row has
-- the query's size (the guard above), so that predicate drops nothing.
CREATE OR REPLACE FUNCTION context_fact_cosine(
    p_subject_id  text,
    p_statuses    text[],
    p_at          timestamptz,
    p_bounded     boolean,
    p_exclude     uuid[],
    p_vec         vector,
    p_k           integer,
    p_exact_rows  integer,
    p_cheap_rows  integer,
    p_share       double precision
) RETURNS TABLE (id uuid)
    LANGUAGE plpgsql STABLE
    ROWS 64
    SET search_path = public, pg_temp
    SET plan_cache_mode = force_generic_plan
    SET enable_seqscan = off
    SET enable_bitmapscan = off
    SET enable_sort = off
AS $$
DECLARE
    v_project text := nullif(current_setting('app.project_id', true), '');
    v_space   smallint := context_embedding_space();
    v_dims    integer := vector_dims(p_vec);
    v_cap     bigint := context_cosine_cap('public.facts', p_exact_rows, p_cheap_rows, p_share);
    v_rows    bigint;
BEGIN
    SELECT count(*) INTO v_rows FROM (
        SELECT 1 FROM facts f
        WHERE f.project_id = v_project AND f.subject_id = p_subject_id
          AND f.status = ANY(p_statuses)
        LIMIT v_cap + 1) s;
    IF v_rows <= v_cap THEN
        RETURN QUERY
        SELECT f.id FROM facts f
        WHERE f.project_id = v_project AND f.subject_id = p_subject_id
          AND f.status = ANY(p_statuses)
          AND (f.valid_to IS NULL OR f.valid_to > p_at)
          AND (NOT p_bounded OR coalesce(f.valid_from, f.recorded_from) <= p_at)
          AND f.id <> ALL(p_exclude)
          AND coalesce(f.embedding_space, 1::smallint) = v_space
        ORDER BY cosine_distance(f.embedding, p_vec), f.id
        LIMIT p_k;
    ELSIF v_dims = 384 THEN
        RETURN QUERY
        SELECT f.id FROM facts f
        WHERE f.project_id = v_project AND f.subject_id = p_subject_id
          AND f.status = ANY(p_statuses)
          AND (f.valid_to IS NULL OR f.valid_to > p_at)
          AND (NOT p_bounded OR coalesce(f.valid_from, f.recorded_from) <= p_at)
          AND f.id <> ALL(p_exclude)
          AND coalesce(f.embedding_space, 1::smallint) = v_space
          AND vector_dims(f.embedding) = 384
        ORDER BY f.embedding::vector(384) <=> p_vec
        LIMIT p_k;
    ELSE
        -- The size is an integer from vector_dims(): formatting it is safe.
        RETURN QUERY EXECUTE format($q$
        SELECT f.id FROM facts f
        WHERE f.project_id = $1 AND f.subject_id = $2
          AND f.status = ANY($3)
          AND (f.valid_to IS NULL OR f.valid_to > $4)
          AND (NOT $5 OR coalesce(f.valid_from, f.recorded_from) <= $4)
          AND f.id <> ALL($6)
          AND coalesce(f.embedding_space, 1::smallint) = $7
          AND vector_dims(f.embedding) = %1$s
        ORDER BY f.embedding::vector(%1$s) <=> $8
        LIMIT $9$q$, v_dims)
        USING v_project, p_subject_id, p_statuses, p_at, p_bounded, p_exclude, v_space, p_vec, p_k;
    END IF;
END
$$;

CREATE OR REPLACE FUNCTION context_episode_cosine(
    p_subject_id  text,
    p_at          timestamptz,
    p_vec         vector,
    p_k           integer,
    p_exact_rows  integer,
    p_cheap_rows  integer,
    p_share       double precision
) RETURNS TABLE (id uuid)
    LANGUAGE plpgsql STABLE
    ROWS 64
    SET search_path = public, pg_temp
    SET plan_cache_mode = force_generic_plan
    SET enable_seqscan = off
    SET enable_bitmapscan = off
    SET enable_sort = off
AS $$
DECLARE
    v_project text := nullif(current_setting('app.project_id', true), '');
    v_space   smallint := context_embedding_space();
    v_dims    integer := vector_dims(p_vec);
    v_cap     bigint := context_cosine_cap(
        'public.episode_chunks', p_exact_rows, p_cheap_rows, p_share);
    v_rows    bigint;
BEGIN
    SELECT count(*) INTO v_rows FROM (
        SELECT 1 FROM episode_chunks c
        WHERE c.project_id = v_project AND c.subject_id = p_subject_id AND c.occurred_at <= p_at
        LIMIT v_cap + 1) s;
    IF v_rows <= v_cap THEN
        RETURN QUERY
        SELECT c.id FROM episode_chunks c
        WHERE c.project_id = v_project AND c.subject_id = p_subject_id AND c.occurred_at <= p_at
          AND coalesce(c.embedding_space, 1::smallint) = v_space
        ORDER BY cosine_distance(c.embedding, p_vec), c.id
        LIMIT p_k;
    ELSIF v_dims = 384 THEN
        RETURN QUERY
        SELECT c.id FROM episode_chunks c
        WHERE c.project_id = v_project AND c.subject_id = p_subject_id AND c.occurred_at <= p_at
          AND coalesce(c.embedding_space, 1::smallint) = v_space
          AND vector_dims(c.embedding) = 384
        ORDER BY c.embedding::vector(384) <=> p_vec
        LIMIT p_k;
    ELSE
        RETURN QUERY EXECUTE format($q$
        SELECT c.id FROM episode_chunks c
        WHERE c.project_id = $1 AND c.subject_id = $2 AND c.occurred_at <= $3
          AND coalesce(c.embedding_space, 1::smallint) = $4
          AND vector_dims(c.embedding) = %1$s
        ORDER BY c.embedding::vector(%1$s) <=> $5
        LIMIT $6$q$, v_dims)
        USING v_project, p_subject_id, p_at, v_space, p_vec, p_k;
    END IF;
END
$$;
