-- The fact full-text leg (0031's context_fulltext_ids) with its work
-- counted, like the episode leg (0058): every row returned carries how many
-- matches were scored by ts_rank_cd (at most p_scan_limit), so a call can
-- report it (the Haki-Work header) and a test can assert it stays under its
-- cap. Same contract otherwise: the hard filters, rows of the transaction's
-- project only (app.project_id), terms estimated to match more than
-- p_max_term_matches facts dropped, at most p_scan_limit matches scored,
-- the best p_limit returned. The 0031 function stays for servers still
-- running the previous version.
CREATE FUNCTION context_fact_lexical(
    p_subject_id         text,
    p_statuses           text[],
    p_at                 timestamptz,
    p_bounded            boolean,
    p_exclude            uuid[],
    p_terms              text[],
    p_limit              integer,
    p_max_term_matches   double precision,
    p_scan_limit         integer
) RETURNS TABLE (id uuid, fulltext double precision, ranked integer)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    ROWS 64
    SET search_path = public, pg_temp
AS $$
DECLARE
    q tsquery;
BEGIN
    SELECT websearch_to_tsquery('simple', string_agg(t.term, ' or ' ORDER BY t.ord))
    INTO q
    FROM unnest(p_terms) WITH ORDINALITY AS t(term, ord)
    WHERE NOT EXISTS (
        SELECT 1
        FROM pg_stats s
        CROSS JOIN LATERAL unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS e(lexeme, freq)
        WHERE s.schemaname = 'public' AND s.tablename = 'facts' AND s.attname = 'search_vector'
          AND e.lexeme = t.term
          AND e.freq * (SELECT greatest(c.reltuples, 0) FROM pg_class c WHERE c.oid = 'public.facts'::regclass)
              > p_max_term_matches
    );
    IF p_limit < 1 OR q IS NULL OR numnode(q) = 0 THEN
        RETURN;
    END IF;
    RETURN QUERY
    WITH scored AS MATERIALIZED (
        SELECT m.id, ts_rank_cd(m.search_vector, q, 32)::float8 AS fulltext
        FROM (
            SELECT f.id, f.search_vector
            FROM facts f
            WHERE f.project_id = nullif(current_setting('app.project_id', true), '')
              AND f.subject_id = p_subject_id
              AND f.status = ANY(p_statuses)
              AND (f.valid_to IS NULL OR f.valid_to > p_at)
              AND (NOT p_bounded OR coalesce(f.valid_from, f.recorded_from) <= p_at)
              AND f.id <> ALL(p_exclude)
              AND f.search_vector @@ q
            LIMIT p_scan_limit
        ) m
    )
    SELECT s.id, s.fulltext, (SELECT count(*) FROM scored)::integer
    FROM scored s
    ORDER BY s.fulltext DESC, s.id
    LIMIT p_limit;
END
$$;
