-- migrator core schema: identity, tokens, flags, rate limits, runs, queue.
-- Applied by `migratorctl db migrate`; statements are separated by a line ending in ';'.

CREATE TABLE users (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  name VARCHAR(255) NOT NULL,
  email VARCHAR(255) NOT NULL,
  created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (id),
  UNIQUE KEY users_email (email)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- Tokens are shown once; only SHA-256 of the secret part is kept.
CREATE TABLE personal_access_tokens (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  user_id BIGINT UNSIGNED NOT NULL,
  name VARCHAR(255) NOT NULL,
  token_hash BINARY(32) NOT NULL,
  scopes VARCHAR(1024) CHARACTER SET ascii NOT NULL,
  last_used_at DATETIME NULL,
  created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
  revoked_at DATETIME NULL,
  PRIMARY KEY (id),
  KEY pat_user (user_id),
  CONSTRAINT pat_user_fk FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- user_id 0 is the global row; a per-user row overrides it.
CREATE TABLE feature_flags (
  name VARCHAR(64) CHARACTER SET ascii NOT NULL,
  user_id BIGINT UNSIGNED NOT NULL DEFAULT 0,
  enabled TINYINT(1) NOT NULL,
  updated_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  PRIMARY KEY (name, user_id)
) ENGINE=InnoDB;

-- Fixed one-minute windows; rows older than a few minutes are purged by the runner.
CREATE TABLE rate_limits (
  bucket VARCHAR(96) CHARACTER SET ascii NOT NULL,
  window_start INT UNSIGNED NOT NULL,
  hits INT UNSIGNED NOT NULL,
  PRIMARY KEY (bucket, window_start),
  KEY rate_limits_window (window_start)
) ENGINE=InnoDB;

CREATE TABLE migration_runs (
  id CHAR(36) CHARACTER SET ascii NOT NULL,
  user_id BIGINT UNSIGNED NOT NULL,
  provider VARCHAR(32) CHARACTER SET ascii NOT NULL,
  status VARCHAR(32) CHARACTER SET ascii NOT NULL,
  stats LONGTEXT NULL,
  error_message TEXT NULL,
  credentials VARBINARY(16384) NULL,           -- nonce || XChaCha20-Poly1305 ciphertext
  credentials_key_id VARCHAR(32) CHARACTER SET ascii NULL,
  credentials_purge_at DATETIME NULL,
  checkpoint TEXT NULL,                         -- resumable discovery cursor
  plan LONGTEXT NULL,
  discovery_summary TEXT NULL,
  started_at DATETIME NULL,
  finished_at DATETIME NULL,
  created_at DATETIME(6) NOT NULL,
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (id),
  KEY runs_user_created (user_id, created_at, id),
  KEY runs_user_status (user_id, status, created_at, id),
  KEY runs_user_provider (user_id, provider, created_at, id),
  KEY runs_purge (credentials_purge_at),
  CONSTRAINT runs_user_fk FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE migration_run_resources (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  run_id CHAR(36) CHARACTER SET ascii NOT NULL,
  resource_type VARCHAR(32) CHARACTER SET ascii NOT NULL,
  external_id VARCHAR(191) NOT NULL,
  action VARCHAR(16) CHARACTER SET ascii NULL,
  resolution VARCHAR(16) CHARACTER SET ascii NULL, -- skip|overwrite|duplicate, set by resolve-conflicts
  status VARCHAR(16) CHARACTER SET ascii NOT NULL DEFAULT 'pending',
  attempts INT UNSIGNED NOT NULL DEFAULT 0,
  error_message TEXT NULL,
  external_data LONGTEXT NULL,
  normalized_data LONGTEXT NULL,
  target_model VARCHAR(64) CHARACTER SET ascii NULL,
  target_id BIGINT UNSIGNED NULL,
  created_at DATETIME(6) NOT NULL,
  updated_at DATETIME(6) NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY resources_natural (run_id, resource_type, external_id),
  KEY resources_run_status (run_id, status),
  CONSTRAINT resources_run_fk FOREIGN KEY (run_id) REFERENCES migration_runs (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE migration_run_logs (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  run_id CHAR(36) CHARACTER SET ascii NOT NULL,
  level VARCHAR(16) CHARACTER SET ascii NOT NULL,
  message VARCHAR(2048) NOT NULL,
  context TEXT NULL,
  logged_at DATETIME(6) NOT NULL,
  PRIMARY KEY (id),
  KEY logs_run (run_id, id),
  KEY logs_run_level (run_id, level, id),
  CONSTRAINT logs_run_fk FOREIGN KEY (run_id) REFERENCES migration_runs (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- The queue. A claimed job's available_at moves to the end of its lease, so the
-- claim is one index range scan on (queue, available_at, id) and an expired
-- lease makes the job claimable again by itself.
CREATE TABLE jobs (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  queue VARCHAR(16) CHARACTER SET ascii NOT NULL,
  run_id CHAR(36) CHARACTER SET ascii NOT NULL,
  resource_id BIGINT UNSIGNED NULL,
  payload TEXT NULL,
  attempts INT UNSIGNED NOT NULL DEFAULT 0,
  available_at DATETIME(6) NOT NULL,
  reserved_by VARCHAR(96) CHARACTER SET ascii NULL,
  reserved_until DATETIME(6) NULL,
  created_at DATETIME(6) NOT NULL,
  PRIMARY KEY (id),
  KEY jobs_claim (queue, available_at, id),
  KEY jobs_run (run_id),
  CONSTRAINT jobs_run_fk FOREIGN KEY (run_id) REFERENCES migration_runs (id) ON DELETE CASCADE
) ENGINE=InnoDB;
