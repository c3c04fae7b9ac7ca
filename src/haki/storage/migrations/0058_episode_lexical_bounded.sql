-- The episode full-text leg with every stage capped, so its cost depends on
-- the caps, not on how many turns share the query's words.
--
-- 0034 capped each term's matches, but not their sum: a query of 64
-- distinct words could read 64 x p_term_limit rows before the union was
-- cut to p_scan_limit, and a call reported nothing of what it read. Now:
--
--   1. each term fetches at most least(p_term_limit, p_fetch_limit / terms)
--      matches through the GIN index, p_fetch_limit in all whatever the
--      number of terms;
--   2. rows matching every term (one GIN intersection, the same per-term
--      cap) are added: a capped sample of each common word alone can miss
--      the turns that name two of them;
--   3. the distinct rows among them are scored by ts_rank_cd (at most
--      p_fetch_limit + p_term_limit: scoring costs a few microseconds a
--      row, reading a row from the heap about as much);
--   4. the best p_limit are returned.
--
-- Every row returned carries the counts of steps 1-2 (fetched) and 3
-- (ranked), so the caller can report and test them. Same contract as 0034
-- otherwise: rows of the transaction's project only (app.project_id), terms
-- matched as prefixes, quoted before parsing, no operator from user text.
-- The 0034 function stays for servers still running the previous version.
CREATE FUNCTION context_episode_lexical(
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
        LIMIT v_each
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
