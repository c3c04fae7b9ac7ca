-- Embedding spaces: every stored vector says which model made it, and
-- vectors of different models are never compared.
--
-- A space is (provider, model, dimensions). Each process registers the
-- space of its embedder at start (storage.spaces.register_space) and every
-- transaction it opens carries its id in ``haki.embedding_space``
-- (storage.db.Database.embedding_space). A trigger stamps each row whose
-- embedding is written with that id, so no writer can forget it; rows
-- written before this migration, or by a process that registered no space,
-- carry NULL, read as space 1: the first space registered, which on an
-- upgraded database is the model that wrote them (start once with it).
--
-- The context reads compare a query only with rows of the space its
-- process embeds in (context_embedding_space(), in the cosine functions'
-- filters and in every distance computed outside them).
--
-- Re-embedding into another space (haki embeddings reembed) writes the new
-- vectors beside the rows, in embedding_staging, while the old space keeps
-- serving; when a project is complete one transaction moves them into the
-- rows (the trigger stamps them) and empties its staging.
CREATE TABLE embedding_spaces (
    id          smallint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    provider    text NOT NULL,
    model       text NOT NULL,
    dimensions  integer NOT NULL CHECK (dimensions > 0),
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (provider, model, dimensions)
);

ALTER TABLE facts ADD COLUMN embedding_space smallint;
ALTER TABLE episode_chunks ADD COLUMN embedding_space smallint;
ALTER TABLE events ADD COLUMN embedding_space smallint;

CREATE FUNCTION context_embedding_space() RETURNS smallint
    LANGUAGE sql STABLE PARALLEL SAFE
AS $$
    SELECT coalesce(nullif(current_setting('haki.embedding_space', true), '')::smallint, 1::smallint)
$$;

CREATE FUNCTION stamp_embedding_space() RETURNS trigger
    LANGUAGE plpgsql
AS $$
BEGIN
    NEW.embedding_space := CASE WHEN NEW.embedding IS NULL THEN NULL
        ELSE nullif(current_setting('haki.embedding_space', true), '')::smallint END;
    RETURN NEW;
END
$$;

CREATE TRIGGER facts_embedding_space BEFORE INSERT OR UPDATE OF embedding ON facts
    FOR EACH ROW EXECUTE FUNCTION stamp_embedding_space();
CREATE TRIGGER episode_chunks_embedding_space BEFORE INSERT OR UPDATE OF embedding ON episode_chunks
    FOR EACH ROW EXECUTE FUNCTION stamp_embedding_space();
CREATE TRIGGER events_embedding_space BEFORE INSERT OR UPDATE OF embedding ON events
    FOR EACH ROW EXECUTE FUNCTION stamp_embedding_space();

-- Vectors of a space being built, beside the rows they will replace. No
-- fixed dimension: any space's vectors fit; nothing searches them here.
CREATE TABLE embedding_staging (
    space       smallint NOT NULL REFERENCES embedding_spaces (id),
    kind        text NOT NULL CHECK (kind IN ('chunk', 'event', 'fact')),
    row_id      uuid NOT NULL,
    project_id  text NOT NULL,
    embedding   vector NOT NULL,
    PRIMARY KEY (space, project_id, kind, row_id)
);

-- The cosine legs of 0111, now within the query's space. Only the filters
-- change: the scope count, the branches and their plans are as before.
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
    ELSE
        RETURN QUERY
        SELECT f.id FROM facts f
        WHERE f.project_id = v_project AND f.subject_id = p_subject_id
          AND f.status = ANY(p_statuses)
          AND (f.valid_to IS NULL OR f.valid_to > p_at)
          AND (NOT p_bounded OR coalesce(f.valid_from, f.recorded_from) <= p_at)
          AND f.id <> ALL(p_exclude)
          AND coalesce(f.embedding_space, 1::smallint) = v_space
        ORDER BY f.embedding <=> p_vec
        LIMIT p_k;
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
    ELSE
        RETURN QUERY
        SELECT c.id FROM episode_chunks c
        WHERE c.project_id = v_project AND c.subject_id = p_subject_id AND c.occurred_at <= p_at
          AND coalesce(c.embedding_space, 1::smallint) = v_space
        ORDER BY c.embedding <=> p_vec
        LIMIT p_k;
    END IF;
END
$$;

-- Staged vectors are read and written by the re-embedding job as the table
-- owner only; the application role sees none of them.
ALTER TABLE embedding_staging ENABLE ROW LEVEL SECURITY;

-- A row deleted (forgotten, or taken out of service) takes its staged vector
-- with it, whichever path deletes it: a vector is derived from the row's
-- text and must not outlive it. Security definer: the staging table is the
-- owner's alone.
CREATE INDEX embedding_staging_row ON embedding_staging (project_id, row_id);

CREATE FUNCTION drop_staged_embedding() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = public, pg_temp
AS $$
BEGIN
    DELETE FROM embedding_staging WHERE project_id = OLD.project_id AND row_id = OLD.id;
    RETURN OLD;
END
$$;

CREATE TRIGGER facts_drop_staged AFTER DELETE ON facts
    FOR EACH ROW EXECUTE FUNCTION drop_staged_embedding();
CREATE TRIGGER episode_chunks_drop_staged AFTER DELETE ON episode_chunks
    FOR EACH ROW EXECUTE FUNCTION drop_staged_embedding();
CREATE TRIGGER events_drop_staged AFTER DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION drop_staged_embedding();
