-- The episode full-text leg (0058) adds at most p_limit rows matching every
-- term, not a whole per-term share: only p_limit rows are returned, so more
-- intersection rows than that only cost heap visits (up to 256 more a call
-- on the conversational bench workload). Same signature and contract.
CREATE OR REPLACE FUNCTION context_episode_lexical(
    p_subject_id  text,
    p_at          timestamptz,
    p_terms       text[],
    p_limit       integer,
    p_term_limit  integer,
    p_fetch_limit integer
) RETURNS TABLE (id uuid, fulltext double precision, fetched integer, ranked integer)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    ROWS 64
    SET search_path = public, pg_temp
AS $$
DECLARE
    v_project text := nullif(current_setting('app.project_id', true), '');
    v_terms   text[] := ARRAY(
        SELECT DISTINCT ON (t.term) t.term FROM unnest(p_terms) WITH ORDINALITY AS t(term, n)
        WHERE t.term ~ '^[[:alnum:]]+$' ORDER BY t.term, t.n);
    v_count   integer := cardinality(v_terms);
    v_each    integer;
    v_any     tsquery;
    v_all     tsquery;
BEGIN
    IF p_limit < 1 OR v_count = 0 OR v_project IS NULL THEN
        RETURN;
    END IF;
    v_each := greatest(1, least(p_term_limit, p_fetch_limit / v_count));
    v_any := context_prefix_query(v_terms);
    SELECT to_tsquery('simple', string_agg(quote_literal(t) || ':*', ' & ' ORDER BY t))
      INTO v_all FROM unnest(v_terms) AS t;
    RETURN QUERY
    WITH hits AS MATERIALIZED (
        SELECT hit.id, hit.search_vector
        FROM unnest(v_terms) AS t(term)
        CROSS JOIN LATERAL (
            SELECT c.id, c.search_vector
            FROM episode_chunks c
            WHERE c.project_id = v_project
              AND c.subject_id = p_subject_id
              AND c.occurred_at <= p_at
              AND c.search_vector @@ context_prefix_query(ARRAY[t.term])
            LIMIT v_each
        ) hit
        LIMIT p_fetch_limit
    ), every_term AS MATERIALIZED (
        SELECT c.id, c.search_vector
        FROM episode_chunks c
        WHERE v_count > 1
          AND c.project_id = v_project
          AND c.subject_id = p_subject_id
          AND c.occurred_at <= p_at
          AND c.search_vector @@ v_all
        LIMIT least(v_each, p_limit)
    ), scored AS MATERIALIZED (
        SELECT m.id, ts_rank_cd(m.search_vector, v_any, 32)::float8 AS fulltext
        FROM (
            SELECT DISTINCT ON (u.id) u.id, u.search_vector
            FROM (SELECT * FROM hits UNION ALL SELECT * FROM every_term) u
            ORDER BY u.id
        ) m
    )
    SELECT s.id, s.fulltext,
           ((SELECT count(*) FROM hits) + (SELECT count(*) FROM every_term))::integer,
           (SELECT count(*) FROM scored)::integer
    FROM scored s
    ORDER BY s.fulltext DESC, s.id
    LIMIT p_limit;
END
$$;
