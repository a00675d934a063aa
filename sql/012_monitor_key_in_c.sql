-- A monitor's natural key (docs/resources.md) is read with curl's URL parser,
-- the one URL parser of the project: monitor_find (src/db/account.c) computes
-- url_key (src/core/url.c) for the incoming address and for the user's
-- monitors whose URL starts with the text every address of that key starts
-- with (a range of monitors_natural, 002_account.sql), and compares them. The
-- copy of the rule in SQL regular expressions, a generated column since
-- 004_fidelity.sql, goes.
ALTER TABLE monitors
  DROP KEY monitors_url_key,
  DROP COLUMN url_key;
