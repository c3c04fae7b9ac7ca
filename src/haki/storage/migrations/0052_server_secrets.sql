-- Secrets the server generates for itself when no HAKI_* setting gives them
-- (e.g. the key of forget receipts' subject hash). Only the table owner reads
-- them: the application role never sees this table.
CREATE TABLE server_secrets (
    name       text PRIMARY KEY,
    value      text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
REVOKE ALL ON server_secrets FROM haki_app;
