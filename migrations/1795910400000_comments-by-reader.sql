-- Up Migration

-- A reader's newest comment, asked for at each of their comments: the same
-- text twice in a row is refused (src/server/spam/comment-text.ts).
CREATE INDEX comments_by_reader ON comments (author_hash, position DESC);

-- Down Migration

DROP INDEX comments_by_reader;
