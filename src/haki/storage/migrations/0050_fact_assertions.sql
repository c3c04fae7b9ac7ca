-- Facts a person asserted or corrected through the API (POST /v1/facts,
-- PATCH /v1/facts/{id}) name who did: the API key id, "admin" or "dev".
-- Extracted facts leave it NULL: their source is source_event_ids.
ALTER TABLE facts ADD COLUMN asserted_by text;
