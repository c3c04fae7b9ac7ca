-- The episode chunks' hnsw indexes are built lighter: m 12, ef_construction 32
-- (pgvector's defaults are 16 and 64).
--
-- Every captured turn inserts one chunk, and its hnsw insert is most of what
-- PostgreSQL spends on a consolidation. On 8,000 chunks of short turns
-- embedded by the shipped model (bench/chunk_insert_cost.py --index ...,
-- docs/consolidation.md) an insert took about 0.9 ms of PostgreSQL CPU per
-- chunk with the defaults and 0.6 ms with these, of which 0.15 ms is the
-- row and its other indexes. Fewer links per node and a shorter candidate
-- list at build time make the graph a little coarser: the top 10 the walk
-- returns at the context's ef_search (100) agreed with the exact top 10 on
-- 87.6 % of the rows instead of 88.4 %. A scope is read exactly (no hnsw)
-- while it has at most 1,000 chunks or less than a tenth of the table
-- (0111), so only walks over large scopes see the difference. The facts'
-- indexes keep the defaults: a fact is written for many turns, and their
-- walk serves every context call.
--
-- What an upgrade costs: each index is dropped and built again from every
-- chunk of its size inside the migration's transaction, so episode_chunks
-- takes neither reads nor writes until the builds end. pgvector's bulk
-- build of the 384-d index took 0.7-0.8 s of CPU per 8,000 chunks with
-- these settings (1.4 s with the defaults) on this 2-core machine while
-- the graph fits maintenance_work_mem; a build that outgrows it goes on
-- on disk (pgvector says so in a notice), far slower. docs/scaling.md measured 11-14
-- minutes per million rows with the defaults and maintenance_work_mem at
-- 3 GB: plan that order of downtime for a table of millions of chunks, and
-- raise maintenance_work_mem for the upgrade.
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
