-- Up Migration

-- The followers of the federation's actors, one actor a language
-- (src/server/federation/): where each remote actor that follows a language
-- gets its activities. A follow again replaces the inboxes.
CREATE TABLE followers (
  lang text NOT NULL,
  actor_id text NOT NULL,
  inbox text NOT NULL,
  shared_inbox text,
  followed_at timestamptz NOT NULL,
  PRIMARY KEY (lang, actor_id)
);
-- The followers collection's pages, oldest first.
CREATE INDEX followers_in_order ON followers (lang, followed_at, actor_id);

-- Down Migration

DROP TABLE followers;
