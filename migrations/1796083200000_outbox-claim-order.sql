-- Up Migration

-- A claim takes a channel's oldest due rows (src/server/store/postgres/outbox.ts): read in that order from this
-- index, it stops after the rows it takes, however many wait behind them after a burst of writes. An index on
-- (channel, due_at) would have every due row of the channel read and sorted at each claim.
CREATE INDEX notification_outbox_claim_order ON notification_outbox (channel, created_at, id);
DROP INDEX notification_outbox_due;

-- Down Migration

CREATE INDEX notification_outbox_due ON notification_outbox (channel, due_at);
DROP INDEX notification_outbox_claim_order;
