-- migration_runs.discovery_summary was never written or read: what discovery
-- found is in stats.discovered (shown) and its cursor in checkpoint (hidden).
ALTER TABLE migration_runs DROP COLUMN discovery_summary;
