import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, describe, test, type TestContext } from 'node:test';
import { dataTool } from '../support/data-tool.ts';
import { startSmtp, startWebhookReceiver } from '../support/notification-sinks.ts';
import { until } from '../support/until.ts';
import { comment, metric, notifying } from '../support/notifying.ts';
import { freePort } from '../support/ports.ts';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';

after(dropDatabases);

/** Whether `site` exits within `ms`, a guard against a process that lingers rather than a measure; killed if not. */
async function exitsWithin(site: RunningSite, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => {
      resolve(false);
    }, ms);
  });
  const exited = await Promise.race([site.exited().then(() => true), late]);
  clearTimeout(timer);
  if (!exited) await site.kill();
  return exited;
}

/** The ids of the records whose webhook entry waits in the embedded store of `dataDir`, read by the owner's data tool. */
async function webhooksWaiting(dataDir: string): Promise<string[]> {
  const { code, output } = await dataTool({ DATA_DIR: dataDir }, 'export');
  assert.equal(code, 0, output);
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { kind: string; entry?: { channel: string; notification: { id: string } } })
    .filter((record) => record.kind === 'notification' && record.entry?.channel === 'webhook')
    .map((record) => record.entry?.notification.id ?? '')
    .sort();
}

/** Starts a site on `dataDir` posting to a webhook that answers, and resolves once it has posted every entry: each id posted, sorted. */
async function sentAfterRestart(dataDir: string): Promise<string[]> {
  const webhook = await startWebhookReceiver();
  const metricsPort = await freePort();
  const site = await startSite(PREPARED_SITE, {
    TRUST_PROXY: '1',
    NOTIFY_WEBHOOK_URL: webhook.url,
    DATA_DIR: dataDir,
    METRICS_PORT: String(metricsPort),
  });
  try {
    await until(async () => (await metric(metricsPort, 'longhand_outbox_depth{channel="webhook"}')) === 0, 'every webhook posted');
    return webhook.bodies.map((body) => String(body['id'])).sort();
  } finally {
    await Promise.all([site.stop(), webhook.stop()]);
  }
}

/** A site posting to a webhook that never answers, `count` comments written and the first one's POST under way. */
async function hangingSite(t: TestContext, drainSeconds: number, count: number): Promise<{ site: RunningSite; ids: string[] }> {
  const hanging = await startWebhookReceiver('hang');
  t.after(() => hanging.stop());
  const site = await startSite(PREPARED_SITE, { TRUST_PROXY: '1', NOTIFY_WEBHOOK_URL: hanging.url, DRAIN_SECONDS: String(drainSeconds) });
  t.after(() => site.kill());
  const ids: string[] = [];
  for (let number = 1; number <= count; number += 1) ids.push(await comment(site, `Written while the chat hangs ${number}.`));
  await until(() => hanging.bodies.length >= 1, 'a webhook under way');
  return { site, ids: ids.sort() };
}

describe('a webhook that never answers', () => {
  for (const engine of ['embedded', 'PostgreSQL'] as const)
    test(`holds up only itself: with 500 comments waiting, their emails go out at the email interval (${engine} store)`, async (t) => {
      const smtp = await startSmtp();
      const webhook = await startWebhookReceiver('hang');
      t.after(() => Promise.all([smtp.stop(), webhook.stop()]));
      const metricsPort = await freePort();
      const site = await startSite(PREPARED_SITE, {
        ...notifying(smtp.port, 2, webhook),
        METRICS_PORT: String(metricsPort),
        ...(engine === 'PostgreSQL' ? { DATABASE_URL: await freshDatabase('notify_hanging') } : {}),
      });
      t.after(() => site.stop());
      await Promise.all(Array.from({ length: 500 }, (_, index) => comment(site, `Waiting comment ${index + 1}.`)));
      await until(() => webhook.bodies.length >= 1, 'a webhook under way');
      // Well short of the pile of webhook time-outs the 500 would make if the email waited behind them.
      await until(
        async () => (await metric(metricsPort, 'longhand_notifications_sent_total{channel="email"}')) === 500,
        'every comment emailed',
        { timeoutMs: 30_000 },
      );
      assert.ok(smtp.messages.length >= 1);
    });
});

/** Opens a request to `site` whose headers never end, as a stalled client's: it would hold a close that waited for it. */
async function stalledRequest(t: TestContext, site: RunningSite): Promise<void> {
  const stalled = connect(Number(new URL(site.url).port), '127.0.0.1');
  t.after(() => stalled.destroy());
  await new Promise<void>((resolve) => stalled.once('connect', resolve));
  stalled.write('GET / HTTP/1.1\r\nHost: localhost\r\n');
}

describe('a site stopping while its webhook hangs', () => {
  test('exits within DRAIN_SECONDS and 10 s, a request stalled too; the next start finds every entry in the outbox and posts each once', async (t) => {
    const { site, ids } = await hangingSite(t, 1, 5);
    await stalledRequest(t, site);
    process.kill(site.pid, 'SIGTERM');
    assert.ok(await exitsWithin(site, 11_000), 'the site exited within DRAIN_SECONDS + 10 s');
    assert.deepEqual(await webhooksWaiting(site.dataDir), ids, 'every entry still in the outbox');
    assert.deepEqual(await sentAfterRestart(site.dataDir), ids, 'each posted once');
  });

  test('a second SIGTERM while it drains ends it at once, and loses nothing it answered', async (t) => {
    const { site, ids } = await hangingSite(t, 600, 3);
    process.kill(site.pid, 'SIGTERM');
    await site.printed(/SIGTERM: draining/);
    process.kill(site.pid, 'SIGTERM');
    assert.ok(await exitsWithin(site, 10_000), 'ended by the second signal, not after the 600 s drain');
    assert.match(site.output(), /SIGTERM again: exiting now/);
    assert.deepEqual(await sentAfterRestart(site.dataDir), ids, 'each posted once after the restart');
  });

  test('a SIGINT while it closes, a request still in flight, ends it at once', async (t) => {
    const { site } = await hangingSite(t, 0, 1);
    await stalledRequest(t, site);
    process.kill(site.pid, 'SIGTERM');
    await site.printed(/closing: the listener takes no connection more/);
    process.kill(site.pid, 'SIGINT');
    assert.ok(await exitsWithin(site, 5000), 'ended by the second signal');
    // Printed only by the second signal's handler, which exits as it returns: the close was cut short, not over.
    assert.match(site.output(), /SIGINT again: exiting now/);
    assert.doesNotMatch(site.output(), /webhook notification\(s\) cut short by the stop/);
  });
});
