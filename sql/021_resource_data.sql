-- A resource's data in a table of its own (issue 28 item 3; docs/runner.md,
-- "Imports"): the provider's data, the normalized data and the dropped ledger
-- (sql/013) are written once, at discovery, and read by the plan's and the
-- import's batches, the resource items and the run's report; a resource's row
-- is rewritten by every change of its status (the plan, the import's record,
-- exclusions, retries). Inline, the data made it a 2 KB row that each of
-- those rewrote. Keyed like the resources (sql/010), by (run_id, resource_id):
-- a batch's resources and their data are read as two ranges in the same
-- order. Deleted with its resource (a statement of its own, as the
-- resources'); the foreign key on the run is there for a run row deleted
-- without them.
CREATE TABLE migration_run_resource_data (
  run_id CHAR(36) CHARACTER SET ascii NOT NULL,
  resource_id BIGINT UNSIGNED NOT NULL,
  external_data LONGTEXT NULL,
  normalized_data LONGTEXT NULL,
  dropped JSON NULL,
  PRIMARY KEY (run_id, resource_id),
  CONSTRAINT resource_data_run_fk FOREIGN KEY (run_id) REFERENCES migration_runs (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
INSERT INTO migration_run_resource_data (run_id, resource_id, external_data, normalized_data, dropped)
  SELECT run_id, id, external_data, normalized_data, dropped FROM migration_run_resources;
ALTER TABLE migration_run_resources
  DROP COLUMN external_data,
  DROP COLUMN normalized_data,
  DROP COLUMN dropped;
