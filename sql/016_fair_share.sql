-- Fair share among users (issue 28; docs/runner.md "Fair share"). A claim
-- reads the available jobs of every queue and the jobs held now (their
-- lease not run out); a step looks whether other work waits. served_at: when
-- a runner last claimed the job; a run's latest one orders the runs a claim
-- chooses between (the one served longest ago, or never, first). No claim
-- reads one queue any more: jobs_claim goes.
ALTER TABLE jobs
  ADD COLUMN served_at DATETIME(6) NULL,
  DROP KEY jobs_claim,
  ADD KEY jobs_available (available_at, id),
  ADD KEY jobs_held (reserved_until);
