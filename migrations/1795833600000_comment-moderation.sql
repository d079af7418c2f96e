-- Up Migration

-- Moderation (MODERATION, src/server/store/service.ts): a comment is
-- published, or pending until the owner approves it. Readers' reads list the
-- published ones only; the owner's review lists the pending ones; and
-- MODERATION=first asks whether a reader ever had a comment published.
ALTER TABLE comments ADD COLUMN status text NOT NULL DEFAULT 'published' CHECK (status IN ('published', 'pending'));

CREATE INDEX comments_pending ON comments (position) WHERE status = 'pending';
CREATE INDEX comments_published_authors ON comments (author_hash) WHERE status = 'published';

-- Down Migration

DROP INDEX comments_published_authors;
DROP INDEX comments_pending;
ALTER TABLE comments DROP COLUMN status;
