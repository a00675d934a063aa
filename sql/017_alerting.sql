-- What a monitor's alerting, DNS and HTTP checks carry beyond the basics
-- (issue 24 item 4; docs/providers/*.md say which provider field lands where).
--
-- Alert timing. A NULL is "as the account's default": the provider did not
-- say, or has no such setting.
--   alert_after_checks  down only after this many failed checks in a row
--   alert_after_s       down only after failing for this many seconds (confirmation period)
--   recovery_s          up again only after passing for this many seconds
--   realert_s           while down, alert again every this many seconds
--   muted_until         no alerts until then (UTC)
-- DNS checks: the record type asked for, the answers that count as up (any
-- of them), and the name server asked (NULL: the system's resolver).
-- assertions: what an HTTP or API check tests beyond the status code and the
-- keyword, in order, each {"source": "status|body|header|json|time|...",
-- "property": header name, JSON path or NULL, "comparison": the provider's
-- operator in words ("equals", "contains", "less_than", ...), "target": the
-- value as text}.
-- Basic auth: the user name, and the password sealed (base64 of
-- nonce || XChaCha20-Poly1305 ciphertext under [security] key_file, the
-- associated data "monitor-auth:<user id>"; src/crypto/seal.h). It is never
-- returned by the API nor written to a log.
ALTER TABLE monitors
  ADD COLUMN alert_after_checks INT UNSIGNED NULL,
  ADD COLUMN alert_after_s INT UNSIGNED NULL,
  ADD COLUMN recovery_s INT UNSIGNED NULL,
  ADD COLUMN realert_s INT UNSIGNED NULL,
  ADD COLUMN muted_until DATETIME NULL,
  ADD COLUMN dns_record_type VARCHAR(16) CHARACTER SET ascii NULL,
  ADD COLUMN dns_expected JSON NULL,
  ADD COLUMN dns_nameserver VARCHAR(255) NULL,
  ADD COLUMN assertions JSON NULL,
  ADD COLUMN auth_username VARCHAR(255) NULL,
  ADD COLUMN auth_password_sealed VARCHAR(1400) CHARACTER SET ascii NULL;

ALTER TABLE heartbeats
  ADD COLUMN realert_s INT UNSIGNED NULL;

-- An alert link's own timing: alert this contact only once the check has
-- been down delay_s seconds (an escalation step, UptimeRobot's threshold),
-- and again every repeat_s seconds while it stays down. NULL: at once, once.
ALTER TABLE monitor_contacts
  ADD COLUMN delay_s INT UNSIGNED NULL,
  ADD COLUMN repeat_s INT UNSIGNED NULL;
ALTER TABLE heartbeat_contacts
  ADD COLUMN delay_s INT UNSIGNED NULL,
  ADD COLUMN repeat_s INT UNSIGNED NULL;
