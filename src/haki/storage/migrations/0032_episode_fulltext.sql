-- Full-text leg and term statistics for episode chunks, usable under
-- row-level security (see 0031: `@@` is not leakproof, so as `haki_app` the
-- GIN index would be skipped). Both functions run as their owner and return
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
    IF q IS NULL OR numnode(q) = 0 THEN
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

-- Document frequency of each term among the subject's chunks (capped: past
-- the cap a term carries almost no weight anyway), plus the chunk count as
-- the row whose term is NULL. BM25's idf needs both. Each term's tsquery is
-- a plpgsql variable, so the count is an indexed bitmap scan.
CREATE FUNCTION context_episode_term_df(
    p_subject_id text,
    p_at         timestamptz,
    p_terms      text[],
    p_cap        integer
) RETURNS TABLE (term text, df integer)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = public, pg_temp
AS $$
DECLARE
    project text := nullif(current_setting('app.project_id', true), '');
    t text;
    q tsquery;
BEGIN
    IF project IS NULL THEN
        RETURN;
    END IF;
    term := NULL;
    SELECT count(*)::integer INTO df
    FROM episode_chunks c
    WHERE c.project_id = project AND c.subject_id = p_subject_id AND c.occurred_at <= p_at;
    RETURN NEXT;
    FOREACH t IN ARRAY coalesce(p_terms, '{}') LOOP
        q := context_prefix_query(ARRAY[t]);
        CONTINUE WHEN q IS NULL OR numnode(q) = 0;
        term := t;
        SELECT count(*)::integer INTO df FROM (
            SELECT 1 FROM episode_chunks c
            WHERE c.project_id = project AND c.subject_id = p_subject_id AND c.occurred_at <= p_at
              AND c.search_vector @@ q
            LIMIT p_cap
        ) hits;
        RETURN NEXT;
    END LOOP;
END
$$;
