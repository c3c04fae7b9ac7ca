-- The episode full-text leg with every stage capped, so its cost depends on
-- the caps, not on how many turns share the query's words.
--
-- 0034 fetched up to p_term_limit matches per term and scored every one of
-- them (up to p_scan_limit) with ts_rank_cd. Scoring is the expensive part
-- (positions, covers: tens of microseconds a row), so a question whose words
-- each match hundreds of turns spent most of the context call there. Now:
--
--   1. each term fetches at most least(p_term_limit, p_fetch_limit / terms)
--      matches through the GIN index: never more than p_fetch_limit in all;
--   2. rows matching every term (one GIN intersection, same per-term cap)
--      are added: a sample of each common term alone may miss them;
--   3. the fetched rows are ordered by the weight of the terms they were
--      fetched by (ln(1 + cap / matches): a term that fills its cap weighs
--      ln 2, a rare one more), and only the best p_rank_limit are scored by
--      ts_rank_cd;
--   4. the best p_limit by ts_rank_cd are returned.
--
-- Every row returned also carries the counts of steps 1-2 (fetched) and 3
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
    p_fetch_limit integer,
    p_rank_limit  integer
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
        SELECT t.term, hit.id
        FROM unnest(v_terms) AS t(term)
        CROSS JOIN LATERAL (
            SELECT c.id
            FROM episode_chunks c
            WHERE c.project_id = v_project
              AND c.subject_id = p_subject_id
              AND c.occurred_at <= p_at
              AND c.search_vector @@ context_prefix_query(ARRAY[t.term])
            LIMIT v_each
        ) hit
        LIMIT p_fetch_limit
    ), every_term AS MATERIALIZED (
        SELECT c.id
        FROM episode_chunks c
        WHERE v_count > 1
          AND c.project_id = v_project
          AND c.subject_id = p_subject_id
          AND c.occurred_at <= p_at
          AND c.search_vector @@ v_all
        LIMIT v_each
    ), df AS (
        SELECT h.term, count(*)::float8 AS n FROM hits h GROUP BY h.term
    ), best AS MATERIALIZED (
        SELECT m.id
        FROM (
            SELECT h.term, h.id FROM hits h
            UNION
            SELECT t.term, e.id FROM every_term e CROSS JOIN unnest(v_terms) AS t(term)
        ) m
        JOIN df ON df.term = m.term
        GROUP BY m.id
        ORDER BY sum(ln(1.0 + v_each / df.n)) DESC, m.id
        LIMIT p_rank_limit
    ), scored AS MATERIALIZED (
        SELECT c.id, ts_rank_cd(c.search_vector, v_any, 32)::float8 AS fulltext
        FROM best b JOIN episode_chunks c ON c.id = b.id
    )
    SELECT s.id, s.fulltext,
           ((SELECT count(*) FROM hits) + (SELECT count(*) FROM every_term))::integer,
           (SELECT count(*) FROM scored)::integer
    FROM scored s
    ORDER BY s.fulltext DESC, s.id
    LIMIT p_limit;
END
$$;
