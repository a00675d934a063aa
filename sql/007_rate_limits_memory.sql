-- Rate-limit counters (issue 14) need not survive a database restart: in a
-- MEMORY table a request's count costs no InnoDB commit (no log flush), and
-- it stays one shared counter for every process and host. Memory is taken as
-- rows come; the cap is fixed when the table is altered: 256 MiB, about 1.6
-- million buckets (tokens and client addresses) in the 5 minutes the runner
-- keeps (it purges older windows every minute). The purge reads window_start
-- by range, hence a BTREE index.
SET SESSION max_heap_table_size = 268435456;
ALTER TABLE rate_limits
  DROP KEY rate_limits_window,
  ADD KEY rate_limits_window (window_start) USING BTREE,
  ENGINE=MEMORY;
