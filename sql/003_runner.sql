-- Indexes for the runner's batch scans over a run's resources (src/runner):
-- planning walks a run in id order; imports walk one type at a time in id
-- order, pending ones only. Both are then index range scans, so a run of
-- 100k resources is planned and imported in constant-cost batches.
ALTER TABLE migration_run_resources
  ADD KEY resources_run_id (run_id, id),
  ADD KEY resources_run_type_status (run_id, resource_type, status, id);
