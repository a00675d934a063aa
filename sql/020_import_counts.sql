-- A run's progress while it imports (issue 28 item 3; docs/runner.md, "Stats
-- and logs"): what an import job's transactions made of the
-- run's resources (imported, failed), written in the same transaction, not yet
-- in the run's stats. The job's progress report adds its own to the stats and
-- sets them back to 0, instead of counting every resource of the run at each
-- report (a whole-run count a second per job: at 100,000 resources, more rows
-- read than the import itself).
ALTER TABLE jobs
  ADD COLUMN imported INT UNSIGNED NOT NULL DEFAULT 0,
  ADD COLUMN failed INT UNSIGNED NOT NULL DEFAULT 0;
