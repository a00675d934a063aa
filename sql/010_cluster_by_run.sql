-- A run's resources and logs are read together, in id order: the run detail
-- (up to 501 resources), the resource pages, the tool call's 50 newest logs,
-- and the runner's chunks. With the primary key on id alone, every row read
-- through the (run_id, id) index cost a second B-tree lookup in the primary
-- key, on a page of its own. Clustered by (run_id, id), a run's rows sit
-- together in key order and a run's read is one range scan (bench/api.sh:
-- the 501-resource read costs MariaDB half the CPU). id stays unique and
-- AUTO_INCREMENT, through a key of its own. The tables are rebuilt: on a
-- large installation this migration takes as long as copying them.
ALTER TABLE migration_run_resources
  DROP PRIMARY KEY,
  ADD PRIMARY KEY (run_id, id),
  ADD UNIQUE KEY resources_id (id),
  DROP KEY resources_run_id;
ALTER TABLE migration_run_logs
  DROP PRIMARY KEY,
  ADD PRIMARY KEY (run_id, id),
  ADD UNIQUE KEY logs_id (id),
  DROP KEY logs_run;
