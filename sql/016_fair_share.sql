-- Fair share among users (issue 28; docs/runner.md "Fair share"). A claim
-- reads the available jobs of every queue and the jobs held now (their
-- lease not run out); a step looks whether other work waits. No claim reads
-- one queue any more: jobs_claim goes. served_at: when a runner last claimed
-- a job of the run (a run's jobs come and go: a planning or import chunk is
-- deleted when done); the runs a claim chooses between are ordered by it,
-- the one served longest ago (or never) first.
ALTER TABLE jobs
  DROP KEY jobs_claim,
  ADD KEY jobs_available (available_at, id),
  ADD KEY jobs_held (reserved_until);
ALTER TABLE migration_runs ADD COLUMN served_at DATETIME(6) NULL;
