-- A subject's jobs run in the order they were queued (jobs/queue.py, CLAIM).
-- That order was (created_at, id), and created_at is the time the queueing
-- transaction began: every job one transaction queues shares it, so their
-- order fell to their random ids. The backlog sweep queues a subject's
-- never-consolidated events oldest first in jobs of 500, all in one
-- statement; those jobs then ran in a random order, and a later event could
-- be consolidated before an earlier one (a supersession read as historical,
-- a retraction before the fact it ends). An identity column numbers jobs as
-- they are inserted, in statement order.
--
-- Existing jobs are numbered in their previous order, so the pending ones
-- keep their place.
ALTER TABLE jobs ADD COLUMN seq bigint;

UPDATE jobs SET seq = ordered.n
FROM (SELECT id, project_id, row_number() OVER (ORDER BY created_at, id) AS n FROM jobs) AS ordered
WHERE jobs.id = ordered.id AND jobs.project_id = ordered.project_id;

ALTER TABLE jobs
    ALTER COLUMN seq SET NOT NULL,
    ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY;

SELECT setval(pg_get_serial_sequence('jobs', 'seq'), coalesce(max(seq), 0) + 1, false) FROM jobs;

DROP INDEX jobs_claimable;
CREATE INDEX jobs_claimable ON jobs (status, run_after, seq);
