-- The episode chunks' hnsw indexes are built lighter: m 12, ef_construction 32
-- (pgvector's defaults are 16 and 64).
--
-- Every captured turn inserts one chunk, and its hnsw insert is most of what
-- PostgreSQL spends on a consolidation: on 8,000 chunks of short turns
-- embedded by the shipped model (bench/chunk_insert_cost.py --index ...,
-- docs/consolidation.md) the insert took about 0.85 ms of PostgreSQL CPU per
-- chunk with the defaults and 0.6 with these, of which 0.15 is the row and
-- its other indexes. Fewer links per node and a shorter candidate list at
-- build time make the graph a little coarser: the top-10 the walk returns
-- at the context's ef_search (100) agreed with the exact top-10 on 87.6 %
-- instead of 88.5 % there. A scope is read exactly (no hnsw) while it has at
-- most 1,000 chunks or less than a tenth of the table (0111), so only the
-- walks over large scopes see the difference. facts keep the defaults: one
-- fact is written for many turns, and their walk serves every context call.
--
-- What an upgrade costs: each index is dropped and built again from every
-- chunk of its size, inside the migration's transaction, so episode_chunks
-- is locked (no reads, no writes) until the build ends. The build is
-- pgvector's bulk build: on this 2-core machine about a second per 10,000
-- chunks while the graph fits maintenance_work_mem, far slower once it does
-- not (pgvector then inserts row by row); a table of millions of chunks
-- should raise maintenance_work_mem for the upgrade or plan minutes of
-- downtime.
DO $$
DECLARE
    size  integer;
    name  text;
BEGIN
    FOREACH size IN ARRAY ARRAY[256, 384, 512, 768, 1024, 1536] LOOP
        -- 384 keeps the name it had (bench and checks read it).
        name := 'episode_chunks_embedding' || CASE WHEN size = 384 THEN '' ELSE '_' || size END;
        EXECUTE format('DROP INDEX IF EXISTS %I', name);
        EXECUTE format(
            'CREATE INDEX %I ON episode_chunks USING hnsw ((embedding::vector(%s)) vector_cosine_ops) '
            'WITH (m = 12, ef_construction = 32) WHERE vector_dims(embedding) = %s',
            name, size, size);
    END LOOP;
END
$$;
