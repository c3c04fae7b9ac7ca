-- GIN indexes without a pending list.
--
-- With fastupdate on (PostgreSQL's default) a GIN index queues new entries in
-- an unsorted pending list of up to gin_pending_list_limit (4 MB) and merges
-- them on vacuum or when the list is full. Every search reads the whole list
-- sequentially, whatever it matches: right after 10,000 turns were
-- consolidated, all of them sat there (229 pages), and each of the episode
-- full-text leg's per-term lookups read it, 12.5 ms of a 2.4 ms statement. In
-- a large table that takes writes the list is never empty, so the cost is
-- paid at every size. Entries now go straight into the index: a write costs
-- a few index insertions more, a search reads only the postings it matches.
ALTER INDEX facts_search_vector SET (fastupdate = off);
ALTER INDEX episode_chunks_search_vector SET (fastupdate = off);
ALTER INDEX facts_source_events SET (fastupdate = off);
ALTER INDEX conflict_sets_fact_ids SET (fastupdate = off);

-- What already sits in the lists is merged now.
SELECT gin_clean_pending_list(i::regclass)
FROM unnest(ARRAY['facts_search_vector', 'episode_chunks_search_vector',
                  'facts_source_events', 'conflict_sets_fact_ids']) AS i;
