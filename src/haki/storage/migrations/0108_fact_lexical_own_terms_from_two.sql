-- The fact full-text leg scores each match against the terms it holds from
-- two terms up, not only past three (0106).
--
-- ts_rank_cd allocates and zeroes a 32 kB position buffer for every item of
-- its query, operators included (0104, 0106): an OR of two words zeroes
-- 96 kB for each match, of three 160 kB. The per-match subquery that picks
-- the terms a match holds costs less than that. 0106 kept the whole query up
-- to three terms on a measurement of questions whose matches were few; on
-- the 10,000 facts of the latency corpus, where a question's words match
-- 850-950 facts ("Any plans for April?", "Is Alice allergic to mangoes?"),
-- ranking those matches took, summed as the function does (sum of the
-- scores, so that no row's rank is skipped), 3.25 ms with the whole query
-- and 1.85 ms against each match's own terms for two words, 4.45 and 2.09
-- ms for three; a one-word query is the floor, 1.2-1.4 ms. The scores are
-- the same to the last bit: for an OR of words over the vector every cover
-- ts_rank_cd finds is one matching position, so the terms a match does not
-- hold change nothing.
--
-- Same signature, rows, order, counts and scores as 0106.
CREATE OR REPLACE FUNCTION context_fact_lexical(
    p_subject_id         text,
    p_statuses           text[],
    p_at                 timestamptz,
    p_bounded            boolean,
    p_exclude            uuid[],
    p_terms              text[],
    p_limit              integer,
    p_max_term_matches   double precision,
    p_scan_limit         integer,
    p_postings           double precision DEFAULT 4000
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
    WITH estimates AS (
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
            LIMIT p_scan_limit
        ) m
    )
    SELECT s.id, s.fulltext, (SELECT count(*) FROM scored)::integer, v_postings
    FROM scored s
    ORDER BY s.fulltext DESC, s.id
    LIMIT p_limit;
END
$$;
