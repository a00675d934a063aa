-- Fair share among users (issue 28; docs/runner.md "Fair share"). A claim
-- reads the available jobs of every queue and the jobs held now (their
-- lease not run out); a step looks whether other work waits. No claim reads
-- one queue any more: jobs_claim goes. runner_ms: the runner time the run's
-- steps have taken so far; the runs a claim chooses between are ordered by
-- it, the one that has had least first (a small run's few short steps go
-- before the next step of a large import).
ALTER TABLE jobs
  DROP KEY jobs_claim,
  ADD KEY jobs_available (available_at, id),
  ADD KEY jobs_held (reserved_until);
ALTER TABLE migration_runs ADD COLUMN runner_ms BIGINT UNSIGNED NOT NULL DEFAULT 0;
