-- The revert reads a type's next objects newest first (ST_RV_NEXT): with
-- written in the index before id, no index gave that order, and a plan that
-- walked the primary key from the newest passed every object already
-- reverted in each batch (a 100,000-object revert slowed to 230 objects/s).
-- Here id follows reverted, so the batch is the first rows of one range;
-- written comes last, so the revert's counts read the index alone. On a
-- Galera cluster this rebuilds an index of a large table under TOI: run it
-- in a quiet moment (docs/deploy.md, "Schema migrations on a cluster").
ALTER TABLE migration_run_resources
  DROP KEY resources_revert,
  ADD KEY resources_revert (run_id, resource_type, reverted, id, written);
