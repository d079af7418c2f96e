-- Up Migration

-- A notification is written once, read back whole by its sender and never queried inside: kept as the JSON text it
-- came as (json), rather than converted on every write to jsonb's binary form, which only a query inside it would use.
ALTER TABLE notification_outbox ALTER COLUMN notification TYPE json USING notification::json;

-- Down Migration

ALTER TABLE notification_outbox ALTER COLUMN notification TYPE jsonb USING notification::jsonb;
