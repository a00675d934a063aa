-- The review step (issue 11): each resource's name at the provider (or its
-- URL/address), the reason the plan chose its action, the run's start
-- options, and indexes for the paged, filtered resource list.
ALTER TABLE migration_run_resources
  ADD COLUMN name VARCHAR(255) NULL AFTER external_id,
  ADD COLUMN reason VARCHAR(512) NULL AFTER status,
  ADD KEY resources_run_type_id (run_id, resource_type, id),
  ADD KEY resources_run_action_id (run_id, action, id);

-- {"import_paused": true|false}
ALTER TABLE migration_runs
  ADD COLUMN options TEXT NULL AFTER stats;
