-- One row per fact status transition, with the caller's reason: the
-- lifecycle of a fact can be audited. A fact's history goes with the fact.
CREATE TABLE fact_transitions (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id       text NOT NULL DEFAULT 'default',
    project_id   text NOT NULL,
    subject_id   text NOT NULL,
    fact_id      uuid NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
    from_status  text NOT NULL,
    to_status    text NOT NULL,
    version      integer NOT NULL,
    reason       text,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX fact_transitions_fact ON fact_transitions (fact_id, version);
CREATE INDEX fact_transitions_scope ON fact_transitions (project_id, subject_id);

-- Same tenant isolation as the other tenant tables (see 0040); written
-- against the setting itself because this file runs before 0040 defines
-- app_project_id() and the haki_app role. The table owner bypasses it.
ALTER TABLE fact_transitions ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON fact_transitions
    USING (project_id = nullif(current_setting('app.project_id', true), ''))
    WITH CHECK (project_id = nullif(current_setting('app.project_id', true), ''));
