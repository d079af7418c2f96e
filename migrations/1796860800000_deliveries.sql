-- Up Migration

-- The federation's deliveries (src/server/federation/deliverer.ts): one row per activity of a language's actor and remote
-- inbox, inserted with ON CONFLICT DO NOTHING and kept once settled, so that however many instances queue or send it,
-- an activity reaches an inbox once. A claim holds a row under a lease (FOR UPDATE SKIP LOCKED), so that instances
-- share the work and a sender that dies leaves its rows to the next.
CREATE TABLE deliveries (
  activity_id text NOT NULL,
  inbox text NOT NULL,
  activity text NOT NULL CHECK (activity IN ('create', 'update', 'delete')),
  slug text NOT NULL,
  lang text NOT NULL,
  created_at timestamptz NOT NULL,
  attempts integer NOT NULL,
  due_at timestamptz NOT NULL,
  settled_at timestamptz,
  outcome text CHECK (outcome IN ('delivered', 'refused')),
  lease_until timestamptz,
  PRIMARY KEY (activity_id, inbox)
);
CREATE INDEX deliveries_unsettled ON deliveries (due_at) WHERE settled_at IS NULL;

-- Down Migration

DROP TABLE deliveries;
