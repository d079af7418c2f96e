-- Up Migration

-- The outbox's rows are kept by the order claims read them in: its primary key is (channel, created_at, id), the
-- claim order's index until now, and no second index is kept on id. A new record's rows are then written to one index
-- each instead of two. A sender settles the rows it claimed by that key (src/server/store/postgres/outbox.ts); ids
-- stay unique (a record's id and the channel, store/outbox.ts).
ALTER TABLE notification_outbox DROP CONSTRAINT notification_outbox_pkey;
DROP INDEX notification_outbox_claim_order;
ALTER TABLE notification_outbox ADD PRIMARY KEY (channel, created_at, id);

-- Down Migration

ALTER TABLE notification_outbox DROP CONSTRAINT notification_outbox_pkey;
ALTER TABLE notification_outbox ADD PRIMARY KEY (id);
CREATE INDEX notification_outbox_claim_order ON notification_outbox (channel, created_at, id);
