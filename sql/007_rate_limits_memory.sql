-- Rate-limit counters were moved to a MEMORY table here (issue 14). A Galera
-- cluster does not replicate MEMORY tables, and in STRICT_REPLICATION mode
-- refuses them (error 4165): the engine now depends on the server, and
-- `migratorctl db migrate` sets it after the migrations (rate_limits_engine
-- in src/db/admin.c). This migration does nothing any more.
DO 0;
