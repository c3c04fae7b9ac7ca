-- The episode full-text leg caps the matches it takes from each term.
--
-- One common word ("said", a speaker's name) can match a large share of a
-- scope's turns; ranking all of them cost more than everything else in a
-- context call, for candidates that the rarer words of the same query
-- outrank anyway. Each term now contributes at most p_term_limit matches
-- (through the GIN index), so a row matching a rare term is always ranked,
-- and the common terms cost a bounded amount. p_scan_limit still bounds the
-- union. Same contract otherwise as 0032: rows of the transaction's project
-- only, terms matched as prefixes, quoted before parsing.
DROP FUNCTION IF EXISTS context_episode_fulltext_ids(text, timestamptz, text[], integer, integer);

CREATE FUNCTION context_episode_fulltext_ids(
    p_subject_id text,
    p_at         timestamptz,
    p_terms      text[],
    p_limit      integer,
    p_term_limit integer,
    p_scan_limit integer
) RETURNS TABLE (id uuid, fulltext double precision)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    ROWS 64
    SET search_path = public, pg_temp
AS $$
DECLARE
    q tsquery := context_prefix_query(p_terms);
BEGIN
    IF p_limit < 1 OR q IS NULL OR numnode(q) = 0 THEN
        RETURN;
    END IF;
    RETURN QUERY
    SELECT m.id, ts_rank_cd(m.search_vector, q, 32)::float8 AS fulltext
    FROM (
        SELECT DISTINCT ON (hit.id) hit.id, hit.search_vector
        FROM unnest(p_terms) AS t(term)
        CROSS JOIN LATERAL (
            SELECT c.id, c.search_vector
            FROM episode_chunks c
            WHERE c.project_id = nullif(current_setting('app.project_id', true), '')
              AND c.subject_id = p_subject_id
              AND c.occurred_at <= p_at
              AND c.search_vector @@ context_prefix_query(ARRAY[t.term])
            LIMIT p_term_limit
        ) hit
        WHERE t.term ~ '^[[:alnum:]]+$'
        ORDER BY hit.id
        LIMIT p_scan_limit
    ) m
    ORDER BY fulltext DESC, m.id
    LIMIT p_limit;
END
$$;
