-- Up Migration

-- A comment from the fediverse (src/server/federation/replies.ts) names its remote author: the actor's id and the
-- profile page readers are linked to, as JSON; null for the site's own readers, whose comments are all there were.
ALTER TABLE comments ADD COLUMN remote json;

-- Down Migration

ALTER TABLE comments DROP COLUMN remote;
