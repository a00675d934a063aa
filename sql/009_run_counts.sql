-- The run list shows each run's total and failed resources. Counting them for
-- every run of a page is most of what the list costs, so a run keeps them
-- while it is in a state where neither the runner nor the API changes them:
-- awaiting_review (discovery is over, nothing is imported yet) and the
-- terminal states. The statement that moves a run into such a state counts
-- them in the same row change (RUN_TOTALS_KEEP in src/db/sql_core.def); every
-- other change of state clears them (RUN_TOTALS_DROP), and readers then count
-- live (COALESCE in RUN_COLS). test_runner checks that every statement setting
-- a run's status does one or the other. Plain columns and statements, no
-- trigger: a trigger would ask for the TRIGGER privilege, and for SUPER on a
-- server with binary logging on.
ALTER TABLE migration_runs
  ADD COLUMN total_resources BIGINT UNSIGNED NULL,
  ADD COLUMN failed_resources BIGINT UNSIGNED NULL;
-- Runs that are already in such a state get their totals now.
UPDATE migration_runs m SET
  m.total_resources = (SELECT COUNT(*) FROM migration_run_resources r WHERE r.run_id = m.id),
  m.failed_resources = (SELECT COUNT(*) FROM migration_run_resources r WHERE r.run_id = m.id AND r.status = 'failed')
  WHERE m.deleted_at IS NULL
  AND m.status IN ('awaiting_review', 'completed', 'completed_with_errors', 'failed', 'cancelled');
