import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import {
  newsletterOn,
  notOnce,
  ON_THE_DATE,
  startCountingSmtp,
  subscriberAddresses,
  subscribersBeforeTheDate,
} from '../support/newsletter.ts';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { PREPARED_SITE, startSite } from '../support/site.ts';
import { until } from '../support/until.ts';

after(dropDatabases);

const SUBSCRIBERS = 40;
/** One email every 100 ms for the site, however many instances send. */
const PER_MINUTE = 600;
const INTERVAL_MS = 60_000 / PER_MINUTE;

test(`two instances on one PostgreSQL send an article once to each of ${SUBSCRIBERS} subscribers, at NEWSLETTER_RATE between them`, async () => {
  const smtp = await startCountingSmtp();
  const store = { DATABASE_URL: await freshDatabase('newsletter_instances') };
  try {
    await subscribersBeforeTheDate(smtp.port, store, SUBSCRIBERS);

    const both = await Promise.all([0, 1].map(() => startSite(PREPARED_SITE, newsletterOn(smtp.port, store, ON_THE_DATE, PER_MINUTE))));
    try {
      await until(() => smtp.recipients.length >= SUBSCRIBERS, `${SUBSCRIBERS} emails`, { timeoutMs: 60_000, everyMs: 50 });
      // Long enough for an email sent twice to arrive: ten at this rate.
      await new Promise((resolve) => setTimeout(resolve, 10 * INTERVAL_MS));
    } finally {
      await Promise.all(both.map((site) => site.stop()));
    }
    assert.deepEqual(notOnce(smtp.recipients, subscriberAddresses(SUBSCRIBERS)), [], 'each subscriber got it once');
    // Each instance at the rate on its own would send them in half the time.
    const span = (smtp.receivedAt.at(-1) ?? 0) - (smtp.receivedAt[0] ?? 0);
    const least = (SUBSCRIBERS - 1) * INTERVAL_MS * 0.85;
    assert.ok(span >= least, `${SUBSCRIBERS} emails over ${span} ms, at least ${least} ms at ${PER_MINUTE} a minute`);
  } finally {
    await smtp.stop();
  }
});
