-- A project's active embedding space is a setting of the project, not of
-- the process serving it: one server can answer projects in different
-- spaces, each with its space's model (consolidator.project_spaces).
--
-- No row: the project is in the space of the process serving it (its
-- HAKI_EMBED_* settings), as before this migration. ``haki embeddings
-- reembed`` writes the row in the transaction that moves the project's
-- vectors into the new space (consolidator.spaces.switch_project), so
-- readers see the new space and the new vectors at the same commit.
CREATE TABLE project_embedding_spaces (
    project_id  text PRIMARY KEY,
    space       smallint NOT NULL REFERENCES embedding_spaces (id),
    since       timestamptz NOT NULL DEFAULT now()
);

-- The application role reads its own project's row only, and writes none:
-- the re-embedding job sets it as the table owner.
ALTER TABLE project_embedding_spaces ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON project_embedding_spaces FOR SELECT TO haki_app
    USING (project_id = app_project_id());

-- How a process that was not configured for a space builds its embedder
-- (provider, model, dimensions, endpoint URL, prefixes): never a secret.
-- NULL: a space registered before 0171; only a process configured for it
-- embeds in it, until a process configured for it starts once.
ALTER TABLE embedding_spaces ADD COLUMN recipe jsonb;
