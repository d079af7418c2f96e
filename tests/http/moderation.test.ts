// Moderation (MODERATION=first and all) over HTTP: what a waiting comment is answered, that no reader's view shows it,
// and the one-click links of its notification, as a real SMTP server receives them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { readerHash } from '../../src/server/identity/reader-hash.ts';
import { signingKey } from '../../src/server/identity/signing.ts';
import { moderationToken } from '../../src/server/owner/moderation-links.ts';
import { issueFormStamp } from '../../src/server/spam/form-stamp.ts';
import { request, type Answer } from '../support/http.ts';
import { startSmtp, type SmtpSink } from '../support/notification-sinks.ts';
import { until } from '../support/until.ts';
import { freePort } from '../support/ports.ts';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { newReaderAddress, post, SITE_ORIGIN } from '../support/writes.ts';

const ARTICLE = 'writing-in-plain-text';
/** The owner's links and buttons hold on either store engine. */
const STORES = ['the embedded store', 'PostgreSQL'] as const;
/** The site's salt, set here so that the test can sign a link as the site does. */
const SALT = 'moderation-test-salt-'.padEnd(48, 'x');
const KEY = signingKey(SALT, 'moderation-link');

/**
 * A comment as the site's form sends it, with a stamp from half a minute ago:
 * under moderation, a comment without one waits whoever writes it.
 */
async function comment(site: RunningSite, body: string, address: string, parentId?: string): Promise<Record<string, unknown>> {
  const formStamp = issueFormStamp(signingKey(SALT, 'form-stamp'), Date.now() - 30_000);
  const answer = await post(
    site.url,
    '/api/comments',
    { articleSlug: ARTICLE, body, formStamp, ...(parentId ? { parentId } : {}) },
    address,
  );
  assert.equal(answer.status, 200, answer.text);
  return answer.json();
}

/** Everything a reader can read of the article's thread, as one text: the page, the fragment, its twin, the feeds. */
async function whatReadersSee(site: RunningSite): Promise<string> {
  const paths = [`/articles/${ARTICLE}`, `/threads/${ARTICLE}`, `/threads/${ARTICLE}.md`, `/threads/${ARTICLE}.atom`, '/comments.atom'];
  const answers = await Promise.all(paths.map((path) => request(`${site.url}${path}`)));
  for (const [index, answer] of answers.entries()) assert.equal(answer.status, 200, paths[index]);
  return answers.map((answer) => answer.text).join('\n');
}

/** The count of top-level comments the thread's fragment says it holds. */
async function threadCount(site: RunningSite): Promise<number> {
  return Number(/data-count="(\d+)"/.exec((await request(`${site.url}/threads/${ARTICLE}`)).text)?.[1]);
}

/** A moderation link of the site as this test's server answers it (the links name SITE_URL, the default origin). */
function onServer(site: RunningSite, link: string): string {
  return link.replace(SITE_ORIGIN, site.url);
}

function confirm(site: RunningSite, link: string, origin: string | null = SITE_ORIGIN): Promise<Answer> {
  return request(onServer(site, link), { method: 'POST', headers: origin === null ? {} : { Origin: origin } });
}

/** The approve, delete and ban links of the email that names `body`. */
function linksIn(smtp: SmtpSink, body: string): Record<string, string> {
  const email = smtp.messages.find((message) => message.includes(body));
  assert.ok(email, `an email names "${body}"`);
  // Each notification of an email is a section of its own, its links before what the reader wrote.
  const section = email.split(/\r?\n\r?\n———\r?\n\r?\n/).find((part) => part.includes(body)) ?? '';
  const links: Record<string, string> = {};
  for (const [, label = '', url = ''] of section.matchAll(/^(Approve|Delete|Ban the writer): (\S+)\r?$/gm)) links[label] = url;
  return links;
}

/** The settings that put a site on `engine`: its own temporary DATA_DIR (the default), or a fresh PostgreSQL database. */
async function storeSettings(engine: (typeof STORES)[number]): Promise<Record<string, string>> {
  return engine === 'PostgreSQL' ? { DATABASE_URL: await freshDatabase('moderation') } : {};
}

after(dropDatabases);

for (const engine of STORES) {
  describe(`MODERATION=first on ${engine}`, () => {
    let smtp: SmtpSink;
    let site: RunningSite;
    /** The owner's desk, which lifts a ban. */
    let desk: string;
    before(async () => {
      smtp = await startSmtp();
      const deskPort = await freePort();
      desk = `http://127.0.0.1:${deskPort}`;
      site = await startSite(PREPARED_SITE, {
        ...(await storeSettings(engine)),
        TRUST_PROXY: '1',
        OWNER_PORT: String(deskPort),
        MODERATION: 'first',
        IP_HASH_SALT: SALT,
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        NOTIFY_EMAIL_TO: 'owner@example.test',
        NOTIFY_EMAIL_SECONDS: '0',
      });
    });
    after(async () => {
      await site.stop();
      await smtp.stop();
    });

    test('a first comment waits: answered pending, and shown nowhere a reader looks, nor counted, nor replied to or voted on', async () => {
      const before = await threadCount(site);
      assert.ok(Number.isInteger(before));
      const writer = newReaderAddress();
      const waiting = await comment(site, 'My very first words here.', writer);
      assert.equal(waiting['status'], 'pending');
      assert.equal(waiting['body'], 'My very first words here.');
      const again = await comment(site, 'And my second, still unapproved.', writer);
      assert.equal(again['status'], 'pending', 'a reader waits until one of theirs is published');

      assert.doesNotMatch(await whatReadersSee(site), /My very first words here|my second, still unapproved/);
      assert.equal(await threadCount(site), before);
      const reply = await post(
        site.url,
        '/api/comments',
        { articleSlug: ARTICLE, parentId: waiting['id'], body: 'Hi!' },
        newReaderAddress(),
      );
      assert.equal(reply.status, 400);
      assert.equal(reply.json()['error'], 'parentId: no such comment on this article', 'as for a comment that does not exist');
      const vote = await post(site.url, '/api/votes', { articleSlug: ARTICLE, commentId: waiting['id'], value: 1 }, newReaderAddress());
      assert.equal(vote.status, 404);
    });

    test('the email carries working links: GET asks and changes nothing (the text rendered), POST approves, the second POST says it was done', async () => {
      const writer = newReaderAddress();
      const waiting = await comment(site, 'Approve me, **please**.', writer);
      await until(() => smtp.messages.some((message) => message.includes('Approve me, **please**.')), 'the email of the comment');
      const email = smtp.messages.find((message) => message.includes('Approve me, **please**.')) ?? '';
      // The site's lines first (what came in, its page, its links), then what the reader wrote, quoted as typed.
      assert.match(
        email,
        /^New comment by .+ on writing-in-plain-text, waiting for approval\r?\n\r?\nPage: \S+\r?\nApprove: \S+\r?\n[\s\S]*?^> Approve me, \*\*please\*\*\./m,
      );
      const links = linksIn(smtp, 'Approve me, **please**.');
      assert.deepEqual(Object.keys(links).sort(), ['Approve', 'Ban the writer', 'Delete']);
      for (const link of Object.values(links)) assert.ok(link.startsWith(`${SITE_ORIGIN}/moderation/`), link);
      const approve = links['Approve'] ?? '';

      const asked = await request(onServer(site, approve));
      assert.equal(asked.status, 200);
      assert.equal(asked.headers['cache-control'], 'private, no-store');
      assert.equal(asked.headers['x-robots-tag'], 'noindex, nofollow');
      assert.match(asked.text, /<meta name="robots" content="noindex, nofollow">/);
      assert.match(asked.text, /<form method="post"><button type="submit">Approve<\/button><\/form>/);
      assert.match(asked.text, /<blockquote dir="auto"><p>Approve me, <strong>please<\/strong>\.<\/p>/);
      assert.doesNotMatch(await whatReadersSee(site), /Approve me/, 'a GET, as a mail scanner sends, changes nothing');

      assert.equal((await confirm(site, approve, null)).status, 403, 'a POST without the page’s origin does nothing');
      assert.equal((await confirm(site, approve, 'https://elsewhere.example')).status, 403);
      assert.doesNotMatch(await whatReadersSee(site), /Approve me/);

      const done = await confirm(site, approve);
      assert.equal(done.status, 200);
      assert.match(done.text, /Approved/);
      assert.match(await whatReadersSee(site), /Approve me, /, 'shown as posted, in the page, the fragment, the twin and the feeds');
      assert.match((await request(`${site.url}/threads/${ARTICLE}`)).text, new RegExp(`data-comment-id="${String(waiting['id'])}"`));

      const twice = await confirm(site, approve);
      assert.equal(twice.status, 409);
      assert.match(twice.text, /used already/);
      assert.equal((await request(onServer(site, approve))).status, 409, 'the page says so before its button too');

      await site.printed(/"path":"\/moderation\/…"/);
      assert.ok(!site.output().includes(approve.slice(approve.lastIndexOf('.') + 1)), 'the access log never holds a link’s token');

      const next = await comment(site, 'Now I am known here.', writer);
      assert.equal(next['status'], 'published', 'once approved, a reader’s comments are published at once');
      assert.match(await whatReadersSee(site), /Now I am known here\./);
    });

    test('delete removes a waiting comment outright; ban refuses its writer’s writes; each link once, even after an unban', async () => {
      const spammer = newReaderAddress();
      await comment(site, 'Buy cheap pills now.', spammer);
      await until(() => smtp.messages.some((message) => message.includes('Buy cheap pills now.')), 'the email of the spam');
      const links = linksIn(smtp, 'Buy cheap pills now.');

      const deleted = await confirm(site, links['Delete'] ?? '');
      assert.equal(deleted.status, 200);
      assert.match(deleted.text, /Deleted/);
      const gone = await request(onServer(site, links['Approve'] ?? ''));
      assert.equal(gone.status, 410, 'a removed comment is gone');
      assert.match(gone.text, /no longer there/);
      const deletedAgain = await confirm(site, links['Delete'] ?? '');
      assert.equal(deletedAgain.status, 409, 'a used link answers 409, whatever its comment became');
      assert.match(deletedAgain.text, /used already/);
      assert.equal((await confirm(site, links['Ban the writer'] ?? '')).status, 410, 'its writer is unknown once it is gone');

      const second = await comment(site, 'More cheap pills.', spammer);
      await until(() => smtp.messages.some((message) => message.includes('More cheap pills.')), 'the email of the second spam');
      const ban = linksIn(smtp, 'More cheap pills.')['Ban the writer'] ?? '';
      assert.match((await request(onServer(site, ban))).text, /Ban the writer\?/);
      const banned = await confirm(site, ban);
      assert.equal(banned.status, 200);
      assert.match(banned.text, /Banned/);
      const refused = await post(site.url, '/api/comments', { articleSlug: ARTICLE, body: 'Let me in.' }, spammer);
      assert.equal(refused.status, 429);
      assert.equal((await confirm(site, ban)).status, 409, 'banned already');
      assert.ok(second['id']);

      const unban = await request(`${desk}/readers/${encodeURIComponent(readerHash(spammer, SALT))}/unban`, {
        method: 'POST',
        headers: { Origin: desk, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'back=/',
      });
      assert.equal(unban.status, 303);
      assert.match(new URL(unban.headers.location ?? '', desk).searchParams.get('done') ?? '', /: unbanned$/, 'the desk lifted the ban');
      assert.equal((await post(site.url, '/api/comments', { articleSlug: ARTICLE, body: 'Back, and sorry.' }, spammer)).status, 200);
      const usedAgain = await confirm(site, ban);
      assert.equal(usedAgain.status, 409, 'a used ban link does not ban again after the unban');
      assert.match(usedAgain.text, /used already/);
      assert.match((await request(onServer(site, ban))).text, /used already/, 'its page says so before any button');
      assert.equal(
        (await post(site.url, '/api/comments', { articleSlug: ARTICLE, body: 'Still welcome.' }, spammer)).status,
        200,
        'the writer is still unbanned',
      );
    });

    test('a link altered, signed for another purpose, expired or for no action is refused, and says why', async () => {
      const waiting = await comment(site, 'Check my link.', newReaderAddress());
      const id = String(waiting['id']);
      const later = Date.now() + 3600_000;
      const valid = `/moderation/${moderationToken(KEY, 'approve', id, later)}`;
      const [payload = '', mac = ''] = valid.split('.');
      const altered = [
        `${payload.replace('approve', 'delete')}.${mac}`,
        `${valid.slice(0, -10)}${valid.at(-10) === 'A' ? 'B' : 'A'}${valid.slice(-9)}`,
        `/moderation/${moderationToken(signingKey(SALT, 'form-stamp'), 'approve', id, later)}`,
        `/moderation/${moderationToken(signingKey('another-salt'.padEnd(48, 'y'), 'moderation-link'), 'approve', id, later)}`,
        '/moderation/',
        '/moderation/nonsense',
        // One token, one spelling: base64url decoding would skip these.
        `${valid}=`,
        `${valid}==`,
        `${valid}!`,
        `${valid}%20`,
        `${valid}.`,
        `${valid}~`,
      ];
      for (const path of altered) {
        const answer = await request(`${site.url}${path}`);
        assert.equal(answer.status, 400, path);
        assert.match(answer.text, /not one this site made/);
        assert.equal((await request(`${site.url}${path}`, { method: 'POST', headers: { Origin: SITE_ORIGIN } })).status, 400, path);
      }
      const expired = `${site.url}/moderation/${moderationToken(KEY, 'approve', id, Date.now() - 1000)}`;
      assert.equal((await request(expired)).status, 410);
      const expiredPost = await request(expired, { method: 'POST', headers: { Origin: SITE_ORIGIN } });
      assert.equal(expiredPost.status, 410);
      assert.match(expiredPost.text, /expired/);
      assert.doesNotMatch(await whatReadersSee(site), /Check my link/, 'nothing was approved');
      assert.equal((await request(`${site.url}${valid}`, { method: 'DELETE' })).status, 405);
      assert.equal((await request(`${site.url}${valid}`)).status, 200, 'the valid link still works');
    });
  });

  describe(`topic requests under MODERATION=first on ${engine}`, () => {
    let site: RunningSite;
    let desk: string;
    before(async () => {
      const deskPort = await freePort();
      desk = `http://127.0.0.1:${deskPort}`;
      site = await startSite(PREPARED_SITE, {
        ...(await storeSettings(engine)),
        TRUST_PROXY: '1',
        MODERATION: 'first',
        IP_HASH_SALT: SALT,
        OWNER_PORT: String(deskPort),
      });
    });
    after(() => site.stop());

    /** A topic request as the site's form sends it, stamped half a minute ago. */
    function topicRequest(fields: Record<string, string>, address: string): Promise<Answer> {
      const formStamp = issueFormStamp(signingKey(SALT, 'form-stamp'), Date.now() - 30_000);
      return post(site.url, '/api/topic-requests', { ...fields, formStamp }, address);
    }

    /** Everything a reader or an agent can read of the topic requests: the page, its twin, and the MCP tool's answer. */
    async function whatReadersSee(): Promise<string> {
      const pages = await Promise.all(['/answers', '/answers.md'].map((path) => request(`${site.url}${path}`)));
      for (const page of pages) assert.equal(page.status, 200);
      const client = new Client({ name: 'moderation-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${site.url}/mcp`)));
      try {
        const listed = await client.callTool({ name: 'list_topic_requests', arguments: {} });
        return [...pages.map((page) => page.text), JSON.stringify(listed)].join('\n');
      } finally {
        await client.close();
      }
    }

    /** Presses a button of the desk's requests page, as its own form does. */
    async function press(path: string): Promise<string> {
      const answer = await request(`${desk}${path}`, {
        method: 'POST',
        headers: { Origin: desk, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'back=/requests',
      });
      assert.equal(answer.status, 303);
      return new URL(answer.headers.location ?? '', desk).searchParams.get('done') ?? '';
    }

    test('a first topic request waits, seen by no reader, until the owner approves it from the desk', async () => {
      const writer = newReaderAddress();
      const waiting = await topicRequest({ requestTitle: 'Ferries of the Baltic', details: 'Which still run?' }, writer);
      assert.equal(waiting.status, 200, waiting.text);
      const { id, status, ok } = waiting.json();
      assert.equal(ok, true);
      assert.equal(status, 'waiting');
      assert.equal(typeof id, 'string');
      assert.equal((await topicRequest({ requestTitle: 'And sleeper trains' }, writer)).json()['status'], 'waiting', 'still unknown');
      assert.doesNotMatch(await whatReadersSee(), /Ferries of the Baltic|sleeper trains/);

      const queue = await request(`${desk}/requests`);
      assert.match(queue.text, /Ferries of the Baltic[\s\S]*waiting for approval/);
      assert.match(await press(`/topic-requests/${String(id)}/approve`), /approved$/);
      const seen = await whatReadersSee();
      assert.match(seen, /Ferries of the Baltic/, 'listed once approved, on the page, its twin and the MCP tool');
      assert.doesNotMatch(seen, /sleeper trains/);
      assert.equal((await topicRequest({ requestTitle: 'Ports of the North Sea' }, writer)).json()['status'], 'pending', 'known since');
      assert.match(await whatReadersSee(), /Ports of the North Sea/);
    });

    test('removed from the desk, a waiting request is gone; a request holds as few links as a comment', async () => {
      const spam = await topicRequest({ requestTitle: 'Cheap flights', details: 'Book now' }, newReaderAddress());
      const id = String(spam.json()['id']);
      assert.match(await press(`/topic-requests/${id}/remove`), /removed$/);
      assert.doesNotMatch((await request(`${desk}/requests`)).text, /Cheap flights/);
      assert.doesNotMatch(await whatReadersSee(), /Cheap flights/);

      const links = await topicRequest(
        { requestTitle: 'Prices at https://a.example/x', details: 'And www.b.example, c-shop.com and http://d.example too.' },
        newReaderAddress(),
      );
      assert.equal(links.status, 400);
      assert.equal(links.json()['code'], 'too_many_links');
      assert.match(
        String(links.json()['error']),
        /^requestTitle: holds 4 links; a topic request may hold at most 3/,
        'title and details together',
      );
      const three = await topicRequest(
        { requestTitle: 'Prices at https://a.example/x', details: 'And www.b.example and c-shop.com.' },
        newReaderAddress(),
      );
      assert.equal(three.status, 200, three.text);
    });
  });
}

describe('MODERATION=all', () => {
  let site: RunningSite;
  before(async () => {
    site = await startSite(PREPARED_SITE, { TRUST_PROXY: '1', MODERATION: 'all', IP_HASH_SALT: SALT });
  });
  after(() => site.stop());

  test('every comment waits, also from a reader whose comment was approved', async () => {
    const writer = newReaderAddress();
    const first = await comment(site, 'Waiting under all.', writer);
    assert.equal(first['status'], 'pending');
    const approved = await request(`${site.url}/moderation/${moderationToken(KEY, 'approve', String(first['id']), Date.now() + 60_000)}`, {
      method: 'POST',
      headers: { Origin: SITE_ORIGIN },
    });
    assert.equal(approved.status, 200);
    assert.match(await whatReadersSee(site), /Waiting under all\./);
    assert.equal((await comment(site, 'Waiting again.', writer))['status'], 'pending');
    assert.doesNotMatch(await whatReadersSee(site), /Waiting again/);
  });
});

test('MODERATION=off is today’s behaviour, and another value stops start-up naming the setting', async () => {
  const site = await startSite(PREPARED_SITE, { TRUST_PROXY: '1', IP_HASH_SALT: SALT });
  try {
    assert.equal((await comment(site, 'Published at once.', newReaderAddress()))['status'], 'published');
  } finally {
    await site.stop();
  }
  await assert.rejects(
    startSite(PREPARED_SITE, { MODERATION: 'sometimes' }),
    /MODERATION must be one of off, first, all, not \\?"sometimes/,
  );
});
