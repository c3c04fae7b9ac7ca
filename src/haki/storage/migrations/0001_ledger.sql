-- Events: append-only evidence. Business columns are never updated after
-- insert; `embedding` is the one derived column written later.
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE events (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id          text NOT NULL DEFAULT 'default',
    project_id      text NOT NULL,
    subject_type    text NOT NULL DEFAULT 'user',
    subject_id      text NOT NULL,
    actor_type      text,
    actor_id        text,
    agent_id        text,
    thread_id       text,
    run_id          text,
    kind            text NOT NULL,
    occurred_at     timestamptz NOT NULL,
    recorded_at     timestamptz NOT NULL DEFAULT now(),
    payload         jsonb NOT NULL,
    source          jsonb,
    classification  text[] NOT NULL DEFAULT '{}',
    hash            text NOT NULL,
    idempotency_key text NOT NULL,
    origin_trust    text NOT NULL DEFAULT 'trusted'
        CHECK (origin_trust IN ('trusted', 'semi_trusted', 'third_party', 'untrusted')),
    embedding       vector(384),
    CONSTRAINT events_project_idempotency_key UNIQUE (project_id, idempotency_key)
);
CREATE INDEX events_timeline ON events (project_id, subject_id, occurred_at, recorded_at, id);

-- Facts: what is true, with a versioned status and two time axes.
CREATE TABLE facts (
    id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id              text NOT NULL DEFAULT 'default',
    project_id          text NOT NULL,
    subject_type        text NOT NULL DEFAULT 'user',
    subject_id          text NOT NULL,
    predicate           text NOT NULL,
    value               jsonb NOT NULL,
    qualifiers          jsonb NOT NULL DEFAULT '{}',
    status              text NOT NULL DEFAULT 'candidate'
        CHECK (status IN ('candidate', 'active', 'superseded', 'disputed', 'disabled', 'deleted')),
    confidence          real NOT NULL DEFAULT 0.5 CHECK (confidence >= 0 AND confidence <= 1),
    version             integer NOT NULL DEFAULT 1,
    valid_from          timestamptz,
    valid_to            timestamptz,
    recorded_from       timestamptz NOT NULL DEFAULT now(),
    recorded_to         timestamptz,
    supersedes_id       uuid REFERENCES facts (id) ON DELETE SET NULL,
    source_event_ids    uuid[] NOT NULL DEFAULT '{}',
    fact_kind           text NOT NULL DEFAULT 'attribute'
        CHECK (fact_kind IN ('attribute', 'preference', 'instruction')),
    volatility          text NOT NULL DEFAULT 'stable'
        CHECK (volatility IN ('stable', 'slow', 'volatile', 'ephemeral')),
    reinforcement_count integer NOT NULL DEFAULT 0,
    last_reinforced_at  timestamptz,
    origin_trust        text NOT NULL DEFAULT 'trusted'
        CHECK (origin_trust IN ('trusted', 'semi_trusted', 'third_party', 'untrusted')),
    evidence_span       text,
    embedding           vector(384),
    search_text         text NOT NULL DEFAULT '',
    updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX facts_scope_status ON facts (project_id, subject_id, status);
CREATE INDEX facts_identity ON facts (project_id, subject_id, predicate);
CREATE INDEX facts_source_events ON facts USING gin (source_event_ids);
