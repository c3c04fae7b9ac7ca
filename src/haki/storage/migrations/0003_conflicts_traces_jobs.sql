CREATE TABLE conflict_sets (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id       text NOT NULL DEFAULT 'default',
    project_id   text NOT NULL,
    subject_type text NOT NULL DEFAULT 'user',
    subject_id   text NOT NULL,
    fact_ids     uuid[] NOT NULL,
    status       text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
    kind         text NOT NULL CHECK (kind IN ('contradiction', 'quarantine')),
    reason       text NOT NULL DEFAULT '',
    resolution   jsonb,
    created_at   timestamptz NOT NULL DEFAULT now(),
    resolved_at  timestamptz
);
CREATE INDEX conflict_sets_scope ON conflict_sets (project_id, subject_id, status);
CREATE INDEX conflict_sets_fact_ids ON conflict_sets USING gin (fact_ids);

-- One row per /v1/context call; `decisions` holds one entry per fact or
-- episode considered, so a served packet can be explained later.
CREATE TABLE context_traces (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id       text NOT NULL DEFAULT 'default',
    project_id   text NOT NULL,
    subject_type text NOT NULL DEFAULT 'user',
    subject_id   text NOT NULL,
    query        text NOT NULL,
    purpose      text,
    recipe       text NOT NULL DEFAULT 'default',
    as_of        timestamptz,
    packet       jsonb NOT NULL,
    decisions    jsonb NOT NULL DEFAULT '[]',
    token_count  integer NOT NULL DEFAULT 0,
    facts_served integer NOT NULL DEFAULT 0,
    duration_ms  double precision NOT NULL DEFAULT 0,
    timings      jsonb NOT NULL DEFAULT '{}',
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX context_traces_scope ON context_traces (project_id, subject_id, created_at);
CREATE INDEX context_traces_project_time ON context_traces (project_id, created_at);

-- Consolidation queue, claimed with FOR UPDATE SKIP LOCKED.
CREATE TABLE jobs (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    kind         text NOT NULL DEFAULT 'consolidate',
    status       text NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'running', 'done', 'failed')),
    org_id       text NOT NULL DEFAULT 'default',
    project_id   text NOT NULL,
    subject_id   text,
    payload      jsonb NOT NULL DEFAULT '{}',
    attempts     integer NOT NULL DEFAULT 0,
    run_after    timestamptz NOT NULL DEFAULT now(),
    claimed_at   timestamptz,
    claimed_by   text,
    finished_at  timestamptz,
    last_error   text,
    result       jsonb,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX jobs_claimable ON jobs (status, run_after, created_at, id);
CREATE INDEX jobs_scope ON jobs (project_id, subject_id);
