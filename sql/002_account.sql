-- The account's own tables, which imports write into (design §4), and the
-- durable linkage from imported external resources to their targets.
--
-- Every table has its owner user_id and a natural-key index. The natural key
-- decides a "conflict" at planning time: an object with the same key exists
-- that no import created (no row in import_links points at it).
--   monitors         (type, url)
--   heartbeats       (name)
--   contacts         (type, value)   value NULL: (type, name)
--   status_pages     (name)
--   hosting_clients  (email)
--   hosting_services (client_id, product, domain)
--   hosting_domains  (domain)
--   invoices         (number)
-- The keys are indexes, not UNIQUE constraints: a user may hold duplicates
-- (resolve-conflicts "duplicate" creates one on purpose).
-- Strings compare case-insensitively (utf8mb4_unicode_ci).

CREATE TABLE contacts (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  user_id BIGINT UNSIGNED NOT NULL,
  name VARCHAR(255) NOT NULL,
  type VARCHAR(32) CHARACTER SET ascii NOT NULL,
  value VARCHAR(1024) NULL,
  created_at DATETIME(6) NOT NULL,
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (id),
  KEY contacts_natural (user_id, type, value(191)),
  KEY contacts_name (user_id, type, name(191)),
  CONSTRAINT contacts_user_fk FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE monitors (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  user_id BIGINT UNSIGNED NOT NULL,
  name VARCHAR(255) NOT NULL,
  type VARCHAR(16) CHARACTER SET ascii NOT NULL,  -- http|keyword|ping|port|dns|tcp|udp|smtp|pop3|imap|ssh|other
  url VARCHAR(2048) NOT NULL,                     -- URL, or host for ping/port checks
  interval_s INT UNSIGNED NOT NULL,
  paused TINYINT(1) NOT NULL DEFAULT 0,           -- as it was at the provider
  port INT UNSIGNED NULL,
  keyword VARCHAR(1024) NULL,
  created_at DATETIME(6) NOT NULL,
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (id),
  KEY monitors_natural (user_id, type, url(191)),
  CONSTRAINT monitors_user_fk FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE monitor_contacts (
  monitor_id BIGINT UNSIGNED NOT NULL,
  contact_id BIGINT UNSIGNED NOT NULL,
  PRIMARY KEY (monitor_id, contact_id),
  KEY monitor_contacts_contact (contact_id),
  CONSTRAINT monitor_contacts_monitor_fk FOREIGN KEY (monitor_id) REFERENCES monitors (id) ON DELETE CASCADE,
  CONSTRAINT monitor_contacts_contact_fk FOREIGN KEY (contact_id) REFERENCES contacts (id) ON DELETE CASCADE
) ENGINE=InnoDB;

CREATE TABLE heartbeats (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  user_id BIGINT UNSIGNED NOT NULL,
  name VARCHAR(255) NOT NULL,
  interval_s INT UNSIGNED NOT NULL,
  grace_s INT UNSIGNED NOT NULL,
  paused TINYINT(1) NOT NULL DEFAULT 0,
  ping_url VARCHAR(2048) NULL,
  schedule VARCHAR(255) NULL,
  created_at DATETIME(6) NOT NULL,
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (id),
  KEY heartbeats_natural (user_id, name(191)),
  CONSTRAINT heartbeats_user_fk FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE heartbeat_contacts (
  heartbeat_id BIGINT UNSIGNED NOT NULL,
  contact_id BIGINT UNSIGNED NOT NULL,
  PRIMARY KEY (heartbeat_id, contact_id),
  KEY heartbeat_contacts_contact (contact_id),
  CONSTRAINT heartbeat_contacts_heartbeat_fk FOREIGN KEY (heartbeat_id) REFERENCES heartbeats (id) ON DELETE CASCADE,
  CONSTRAINT heartbeat_contacts_contact_fk FOREIGN KEY (contact_id) REFERENCES contacts (id) ON DELETE CASCADE
) ENGINE=InnoDB;

CREATE TABLE status_pages (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  user_id BIGINT UNSIGNED NOT NULL,
  name VARCHAR(255) NOT NULL,
  url VARCHAR(2048) NULL,
  public TINYINT(1) NOT NULL DEFAULT 1,
  created_at DATETIME(6) NOT NULL,
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (id),
  KEY status_pages_natural (user_id, name(191)),
  CONSTRAINT status_pages_user_fk FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- A status page's monitor list, in the provider's order: each entry is one
-- imported monitor or heartbeat.
CREATE TABLE status_page_monitors (
  status_page_id BIGINT UNSIGNED NOT NULL,
  position INT UNSIGNED NOT NULL,
  monitor_id BIGINT UNSIGNED NULL,
  heartbeat_id BIGINT UNSIGNED NULL,
  PRIMARY KEY (status_page_id, position),
  KEY status_page_monitors_monitor (monitor_id),
  KEY status_page_monitors_heartbeat (heartbeat_id),
  CONSTRAINT spm_page_fk FOREIGN KEY (status_page_id) REFERENCES status_pages (id) ON DELETE CASCADE,
  CONSTRAINT spm_monitor_fk FOREIGN KEY (monitor_id) REFERENCES monitors (id) ON DELETE CASCADE,
  CONSTRAINT spm_heartbeat_fk FOREIGN KEY (heartbeat_id) REFERENCES heartbeats (id) ON DELETE CASCADE
) ENGINE=InnoDB;

CREATE TABLE hosting_clients (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  user_id BIGINT UNSIGNED NOT NULL,
  email VARCHAR(255) NOT NULL,
  first_name VARCHAR(255) NULL,
  last_name VARCHAR(255) NULL,
  company VARCHAR(255) NULL,
  status VARCHAR(32) NULL,
  client_since DATE NULL,
  created_at DATETIME(6) NOT NULL,
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (id),
  KEY hosting_clients_natural (user_id, email(191)),
  CONSTRAINT hosting_clients_user_fk FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE hosting_services (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  user_id BIGINT UNSIGNED NOT NULL,
  client_id BIGINT UNSIGNED NULL,                 -- hosting_clients.id; NULL when the client was not imported
  product VARCHAR(255) NOT NULL,
  domain VARCHAR(255) NOT NULL DEFAULT '',
  status VARCHAR(32) NULL,
  billing_cycle VARCHAR(32) NULL,
  amount DECIMAL(14,2) NULL,
  next_due DATE NULL,
  created_at DATETIME(6) NOT NULL,
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (id),
  KEY hosting_services_natural (user_id, client_id, product(96), domain(96)),
  KEY hosting_services_client (client_id),
  CONSTRAINT hosting_services_user_fk FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
  CONSTRAINT hosting_services_client_fk FOREIGN KEY (client_id) REFERENCES hosting_clients (id) ON DELETE SET NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE hosting_domains (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  user_id BIGINT UNSIGNED NOT NULL,
  client_id BIGINT UNSIGNED NULL,
  domain VARCHAR(255) NOT NULL,
  registrar VARCHAR(255) NULL,
  status VARCHAR(32) NULL,
  expiry DATE NULL,
  next_due DATE NULL,
  amount DECIMAL(14,2) NULL,
  created_at DATETIME(6) NOT NULL,
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (id),
  KEY hosting_domains_natural (user_id, domain(191)),
  KEY hosting_domains_client (client_id),
  CONSTRAINT hosting_domains_user_fk FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
  CONSTRAINT hosting_domains_client_fk FOREIGN KEY (client_id) REFERENCES hosting_clients (id) ON DELETE SET NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE invoices (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  user_id BIGINT UNSIGNED NOT NULL,
  client_id BIGINT UNSIGNED NULL,
  number VARCHAR(64) NOT NULL,
  invoice_date DATE NULL,
  due DATE NULL,
  paid_at DATE NULL,
  total DECIMAL(14,2) NULL,
  currency VARCHAR(8) NULL,
  status VARCHAR(32) NULL,
  created_at DATETIME(6) NOT NULL,
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (id),
  KEY invoices_natural (user_id, number),
  KEY invoices_client (client_id),
  CONSTRAINT invoices_user_fk FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
  CONSTRAINT invoices_client_fk FOREIGN KEY (client_id) REFERENCES hosting_clients (id) ON DELETE SET NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- Which account object an imported external resource became. Outlives the
-- run (no foreign key to migration_runs): deleting a run keeps its targets,
-- and a later run of the same user and provider updates them instead of
-- creating copies. A link whose target was deleted is stale and ignored.
CREATE TABLE import_links (
  user_id BIGINT UNSIGNED NOT NULL,
  provider VARCHAR(32) CHARACTER SET ascii NOT NULL,
  resource_type VARCHAR(32) CHARACTER SET ascii NOT NULL,
  external_id VARCHAR(191) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
  target_model VARCHAR(64) CHARACTER SET ascii NOT NULL,
  target_id BIGINT UNSIGNED NOT NULL,
  run_id CHAR(36) CHARACTER SET ascii NULL,       -- the run that last wrote the target
  created_at DATETIME(6) NOT NULL,
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (user_id, provider, resource_type, external_id),
  KEY import_links_target (target_model, target_id),
  CONSTRAINT import_links_user_fk FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
) ENGINE=InnoDB;
