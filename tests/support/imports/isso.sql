-- An isso comments.db as isso 0.13 writes it (isso/db/*.py, schema version 5),
-- dumped as SQL so that the fixture can be read; the test builds the database
-- from it. Replies are one level deep, as isso keeps them (a reply to a reply
-- names the top-level comment); remote_addr is anonymized by isso (/24);
-- `voters` is the Bloom filter of voters' addresses, left empty here; comment
-- 3 is deleted by isso's moderation while it had a reply (text, author and
-- website emptied, mode 4); comment 8 came in through isso's own Disqus
-- import, which keeps Disqus's HTML as the text.
PRAGMA user_version = 5;

CREATE TABLE IF NOT EXISTS preferences (    key VARCHAR PRIMARY KEY, value VARCHAR );
INSERT INTO preferences (key, value) VALUES ('session-key', '5e0b7a1c9d2f43e8a6b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7');

CREATE TABLE IF NOT EXISTS threads (     id INTEGER PRIMARY KEY, uri VARCHAR(256) UNIQUE, title VARCHAR(256));

CREATE TABLE IF NOT EXISTS comments (
    tid REFERENCES threads(id),
    id INTEGER PRIMARY KEY,
    parent INTEGER,
    created FLOAT NOT NULL,
    modified FLOAT,
    mode INTEGER,
    remote_addr VARCHAR,
    text VARCHAR NOT NULL,
    author VARCHAR,
    email VARCHAR,
    website VARCHAR,
    likes INTEGER DEFAULT 0,
    dislikes INTEGER DEFAULT 0,
    voters BLOB NOT NULL,
    notification INTEGER DEFAULT 0
);

CREATE TRIGGER IF NOT EXISTS remove_stale_threads AFTER DELETE ON comments BEGIN     DELETE FROM threads WHERE id NOT IN (SELECT tid FROM comments); END;

INSERT INTO threads (id, uri, title) VALUES (1, '/articles/a-small-web-server/', 'A small web server');
INSERT INTO threads (id, uri, title) VALUES (2, '/about/', 'About');
INSERT INTO threads (id, uri, title) VALUES (3, '/2019/06/beer-prices.html', 'The price of a beer');

INSERT INTO comments (tid, id, parent, created, modified, mode, remote_addr, text, author, email, website, likes, dislikes, voters, notification) VALUES
  (1, 1, NULL, 1635454215.5, NULL, 1, '203.0.113.0', 'Tom &amp; Jerry liked [this page](https://example.org/x?a=1&b=2) &lt;3', 'Ada', 'ada@example.com', 'https://ada.example', 2, 0, zeroblob(256), 1),
  (1, 2, 1, 1635454800.25, 1635455000.0, 1, '198.51.100.0', 'A reply
on two lines, *emphasised*', 'Bob', 'bob@example.com', NULL, 0, 0, zeroblob(256), 0),
  (1, 3, NULL, 1635498000.0, NULL, 4, '198.51.100.0', '', NULL, 'cy@example.com', NULL, 0, 0, zeroblob(256), 0),
  (1, 4, 3, 1635501600.0, NULL, 1, '198.51.100.0', 'Under a deleted comment', 'Dee', NULL, 'http://dee.example', 0, 0, zeroblob(256), 0),
  (1, 5, NULL, 1635580800.0, NULL, 2, '192.0.2.0', 'Waiting for the owner', 'Fay', 'fay@example.com', NULL, 0, 0, zeroblob(256), 0),
  (2, 6, NULL, 1635933600.0, NULL, 1, '198.51.100.0', 'On a page that is gone', 'Eve', 'eve@example.com', NULL, 0, 0, zeroblob(256), 0),
  (3, 7, NULL, 1636020000.0, NULL, 1, '198.51.100.0', 'Cheers', NULL, NULL, NULL, 0, 0, zeroblob(256), 0),
  (1, 8, NULL, 1635300000.0, NULL, 1, '0.0.0.0', '<p>Moved from Disqus: Tom &amp; Jerry, <a href="https://example.org/?a=1&amp;b=2" rel="nofollow noopener">a link</a></p>', 'Gus', '', NULL, 0, 0, zeroblob(256), 0);
