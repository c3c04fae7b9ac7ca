-- The fact full-text leg (0101) with the work of a long question bounded:
-- its terms add up to at most p_postings estimated matches, and each match
-- is scored against the terms it holds.
--
-- 0101 dropped a term estimated to match more than p_max_term_matches facts
-- and scored at most p_scan_limit matches, but a question of many words each
-- under that estimate kept them all: the GIN index built the bitmap of
-- every one, and ts_rank_cd, which allocates and zeroes a 32 kB position
-- buffer for every item of its query (operators included; 0104 measured the
-- same on the episode leg), zeroed (2k - 1) x 32 kB for each match of a
-- k-term question. On 100,000 facts, with words matching 300 to 1,000 facts
-- each, the leg took 6.5 ms for 2 terms, 23 ms for 8, 45 ms for 16 and
-- 360 ms for 64.
--
-- Now the terms under p_max_term_matches are kept rarest first (ties by
-- term) while their estimates add up to at most p_postings; a term outside
-- the statistics counts 0, as before. In a table of so few facts that
-- neither cap can bind (its rows, times the terms, at most p_postings) the
-- statistics are not read, and that bound is reported: the LoCoMo tables'
-- leg went from 0.43 to 0.31 ms mean (0101 read them once per term). And when the question keeps more than
-- three terms, each one a single word, a match is scored against the OR of
-- the terms it holds, usually one: for an OR of words over an unweighted
-- vector every cover ts_rank_cd finds is one matching position, so terms a
-- row does not hold change nothing, and the score is the same to the last
-- bit. Up to three terms the whole query is cheaper than the per-row
-- subquery (0104's measurement on this leg: 4.32 against 5.29 ms mean for
-- two- and three-word questions), so it stays.
--
-- One parameter more, with a default (a server of the previous version
-- calls with nine), and one column more: the estimated matches of the terms
-- kept (the bound, in a small table). Rows, order, counts and scores are 0101's whenever no term is left
-- out by the new cap.
DROP FUNCTION context_fact_lexical(
    text, text[], timestamptz, boolean, uuid[], text[], integer, double precision, integer);

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
           CASE WHEN count(*) > 3 THEN array_agg(
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
