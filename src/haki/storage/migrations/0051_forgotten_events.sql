-- A forget in mode disable keeps the subject's events (or a forgotten fact's
-- source turns) as evidence, but no route serves them again: the timeline,
-- GET /v1/events/{id} and consolidation skip events with forgotten_at set,
-- and their episode chunks are deleted (docs/ledger.md, Forget).
ALTER TABLE events ADD COLUMN forgotten_at timestamptz;
