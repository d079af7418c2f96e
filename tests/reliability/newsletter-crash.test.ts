import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
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

/**
 * A server killed (SIGKILL) in the middle of sending an article to its
 * subscribers, then started again on the same store: each subscriber gets
 * the article exactly once. The kill lands while an email is under way, its
 * SMTP conversation held by the sink before the message is accepted, so
 * that where it lands is known. A kill after an SMTP server accepted a
 * message and before the store marked it sent would send that one email
 * again (issue-sender.ts: at least once), which no SMTP sender can rule out.
 */
after(dropDatabases);

const SUBSCRIBERS = 1000;
/** The most NEWSLETTER_RATE allows: 1,000 emails in about ten seconds. */
const PER_MINUTE = 6000;
/** Emails accepted before the one the kill interrupts. */
const KILLED_AFTER = 400;
/**
 * How long the rest may take after the restart: on PostgreSQL the killed
 * server's turn runs out (30 s) and the lease of the email it was sending
 * (60 s) before that one is sent again.
 */
const RESTART_MS = 150_000;

for (const engine of ['PostgreSQL', 'embedded'] as const) {
  describe(`the newsletter on the ${engine} store`, () => {
    test(`SIGKILL while sending to ${SUBSCRIBERS} subscribers: after the restart each got the article exactly once`, async () => {
      const smtp = await startCountingSmtp({ holdAfter: KILLED_AFTER });
      const dataDir = await mkdtemp(join(tmpdir(), 'newsletter-crash-'));
      const store = { DATA_DIR: dataDir, ...(engine === 'PostgreSQL' ? { DATABASE_URL: await freshDatabase('newsletter_crash') } : {}) };
      try {
        await subscribersBeforeTheDate(smtp.port, store, SUBSCRIBERS);

        const killed = await startSite(PREPARED_SITE, newsletterOn(smtp.port, store, ON_THE_DATE, PER_MINUTE));
        await smtp.held;
        await killed.kill();
        assert.equal(smtp.recipients.length, KILLED_AFTER, 'killed in the middle');

        const restarted = await startSite(PREPARED_SITE, newsletterOn(smtp.port, store, ON_THE_DATE, PER_MINUTE));
        try {
          await until(() => smtp.recipients.length >= SUBSCRIBERS, `${SUBSCRIBERS} emails`, { timeoutMs: RESTART_MS, everyMs: 200 });
          // Long enough for an email sent twice to arrive: ten at this rate.
          await new Promise((resolve) => setTimeout(resolve, (10 * 60_000) / PER_MINUTE));
        } finally {
          await restarted.stop();
        }
        assert.deepEqual(notOnce(smtp.recipients, subscriberAddresses(SUBSCRIBERS)), [], 'each subscriber got it once');
        assert.equal(smtp.recipients.length, SUBSCRIBERS);
      } finally {
        await smtp.stop();
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  });
}
