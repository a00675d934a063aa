-- Undo a run (design §4, revert). What each import wrote into the account,
-- kept in the same transaction as the write, so that a revert can delete
-- what the run created and put back what it wrote over, and can tell an
-- object changed since (by the user or another run) from one it may touch.
ALTER TABLE migration_run_resources
  -- created|updated: what the import did to target_id (NULL: it wrote nothing)
  ADD COLUMN written VARCHAR(8) CHARACTER SET ascii NULL,
  ADD COLUMN written_at DATETIME(6) NULL,
  -- updated: the object's image (sql_runner.def, IMAGE_OF) just before the write
  ADD COLUMN before_image LONGTEXT NULL,
  -- updated: the import link of the resource as it was ({"model","target","run","at"}; NULL: none)
  ADD COLUMN link_before TEXT NULL,
  -- SHA-256 (hex) of the object's image just after the write
  ADD COLUMN after_hash CHAR(64) CHARACTER SET ascii NULL,
  -- what the revert did: reverted|kept|left|gone (NULL: not yet)
  ADD COLUMN reverted VARCHAR(8) CHARACTER SET ascii NULL,
  ADD KEY resources_revert (run_id, resource_type, reverted, written);
