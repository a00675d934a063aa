-- MariaDB Galera Cluster (issue 27; docs/deploy.md). Locks hold only on their
-- own node, and only written rows are certified: a decision that the last of
-- a run's jobs takes (the last planning chunk starts the import, the last
-- import job ends the run) writes the run row, so that a concurrent one on
-- another node fails certification and is tried again, where it sees the
-- other job gone. runner_lock counts them here.
ALTER TABLE migration_runs ADD COLUMN decisions BIGINT UNSIGNED NOT NULL DEFAULT 0;
