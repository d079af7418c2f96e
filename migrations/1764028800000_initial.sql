-- Up Migration

-- The store of the PostgreSQL engine (src/server/store/postgres/). The rules
-- the site relies on under concurrency are constraints here, not only checks
-- in code: one vote per reader and target, a reply's parent on the same
-- article and exactly one level up, depth at most 4.

-- Settings kept with the data, such as the generated IP-hash salt.
CREATE TABLE settings (
  name text PRIMARY KEY,
  value text NOT NULL
);

CREATE TABLE comments (
  -- The order comments were written in: a thread lists them by it.
  position bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  article_slug text NOT NULL,
  parent_id text,
  -- The parent's depth, so that the foreign key below checks the depth too.
  parent_depth smallint,
  depth smallint NOT NULL CHECK (depth BETWEEN 1 AND 4),
  author text NOT NULL,
  author_hash text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL,
  score integer NOT NULL DEFAULT 0,
  deleted_at timestamptz,
  UNIQUE (article_slug, id),
  UNIQUE (article_slug, id, depth),
  CHECK (
    (parent_id IS NULL AND parent_depth IS NULL AND depth = 1)
    OR (parent_id IS NOT NULL AND depth = parent_depth + 1)
  ),
  FOREIGN KEY (article_slug, parent_id, parent_depth) REFERENCES comments (article_slug, id, depth)
);
CREATE INDEX comments_thread ON comments (article_slug, position);

CREATE TABLE article_scores (
  article_slug text PRIMARY KEY,
  score integer NOT NULL
);

-- A vote row stays at 0 once removed: it is the row a voter's next vote locks.
CREATE TABLE article_votes (
  article_slug text NOT NULL,
  voter text NOT NULL,
  vote smallint NOT NULL CHECK (vote BETWEEN -1 AND 1),
  PRIMARY KEY (article_slug, voter)
);

CREATE TABLE comment_votes (
  article_slug text NOT NULL,
  voter text NOT NULL,
  comment_id text NOT NULL,
  vote smallint NOT NULL CHECK (vote BETWEEN -1 AND 1),
  PRIMARY KEY (article_slug, voter, comment_id),
  FOREIGN KEY (article_slug, comment_id) REFERENCES comments (article_slug, id)
);
CREATE INDEX comment_votes_comment ON comment_votes (comment_id);

-- A counter per cached render (a thread, the topic requests), bumped by every
-- write that changes what it shows, in the write's transaction.
CREATE TABLE revisions (
  topic text PRIMARY KEY,
  revision bigint NOT NULL
);

CREATE TABLE topic_requests (
  position bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  id text PRIMARY KEY,
  request_title text NOT NULL,
  details text,
  status text NOT NULL CHECK (status IN ('pending', 'answered', 'declined')),
  answer_url text,
  author_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  CHECK ((status = 'answered') = (answer_url IS NOT NULL))
);
CREATE INDEX topic_requests_pending ON topic_requests (position) WHERE status = 'pending';

CREATE TABLE bug_reports (
  position bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  id text PRIMARY KEY,
  description text NOT NULL,
  page_path text,
  author_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  reviewed_at timestamptz
);
CREATE INDEX bug_reports_pending ON bug_reports (position) WHERE reviewed_at IS NULL;

CREATE TABLE city_submissions (
  position bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  id text PRIMARY KEY,
  city_id text NOT NULL,
  city text NOT NULL,
  country text NOT NULL,
  country_name text NOT NULL,
  region text,
  lat double precision NOT NULL,
  lon double precision NOT NULL,
  currency text NOT NULL,
  net_pay double precision NOT NULL,
  rent double precision NOT NULL,
  beer_price double precision NOT NULL,
  author_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  reviewed_at timestamptz
);
CREATE INDEX city_submissions_pending ON city_submissions (position) WHERE reviewed_at IS NULL;

CREATE TABLE bans (
  reader_hash text PRIMARY KEY,
  since timestamptz NOT NULL
);

-- Down Migration

DROP TABLE bans, city_submissions, bug_reports, topic_requests, revisions, comment_votes, article_votes, article_scores, comments, settings;
