-- Up Migration

-- The moderation links used (src/server/owner/moderation-links.ts), by their
-- token's signed payload: a link works once, across every instance. A row may
-- go once `expires_at` has passed, the link being refused as expired anyway.
CREATE TABLE spent_links (
  link text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX spent_links_expiry ON spent_links (expires_at);

-- Down Migration

DROP TABLE spent_links;
