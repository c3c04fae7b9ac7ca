-- A context trace without parsing: the packet as the JSON text it was
-- served as, and the decisions packed as columns (context/trace_codec.py).
--
-- Every call inserts a ~60 kB trace row: the packet (~23 kB of JSON) and
-- ~150 decisions (~37 kB), both parsed into jsonb and compressed by pglz.
-- That insert was 1.6 ms of PostgreSQL CPU a call on the 10,000-row scope
-- of the latency benchmark; with the decisions as ~7 kB of fixed-width
-- columns stored as they are and the packet as json (checked, not
-- parsed into jsonb), 0.75 ms (docs/context.md, "Trace").
--
-- New rows fill packet_served and decision_columns and leave packet and
-- decisions NULL; rows written before keep theirs, and readers take
-- whichever a row has (decisions: [] when neither). No existing row is
-- rewritten.
ALTER TABLE context_traces
    ALTER COLUMN packet DROP NOT NULL,
    ALTER COLUMN decisions DROP NOT NULL,
    ALTER COLUMN decisions DROP DEFAULT,
    ADD COLUMN packet_served json,
    ADD COLUMN decision_columns bytea;

-- Random ids and scores do not compress: the row keeps them as they are
-- (out of line past the TOAST threshold) instead of trying pglz first.
ALTER TABLE context_traces ALTER COLUMN decision_columns SET STORAGE EXTERNAL;

