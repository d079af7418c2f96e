-- Up Migration

-- Webmentions (src/server/federation/webmention/): one row per source and target, received (the target a page here)
-- or sent (the source an article here). A row with due_at set has work waiting (a source to verify, a mention to
-- send), claimed under a lease (FOR UPDATE SKIP LOCKED) so that instances share it; a sent one is inserted with ON
-- CONFLICT DO NOTHING and kept once settled, so that it is sent once.
CREATE TABLE mentions (
  source text NOT NULL,
  target text NOT NULL,
  direction text NOT NULL CHECK (direction IN ('received', 'sent')),
  article_slug text NOT NULL,
  lang text NOT NULL,
  status text NOT NULL CHECK (status IN ('unverified', 'waiting', 'published', 'unsent', 'sent', 'refused')),
  kind text CHECK (kind IN ('reply', 'like', 'repost', 'mention')),
  author_name text,
  author_url text,
  content text,
  received_at timestamptz NOT NULL,
  settled_at timestamptz,
  attempts integer NOT NULL,
  due_at timestamptz,
  lease_until timestamptz,
  PRIMARY KEY (source, target)
);
CREATE INDEX mentions_due ON mentions (due_at) WHERE due_at IS NOT NULL;
CREATE INDEX mentions_article ON mentions (article_slug) WHERE direction = 'received';

-- Down Migration

DROP TABLE mentions;
