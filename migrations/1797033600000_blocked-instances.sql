-- Up Migration

-- The fediverse instances the owner blocked (src/server/federation/): by
-- host name, a block covering the hosts under it. Nothing from a blocked
-- instance is taken, nothing is sent to it, and its followers are removed.
CREATE TABLE blocked_instances (
  host text PRIMARY KEY,
  blocked_at timestamptz NOT NULL
);

-- Down Migration

DROP TABLE blocked_instances;
