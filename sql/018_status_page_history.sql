-- A status page's history (issue 24 items 4 and 6): its incidents and
-- maintenances, as the page showed them. Written with the page, like
-- status_page_monitors: an import of the page replaces its whole list (a
-- re-import whose history read failed keeps it), and the page's revert image
-- (src/db/sql_runner.def, LISTS_status_pages) carries it, so a revert puts
-- it back. Sources: Statuspage incidents and scheduled maintenances
-- (GET /v1/pages/{page_id}/incidents, .../incidents/scheduled), Better
-- Stack status reports with their status updates
-- (GET /api/v2/status-pages/{id}/status-reports, .../status-updates).
CREATE TABLE status_page_incidents (
  status_page_id BIGINT UNSIGNED NOT NULL,
  -- 0 = the newest: ordered by starts_at, latest first (at most 50 a page)
  position INT UNSIGNED NOT NULL,
  kind VARCHAR(16) CHARACTER SET ascii NOT NULL,   -- incident|maintenance
  name VARCHAR(255) NOT NULL,
  -- Statuspage's word: investigating|identified|monitoring|resolved for an
  -- incident, scheduled|in_progress|verifying|completed for a maintenance;
  -- other (an unknown word); NULL: the provider has none (Better Stack)
  status VARCHAR(16) CHARACTER SET ascii NULL,
  -- how bad: Statuspage none|minor|major|critical|maintenance, Better Stack's
  -- aggregate state operational|degraded|downtime|maintenance; other; NULL
  impact VARCHAR(16) CHARACTER SET ascii NULL,
  starts_at DATETIME NULL,        -- UTC: when it began (a maintenance: when it is scheduled for)
  ends_at DATETIME NULL,          -- UTC: when it was resolved or completed; NULL: not yet
  scheduled_until DATETIME NULL,  -- UTC: a maintenance's planned end
  -- its updates, oldest first: [{"at": "YYYY-MM-DDTHH:MM:SSZ" or null,
  -- "status": a status word or null, "body": text or null}] (at most 50, the
  -- newest; a body at most 4000 characters, cut on a character boundary)
  updates JSON NULL,
  -- the page's entries it affects: their status_page_monitors.position, in
  -- the page's order; NULL: none named
  components JSON NULL,
  PRIMARY KEY (status_page_id, position),
  CONSTRAINT spi_page_fk FOREIGN KEY (status_page_id) REFERENCES status_pages (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- status_page_subscribers.components (sql/004) changes meaning with this
-- version, without a schema change: the entries of its page a subscriber
-- follows, as their status_page_monitors.position (no longer the provider's
-- component ids); NULL: every component; []: none of the page's entries
-- (each component it named is missing from the page). Rows imported before
-- keep the ids until the page is imported again.
