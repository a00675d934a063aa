-- The ledger of what does not carry over (docs/review.md): each resource's
-- fields that will not land in the account, as discovery computed them from
-- the provider's field table (src/providers/fields.h): a JSON array of
-- {"field", "reason"}, [] when everything carries; NULL where the provider's
-- table for the kind is not written yet.
ALTER TABLE migration_run_resources
  ADD COLUMN dropped JSON NULL AFTER normalized_data;
