-- Episode chunks carry where their event came from (origin trust and actor
-- type), so a context packet can say so for every episode it serves without
-- reading events on the hot path.
ALTER TABLE episode_chunks ADD COLUMN origin_trust text NOT NULL DEFAULT 'trusted';
ALTER TABLE episode_chunks ADD COLUMN actor_type text;

UPDATE episode_chunks c
SET origin_trust = e.origin_trust, actor_type = e.actor_type
FROM events e
WHERE e.id = c.event_id AND (e.origin_trust <> 'trusted' OR e.actor_type IS NOT NULL);

-- What the consolidator found in a chunk's text (text.injection.marks): a
-- threat kind, instruction-like words, a captured memory block. Chunks
-- written before this column carry none; their served text still has any
-- memory-block tags neutralised at render time.
ALTER TABLE episode_chunks ADD COLUMN marks text[] NOT NULL DEFAULT '{}';
