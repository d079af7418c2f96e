-- Up Migration

-- Under MODERATION a topic request waits for the owner's approval
-- (`waiting`), listed nowhere a reader looks until it is approved (`pending`).
ALTER TABLE topic_requests DROP CONSTRAINT topic_requests_status_check;
ALTER TABLE topic_requests ADD CONSTRAINT topic_requests_status_check CHECK (status IN ('waiting', 'pending', 'answered', 'declined'));
-- The review queue lists both.
DROP INDEX topic_requests_pending;
CREATE INDEX topic_requests_pending ON topic_requests (position) WHERE status IN ('waiting', 'pending');

-- Down Migration

DROP INDEX topic_requests_pending;
CREATE INDEX topic_requests_pending ON topic_requests (position) WHERE status = 'pending';
DELETE FROM topic_requests WHERE status = 'waiting';
ALTER TABLE topic_requests DROP CONSTRAINT topic_requests_status_check;
ALTER TABLE topic_requests ADD CONSTRAINT topic_requests_status_check CHECK (status IN ('pending', 'answered', 'declined'));
