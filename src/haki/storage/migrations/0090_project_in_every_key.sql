-- Every primary key, unique key and foreign key includes project_id, so the
-- schema can be hash-distributed by project (Citus) with each constraint
-- checked inside one shard (docs/scaling.md). The project comes second in
-- each key: lookups by id (or key hash) alone keep using the same index.

ALTER TABLE episode_chunks DROP CONSTRAINT episode_chunks_event_id_fkey;
ALTER TABLE fact_transitions DROP CONSTRAINT fact_transitions_fact_id_fkey;
ALTER TABLE facts DROP CONSTRAINT facts_supersedes_id_fkey;

ALTER TABLE events DROP CONSTRAINT events_pkey, ADD PRIMARY KEY (id, project_id);
ALTER TABLE facts DROP CONSTRAINT facts_pkey, ADD PRIMARY KEY (id, project_id);
ALTER TABLE episode_chunks DROP CONSTRAINT episode_chunks_pkey, ADD PRIMARY KEY (id, project_id);
ALTER TABLE conflict_sets DROP CONSTRAINT conflict_sets_pkey, ADD PRIMARY KEY (id, project_id);
ALTER TABLE context_traces DROP CONSTRAINT context_traces_pkey, ADD PRIMARY KEY (id, project_id);
ALTER TABLE jobs DROP CONSTRAINT jobs_pkey, ADD PRIMARY KEY (id, project_id);
ALTER TABLE api_keys DROP CONSTRAINT api_keys_pkey, ADD PRIMARY KEY (id, project_id);
ALTER TABLE forget_receipts DROP CONSTRAINT forget_receipts_pkey, ADD PRIMARY KEY (id, project_id);
ALTER TABLE feedback DROP CONSTRAINT feedback_pkey, ADD PRIMARY KEY (id, project_id);
ALTER TABLE fact_transitions DROP CONSTRAINT fact_transitions_pkey, ADD PRIMARY KEY (id, project_id);

ALTER TABLE episode_chunks
    DROP CONSTRAINT episode_chunks_event_ordinal,
    ADD CONSTRAINT episode_chunks_event_ordinal UNIQUE (event_id, ordinal, project_id);
-- A key is looked up by its hash before its project is known; the hash leads.
ALTER TABLE api_keys
    DROP CONSTRAINT api_keys_key_hash_key,
    ADD CONSTRAINT api_keys_key_hash_project UNIQUE (key_hash, project_id);

ALTER TABLE episode_chunks ADD CONSTRAINT episode_chunks_event_fkey
    FOREIGN KEY (event_id, project_id) REFERENCES events (id, project_id) ON DELETE CASCADE;
ALTER TABLE fact_transitions ADD CONSTRAINT fact_transitions_fact_fkey
    FOREIGN KEY (fact_id, project_id) REFERENCES facts (id, project_id) ON DELETE CASCADE;
-- SET NULL on the id column only: project_id is NOT NULL (PostgreSQL >= 15).
ALTER TABLE facts ADD CONSTRAINT facts_supersedes_fkey
    FOREIGN KEY (supersedes_id, project_id) REFERENCES facts (id, project_id)
    ON DELETE SET NULL (supersedes_id);
