-- Each context trace records the full retrieval recipe it ran with (knobs,
-- weights, recall floor), not only its name, so a past packet can be
-- explained after the defaults change.
ALTER TABLE context_traces
    ADD COLUMN recipe_config jsonb NOT NULL DEFAULT '{}';
