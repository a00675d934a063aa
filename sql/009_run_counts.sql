-- The run list shows each run's total and failed resources. Counting them for
-- every run of a page is most of what the list costs, so a run keeps them
-- while it is in a state where neither the runner nor the API changes them:
-- awaiting_review (discovery is over, nothing is imported yet) and the
-- terminal states. In any other state, or for a deleted run, the columns are
-- NULL and readers count live (COALESCE in RUN_COLS, src/db/sql_core.def).
-- The trigger counts again on every update of a run in such a state, so the
-- statement that makes a run stable stores its counts in the same row change,
-- and an API write that changes them without changing the state (a retry of
-- failed resources while awaiting review: ST_RUN_RECOUNT) touches the row.
-- The counts are locking reads: they see what other transactions committed,
-- not this transaction's snapshot.
ALTER TABLE migration_runs
  ADD COLUMN total_resources BIGINT UNSIGNED NULL,
  ADD COLUMN failed_resources BIGINT UNSIGNED NULL;
CREATE TRIGGER migration_runs_counts BEFORE UPDATE ON migration_runs FOR EACH ROW
  SET NEW.total_resources = IF(NEW.deleted_at IS NULL
        AND NEW.status IN ('awaiting_review', 'completed', 'completed_with_errors', 'failed', 'cancelled'),
        (SELECT COUNT(*) FROM migration_run_resources r WHERE r.run_id = NEW.id LOCK IN SHARE MODE), NULL),
      NEW.failed_resources = IF(NEW.total_resources IS NULL, NULL,
        (SELECT COUNT(*) FROM migration_run_resources r WHERE r.run_id = NEW.id AND r.status = 'failed'
         LOCK IN SHARE MODE));
-- Runs that are already stable get their counts now (the trigger counts them).
UPDATE migration_runs SET total_resources = NULL
  WHERE deleted_at IS NULL
  AND status IN ('awaiting_review', 'completed', 'completed_with_errors', 'failed', 'cancelled');
