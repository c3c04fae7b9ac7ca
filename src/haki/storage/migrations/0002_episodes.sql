-- Episode chunks: turn-sized verbatim pieces of events, for "what happened
-- / when?". Deleting an event deletes its chunks.
CREATE TABLE episode_chunks (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    event_id     uuid NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    ordinal      integer NOT NULL,
    org_id       text NOT NULL DEFAULT 'default',
    project_id   text NOT NULL,
    subject_type text NOT NULL DEFAULT 'user',
    subject_id   text NOT NULL,
    kind         text NOT NULL,
    occurred_at  timestamptz NOT NULL,
    text         text NOT NULL,
    embedding    vector(384),
    created_at   timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT episode_chunks_event_ordinal UNIQUE (event_id, ordinal)
);
CREATE INDEX episode_chunks_scope ON episode_chunks (project_id, subject_id, occurred_at);
