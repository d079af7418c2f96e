-- Up Migration

-- Article translations as they became visible (src/server/appearances/): a row each, inserted with ON CONFLICT DO
-- NOTHING, so that however many instances notice one at once it is recorded once. `waiting` names the consumers it is
-- still to be handed to; a baseline row (visible before appearances were first recorded) waits for none.
CREATE TABLE appearances (
  slug text NOT NULL,
  lang text NOT NULL,
  appeared_at timestamptz NOT NULL,
  baseline boolean NOT NULL,
  waiting text[] NOT NULL,
  PRIMARY KEY (slug, lang)
);
CREATE INDEX appearances_waiting ON appearances USING gin (waiting);

-- The newsletter's subscribers: the address is the only personal data the site keeps.
CREATE TABLE subscribers (
  id text PRIMARY KEY,
  email text NOT NULL UNIQUE,
  lang text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'confirmed')),
  created_at timestamptz NOT NULL,
  confirmed_at timestamptz,
  confirmation_sent_at timestamptz NOT NULL
);
CREATE INDEX subscribers_by_language ON subscribers (lang) WHERE status = 'confirmed';

-- One email per appearance and subscriber, kept once sent so that it is never queued, and so never sent, twice. An
-- unsubscribed reader's issues not sent go with it; those sent stay, naming an id that no longer holds an address.
CREATE TABLE newsletter_issues (
  slug text NOT NULL,
  lang text NOT NULL,
  subscriber_id text NOT NULL,
  created_at timestamptz NOT NULL,
  attempts integer NOT NULL,
  due_at timestamptz NOT NULL,
  sent_at timestamptz,
  lease_until timestamptz,
  PRIMARY KEY (slug, lang, subscriber_id)
);
CREATE INDEX newsletter_issues_unsent ON newsletter_issues (due_at) WHERE sent_at IS NULL;

-- Which instance sends the newsletter: one at a time, so that NEWSLETTER_RATE holds for the site, not per instance.
CREATE TABLE newsletter_sender (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  holder text NOT NULL,
  until timestamptz NOT NULL
);

-- Down Migration

DROP TABLE newsletter_sender;
DROP TABLE newsletter_issues;
DROP TABLE subscribers;
DROP TABLE appearances;
