-- The episode full-text leg takes the term estimates the server already
-- has, instead of working them out again on every call.
--
-- In a scope of more than p_term_postings turns the leg estimates each
-- term's postings from the statistics of episode_chunks_scope_lexemes: it
-- reads their keyed words out of pg_stats (an anyarray turned into text[])
-- and matches every term against the scope's by prefix. On the 10,000-turn
-- scope of the latency benchmark that is half the leg's CPU, 0.8-1.2 ms a
-- call (bench/context_term_estimates.py). The estimates change only when the
-- statistics do, so:
--
-- - the leg reads a token of the statistics (statistics_token: a hash of the
--   keyed words, their frequencies and the table's reltuples, without
--   turning the words into text), and when the
--   caller's p_token is that token and p_known_terms holds every term, takes
--   the estimates from p_known_estimates;
-- - otherwise it computes them as before and returns, on its first row, what
--   they come from: the token, the scope's keyed words and frequencies in
--   the statistics (in their order) and reltuples (token, scope_words,
--   scope_freqs, scope_rows; NULL on the other rows and when given). From
--   those the server works out any term's estimate as this function does
--   (context.term_estimates), for the calls that follow.
--
-- The token is the statistics' content, read in the same statement as the
-- words when they are read: whatever an ANALYZE changes changes the token
-- (up to a 64-bit hash collision), and words are never paired with the
-- token of other statistics. The terms kept, their postings and every row
-- are those of 0110 (the same estimates: the same float4 sums, in the same
-- order).
--
-- Three parameters more, with defaults (a server of the previous version
-- calls with nine, and gets the four new columns it does not read).
-- The token: 64 bits of the md5 of the words' and frequencies' binary forms
-- (array_send needs no collation and converts no word to text) and of
-- reltuples, which the estimates scale by. No statistics: the token of
-- empty ones, still a token.
CREATE FUNCTION statistics_token(p_elems anyarray, p_freqs real[], p_rows double precision)
    RETURNS bigint
    LANGUAGE sql STABLE PARALLEL SAFE
    SET search_path = public, pg_temp
AS $$
    SELECT ('x' || left(md5(
        coalesce(array_send(p_elems), '') || coalesce(array_send(p_freqs), '')
        || float8send(p_rows)), 16))::bit(64)::bigint
$$;

DROP FUNCTION context_episode_lexical(
    text, timestamptz, text[], integer, integer, integer, integer, integer, integer);

CREATE FUNCTION context_episode_lexical(
    p_subject_id    text,
    p_at            timestamptz,
    p_terms         text[],
    p_limit         integer,
    p_term_limit    integer,
    p_fetch_limit   integer,
    p_term_postings integer DEFAULT 2048,
    p_postings      integer DEFAULT 8192,
    p_rank_items    integer DEFAULT 8192,
    p_token         bigint DEFAULT NULL,
    p_known_terms   text[] DEFAULT NULL,
    p_known_estimates integer[] DEFAULT NULL
) RETURNS TABLE (id uuid, fulltext double precision, fetched integer, ranked integer, postings integer,
                 token bigint, scope_words text[], scope_freqs real[], scope_rows double precision)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    ROWS 64
    SET search_path = public, pg_temp
    SET enable_seqscan = off
    SET plan_cache_mode = auto
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
    v_token   bigint;     -- the statistics' token
    v_est_terms text[];   -- the terms' estimates, by term
    v_est     integer[];
    v_words   text[];     -- the scope's keyed words in the statistics, without their key
    v_wfreqs  real[];
    v_fresh   boolean := false;  -- statistics read here, their scope's words returned
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
        SELECT statistics_token(s.most_common_elems, s.most_common_elem_freqs, v_rows)
          INTO v_token
        FROM pg_stats s
        WHERE s.schemaname = 'public' AND s.tablename = 'episode_chunks_scope_lexemes';
        IF p_token = v_token AND v_terms <@ p_known_terms
           AND cardinality(p_known_terms) = cardinality(p_known_estimates) THEN
            v_est_terms := p_known_terms;
            v_est := p_known_estimates;
        ELSE
            -- The token of the statistics read here: an ANALYZE may have
            -- committed since the first read.
            SELECT s.most_common_elems::text::text[], s.most_common_elem_freqs,
                   statistics_token(s.most_common_elems, s.most_common_elem_freqs, v_rows)
              INTO v_elems, v_freqs, v_token
            FROM pg_stats s
            WHERE s.schemaname = 'public' AND s.tablename = 'episode_chunks_scope_lexemes';
            SELECT coalesce(array_agg(substr(m.elem, length(v_key) + 1) ORDER BY m.n), '{}'),
                   coalesce(array_agg(m.freq ORDER BY m.n), '{}')
              INTO v_words, v_wfreqs
            FROM unnest(v_elems, v_freqs) WITH ORDINALITY AS m(elem, freq, n)
            WHERE starts_with(m.elem, v_key);
            -- Each term's float4 sum adds its words in the statistics' order
            -- (said, so that context.term_estimates can add them alike).
            WITH scope_words AS MATERIALIZED (
                SELECT w.word, w.freq, w.n
                FROM unnest(v_words, v_wfreqs) WITH ORDINALITY AS w(word, freq, n)
            ), estimates AS (
                SELECT t.term,
                       coalesce(round(sum(w.freq ORDER BY w.n) * v_rows), 0)::integer AS estimate
                FROM unnest(v_terms) AS t(term)
                LEFT JOIN scope_words w ON starts_with(w.word, lower(t.term))
                GROUP BY t.term
            )
            SELECT array_agg(e.term ORDER BY e.term), array_agg(e.estimate ORDER BY e.term)
              INTO v_est_terms, v_est
            FROM estimates e;
            v_fresh := true;
        END IF;
        -- The running sum adds the rarest terms first, ties by term; the
        -- terms kept stay in alphabetical order.
        WITH estimates AS (
            SELECT e.term, e.estimate
            FROM unnest(v_est_terms, v_est) AS e(term, estimate)
            WHERE e.term = ANY(v_terms)
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
           v_postings,
           CASE WHEN s.first THEN v_token END,
           CASE WHEN s.first THEN v_words END,
           CASE WHEN s.first THEN v_wfreqs END,
           CASE WHEN s.first THEN v_rows END
    FROM (
        SELECT sc.id, sc.fulltext,
               v_fresh AND row_number() OVER (ORDER BY sc.fulltext DESC, sc.id) = 1 AS first
        FROM scored sc
    ) s
    ORDER BY s.fulltext DESC, s.id
    LIMIT p_limit;
END
$$;
