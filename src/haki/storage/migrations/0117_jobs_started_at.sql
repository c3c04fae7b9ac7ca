-- When the run of a job began (its transaction took the row: jobs/queue.py,
-- LOCK_FOR_RUN), so that finished_at - started_at is the job's real
-- duration. Timings are written with clock_timestamp(): now() is the start of
-- the writing transaction, and a job's finished_at read the start of its own
-- run (a 14-minute job showed 3.6 ms).
ALTER TABLE jobs ADD COLUMN started_at timestamptz;
