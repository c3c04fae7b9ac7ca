-- The fact full-text leg scores at most p_rank_items (match, query item)
-- pairs: a long query scores fewer matches.
--
-- Each match is scored against the terms it holds (0108): one @@ test per
-- term kept, then ts_rank_cd over those it holds; or, for one term or when
-- the parser splits a term into a phrase ("e-mail", an id such as
-- "186e42e8bb5b": '186e42' <-> 'e8bb5b'), against the whole query, and
-- ts_rank_cd zeroes a 32 kB position buffer per item of that query,
-- operators included. Either way a match costs its query's size, and the
-- scan limit (2,000 matches) did not see it: on the 100,000 facts of the
-- latency benchmark a pasted log of 64 terms with one split id spent 74 ms
-- of the leg's 83 ms scoring 2,000 matches against ~110 items (EXPLAIN
-- ANALYZE), and a log of 64 unsplit terms 17-28 ms testing 2,000 matches
-- against each term. Now the matches scored are at most p_rank_items
-- divided by the items each is scored against (and at least p_limit): a
-- question of up to four terms keeps its 2,000; eight terms score at most
-- 1,024; the split log 75.
--
-- Each term's estimate is computed once (the estimates CTE is materialised:
-- inlined, its scan of the statistics array ran three times a term, 2.5-4 ms
-- for 64 terms).
--
-- One parameter more, with a default (a server of the previous version calls
-- with ten); the rows, order, counts and scores of 0108 whenever the bound
-- does not bind.
DROP FUNCTION context_fact_lexical(
    text, text[], timestamptz, boolean, uuid[], text[], integer, double precision, integer,
    double precision);

CREATE FUNCTION context_fact_lexical(
    p_subject_id         text,
    p_statuses           text[],
    p_at                 timestamptz,
    p_bounded            boolean,
    p_exclude            uuid[],
    p_terms              text[],
    p_limit              integer,
    p_max_term_matches   double precision,
    p_scan_limit         integer,
    p_postings           double precision DEFAULT 4000,
    p_rank_items         integer DEFAULT 8192
) RETURNS TABLE (id uuid, fulltext double precision, ranked integer, postings integer)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    ROWS 64
    SET search_path = public, pg_temp
AS $$
DECLARE
    v_rows     double precision;
    v_elems    text[];
    v_freqs    real[];
    q          tsquery;
    v_each     tsquery[];  -- one query per term kept, when each is scored on its own
    v_postings integer;
    v_scan     integer;  -- matches scored: p_scan_limit, or fewer for a long query
BEGIN
    IF p_limit < 1 THEN
        RETURN;
    END IF;
    SELECT greatest(c.reltuples, 0) INTO v_rows
    FROM pg_class c WHERE c.oid = 'public.facts'::regclass;
    -- No word matches more facts than the table holds: in a table that small
    -- neither cap can bind, and the statistics are not read.
    IF v_rows > p_max_term_matches OR v_rows * cardinality(p_terms) > p_postings THEN
        SELECT s.most_common_elems::text::text[], s.most_common_elem_freqs INTO v_elems, v_freqs
        FROM pg_stats s
        WHERE s.schemaname = 'public' AND s.tablename = 'facts' AND s.attname = 'search_vector';
    END IF;
    -- Materialised: inlined, each term's estimate (a scan of the statistics'
    -- array) ran three times, for the filter, the window and the output.
    WITH estimates AS MATERIALIZED (
        SELECT t.term, t.ord, coalesce((
            SELECT e.freq * v_rows FROM unnest(v_elems, v_freqs) AS e(lexeme, freq)
            WHERE e.lexeme = t.term LIMIT 1), 0) AS estimate
        FROM unnest(p_terms) WITH ORDINALITY AS t(term, ord)
    ), kept AS (
        SELECT e.term, e.ord, e.estimate,
               sum(e.estimate) OVER (ORDER BY e.estimate, e.term, e.ord) AS running
        FROM estimates e
        WHERE e.estimate <= p_max_term_matches
    )
    SELECT websearch_to_tsquery('simple', string_agg(k.term, ' or ' ORDER BY k.ord)),
           CASE WHEN count(*) > 1 THEN array_agg(
               websearch_to_tsquery('simple', k.term) ORDER BY k.ord) END,
           coalesce(round(sum(k.estimate)), 0)
    INTO q, v_each, v_postings
    FROM kept k
    WHERE k.running <= p_postings;
    IF q IS NULL OR numnode(q) = 0 THEN
        RETURN;
    END IF;
    IF v_elems IS NULL THEN
        v_postings := round(v_rows * cardinality(p_terms));  -- the bound that held instead
    END IF;
    IF v_each IS NOT NULL
       AND EXISTS (SELECT 1 FROM unnest(v_each) AS w WHERE numnode(w) <> 1) THEN
        v_each := NULL;  -- a term the parser split (a phrase): the whole query scores
    END IF;
    -- A match costs what it is scored against: the whole query's items
    -- (ts_rank_cd zeroes 32 kB for each), or one @@ test per term kept.
    -- Matches times items stay under p_rank_items, never fewer matches than
    -- the leg returns.
    v_scan := least(p_scan_limit, greatest(p_limit, p_rank_items / greatest(
        CASE WHEN v_each IS NULL THEN numnode(q) ELSE cardinality(v_each) END, 1)));
    RETURN QUERY
    WITH scored AS MATERIALIZED (
        SELECT m.id, ts_rank_cd(m.search_vector, CASE WHEN v_each IS NULL THEN q ELSE (
                   SELECT context_tsquery_any(w) FROM unnest(v_each) AS w
                   WHERE m.search_vector @@ w) END, 32)::float8 AS fulltext
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
            LIMIT v_scan
        ) m
    )
    SELECT s.id, s.fulltext, (SELECT count(*) FROM scored)::integer, v_postings
    FROM scored s
    ORDER BY s.fulltext DESC, s.id
    LIMIT p_limit;
END
$$;
