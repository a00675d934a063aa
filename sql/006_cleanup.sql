-- Deleting a large run (issue 12): the run disappears from the API at once
-- (deleted_at set) and the runner removes its resources and log in batches,
-- then the run itself, so no single statement outlives a request's timeout.
ALTER TABLE migration_runs
  ADD COLUMN deleted_at DATETIME NULL AFTER finished_at,
  ADD KEY runs_deleted (deleted_at);
