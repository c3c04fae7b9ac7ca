-- The episode full-text leg (0058, 0059) with each term's tsquery built once
-- per call, not once per row.
--
-- 0059 matched every row with `c.search_vector @@ context_prefix_query(ARRAY[t.term])`.
-- Through the GIN index that call runs once per term; but where the planner
-- reads the scope index instead and tests `@@` as a filter (a scope much
-- smaller than the table, as with LoCoMo's 5 scopes of 370-680 turns in one
-- table; or a table not analysed yet, as right after a bulk capture), the
-- SQL function that parses the tsquery ran for every row it passed: 12 ms
-- a call at the median on LoCoMo scopes, 90 ms on 10,000 fresh turns, for
-- ~300 and ~750 matches. The per-term tsqueries are now an array computed
-- before the statement, and the lateral matches against its element. Same
-- signature, same rows, same counts.
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
    v_queries tsquery[];  -- one prefix query per term, in v_terms' order
    v_any     tsquery;
    v_all     tsquery;
BEGIN
    IF p_limit < 1 OR v_count = 0 OR v_project IS NULL THEN
        RETURN;
    END IF;
    v_each := greatest(1, least(p_term_limit, p_fetch_limit / v_count));
    v_queries := ARRAY(
        SELECT to_tsquery('simple', quote_literal(t.term) || ':*')
        FROM unnest(v_terms) WITH ORDINALITY AS t(term, n) ORDER BY t.n);
    v_any := context_prefix_query(v_terms);
    SELECT to_tsquery('simple', string_agg(quote_literal(t) || ':*', ' & ' ORDER BY t))
      INTO v_all FROM unnest(v_terms) AS t;
    RETURN QUERY
    WITH hits AS MATERIALIZED (
        SELECT hit.id, hit.search_vector
        FROM unnest(v_queries) AS t(q)
        CROSS JOIN LATERAL (
            SELECT c.id, c.search_vector
            FROM episode_chunks c
            WHERE c.project_id = v_project
              AND c.subject_id = p_subject_id
              AND c.occurred_at <= p_at
              AND c.search_vector @@ t.q
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
