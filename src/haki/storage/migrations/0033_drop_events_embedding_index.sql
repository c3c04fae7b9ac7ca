-- Episodic retrieval ranks episode chunks (their own hnsw index); nothing
-- searches events by embedding, so the events' hnsw index only cost write
-- throughput: every consolidated event paid one more graph insertion.
DROP INDEX IF EXISTS events_embedding;
