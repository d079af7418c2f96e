-- Up Migration

-- A notification is written once, read back whole by its sender and never queried inside: kept as the JSON text it
-- came as (json), rather than converted to jsonb's binary form on every write, which cost as much as the row's insert.
ALTER TABLE notification_outbox ALTER COLUMN notification TYPE json USING notification::json;

-- Down Migration

ALTER TABLE notification_outbox ALTER COLUMN notification TYPE jsonb USING notification::jsonb;
