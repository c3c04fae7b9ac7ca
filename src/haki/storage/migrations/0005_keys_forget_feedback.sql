-- Only the sha256 of an API key is stored; the prefix is for display.
CREATE TABLE api_keys (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id       text NOT NULL DEFAULT 'default',
    project_id   text NOT NULL,
    label        text NOT NULL DEFAULT '',
    key_hash     text NOT NULL UNIQUE,
    prefix       text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    revoked_at   timestamptz
);
CREATE INDEX api_keys_project ON api_keys (project_id, created_at, id);

CREATE TABLE forget_receipts (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id       text NOT NULL DEFAULT 'default',
    project_id   text NOT NULL,
    subject_id   text,
    fact_id      uuid,
    mode         text NOT NULL CHECK (mode IN ('disable', 'delete')),
    counts       jsonb NOT NULL DEFAULT '{}',
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX forget_receipts_project ON forget_receipts (project_id, created_at);

CREATE TABLE feedback (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id       text NOT NULL DEFAULT 'default',
    project_id   text NOT NULL,
    subject_id   text,
    trace_id     uuid,
    fact_id      uuid,
    rating       text NOT NULL CHECK (rating IN ('useful', 'irrelevant', 'incorrect')),
    comment      text,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feedback_project ON feedback (project_id, subject_id);

-- Learned predicate aliases and subject aliases used by identity resolution.
CREATE TABLE predicate_aliases (
    project_id   text NOT NULL,
    alias        text NOT NULL,
    predicate    text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, alias)
);

CREATE TABLE subject_aliases (
    project_id   text NOT NULL,
    alias        text NOT NULL,
    subject_id   text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, alias)
);
