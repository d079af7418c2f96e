// Webmention in and out (contract §8): pages advertise the endpoint; a source that links to an article is shown under
// its thread once verified, later, and removed when re-sent after it answers 410; one that does not link is never
// shown; under MODERATION=first it waits, and the owner is emailed of it once; a loopback source is never read unless
// allowed; an article that becomes visible sends one Webmention to each link whose page advertises an endpoint. A
// server in this process on loopback plays the other sites.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { dataTool } from '../support/data-tool.ts';
import { WEBMENTION_RECEIVER } from '../support/fixtures.ts';
import { request } from '../support/http.ts';
import { readMail } from '../support/mail.ts';
import { startSmtp, startWebhookReceiver } from '../support/notification-sinks.ts';
import { comment, notifying } from '../support/notifying.ts';
import { freePort } from '../support/ports.ts';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { until } from '../support/until.ts';

after(dropDatabases);

const SITE_URL = 'http://localhost:4321';
const ARTICLE = 'writing-in-plain-text';
const TARGET = `${SITE_URL}/articles/${ARTICLE}`;
const ENDPOINT = `${SITE_URL}/webmention`;

/** Another site: pages that link to the article or not, one that is gone, and a receiver of Webmentions. */
interface Remote {
  origin: string;
  /** Every request it was sent, as `<method> <path>`, with a POST's body. */
  requests: string[];
  /** Paths that answer 410 from now on. */
  gone: Set<string>;
  close(): Promise<void>;
}

const LINKING = `<!doctype html><title>A reply</title>
<article class="h-entry">
  <p class="p-author h-card"><a class="u-url p-name" href="/ann">Ann Author</a></p>
  <a class="u-in-reply-to" href="${TARGET}">the article</a>
  <div class="e-content">Plain text <b>is</b> the way.<script>alert(1)</script></div>
</article>`;

async function startRemote(port = 0): Promise<Remote> {
  const requests: string[] = [];
  const gone = new Set<string>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const path = req.url ?? '/';
      requests.push(`${req.method ?? ''} ${path}${body ? ` ${body}` : ''}`);
      if (gone.has(path)) res.writeHead(410).end();
      else if (path === '/links') res.writeHead(200, { 'Content-Type': 'text/html' }).end(LINKING);
      else if (path === '/no-link') res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>Nothing to see <a href="/x">here</a>.</p>');
      else if (path === '/page')
        res.writeHead(200, { 'Content-Type': 'text/html', Link: '</endpoint>; rel="webmention"' }).end('<p>A page.</p>');
      else if (path === '/endpoint' && req.method === 'POST') res.writeHead(202).end();
      else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: listening } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${listening}`,
    requests,
    gone,
    close: () =>
      new Promise((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}

const FORM = 'application/x-www-form-urlencoded';

function mention(siteUrl: string, source: string, target = TARGET) {
  return request(`${siteUrl}/webmention`, {
    method: 'POST',
    headers: { 'Content-Type': FORM },
    body: new URLSearchParams({ source, target }).toString(),
  });
}

/** The Webmentions the article's page shows, as text. */
async function shown(siteUrl: string): Promise<string> {
  const page = (await request(`${siteUrl}/articles/${ARTICLE}`)).text;
  return (/<section class="thread-mentions"[\s\S]*?<\/section>/.exec(page)?.[0] ?? '').replace(/\s+/g, ' ');
}

const STORES = {
  embedded: () => Promise.resolve({}),
  PostgreSQL: async () => ({ DATABASE_URL: await freshDatabase('webmention') }),
};

for (const [engine, makeStore] of Object.entries(STORES)) {
  describe(`Webmention on the ${engine} store`, () => {
    test('a linking source is shown once verified, one that does not link never, and a source gone is removed', async () => {
      const remote = await startRemote();
      const site = await startSite(PREPARED_SITE, { ...(await makeStore()), FEDERATION: 'on', FEDERATION_ALLOW_PRIVATE_ADDRESSES: '1' });
      try {
        const page = await request(`${site.url}/articles/${ARTICLE}`);
        assert.match(String(page.headers.link), new RegExp(`<${ENDPOINT}>; rel="webmention"`));
        assert.match(page.text, new RegExp(`<link rel="webmention" href="${ENDPOINT}"`));
        const twin = await request(`${site.url}/articles/${ARTICLE}`, { headers: { Accept: 'text/markdown' } });
        assert.match(String(twin.headers.link), /rel="webmention"/, 'the Markdown twin too');

        assert.equal((await mention(site.url, `${remote.origin}/links`)).status, 202);
        assert.equal((await mention(site.url, `${remote.origin}/no-link`)).status, 202);
        await until(async () => (await shown(site.url)).includes('Ann Author'), 'the linking source shown');
        const text = await shown(site.url);
        assert.match(text, /<a class="mention-author" href="http:\/\/127\.0\.0\.1:\d+\/ann" rel="nofollow ugc noopener">/);
        assert.match(text, /replied/);
        assert.match(text, /Plain text is the way\./);
        assert.doesNotMatch(text, /<script>|<b>/, 'text only, never the source’s HTML');
        await until(() => remote.requests.includes('GET /no-link'), 'the other source read');
        assert.doesNotMatch(await shown(site.url), /no-link/);

        remote.gone.add('/links');
        assert.equal((await mention(site.url, `${remote.origin}/links`)).status, 202, 'sent again');
        await until(async () => (await shown(site.url)) === '', 'the source gone, its mention removed');
      } finally {
        await site.stop();
        await remote.close();
      }
    });

    test('under MODERATION=first a verified mention waits, told to the owner once, shown to no reader until approved or deleted', async () => {
      const remote = await startRemote();
      const smtp = await startSmtp();
      const webhook = await startWebhookReceiver();
      const settings = { FEDERATION: 'on', FEDERATION_ALLOW_PRIVATE_ADDRESSES: '1', MODERATION: 'first' };
      const source = `${remote.origin}/links`;
      const port = await freePort();
      const desk = `http://127.0.0.1:${port}`;
      const storeSettings = await makeStore();
      const verifications = (site: RunningSite) => site.output().match(/a received mention is now waiting/g)?.length ?? 0;
      const emails = () => smtp.messages.map(readMail);
      try {
        const site = await startSite(PREPARED_SITE, {
          ...storeSettings,
          ...settings,
          ...notifying(smtp.port, 1, webhook),
          OWNER_PORT: String(port),
        });
        const store = { DATA_DIR: site.dataDir, ...storeSettings };
        try {
          assert.equal((await mention(site.url, source)).status, 202);
          await site.printed(/a received mention is now waiting/);
          assert.equal(await shown(site.url), '');
          assert.match((await request(`${desk}/requests`)).text, /<strong>waiting<\/strong> reply by Ann Author/, 'on the desk');
          await until(() => smtp.messages.length > 0, 'the owner’s email');
          const [told] = emails();
          assert.equal(told?.headers.get('subject'), `New Webmention (reply) by Ann Author on ${ARTICLE}, waiting for approval`);
          for (const line of [`Page: ${TARGET}`, `Source: ${source}`, '> Plain text is the way.'])
            assert.ok(told.text.includes(line), `the email holds ${line}:\n${told.text}`);
          assert.match(told.text, /^To approve or delete it: the desk/m, 'it points to the desk');

          assert.equal((await mention(site.url, source)).status, 202, 'sent again');
          await until(() => verifications(site) === 2, 'the mention verified again');
          const approved = await request(`${desk}/mentions/approve`, {
            method: 'POST',
            headers: { Origin: desk, 'Content-Type': FORM },
            body: new URLSearchParams({ back: '/requests', source, target: TARGET }).toString(),
          });
          assert.equal(approved.status, 303);
          assert.match(await shown(site.url), /Ann Author/, 'approved on the desk');
          // Told in the order things came in: the comment's email comes after anything the mention told since.
          await comment(site, 'Written after the mention');
          await until(() => emails().some((mail) => mail.text.includes('Written after the mention')), 'the comment’s email');
          assert.equal(emails().filter((mail) => mail.text.includes('Webmention')).length, 1, 'verified again or approved: nothing new');
          await until(() => webhook.bodies.some((body) => body['kind'] === 'comment'), 'the comment’s webhook');
          const hooked = webhook.bodies.filter((body) => body['kind'] === 'mention');
          assert.deepEqual(
            hooked.map((body) => [body['source'], body['status'], body['url']]),
            [[source, 'waiting', TARGET]],
            'one webhook, with the mention’s fields',
          );
          assert.match(String(hooked[0]?.['content']), /^New Webmention \(reply\) by Ann Author/);
        } finally {
          await site.stop();
        }
        assert.equal((await dataTool(store, 'mentions')).output, `published  reply  ${source} ${TARGET}\n`);
        assert.equal((await dataTool(store, 'delete-mention', source, TARGET)).code, 0);
        assert.equal((await dataTool(store, 'delete-mention', source, TARGET)).code, 1, 'gone already');
        const deleted = await startSite(PREPARED_SITE, { ...settings, ...store });
        try {
          assert.equal(await shown(deleted.url), '');
        } finally {
          await deleted.stop();
        }
      } finally {
        await remote.close();
        await smtp.stop();
        await webhook.stop();
      }
    });

    test('bad input answers 400, never 500, and past its quota a source’s host 429', async () => {
      const site = await startSite(PREPARED_SITE, { ...(await makeStore()), FEDERATION: 'on' });
      try {
        const source = 'https://elsewhere.example/post';
        const bad: [string, string][] = [
          [new URLSearchParams({ source, target: `${SITE_URL}/articles/no-such-article` }).toString(), 'no such article'],
          [new URLSearchParams({ source, target: 'https://elsewhere.example/' }).toString(), 'not this site'],
          [new URLSearchParams({ source: 'ftp://elsewhere.example/x', target: TARGET }).toString(), 'not http(s)'],
          [new URLSearchParams({ source: TARGET, target: TARGET }).toString(), 'the same'],
          [new URLSearchParams({ source: `${source}?${'x'.repeat(3000)}`, target: TARGET }).toString(), 'too long'],
          [new URLSearchParams({ target: TARGET }).toString(), 'no source'],
          ['%%%', 'not a form'],
        ];
        for (const [body, why] of bad) {
          const answer = await request(`${site.url}/webmention`, { method: 'POST', headers: { 'Content-Type': FORM }, body });
          assert.equal(answer.status, 400, why);
        }
        // QUOTAS: 30 an hour from one source's host (webmention-source).
        for (let n = 0; n < 30; n += 1) assert.equal((await mention(site.url, `https://one.invalid/${n}`)).status, 202);
        const spent = await mention(site.url, 'https://one.invalid/more');
        assert.equal(spent.status, 429);
        assert.ok(Number(spent.headers['retry-after']) > 0);
        assert.equal((await mention(site.url, 'https://other.invalid/1')).status, 202, 'another host has its own');
        const json = await request(`${site.url}/webmention`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{}',
        });
        assert.equal(json.status, 400);
      } finally {
        await site.stop();
      }
    });
  });
}

test('with FEDERATION off there is no endpoint and no page names one', async () => {
  const site = await startSite(PREPARED_SITE, {});
  try {
    assert.doesNotMatch(String((await request(`${site.url}/articles/${ARTICLE}`)).headers.link), /webmention/);
    assert.notEqual((await mention(site.url, 'https://elsewhere.example/post')).status, 202);
  } finally {
    await site.stop();
  }
});

test('with FEDERATION_ALLOW_PRIVATE_ADDRESSES unset, a loopback source is never read', async () => {
  const remote = await startRemote();
  const site = await startSite(PREPARED_SITE, { FEDERATION: 'on' });
  try {
    assert.equal((await mention(site.url, `${remote.origin}/links`)).status, 202);
    await site.printed(/a received mention was removed/);
    assert.deepEqual(remote.requests, []);
    assert.equal(await shown(site.url), '');
  } finally {
    await site.stop();
    await remote.close();
  }
});

test('an article that becomes visible sends one Webmention to a link whose page advertises an endpoint', async () => {
  const receiver = await startRemote(Number(new URL(WEBMENTION_RECEIVER).port));
  const settings = { FEDERATION: 'on', FEDERATION_ALLOW_PRIVATE_ADDRESSES: '1' };
  // The store's first start records what is visible as a baseline; "next-century" appears on its date.
  const before = await startSite(PREPARED_SITE, { ...settings, TEST_CLOCK: '2098-12-31T23:58:00Z' });
  await before.stop();
  const posts = () => receiver.requests.filter((line) => line.startsWith('POST'));
  try {
    const site = await startSite(PREPARED_SITE, { ...settings, DATA_DIR: before.dataDir, TEST_CLOCK: '2099-01-01T00:00:10Z' });
    try {
      const sent = `POST /endpoint ${new URLSearchParams({ source: `${SITE_URL}/articles/next-century`, target: `${WEBMENTION_RECEIVER}/page` })}`;
      await until(() => receiver.requests.includes(sent), 'the Webmention sent');
      await site.printed(/a sent mention is now sent/);
    } finally {
      await site.stop();
    }
    const again = await startSite(PREPARED_SITE, { ...settings, DATA_DIR: before.dataDir, TEST_CLOCK: '2099-01-01T00:01:00Z' });
    await again.stop();
    assert.equal(posts().length, 1, 'once, and never again after a restart');
  } finally {
    await receiver.close();
  }
});
