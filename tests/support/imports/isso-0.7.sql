-- A comments.db as isso 0.7 wrote it (isso/db/*.py at that tag, schema version
-- 1), dumped as SQL: before isso 0.9 a reply kept the parent it answered, so
-- threads nest as deep as readers replied. This one goes five levels deep.
PRAGMA user_version = 1;

CREATE TABLE IF NOT EXISTS threads (     id INTEGER PRIMARY KEY, uri VARCHAR(256) UNIQUE, title VARCHAR(256));

CREATE TABLE IF NOT EXISTS comments (     tid REFERENCES threads(id), id INTEGER PRIMARY KEY, parent INTEGER,     created FLOAT NOT NULL, modified FLOAT, mode INTEGER, remote_addr VARCHAR,     text VARCHAR, author VARCHAR, email VARCHAR, website VARCHAR,     likes INTEGER DEFAULT 0, dislikes INTEGER DEFAULT 0, voters BLOB NOT NULL);

CREATE TRIGGER IF NOT EXISTS remove_stale_threads AFTER DELETE ON comments BEGIN     DELETE FROM threads WHERE id NOT IN (SELECT tid FROM comments); END;

INSERT INTO threads (id, uri, title) VALUES (1, '/articles/a-small-web-server/', 'A small web server');

INSERT INTO comments (tid, id, parent, created, modified, mode, remote_addr, text, author, email, website, likes, dislikes, voters) VALUES
  (1, 1, NULL, 1393200000.0, NULL, 1, '203.0.113.0', 'Level one', 'Ada', 'ada@example.com', NULL, 0, 0, zeroblob(256)),
  (1, 2, 1, 1393200100.0, NULL, 1, '198.51.100.0', 'Level two', 'Bob', NULL, NULL, 0, 0, zeroblob(256)),
  (1, 3, 2, 1393200200.0, NULL, 1, '198.51.100.0', 'Level three', 'Cy', NULL, NULL, 0, 0, zeroblob(256)),
  (1, 4, 3, 1393200300.0, NULL, 1, '203.0.113.0', 'Level four', 'Ada', 'ada@example.com', NULL, 0, 0, zeroblob(256)),
  (1, 5, 4, 1393200400.0, NULL, 1, '198.51.100.0', 'Level five, shown under level three', 'Bob', NULL, NULL, 0, 0, zeroblob(256));
