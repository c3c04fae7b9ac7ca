-- The episode full-text leg fetches at most p_rank_items / (terms kept)
-- turns: a long query fetches fewer.
--
-- Every fetched turn is tested against each term kept (the per-row subquery
-- that builds the OR of the terms it holds) and scored by ts_rank_cd on
-- those: a turn costs the query's size, which p_fetch_limit (2,048 turns)
-- did not see. A pasted log of 64 terms fetched 2,048 turns, 32 a term, and
-- tested each against 64 queries: 17-21 ms of the leg on the 100,000-turn
-- scope of the latency benchmark. Now the turns fetched over all terms are at
-- most p_rank_items divided by the terms kept, and at least p_limit: a
-- question of up to eleven terms keeps its 64 a term (at most 704 turns),
-- twelve fetch 56 a term, the log 2 a term (128 turns).
--
-- One parameter more, with a default (a server of the previous version calls
-- with eight); the rows, order, counts and scores of 0105 whenever the bound
-- does not bind.
DROP FUNCTION context_episode_lexical(
    text, timestamptz, text[], integer, integer, integer, integer, integer);

CREATE FUNCTION context_episode_lexical(
    p_subject_id    text,
    p_at            timestamptz,
    p_terms         text[],
    p_limit         integer,
    p_term_limit    integer,
    p_fetch_limit   integer,
    p_term_postings integer DEFAULT 2048,
    p_postings      integer DEFAULT 8192,
    p_rank_items    integer DEFAULT 8192
) RETURNS TABLE (id uuid, fulltext double precision, fetched integer, ranked integer, postings integer)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    ROWS 64
    SET search_path = public, pg_temp
    SET enable_seqscan = off
AS $$
DECLARE
    v_project text := nullif(current_setting('app.project_id', true), '');
    v_key     text;
    v_rows    double precision;
    v_elems   text[];
    v_freqs   real[];
    v_terms   text[];
    v_scope   integer;  -- the scope's turns, counted up to p_term_postings + 1
    v_postings integer;
    v_count   integer;
    v_each    integer;
    v_fetch   integer;  -- matches fetched over all terms
    v_queries tsquery[];  -- one prefix query per term, in v_terms' order
    v_scoped  tsquery[];  -- the same, on the scope's keyed words
    v_all     tsquery;
    v_all_scoped tsquery;
BEGIN
    IF p_limit < 1 OR v_project IS NULL THEN
        RETURN;
    END IF;
    v_key := scope_key(v_project, p_subject_id);
    -- A term longer than any keyed word is left out (to_tsquery would have
    -- dropped one over a lexeme's 2,046 bytes; a cast refuses it).
    v_terms := ARRAY(
        SELECT DISTINCT t.term FROM unnest(p_terms) AS t(term)
        WHERE t.term ~ '^[[:alnum:]]+$' AND octet_length(t.term) <= 2000
        ORDER BY t.term);
    v_count := cardinality(v_terms);
    IF v_count = 0 THEN
        RETURN;
    END IF;
    -- No term can occur in more turns than the scope holds: in a scope that
    -- small, neither cap can bind and the statistics are not read.
    SELECT count(*) INTO v_scope FROM (
        SELECT 1 FROM episode_chunks c
        WHERE c.project_id = v_project AND c.subject_id = p_subject_id
        LIMIT p_term_postings + 1) s;
    IF v_scope <= p_term_postings AND v_scope * v_count <= p_postings THEN
        v_postings := v_scope * v_count;
    ELSE
        SELECT greatest(c.reltuples, 0) INTO v_rows
        FROM pg_class c WHERE c.oid = 'public.episode_chunks'::regclass;
        SELECT s.most_common_elems::text::text[], s.most_common_elem_freqs INTO v_elems, v_freqs
        FROM pg_stats s
        WHERE s.schemaname = 'public' AND s.tablename = 'episode_chunks_scope_lexemes';
        -- The running sum adds the rarest terms first, ties by term; the
        -- terms kept stay in alphabetical order.
        WITH scope_words AS MATERIALIZED (
            -- The scope's keyed words in the statistics, without their key.
            SELECT substr(m.elem, length(v_key) + 1) AS word, m.freq
            FROM unnest(v_elems, v_freqs) AS m(elem, freq)
            WHERE starts_with(m.elem, v_key)
        ), estimates AS (
            SELECT t.term, coalesce(round(sum(w.freq) * v_rows), 0)::integer AS estimate
            FROM unnest(v_terms) AS t(term)
            LEFT JOIN scope_words w ON starts_with(w.word, lower(t.term))
            GROUP BY t.term
        ), kept AS (
            SELECT e.term, e.estimate,
                   sum(e.estimate) OVER (ORDER BY e.estimate, e.term) AS running
            FROM estimates e
            WHERE e.estimate <= p_term_postings
        )
        SELECT coalesce(array_agg(k.term ORDER BY k.term), '{}'), coalesce(sum(k.estimate), 0)
        INTO v_terms, v_postings
        FROM kept k
        WHERE k.running <= p_postings;
        v_count := cardinality(v_terms);
        IF v_count = 0 THEN
            RETURN;
        END IF;
    END IF;
    -- Each fetched turn is tested against every term kept and scored on
    -- those it holds: turns times terms stay under p_rank_items, never fewer
    -- turns than the leg returns.
    v_fetch := least(p_fetch_limit, greatest(p_limit, p_rank_items / v_count));
    v_each := greatest(1, least(p_term_limit, v_fetch / v_count));
    v_queries := ARRAY(
        SELECT to_tsquery('simple', quote_literal(t.term) || ':*')
        FROM unnest(v_terms) WITH ORDINALITY AS t(term, n) ORDER BY t.n);
    -- A cast, not to_tsquery: the keyed word is taken as it is, never split
    -- by the parser; lower() does what the 'simple' configuration does.
    v_scoped := ARRAY(
        SELECT (quote_literal(v_key || lower(t.term)) || ':*')::tsquery
        FROM unnest(v_terms) WITH ORDINALITY AS t(term, n) ORDER BY t.n);
    SELECT to_tsquery('simple', string_agg(quote_literal(t) || ':*', ' & ' ORDER BY t))
      INTO v_all FROM unnest(v_terms) AS t;
    SELECT string_agg(quote_literal(v_key || lower(t)) || ':*', ' & ' ORDER BY t)::tsquery
      INTO v_all_scoped FROM unnest(v_terms) AS t;
    RETURN QUERY
    WITH hits AS MATERIALIZED (
        SELECT t.n, hit.id, hit.search_vector
        FROM unnest(v_queries, v_scoped) WITH ORDINALITY AS t(q, sq, n)
        CROSS JOIN LATERAL (
            SELECT c.id, c.search_vector
            FROM episode_chunks c
            WHERE (c.project_id = v_project) IS TRUE
              AND (c.subject_id = p_subject_id) IS TRUE
              AND (c.occurred_at <= p_at) IS TRUE
              AND c.search_vector @@ t.q
              AND scope_lexemes(c.project_id, c.subject_id, c.search_vector) @@ t.sq
            LIMIT v_each
        ) hit
        LIMIT v_fetch
    ), every_term AS MATERIALIZED (
        -- Needed only when each term's lookup stopped at its share (and the
        -- outer LIMIT, which could cut a term short, cannot bind).
        SELECT c.id, c.search_vector
        FROM episode_chunks c
        WHERE v_count > 1
          AND (v_each * v_count > v_fetch OR (
              SELECT count(*) FROM (
                  SELECT 1 FROM hits h GROUP BY h.n HAVING count(*) >= v_each) full_terms
              ) = v_count)
          AND (c.project_id = v_project) IS TRUE
          AND (c.subject_id = p_subject_id) IS TRUE
          AND (c.occurred_at <= p_at) IS TRUE
          AND c.search_vector @@ v_all
          AND scope_lexemes(c.project_id, c.subject_id, c.search_vector) @@ v_all_scoped
        LIMIT least(v_each, p_limit)
    ), scored AS MATERIALIZED (
        SELECT m.id, ts_rank_cd(m.search_vector, (
                   SELECT context_tsquery_any(q) FROM unnest(v_queries) AS q
                   WHERE m.search_vector @@ q), 32)::float8 AS fulltext
        FROM (
            SELECT DISTINCT ON (u.id) u.id, u.search_vector
            FROM (SELECT h.id, h.search_vector FROM hits h
                  UNION ALL SELECT * FROM every_term) u
            ORDER BY u.id
        ) m
    )
    SELECT s.id, s.fulltext,
           ((SELECT count(*) FROM hits) + (SELECT count(*) FROM every_term))::integer,
           (SELECT count(*) FROM scored)::integer,
           v_postings
    FROM scored s
    ORDER BY s.fulltext DESC, s.id
    LIMIT p_limit;
END
$$;
