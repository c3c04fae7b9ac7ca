-- Full-text top-K for the context assembler, usable under row-level security.
--
-- Row-level security lets the planner use an index only through leakproof
-- operators, and `tsvector @@ tsquery` is not leakproof: as `haki_app`, every
-- full-text query of a scope becomes a sequential scan. This function runs as
-- its owner (who bypasses the policies) so the GIN index on `search_vector`
-- serves the match, and it applies the tenant check itself: only rows of the
-- transaction's project (the `app.project_id` setting that the row-level
-- security policies read) are ever returned, and none when it is unset.
--
-- Cost is bounded by what the GIN index hands over, and a word present in a
-- large share of all facts (it matches across every scope: the index is not
-- partitioned by scope) both costs the most and ranks the least. Terms whose
-- estimated match count, from the planner's lexeme statistics, exceeds
-- p_max_term_matches are dropped; if none is left there is no full-text leg.
-- At most p_scan_limit matching rows are ranked, as a last bound.
--
-- The filters are the context assembler's hard filters (haki.context.candidates
-- ELIGIBLE), with the same parameters. p_terms are plain words (\w+ runs),
-- joined with `or` for websearch_to_tsquery.
CREATE FUNCTION context_fulltext_ids(
    p_subject_id         text,
    p_statuses           text[],
    p_at                 timestamptz,
    p_bounded            boolean,
    p_exclude            uuid[],
    p_terms              text[],
    p_limit              integer,
    p_max_term_matches   double precision,
    p_scan_limit         integer
) RETURNS TABLE (id uuid, fulltext double precision)
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
    IF q IS NULL OR numnode(q) = 0 THEN
        RETURN;
    END IF;
    RETURN QUERY
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
    ORDER BY fulltext DESC, m.id
    LIMIT p_limit;
END
$$;
