-- Full-text leg and term statistics for episode chunks, usable under
-- row-level security (see 0031: `@@` is not leakproof, so as `haki_app` the
-- GIN index would be skipped). The function runs as its owner and returns
-- rows of the transaction's project (`app.project_id`) only, none when unset.
--
-- p_terms are lexical stems; each matches as a prefix (`paint:*` finds
-- painting, painted, painter), which is how a stem meets the unstemmed
-- 'simple' tsvector. Terms are quoted before parsing, so no user text can
-- form a tsquery operator.
CREATE FUNCTION context_prefix_query(p_terms text[]) RETURNS tsquery
    LANGUAGE sql IMMUTABLE
AS $$
    SELECT to_tsquery('simple', string_agg(quote_literal(t) || ':*', ' | ' ORDER BY t))
    FROM unnest(p_terms) AS t
    WHERE t ~ '^[[:alnum:]]+$'
$$;

-- The full-text top p_limit chunks of the subject, by ts_rank_cd of an OR
-- of the terms' prefixes. At most p_scan_limit matches are ranked: a query
-- made only of very common words costs no more than that.
CREATE FUNCTION context_episode_fulltext_ids(
    p_subject_id text,
    p_at         timestamptz,
    p_terms      text[],
    p_limit      integer,
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
        SELECT c.id, c.search_vector
        FROM episode_chunks c
        WHERE c.project_id = nullif(current_setting('app.project_id', true), '')
          AND c.subject_id = p_subject_id
          AND c.occurred_at <= p_at
          AND c.search_vector @@ q
        LIMIT p_scan_limit
    ) m
    ORDER BY fulltext DESC, m.id
    LIMIT p_limit;
END
$$;
