-- The cosine legs as functions: every statement of a context read runs on
-- one plan made once per connection, and a large scope's read is bounded.
--
-- Up to 0110 each cosine leg was a CTE of the phase-2 statement
-- (candidates.SCOPED_COSINE): count the scope up to a cap, then read it
-- exactly or walk hnsw, each branch under a one-time filter. Two things
-- followed from planning it as one statement:
-- - it was planned afresh on every call (0.5-0.6 ms of PostgreSQL time per
--   leg, two legs a call) while the plan cache kept custom plans;
-- - where the plan cache settled on the generic plan instead (a large
--   subject among many, after a few calls on a pooled connection), that
--   plan, made for the table's average subject, read the large scope whole
--   and sorted it on every call: 119 ms for 50,000 facts, growing with the
--   subject (bench/scale.py, docs/scaling.md).
--
-- Here the count decides the branch at run time and each branch has one
-- plan, whatever the estimates:
-- - the count reads the scope index, stopping at the cap plus one;
-- - the exact read orders by cosine_distance(), which no index serves, then
--   by id (rows at one distance make the top-K by id, not by the order a
--   plan happens to read them in): it reads the scope's rows through the
--   scope index and sorts them;
-- - the other branch orders by the indexed operator with sorts, bitmap and
--   sequential scans disabled, which leaves the hnsw walk (pgvector's
--   iterative scan, as the transaction sets it) as the one plan without a
--   disabled node. Its cost follows ef_search and the scope's share of the
--   table, never the scope's size; the cap (the recipe's
--   hnsw_scope_share, a tenth of the table) keeps a scope cheaper to read
--   exactly out of this branch.
-- So the bodies run on generic plans, and so does the statement that calls
-- them (read_settings). The cap is the one 0110's statement computed: an
-- unanalysed table reads up to p_exact_rows exactly.
--
-- Security invoker: row-level security applies to the bodies as to the rest
-- of the read, and the scope's project is the one the transaction is bound to.
CREATE FUNCTION context_cosine_cap(
    p_table       regclass,
    p_exact_rows  integer,
    p_cheap_rows  integer,
    p_share       double precision
) RETURNS bigint
    LANGUAGE sql STABLE
    SET search_path = public, pg_temp
AS $$
    SELECT CASE WHEN c.reltuples < 0 THEN p_exact_rows::bigint
           ELSE least(p_exact_rows, greatest(p_cheap_rows, ceil(p_share * c.reltuples)::bigint - 1))
           END
    FROM pg_class c WHERE c.oid = p_table
$$;

CREATE FUNCTION context_fact_cosine(
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
        ORDER BY cosine_distance(f.embedding, p_vec), f.id
        LIMIT p_k;
    ELSE
        -- hnsw order is approximate: no id tie-break (Python restores the
        -- total order by score).
        RETURN QUERY
        SELECT f.id FROM facts f
        WHERE f.project_id = v_project AND f.subject_id = p_subject_id
          AND f.status = ANY(p_statuses)
          AND (f.valid_to IS NULL OR f.valid_to > p_at)
          AND (NOT p_bounded OR coalesce(f.valid_from, f.recorded_from) <= p_at)
          AND f.id <> ALL(p_exclude)
        ORDER BY f.embedding <=> p_vec
        LIMIT p_k;
    END IF;
END
$$;

CREATE FUNCTION context_episode_cosine(
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
        ORDER BY cosine_distance(c.embedding, p_vec), c.id
        LIMIT p_k;
    ELSE
        RETURN QUERY
        SELECT c.id FROM episode_chunks c
        WHERE c.project_id = v_project AND c.subject_id = p_subject_id AND c.occurred_at <= p_at
        ORDER BY c.embedding <=> p_vec
        LIMIT p_k;
    END IF;
END
$$;

-- The full-text functions plan their own statements as before: the
-- transaction's generic-plan mode reaches the statements inside the
-- functions it calls too, and theirs were written for the plan cache's own
-- choice (the generic plan of context_episode_lexical's scope count, which
-- cannot know the subject, read a small subject's turns through another
-- index with a filter). The fact leg keeps its sequential scans, which the
-- read transaction now rules out (the episode leg rules them out itself, 0104).
ALTER FUNCTION context_episode_lexical(
    text, timestamptz, text[], integer, integer, integer, integer, integer, integer)
    SET plan_cache_mode = auto;

ALTER FUNCTION context_fact_lexical(
    text, text[], timestamptz, boolean, uuid[], text[], integer, double precision, integer,
    double precision, integer)
    SET plan_cache_mode = auto;

ALTER FUNCTION context_fact_lexical(
    text, text[], timestamptz, boolean, uuid[], text[], integer, double precision, integer,
    double precision, integer)
    SET enable_seqscan = on;
