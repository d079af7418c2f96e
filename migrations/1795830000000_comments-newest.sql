-- Up Migration

-- The owner's desk lists the newest comments across articles (StoreEngine.recentComments).
CREATE INDEX comments_newest ON comments (created_at DESC, id DESC);
