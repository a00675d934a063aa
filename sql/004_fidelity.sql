-- The account model widened to hold what the providers really have (issue 10):
-- request details, keyword mode, tags and regions of monitors; time zones;
-- contacts whose address the provider does not reveal; status page entries
-- with names and sections; maintenance windows; status page subscribers;
-- WHMCS addresses, currencies, client contacts, addons, invoice lines and
-- payments. JSON columns hold arrays or objects exactly as normalized.
--
-- Natural keys (what a planned resource is matched against, whichever
-- provider or person created the existing object; see src/importers/kinds.c):
--   monitors                (type, url_key)  url_key below
--   heartbeats              (name, ping_url)
--   contacts                (type, value)    value NULL: (type, name)
--   maintenance_windows     (name, recurrence, starts)
--   status_page_subscribers (status_page_id, kind, address)
--   hosting_contacts        (client_id, email)
--   hosting_addons          (client_id, service_id, name)
--   payments                (gateway, transaction_id)

-- url_key: the URL with scheme and host lower-cased, the default port (80 for
-- http, 443 for https) and a trailing slash of the path dropped; for a host
-- (ping, port, DNS checks) the lower-cased host without a trailing dot, then
-- ":port" when there is one. The same expression is MONITOR_URL_KEY in
-- src/db/sql_runner.def; tests/integration/test_fidelity.py holds them equal.
ALTER TABLE monitors
  ADD COLUMN url_key VARCHAR(2048) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin AS (
    CASE WHEN url REGEXP '^[A-Za-z][A-Za-z0-9+.-]*://' THEN CONCAT(
      CASE
        WHEN LOWER(REGEXP_SUBSTR(url, '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*')) LIKE 'http://%:80'
          THEN LEFT(LOWER(REGEXP_SUBSTR(url, '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*')),
                    CHAR_LENGTH(REGEXP_SUBSTR(url, '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*')) - 3)
        WHEN LOWER(REGEXP_SUBSTR(url, '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*')) LIKE 'https://%:443'
          THEN LEFT(LOWER(REGEXP_SUBSTR(url, '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*')),
                    CHAR_LENGTH(REGEXP_SUBSTR(url, '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*')) - 4)
        ELSE LOWER(REGEXP_SUBSTR(url, '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*'))
      END,
      REGEXP_REPLACE(SUBSTRING(url, CHAR_LENGTH(REGEXP_SUBSTR(url, '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*')) + 1),
                     '/+(?=[?#]|$)', ''))
    ELSE CONCAT(LOWER(TRIM(TRAILING '.' FROM TRIM(url))), IF(port IS NULL, '', CONCAT(':', port)))
    END) STORED,
  ADD COLUMN keyword_up_when VARCHAR(8) CHARACTER SET ascii NULL AFTER keyword,  -- present|absent
  ADD COLUMN keyword_case_sensitive TINYINT(1) NULL AFTER keyword_up_when,
  ADD COLUMN http_method VARCHAR(16) CHARACTER SET ascii NULL,
  ADD COLUMN request_body TEXT NULL,
  ADD COLUMN request_headers JSON NULL,          -- {"Name": "value", ...}
  ADD COLUMN expected_status_codes JSON NULL,    -- codes that count as up
  ADD COLUMN alert_status_codes JSON NULL,       -- codes that count as down
  ADD COLUMN timeout_s INT UNSIGNED NULL,
  ADD COLUMN follow_redirects TINYINT(1) NULL,
  ADD COLUMN verify_ssl TINYINT(1) NULL,
  ADD COLUMN ssl_expiry_days INT UNSIGNED NULL,  -- alert this many days before the certificate expires
  ADD COLUMN regions JSON NULL,
  ADD COLUMN tags JSON NULL,
  ADD KEY monitors_url_key (user_id, type, url_key(191));

ALTER TABLE heartbeats
  ADD COLUMN timezone VARCHAR(64) NULL AFTER schedule,
  ADD COLUMN tags JSON NULL;

-- needs_address 1: the provider did not reveal the address; the user must add it.
ALTER TABLE contacts
  ADD COLUMN needs_address TINYINT(1) NOT NULL DEFAULT 0 AFTER value;

ALTER TABLE status_pages
  ADD COLUMN timezone VARCHAR(64) NULL AFTER public;

-- An entry may show no monitor at all (a component updated by hand).
ALTER TABLE status_page_monitors
  ADD COLUMN name VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NULL,
  ADD COLUMN section VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NULL;

CREATE TABLE maintenance_windows (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  user_id BIGINT UNSIGNED NOT NULL,
  name VARCHAR(255) NOT NULL,
  recurrence VARCHAR(16) CHARACTER SET ascii NOT NULL,  -- once|daily|weekly|monthly|other
  starts VARCHAR(32) NULL,        -- ISO 8601 date-time, or HH:MM for a recurring window
  ends VARCHAR(32) NULL,          -- ISO 8601 date-time
  duration_min INT UNSIGNED NULL,
  days JSON NULL,                 -- weekdays 1 = Monday .. 7, or days of the month
  timezone VARCHAR(64) NULL,
  paused TINYINT(1) NOT NULL DEFAULT 0,
  created_at DATETIME(6) NOT NULL,
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (id),
  KEY maintenance_windows_natural (user_id, name(191)),
  CONSTRAINT maintenance_windows_user_fk FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE maintenance_window_monitors (
  window_id BIGINT UNSIGNED NOT NULL,
  position INT UNSIGNED NOT NULL,
  monitor_id BIGINT UNSIGNED NULL,
  heartbeat_id BIGINT UNSIGNED NULL,
  PRIMARY KEY (window_id, position),
  KEY mwm_monitor (monitor_id),
  KEY mwm_heartbeat (heartbeat_id),
  CONSTRAINT mwm_window_fk FOREIGN KEY (window_id) REFERENCES maintenance_windows (id) ON DELETE CASCADE,
  CONSTRAINT mwm_monitor_fk FOREIGN KEY (monitor_id) REFERENCES monitors (id) ON DELETE CASCADE,
  CONSTRAINT mwm_heartbeat_fk FOREIGN KEY (heartbeat_id) REFERENCES heartbeats (id) ON DELETE CASCADE
) ENGINE=InnoDB;

-- The people who follow a status page (the page owner's audience): never
-- contacts, never alerted by monitors.
CREATE TABLE status_page_subscribers (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  user_id BIGINT UNSIGNED NOT NULL,
  status_page_id BIGINT UNSIGNED NOT NULL,
  kind VARCHAR(16) CHARACTER SET ascii NOT NULL,  -- email|sms|webhook|slack|teams|other
  address VARCHAR(1024) NULL,
  state VARCHAR(16) CHARACTER SET ascii NULL,     -- active|unconfirmed|quarantined
  components JSON NULL,                           -- the provider's component ids; [] = all
  subscribed_on DATE NULL,
  created_at DATETIME(6) NOT NULL,
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (id),
  KEY status_page_subscribers_natural (status_page_id, kind, address(191)),
  KEY status_page_subscribers_user (user_id),
  CONSTRAINT sps_user_fk FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
  CONSTRAINT sps_page_fk FOREIGN KEY (status_page_id) REFERENCES status_pages (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

ALTER TABLE hosting_clients
  ADD COLUMN address1 VARCHAR(255) NULL,
  ADD COLUMN address2 VARCHAR(255) NULL,
  ADD COLUMN city VARCHAR(255) NULL,
  ADD COLUMN state VARCHAR(255) NULL,
  ADD COLUMN postcode VARCHAR(32) NULL,
  ADD COLUMN country VARCHAR(64) NULL,
  ADD COLUMN phone VARCHAR(64) NULL,
  ADD COLUMN currency CHAR(3) CHARACTER SET ascii NULL,  -- ISO 4217
  ADD COLUMN credit DECIMAL(14,2) NULL;

CREATE TABLE hosting_contacts (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  user_id BIGINT UNSIGNED NOT NULL,
  client_id BIGINT UNSIGNED NULL,
  first_name VARCHAR(255) NULL,
  last_name VARCHAR(255) NULL,
  company VARCHAR(255) NULL,
  email VARCHAR(255) NULL,
  phone VARCHAR(64) NULL,
  address1 VARCHAR(255) NULL,
  address2 VARCHAR(255) NULL,
  city VARCHAR(255) NULL,
  state VARCHAR(255) NULL,
  postcode VARCHAR(32) NULL,
  country VARCHAR(64) NULL,
  created_at DATETIME(6) NOT NULL,
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (id),
  KEY hosting_contacts_natural (user_id, client_id, email(191)),
  KEY hosting_contacts_client (client_id),
  CONSTRAINT hosting_contacts_user_fk FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
  CONSTRAINT hosting_contacts_client_fk FOREIGN KEY (client_id) REFERENCES hosting_clients (id) ON DELETE SET NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

ALTER TABLE hosting_services
  ADD COLUMN first_amount DECIMAL(14,2) NULL,
  ADD COLUMN registered DATE NULL,
  ADD COLUMN currency CHAR(3) CHARACTER SET ascii NULL;

CREATE TABLE hosting_addons (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  user_id BIGINT UNSIGNED NOT NULL,
  client_id BIGINT UNSIGNED NULL,
  service_id BIGINT UNSIGNED NULL,
  name VARCHAR(255) NOT NULL,
  status VARCHAR(32) NULL,
  billing_cycle VARCHAR(32) NULL,
  amount DECIMAL(14,2) NULL,
  setup_fee DECIMAL(14,2) NULL,
  next_due DATE NULL,
  registered DATE NULL,
  currency CHAR(3) CHARACTER SET ascii NULL,
  created_at DATETIME(6) NOT NULL,
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (id),
  KEY hosting_addons_natural (user_id, client_id, service_id, name(96)),
  KEY hosting_addons_client (client_id),
  KEY hosting_addons_service (service_id),
  CONSTRAINT hosting_addons_user_fk FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
  CONSTRAINT hosting_addons_client_fk FOREIGN KEY (client_id) REFERENCES hosting_clients (id) ON DELETE SET NULL,
  CONSTRAINT hosting_addons_service_fk FOREIGN KEY (service_id) REFERENCES hosting_services (id) ON DELETE SET NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

ALTER TABLE hosting_domains
  ADD COLUMN registered DATE NULL,
  ADD COLUMN currency CHAR(3) CHARACTER SET ascii NULL,
  ADD COLUMN period_years INT UNSIGNED NULL,
  ADD COLUMN auto_renew TINYINT(1) NULL;

ALTER TABLE invoices
  ADD COLUMN subtotal DECIMAL(14,2) NULL,
  ADD COLUMN tax DECIMAL(14,2) NULL,
  ADD COLUMN tax2 DECIMAL(14,2) NULL,
  ADD COLUMN credit DECIMAL(14,2) NULL,
  ADD COLUMN balance DECIMAL(14,2) NULL,
  ADD COLUMN payment_method VARCHAR(64) NULL;

CREATE TABLE invoice_items (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  invoice_id BIGINT UNSIGNED NOT NULL,
  position INT UNSIGNED NOT NULL,
  description TEXT NULL,
  amount DECIMAL(14,2) NULL,
  type VARCHAR(32) NULL,          -- Hosting, Domain…, Addon, Item, '' (a manual line)
  relid VARCHAR(64) NULL,         -- the provider's id of the service/domain/addon the line bills
  taxed TINYINT(1) NOT NULL DEFAULT 0,
  PRIMARY KEY (id),
  UNIQUE KEY invoice_items_position (invoice_id, position),
  CONSTRAINT invoice_items_invoice_fk FOREIGN KEY (invoice_id) REFERENCES invoices (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE payments (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  user_id BIGINT UNSIGNED NOT NULL,
  client_id BIGINT UNSIGNED NULL,
  invoice_id BIGINT UNSIGNED NULL,
  paid_on DATE NULL,
  gateway VARCHAR(64) NULL,
  transaction_id VARCHAR(191) NULL,
  description VARCHAR(1024) NULL,
  amount_in DECIMAL(14,2) NULL,
  fees DECIMAL(14,2) NULL,
  amount_out DECIMAL(14,2) NULL,
  currency CHAR(3) CHARACTER SET ascii NULL,
  created_at DATETIME(6) NOT NULL,
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (id),
  KEY payments_natural (user_id, gateway, transaction_id),
  KEY payments_client (client_id),
  KEY payments_invoice (invoice_id),
  CONSTRAINT payments_user_fk FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
  CONSTRAINT payments_client_fk FOREIGN KEY (client_id) REFERENCES hosting_clients (id) ON DELETE SET NULL,
  CONSTRAINT payments_invoice_fk FOREIGN KEY (invoice_id) REFERENCES invoices (id) ON DELETE SET NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- Matching a heartbeat by name and ping URL.
ALTER TABLE heartbeats ADD KEY heartbeats_ping (user_id, ping_url(191));
