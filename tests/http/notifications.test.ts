import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startSmtp, startWebhookReceiver, type SmtpSink, type WebhookSink } from '../support/notification-sinks.ts';
import { until } from '../support/until.ts';
import { freePort } from '../support/ports.ts';
import { dropDatabases, freshDatabase, queryRows } from '../support/postgres.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { ARTICLE, comment, metric, notifying, OWNER } from '../support/notifying.ts';
import { newReaderAddress } from '../support/writes.ts';

after(dropDatabases);
const WEBHOOK_PASSWORD = 'sésame ouvre-toi';

describe('notifications by email and webhook', () => {
  let smtp: SmtpSink;
  let webhook: WebhookSink;
  let site: RunningSite;
  let metricsPort: number;
  before(async () => {
    smtp = await startSmtp();
    webhook = await startWebhookReceiver();
    metricsPort = await freePort();
    site = await startSite(PREPARED_SITE, {
      ...notifying(smtp.port, 3, webhook),
      // A webhook behind basic authentication (ntfy's access control), its password percent-encoded in the URL.
      NOTIFY_WEBHOOK_URL: webhook.url.replace('http://', `http://owner:${encodeURIComponent(WEBHOOK_PASSWORD)}@`),
      METRICS_PORT: String(metricsPort),
    });
  });
  after(async () => {
    await site.stop();
    await Promise.all([smtp.stop(), webhook.stop()]);
  });

  test('a comment sends one email and one webhook naming its article, its author and its text, with no address or hash', async () => {
    const address = newReaderAddress();
    const id = await comment(site, 'Beer is cheaper by the river.', address);
    await until(() => smtp.messages.length >= 1 && webhook.bodies.length >= 1, 'an email and a webhook');
    const [email] = smtp.messages;
    assert.ok(email);
    assert.match(email, new RegExp(`^To: ${OWNER}`, 'm'));
    assert.match(email, /^Subject: New comment by .+ on the-price-of-a-beer\r?$/m);
    assert.match(email, /Beer is cheaper by the river\./);
    assert.match(email, /http:\/\/localhost:4321\/articles\/the-price-of-a-beer/);

    const [hook] = webhook.bodies;
    assert.ok(hook);
    assert.equal(hook['kind'], 'comment');
    assert.equal(hook['id'], id);
    assert.equal(hook['articleSlug'], ARTICLE);
    assert.equal(hook['body'], 'Beer is cheaper by the river.');
    assert.equal(hook['url'], `http://localhost:4321/articles/${ARTICLE}`);
    assert.match(String(hook['text']), /Beer is cheaper by the river\./);
    assert.match(String(hook['content']), /Beer is cheaper by the river\./);
    for (const sent of [email, JSON.stringify(hook)]) {
      assert.ok(!sent.includes(address), 'no reader address');
      assert.doesNotMatch(sent, /authorHash|readerHash/);
    }
  });

  test('a user and password in the webhook URL are sent as basic authentication, and never written to the log', async () => {
    await until(() => webhook.bodies.length >= 1, 'the first test’s webhook');
    const expected = `Basic ${Buffer.from(`owner:${WEBHOOK_PASSWORD}`).toString('base64')}`;
    assert.deepEqual(new Set(webhook.authorizations), new Set([expected]));
    for (const secret of [WEBHOOK_PASSWORD, encodeURIComponent(WEBHOOK_PASSWORD)]) assert.ok(!site.output().includes(secret));
  });

  test('a burst of 20 comments sends one email holding all of them', async () => {
    await until(() => smtp.messages.length >= 1, 'the first test’s email');
    const before = smtp.messages.length;
    const bodies = Array.from({ length: 20 }, (_, index) => `Burst comment number ${index + 1}.`);
    await Promise.all(bodies.map((body) => comment(site, body)));
    await until(() => smtp.messages.length > before, 'an email of the burst');
    const email = smtp.messages[before] ?? '';
    for (const body of bodies) assert.ok(email.includes(body), `the email holds "${body}"`);
    assert.match(email, /^Subject: 20 new comments and requests/m);
    await until(() => webhook.bodies.length >= 21, 'a webhook per comment');
  });

  test('a burst of 250 comments still makes one email: the first 100 whole, the rest a line each', async () => {
    const before = smtp.messages.length;
    const bodies = Array.from({ length: 250 }, (_, index) => `Large burst comment ${index + 1}.`);
    await Promise.all(bodies.map((body) => comment(site, body)));
    await until(() => smtp.messages.length > before, 'an email of the burst');
    const email = smtp.messages[before] ?? '';
    assert.match(email, /^Subject: 250 new comments and requests/m);
    assert.equal(bodies.filter((body) => email.includes(body)).length, 100);
    assert.equal(email.match(/^Delete: /gm)?.length, 100);
    assert.match(email, /^And 150 more:$/m);
    assert.equal(email.match(/^- New comment by .+ on the-price-of-a-beer: /gm)?.length, 150);
    // Once every email notification is sent and none is held, no other email can follow.
    await until(
      async () =>
        (await metric(metricsPort, 'longhand_outbox_depth{channel="email"}')) === 0 &&
        (await metric(metricsPort, 'longhand_email_notifications_held')) === 0,
      'every email notification sent',
    );
    assert.equal(await metric(metricsPort, 'longhand_notifications_sent_total{channel="email"}'), 1 + 20 + 250);
    assert.equal(smtp.messages.length, before + 1, 'one email, not one per 200');
  });
});

describe('notifications that cannot be sent at once', () => {
  test('with the SMTP server down, writes still answer 200, and the email arrives once it is back', async (t) => {
    const smtpPort = await freePort();
    const metricsPort = await freePort();
    const site = await startSite(PREPARED_SITE, { ...notifying(smtpPort, 1), METRICS_PORT: String(metricsPort) });
    t.after(() => site.stop());
    await comment(site, 'Sent while the mail server is away.');
    await until(async () => (await metric(metricsPort, 'longhand_notification_failures_total{channel="email"}')) >= 1, 'a failed send');
    assert.equal(await metric(metricsPort, 'longhand_outbox_depth{channel="email"}'), 1);

    const smtp = await startSmtp(smtpPort);
    t.after(() => smtp.stop());
    await until(() => smtp.messages.length >= 1, 'the email, once the server is back');
    assert.match(smtp.messages[0] ?? '', /Sent while the mail server is away\./);
    await until(async () => (await metric(metricsPort, 'longhand_outbox_depth{channel="email"}')) === 0, 'an empty outbox');
    assert.equal(await metric(metricsPort, 'longhand_notifications_sent_total{channel="email"}'), 1);
    assert.equal(smtp.messages.length, 1);
  });

  test('a webhook refused twice is posted again after a backoff, and arrives once', async (t) => {
    const webhook = await startWebhookReceiver(2);
    t.after(() => webhook.stop());
    const metricsPort = await freePort();
    const site = await startSite(PREPARED_SITE, { TRUST_PROXY: '1', NOTIFY_WEBHOOK_URL: webhook.url, METRICS_PORT: String(metricsPort) });
    t.after(() => site.stop());
    const id = await comment(site, 'Posted to a busy chat.');
    await until(() => webhook.bodies.length >= 1, 'the webhook, on its third try');
    assert.equal(webhook.bodies[0]?.['id'], id);
    assert.equal(await metric(metricsPort, 'longhand_notification_failures_total{channel="webhook"}'), 2);
    await until(async () => (await metric(metricsPort, 'longhand_outbox_depth{channel="webhook"}')) === 0, 'an empty outbox');
    assert.equal(webhook.bodies.length, 1);
  });

  test('a webhook URL that redirects is not followed: each try fails, logged with where it points', async (t) => {
    const webhook = await startWebhookReceiver();
    t.after(() => webhook.stop());
    const redirecting = createServer((req, res) => {
      req.resume();
      res.writeHead(308, { Location: webhook.url }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    t.after(
      () =>
        new Promise<void>((resolve) => {
          redirecting.close(() => {
            resolve();
          });
        }),
    );
    const { port } = redirecting.address() as AddressInfo;
    const metricsPort = await freePort();
    const site = await startSite(PREPARED_SITE, {
      TRUST_PROXY: '1',
      NOTIFY_WEBHOOK_URL: `http://127.0.0.1:${port}/old-hook`,
      METRICS_PORT: String(metricsPort),
    });
    t.after(() => site.stop());
    await comment(site, 'Posted to a chat that moved.');
    await until(async () => (await metric(metricsPort, 'longhand_notification_failures_total{channel="webhook"}')) >= 1, 'a failed post');
    // The log line leaves with the next turn's lines: it may reach the pipe just after the count.
    await site.printed(new RegExp(`the webhook answered 308, a redirect to ${webhook.url.replace(/[.]/g, '\\.')}`));
    assert.equal(await metric(metricsPort, 'longhand_outbox_depth{channel="webhook"}'), 1, 'kept to be tried again');
    assert.equal(webhook.bodies.length, 0, 'not followed');
  });

  test('a site killed (SIGKILL) between a write and its email sends it after the restart, once', async (t) => {
    const smtp = await startSmtp();
    t.after(() => smtp.stop());
    // An hour between emails: the first site holds the comment for its gathering time, and is killed meanwhile.
    const killed = await startSite(PREPARED_SITE, notifying(smtp.port, 3600));
    await comment(killed, 'Written just before a crash.');
    await killed.kill();
    assert.equal(smtp.messages.length, 0);

    const metricsPort = await freePort();
    const restarted = await startSite(PREPARED_SITE, {
      ...notifying(smtp.port, 1),
      DATA_DIR: killed.dataDir,
      METRICS_PORT: String(metricsPort),
    });
    t.after(() => restarted.stop());
    await until(() => smtp.messages.length >= 1, 'the email after the restart');
    assert.match(smtp.messages[0] ?? '', /Written just before a crash\./);
    await until(async () => (await metric(metricsPort, 'longhand_outbox_depth{channel="email"}')) === 0, 'an empty outbox');
    assert.equal(smtp.messages.length, 1);
  });
});

describe('a stopping site', () => {
  test('sends the email it holds before it exits, rather than waiting for its interval', async (t) => {
    const smtp = await startSmtp();
    t.after(() => smtp.stop());
    const metricsPort = await freePort();
    const site = await startSite(PREPARED_SITE, { ...notifying(smtp.port, 3600), METRICS_PORT: String(metricsPort) });
    await comment(site, 'Written before a deploy.');
    await until(async () => (await metric(metricsPort, 'longhand_email_notifications_held')) === 1, 'the email held');
    assert.equal(await metric(metricsPort, 'longhand_outbox_depth{channel="email"}'), 1);
    assert.equal(smtp.messages.length, 0);
    await site.stop();
    assert.equal(smtp.messages.length, 1);
    assert.match(smtp.messages[0] ?? '', /Written before a deploy\./);
  });
});

describe('notifications with two instances sharing PostgreSQL', () => {
  test('each notification is sent once, by one of them, by email and by webhook', async (t) => {
    const smtp = await startSmtp();
    const webhook = await startWebhookReceiver();
    t.after(() => Promise.all([smtp.stop(), webhook.stop()]));
    const databaseUrl = await freshDatabase('notify_instances');
    const env = { ...notifying(smtp.port, 1, webhook), DATABASE_URL: databaseUrl };
    const sites = await Promise.all([startSite(PREPARED_SITE, env), startSite(PREPARED_SITE, env)]);
    t.after(() => Promise.all(sites.map((site) => site.stop())));

    const bodies = Array.from({ length: 10 }, (_, index) => `Shared comment number ${index + 1}.`);
    const ids = await Promise.all(bodies.map((body, index) => comment(sites[index % 2] as RunningSite, body)));
    const waiting = async () =>
      Number((await queryRows<{ n: string }>(databaseUrl, 'SELECT count(*) AS n FROM notification_outbox'))[0]?.n);
    await until(async () => (await waiting()) === 0, 'every notification sent');

    assert.deepEqual(webhook.bodies.map((body) => body['id']).sort(), [...ids].sort(), 'one webhook per comment');
    const mail = smtp.messages.join('\n');
    for (const body of bodies) assert.equal(mail.split(body).length - 1, 1, `"${body}" is in one email`);
  });

  test('a burst written through both of them makes one email: one of them sends the emails at a time', async (t) => {
    const smtp = await startSmtp();
    t.after(() => smtp.stop());
    const databaseUrl = await freshDatabase('notify_one_email');
    // Emails at most every 5 s: each instance, sending its own, would send one by then.
    const env = { ...notifying(smtp.port, 5), DATABASE_URL: databaseUrl };
    const metricsPorts = [await freePort(), await freePort()];
    const sites = await Promise.all(metricsPorts.map((port) => startSite(PREPARED_SITE, { ...env, METRICS_PORT: String(port) })));
    t.after(() => Promise.all(sites.map((site) => site.stop())));

    const bodies = Array.from({ length: 10 }, (_, index) => `Burst comment number ${index + 1}.`);
    for (const [index, body] of bodies.entries()) {
      await comment(sites[index % 2] as RunningSite, body);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // Once the outbox is empty and neither instance holds an email's notifications, no other email can follow.
    await until(async () => {
      const [depth, ...held] = await Promise.all([
        metric(metricsPorts[0] ?? 0, 'longhand_outbox_depth{channel="email"}'),
        ...metricsPorts.map((port) => metric(port, 'longhand_email_notifications_held')),
      ]);
      return depth === 0 && held.every((count) => count === 0);
    }, 'every email notification sent');
    assert.equal(smtp.messages.length, 1);
    for (const body of bodies) assert.ok(smtp.messages[0]?.includes(body), `"${body}" is in the email`);
  });
});

describe('what a reader wrote, in a notification', () => {
  test('comes after the site’s own lines, quoted between markers, and escaped in the webhook’s text', async (t) => {
    const smtp = await startSmtp();
    const webhook = await startWebhookReceiver();
    t.after(() => Promise.all([smtp.stop(), webhook.stop()]));
    // Waiting for approval, so that the site's own lines include an approve link.
    const site = await startSite(PREPARED_SITE, { ...notifying(smtp.port, 1, webhook), MODERATION: 'all' });
    t.after(() => site.stop());
    const written = '<!channel> @everyone <https://x.example/|Approve>\nApprove: https://evil.example/approve\n@here & see';
    await comment(site, written);
    await until(() => smtp.messages.length >= 1 && webhook.bodies.length >= 1, 'an email and a webhook');
    const [hook = {}] = webhook.bodies;
    const text = String(hook['text']);
    const content = String(hook['content']);

    for (const [what, message] of [
      ['email', smtp.messages[0] ?? ''],
      ['webhook content', content],
      ['webhook text', text],
    ] as const) {
      const lines = message.split(/\r?\n/);
      const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
      const start = at(/The reader wrote/);
      const end = at(/End of what the reader wrote/);
      const siteLines = [
        /^Page: http:\/\/localhost:4321\/articles\//,
        /^Approve: http:\/\/localhost:4321\/moderation\/approve~/,
        /^Delete: /,
        /^Ban the writer: /,
      ];
      for (const pattern of siteLines)
        assert.ok(at(pattern) >= 0 && at(pattern) < start, `${what}: ${String(pattern)} before the reader's text`);
      assert.ok(start < end, `${what}: the reader's text between its markers`);
      const quoted = lines.slice(start + 1, end);
      assert.equal(quoted.length, 3, `${what}: each line of the reader's`);
      for (const line of quoted) assert.match(line, /^(>|&gt;) /, `${what}: "${line}" quoted`);
      assert.equal(at(/^Approve: https:\/\/evil/), -1, `${what}: the reader's approve line never stands as the site's`);
    }

    assert.ok(text.includes('&lt;!channel&gt;'), text);
    assert.ok(text.includes('&lt;https://x.example/|Approve&gt;'), text);
    assert.ok(text.includes('@\u200beveryone') && text.includes('@\u200bhere'), text);
    assert.ok(text.includes(' &amp; see'), text);
    assert.doesNotMatch(text, /<!channel>|<https:|@everyone|@here/);
    assert.deepEqual(hook['allowed_mentions'], { parse: [] });
    assert.equal(hook['body'], written, 'the record’s own fields as they are');
  });
});
