-- Up Migration

-- A comment imported from another comment system (src/server/imports/) names where it came from and the website its
-- author gave there, as JSON; null for every other comment.
ALTER TABLE comments ADD COLUMN imported json;

-- Down Migration

ALTER TABLE comments DROP COLUMN imported;
