-- Retention: per project, how long raw events and context traces are kept
-- (NULL: for ever), and one receipt per enforcement run that deleted rows.
-- The worker enforces the policies (haki.retention); receipts, like forget
-- receipts, hold counts and cut-offs, never content.
CREATE TABLE retention_policies (
    project_id   text PRIMARY KEY,
    events_days  integer CHECK (events_days > 0),
    traces_days  integer CHECK (traces_days > 0),
    updated_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE retention_receipts (
    id              uuid NOT NULL DEFAULT gen_random_uuid(),
    project_id      text NOT NULL,
    events_before   timestamptz,
    traces_before   timestamptz,
    counts          jsonb NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (id, project_id)
);
CREATE INDEX retention_receipts_project_created ON retention_receipts (project_id, created_at DESC);

-- Events are aged from the later of when they happened and when they were
-- recorded, so a backfill of old conversations is kept its full term.
CREATE INDEX events_retention_age ON events (project_id, (greatest(occurred_at, recorded_at)));

DO $$
DECLARE
    tenant_table text;
BEGIN
    FOREACH tenant_table IN ARRAY ARRAY['retention_policies', 'retention_receipts'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tenant_table);
        EXECUTE format(
            'CREATE POLICY tenant_isolation ON %I TO haki_app '
            'USING (project_id = app_project_id()) WITH CHECK (project_id = app_project_id())',
            tenant_table
        );
    END LOOP;
END
$$;
