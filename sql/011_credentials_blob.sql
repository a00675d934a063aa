-- A run's sealed credentials: every field of the provider (WHMCS has four) at
-- its longest, 2048 characters, written as JSON (a 4-byte character is 4
-- bytes, a quote or backslash 2) comes to 33 KB, more than VARBINARY(16384)
-- holds; such a start was a 500 instead of a run. A BLOB holds 64 KB.
ALTER TABLE migration_runs MODIFY credentials BLOB NULL;
