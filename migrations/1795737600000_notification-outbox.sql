-- Up Migration

-- The outbox (src/server/store/postgres/outbox.ts): one row per notification
-- and channel, inserted by the statement that stores the record it tells of,
-- deleted once sent. A sender claims rows with FOR UPDATE SKIP LOCKED and
-- holds them until `lease_until`, so that one instance sends each, and the
-- rows of an instance that died go to another once its lease runs out.
CREATE TABLE notification_outbox (
  id text PRIMARY KEY,
  channel text NOT NULL,
  notification jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  due_at timestamptz NOT NULL,
  lease_until timestamptz
);

CREATE INDEX notification_outbox_due ON notification_outbox (channel, due_at);

-- Down Migration

DROP TABLE notification_outbox;
