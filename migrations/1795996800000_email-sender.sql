-- Up Migration

-- Which instance sends the owner's emails (src/server/notifications/sender.ts): one at a time, so that the
-- notifications of every instance are grouped into one email at most every NOTIFY_EMAIL_SECONDS. The holder renews
-- its turn at each pass; a turn not renewed (its instance stopped or died) goes to another once it runs out.
CREATE TABLE email_sender (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  holder text NOT NULL,
  until timestamptz NOT NULL
);
