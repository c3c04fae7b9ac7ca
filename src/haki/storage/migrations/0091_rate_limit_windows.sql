-- Per-key request counters shared by every API process: one row per key and
-- one-minute window, incremented atomically by an upsert (haki.auth.ratelimit).
-- Rows of past windows are deleted by the key's next new window, so a key
-- keeps at most two rows.
CREATE TABLE rate_limit_windows (
    project_id   text        NOT NULL,
    key_id       uuid        NOT NULL,
    window_start timestamptz NOT NULL,
    requests     integer     NOT NULL,
    PRIMARY KEY (project_id, key_id, window_start)
);

ALTER TABLE rate_limit_windows ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON rate_limit_windows TO haki_app
    USING (project_id = app_project_id()) WITH CHECK (project_id = app_project_id());
