-- The episode full-text leg reads the scope's own postings, not the table's.
-- Builds one GIN index on episode_chunks inside the migration's transaction
-- (14 s at a million turns): writes to the table wait for it.
--
-- The GIN index on episode_chunks.search_vector keeps one posting list per
-- word for the whole table. With a thousand subjects sharing a table, a
-- common word's list holds a thousand times the scope's matches: a per-term
-- lookup of context_episode_lexical (0100) either reads that list, or, as
-- the planner then prefers, tests every row of the scope against the term,
-- and with fewer matches in the scope than the term's share it never stops
-- early. The cost followed the table or the scope, not the matches.
--
-- Here each indexed word is prefixed with a fixed-length key of its scope
-- (project and subject), so a scope's words are a contiguous range of the
-- index's entries of their own: a prefix lookup for 'key || term' reads the
-- postings of that scope alone. The key is a 64-bit hash, the one hash
-- partitioning relies on (stable across versions); two scopes sharing a key
-- only add candidates that the scope condition of every lookup filters out.
-- Words longer than 2,000 bytes are left out of the scoped vector (a
-- lexeme holds at most 2,046): no query term is that long. The key's
-- function is named with its schema: an index build runs its expression
-- with search_path = pg_catalog.
CREATE FUNCTION scope_key(p_project text, p_subject text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
    SELECT lpad(to_hex(hashtextextended(p_project || chr(31) || p_subject, 0)), 16, '0')
$$;

CREATE FUNCTION scope_lexemes(p_project text, p_subject text, p_vector tsvector) RETURNS tsvector
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
    SELECT array_to_tsvector(ARRAY(
        SELECT public.scope_key(p_project, p_subject) || l
        FROM unnest(tsvector_to_array(p_vector)) AS l
        WHERE octet_length(l) <= 2000))
$$;

CREATE INDEX episode_chunks_scope_lexemes ON episode_chunks
    USING gin (scope_lexemes(project_id, subject_id, search_vector)) WITH (fastupdate = off);

-- Nothing else reads the table-wide index; keeping it would only cost
-- every write and leave the planner a plan that reads the whole table's
-- postings.
DROP INDEX episode_chunks_search_vector;

-- Same signature, rows, order and counts as 0100 (for terms of up to
-- 2,000 bytes). Each lookup keeps the
-- plain `search_vector @@ q` beside the scoped one: the planner evaluates
-- the cheap test first, so a plan that reads the scope index instead of the
-- GIN (a small scope, a table not analysed yet) computes the scoped vector
-- only for the rows that match.
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
    v_any     tsquery;
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
    v_any := context_prefix_query(v_terms);
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
            WHERE c.project_id = v_project
              AND c.subject_id = p_subject_id
              AND c.occurred_at <= p_at
              AND c.search_vector @@ t.q
              AND scope_lexemes(c.project_id, c.subject_id, c.search_vector) @@ t.sq
            LIMIT v_each
        ) hit
        LIMIT p_fetch_limit
    ), every_term AS MATERIALIZED (
        SELECT c.id, c.search_vector
        FROM episode_chunks c
        WHERE v_count > 1
          AND c.project_id = v_project
          AND c.subject_id = p_subject_id
          AND c.occurred_at <= p_at
          AND c.search_vector @@ v_all
          AND scope_lexemes(c.project_id, c.subject_id, c.search_vector) @@ v_all_scoped
        LIMIT least(v_each, p_limit)
    ), scored AS MATERIALIZED (
        SELECT m.id, ts_rank_cd(m.search_vector, v_any, 32)::float8 AS fulltext
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
