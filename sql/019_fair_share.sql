-- Fair share (issue 28 item 1; docs/runner.md "Fair share"). A claim reads
-- the available jobs of every queue (jobs_available) and the jobs held now
-- (jobs_held: a lease not run out) and takes first the work of whoever has
-- had least runner time lately; no claim reads one queue any more, so
-- jobs_claim goes.
ALTER TABLE jobs
  DROP KEY jobs_claim,
  ADD KEY jobs_available (available_at, id),
  ADD KEY jobs_held (reserved_until);
-- The runner time a run's steps have taken (ms, in milliseconds), decayed
-- with a half-life of a minute to the time of the last step's end (at); a
-- user's is the sum of its runs'. Each step end adds its own in one
-- statement of its own; the runner's housekeeping deletes the rows of runs
-- not served for 20 minutes (by then a row weighs a millionth of what it
-- did). No foreign key: a deleted run's row goes the same way, and the
-- step's write takes no lock on the run or the user.
CREATE TABLE runner_time (
  user_id BIGINT UNSIGNED NOT NULL,
  run_id CHAR(36) CHARACTER SET ascii NOT NULL,
  ms DOUBLE NOT NULL,
  at DATETIME(6) NOT NULL,
  PRIMARY KEY (user_id, run_id),
  KEY runner_time_at (at)
) ENGINE=InnoDB;
