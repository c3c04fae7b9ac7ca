-- Tenant isolation inside PostgreSQL, as a second line behind the routes'
-- scope checks. The application pool runs every connection as `haki_app`
-- (SET ROLE in the pool's configure callback); `haki_app` owns nothing, so
-- the policies below apply to it, while the owner (the migrating user) keeps
-- bypassing them for cross-project maintenance.

-- Roles are cluster-wide: another database of the same cluster may already
-- have created it, possibly at the same moment.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'haki_app') THEN
        CREATE ROLE haki_app NOLOGIN;
    END IF;
EXCEPTION
    WHEN duplicate_object OR unique_violation THEN
        NULL;
    WHEN insufficient_privilege THEN
        RAISE EXCEPTION 'haki: creating role haki_app needs a superuser or a user with CREATEROLE'
            USING HINT = 'run "CREATE ROLE haki_app NOLOGIN; GRANT haki_app TO <haki user>;" as an administrator, then migrate again';
END
$$;

-- The migrating user is the login user of the pool, which runs SET ROLE
-- haki_app. Granting needs ADMIN on the role, which the user that just
-- created it has; an already-granted membership needs nothing.
DO $$
BEGIN
    IF NOT pg_has_role(current_user, 'haki_app', 'MEMBER') THEN
        EXECUTE format('GRANT haki_app TO %I', current_user);
    END IF;
EXCEPTION
    WHEN insufficient_privilege THEN
        RAISE EXCEPTION 'haki: user % cannot be granted role haki_app', current_user
            USING HINT = 'run "GRANT haki_app TO ' || current_user || ';" as an administrator, then migrate again';
END
$$;

GRANT USAGE ON SCHEMA public TO haki_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO haki_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO haki_app;
-- Tables created by later migrations get the same grants; each tenant table
-- still needs its own policy (tests/integration/auth checks every table with
-- a project_id column).
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO haki_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO haki_app;
REVOKE ALL ON schema_migrations FROM haki_app;

-- The project a transaction acts for: `Database.transaction(project_id=...)`
-- sets it with SET LOCAL semantics. An unset setting reads as NULL and an
-- expired one as '', and neither matches any row. Inlined by the planner
-- (plain STABLE SQL), so policies using it keep their indexes.
CREATE FUNCTION app_project_id() RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$ SELECT nullif(current_setting('app.project_id', true), '') $$;

-- One policy per tenant table: a row is visible and writable only in its
-- project's transactions. `jobs` and `api_keys` stay without RLS: the worker
-- claims jobs across projects, and a key is looked up before its project is
-- known.
DO $$
DECLARE
    tenant_table text;
BEGIN
    FOREACH tenant_table IN ARRAY ARRAY[
        'events', 'episode_chunks', 'facts', 'conflict_sets', 'context_traces',
        'feedback', 'forget_receipts', 'predicate_aliases', 'subject_aliases'
    ] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tenant_table);
        EXECUTE format(
            'CREATE POLICY tenant_isolation ON %I TO haki_app '
            'USING (project_id = app_project_id()) WITH CHECK (project_id = app_project_id())',
            tenant_table
        );
    END LOOP;
END
$$;
