-- Up Migration

-- The fediverse's likes and boosts of articles (src/server/federation/):
-- one per remote actor, kind and article, until its Undo.
CREATE TABLE reactions (
  article_slug text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('like', 'boost')),
  actor_id text NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (article_slug, kind, actor_id)
);

-- Down Migration

DROP TABLE reactions;
