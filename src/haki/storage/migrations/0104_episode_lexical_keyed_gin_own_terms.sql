-- The episode full-text leg's lookups read the scope's keyed postings
-- (0103) and nothing else, whichever plan the plan cache holds.
--
-- A connection that has called context_episode_lexical five times gets the
-- generic plan of its lookups: the plan for any subject, which does not know
-- how large the scope is. That plan ANDs each term's bitmap with a bitmap
-- of the whole scope from the (project_id, subject_id, occurred_at) btree:
-- every lookup read every turn of the scope, 7,000 index entries per term
-- on a 10,000-turn subject, to remove nothing (the keyed words hold the
-- scope already). Written as `(a = b) IS TRUE`, a scope condition means
-- what it meant (NULL still fails, estimates are the same) but no index can
-- serve it, so the keyed GIN is the only index left to a lookup, and with
-- sequential scans disabled for the function its plan always reads it.
--
-- Each match is also ranked against the terms it matches, not against all
-- of them: the same scores, a fraction of the cost.
--
-- ts_rank_cd allocates and zeroes a 32 kB position buffer for every item of
-- its query, operators included (PostgreSQL's tsrank.c, MAXQROPOS): an OR of
-- k terms has 2k - 1 items, so each call zeroed 224 kB for four terms and
-- 480 kB for eight, for each of the ~750 matches a conversational question
-- reads (memset was 18 % of the backend's samples under perf). For an OR of
-- prefix terms over an unweighted vector, every cover ts_rank_cd finds is
-- one matching position, so the score (normalisation 32) depends only on the
-- positions that match some term, and terms the row does not match change
-- nothing. Each row is now scored against the OR of its own matching terms,
-- usually one: the same value, bit for bit (every row of 400 conversational
-- and 997 LoCoMo questions, old and new function side by side).
-- Same signature, rows, order, counts and scores as 0103.
CREATE AGGREGATE context_tsquery_any(tsquery) (SFUNC = tsquery_or, STYPE = tsquery);

CREATE OR REPLACE FUNCTION context_episode_lexical(
    p_subject_id  text,
    p_at          timestamptz,
    p_terms       text[],
    p_limit       integer,
    p_term_limit  integer,
    p_fetch_limit integer
) RETURNS TABLE (id uuid, fulltext double precision, fetched integer, ranked integer)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    ROWS 64
    SET search_path = public, pg_temp
    SET enable_seqscan = off
AS $$
DECLARE
    v_project text := nullif(current_setting('app.project_id', true), '');
    -- A term longer than any keyed word is left out (to_tsquery would have
    -- dropped one over a lexeme's 2,046 bytes; a cast refuses it).
    v_terms   text[] := ARRAY(
        SELECT DISTINCT ON (t.term) t.term FROM unnest(p_terms) WITH ORDINALITY AS t(term, n)
        WHERE t.term ~ '^[[:alnum:]]+$' AND octet_length(t.term) <= 2000
        ORDER BY t.term, t.n);
    v_count   integer := cardinality(v_terms);
    v_key     text;
    v_each    integer;
    v_queries tsquery[];  -- one prefix query per term, in v_terms' order
    v_scoped  tsquery[];  -- the same, on the scope's keyed words
    v_all     tsquery;
    v_all_scoped tsquery;
BEGIN
    IF p_limit < 1 OR v_count = 0 OR v_project IS NULL THEN
        RETURN;
    END IF;
    v_key := scope_key(v_project, p_subject_id);
    v_each := greatest(1, least(p_term_limit, p_fetch_limit / v_count));
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
        SELECT hit.id, hit.search_vector
        FROM unnest(v_queries, v_scoped) AS t(q, sq)
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
        LIMIT p_fetch_limit
    ), every_term AS MATERIALIZED (
        SELECT c.id, c.search_vector
        FROM episode_chunks c
        WHERE v_count > 1
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
            FROM (SELECT * FROM hits UNION ALL SELECT * FROM every_term) u
            ORDER BY u.id
        ) m
    )
    SELECT s.id, s.fulltext,
           ((SELECT count(*) FROM hits) + (SELECT count(*) FROM every_term))::integer,
           (SELECT count(*) FROM scored)::integer
    FROM scored s
    ORDER BY s.fulltext DESC, s.id
    LIMIT p_limit;
END
$$;
