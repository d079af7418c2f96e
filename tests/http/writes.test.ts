import assert from 'node:assert/strict';
import { Agent } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { request } from '../support/http.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { storedItems } from '../support/stored.ts';
import { get, newReaderAddress, post, postChunked } from '../support/writes.ts';

let site: RunningSite;
before(async () => {
  site = await startSite(PREPARED_SITE, { TRUST_PROXY: '1' });
});
after(async () => {
  await site.stop();
});

const ARTICLE = 'the-price-of-a-beer';
const topic = (title = 'Write about night trains') => ({ requestTitle: title, details: 'Which ones still run?' });

describe('the guards, in order', () => {
  test('403 without Origin or with a foreign one', async () => {
    const address = newReaderAddress();
    for (const origin of [undefined, 'https://evil.example', 'http://localhost:4321.evil.example', 'null']) {
      const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Forwarded-For': address };
      if (origin) headers['Origin'] = origin;
      const answer = await request(`${site.url}/api/topic-requests`, { method: 'POST', headers, body: JSON.stringify(topic()) });
      assert.equal(answer.status, 403, String(origin));
      assert.equal(typeof answer.json()['error'], 'string');
    }
  });

  test('415 when the body is not declared JSON, even from the right origin', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonp']) {
      const answer = await post(site.url, '/api/comments', { articleSlug: ARTICLE, body: 'hi' }, newReaderAddress(), {
        'Content-Type': type,
      });
      assert.equal(answer.status, 415, type);
    }
    const withCharset = await post(site.url, '/api/topic-requests', topic(), newReaderAddress(), {
      'Content-Type': 'application/json; charset=utf-8',
    });
    assert.equal(withCharset.status, 200);
  });

  test('413 past 16 KiB, declared or streamed in chunks without a length', async () => {
    const big = JSON.stringify({ requestTitle: 'Long', details: 'x'.repeat(17 * 1024) });
    assert.equal((await post(site.url, '/api/topic-requests', big, newReaderAddress())).status, 413);
    const chunked = await postChunked(
      site.url,
      '/api/topic-requests',
      Array.from({ length: 40 }, () => 'x'.repeat(1024)),
      newReaderAddress(),
    );
    assert.equal(chunked.status, 413);
    assert.match(chunked.text, /"error"/);
    const justUnder = JSON.stringify({ requestTitle: 'Fits', pad: 'y'.repeat(16 * 1024 - 60) });
    assert.ok(Buffer.byteLength(justUnder) <= 16 * 1024);
    assert.equal((await post(site.url, '/api/topic-requests', justUnder, newReaderAddress())).status, 200);
  });

  test('400 for JSON that does not parse, and for a field that fails, naming it', async () => {
    const address = newReaderAddress();
    assert.equal((await post(site.url, '/api/topic-requests', '{"requestTitle":', address)).status, 400);
    const short = await post(site.url, '/api/topic-requests', { requestTitle: 'ab' }, address);
    assert.equal(short.status, 400);
    assert.match(String(short.json()['error']), /requestTitle/);
    const wrongVote = await post(site.url, '/api/votes', { articleSlug: ARTICLE, value: 2 }, address);
    assert.equal(wrongVote.status, 400);
    assert.match(String(wrongVote.json()['error']), /value/);
    assert.equal((await post(site.url, '/api/comments', [], address)).status, 400);
  });

  test('a body past 16 KiB refused for its origin still closes the connection, whose rest was never read', async () => {
    const big = JSON.stringify({ requestTitle: 'Long', details: 'x'.repeat(40 * 1024) });
    const answer = await post(site.url, '/api/topic-requests', big, newReaderAddress(), { Origin: 'https://evil.example' });
    assert.equal(answer.status, 403);
    assert.equal(answer.headers['connection'], 'close');
  });

  test('refused writes spend no quota', async () => {
    const address = newReaderAddress();
    for (let i = 0; i < 6; i++) await post(site.url, '/api/topic-requests', { requestTitle: '' }, address);
    await post(site.url, '/api/topic-requests', topic(), address, { Origin: 'https://evil.example' });
    for (let i = 0; i < 5; i++) assert.equal((await post(site.url, '/api/topic-requests', topic(`Topic ${i}`), address)).status, 200);
    assert.equal((await post(site.url, '/api/topic-requests', topic(), address)).status, 429);
  });
});

describe('topic requests', () => {
  test('stored as pending, listed on /answers newest first and escaped', async () => {
    const address = newReaderAddress();
    const first = await post(site.url, '/api/topic-requests', { requestTitle: 'First <b>bold</b> idea' }, address);
    assert.equal(first.status, 200);
    const body = first.json();
    assert.equal(body['ok'], true);
    assert.match(String(body['id']), /^[\w-]{8,}$/);
    await post(site.url, '/api/topic-requests', { requestTitle: 'Second <script>alert(1)</script> idea' }, address);
    const page = await request(`${site.url}/answers`);
    assert.equal(page.status, 200);
    assert.ok(page.text.indexOf('Second &lt;script&gt;') < page.text.indexOf('First &lt;b&gt;bold'), 'newest first, escaped');
    assert.doesNotMatch(page.text, /<script>alert/);
    assert.match(page.text, /pending/);
  });

  test('a title cannot add headings or items to the Markdown of /answers', async () => {
    await post(site.url, '/api/topic-requests', { requestTitle: 'Line one\n# Fake heading\n- fake item' }, newReaderAddress());
    const twin = await request(`${site.url}/answers.md`);
    assert.equal(twin.headers['content-type'], 'text/markdown; charset=utf-8');
    assert.doesNotMatch(twin.text, /^# Fake heading/m);
    assert.doesNotMatch(twin.text, /^- fake item/m);
    assert.match(twin.text, /^- Line one \\# Fake heading - fake item/m);
  });

  test('the quota is 5 a day: headers on each 200, 429 with Retry-After after', async () => {
    const address = newReaderAddress();
    for (let i = 1; i <= 5; i++) {
      const answer = await post(site.url, '/api/topic-requests', topic(`Idea ${i}`), address);
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['ratelimit'], `"topic-requests";r=${5 - i};t=86400`);
      assert.equal(answer.headers['ratelimit-limit'], '5');
      assert.equal(answer.headers['ratelimit-remaining'], String(5 - i));
      assert.equal(answer.headers['ratelimit-reset'], '86400');
      assert.equal(answer.headers['cache-control'], 'no-store');
    }
    const refused = await post(site.url, '/api/topic-requests', topic(), address);
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers['retry-after']) > 86_000);
    assert.equal(refused.headers['ratelimit-remaining'], '0');
    assert.equal(typeof refused.json()['error'], 'string');
    assert.equal((await post(site.url, '/api/topic-requests', topic(), newReaderAddress())).status, 200, 'another reader is not affected');
  });

  test('50 parallel requests from one reader store exactly 5', async () => {
    const address = newReaderAddress();
    const marker = `parallel-${Date.now()}`;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => post(site.url, '/api/topic-requests', topic(`${marker} ${i}`), address)),
    );
    assert.equal(answers.filter((answer) => answer.status === 200).length, 5);
    assert.equal(answers.filter((answer) => answer.status === 429).length, 45);
    const page = (await request(`${site.url}/answers`)).text;
    assert.equal(page.split(marker).length - 1, 5);
  });
});

describe('bug reports', () => {
  test('stored whatever pagePath is, a path of this site kept and anything else dropped; 400 without a description', async () => {
    const kept: [unknown, string | null][] = [
      ['/articles/x', '/articles/x'],
      ['https://evil.example/', null],
      ['//evil.example', null],
      ['javascript:alert(1)', null],
      [42, null],
      [undefined, null],
    ];
    for (const [pagePath, expected] of kept) {
      const answer = await post(site.url, '/api/bug-reports', { description: 'The table overflows', pagePath }, newReaderAddress());
      assert.equal(answer.status, 200, String(pagePath));
      assert.equal(answer.json()['ok'], true);
      const stored = (await storedItems(site.dataDir, 'bug-reports')).find(({ id }) => id === answer.json()['id']);
      assert.equal(stored?.['pagePath'], expected, `${String(pagePath)} as stored`);
    }
    assert.equal((await post(site.url, '/api/bug-reports', { pagePath: '/x' }, newReaderAddress())).status, 400);
  });

  test('not publicly readable', async () => {
    for (const path of ['/api/bug-reports', '/bug-reports', '/api/bug-reports/list']) {
      const answer = await request(`${site.url}${path}`);
      assert.ok(answer.status === 404 || answer.status === 405, `${path}: ${answer.status}`);
    }
  });
});

describe('comments', () => {
  test('a comment answers the stored comment, with a colour-and-animal author', async () => {
    const address = newReaderAddress();
    const answer = await post(site.url, '/api/comments', { articleSlug: ARTICLE, body: '  مرحبا, hello  ' }, address);
    assert.equal(answer.status, 200);
    const comment = answer.json();
    assert.deepEqual(Object.keys(comment).sort(), [
      'articleSlug',
      'author',
      'body',
      'createdAt',
      'depth',
      'id',
      'parentId',
      'score',
      'status',
    ]);
    assert.equal(comment['status'], 'published', 'MODERATION is off by default');
    assert.equal(comment['body'], 'مرحبا, hello');
    assert.equal(comment['parentId'], null);
    assert.equal(comment['depth'], 1);
    assert.equal(comment['score'], 0);
    assert.match(String(comment['author']), /^[A-Z][a-z]+ [A-Z][a-z]+$/);
    assert.ok(!Number.isNaN(Date.parse(String(comment['createdAt']))));
    assert.equal(answer.headers['ratelimit'], '"comments";r=99;t=86400');
    const again = await post(site.url, '/api/comments', { articleSlug: ARTICLE, body: 'again' }, address);
    assert.equal(again.json()['author'], comment['author'], 'the same reader keeps the same name');
  });

  test('replies nest at most 4 levels, on the same article only', async () => {
    const address = newReaderAddress();
    let parentId: unknown = null;
    for (let depth = 1; depth <= 4; depth++) {
      const answer = await post(site.url, '/api/comments', { articleSlug: ARTICLE, parentId, body: `level ${depth}` }, address);
      assert.equal(answer.status, 200);
      assert.equal(answer.json()['depth'], depth);
      assert.equal(answer.json()['parentId'], parentId);
      parentId = answer.json()['id'];
    }
    const tooDeep = await post(site.url, '/api/comments', { articleSlug: ARTICLE, parentId, body: 'level 5' }, address);
    assert.equal(tooDeep.status, 400);
    const elsewhere = await post(
      site.url,
      '/api/comments',
      { articleSlug: 'a-small-web-server', parentId, body: 'wrong article' },
      address,
    );
    assert.equal(elsewhere.status, 400);
    const unknownParent = await post(site.url, '/api/comments', { articleSlug: ARTICLE, parentId: 'nope', body: 'x' }, address);
    assert.equal(unknownParent.status, 400);
  });

  test('404 for an article that is not published', async () => {
    for (const articleSlug of ['no-such-article', 'draft-notes', 'next-century', 'only-in-english.v1', 'The-Price']) {
      const answer = await post(site.url, '/api/comments', { articleSlug, body: 'hello' }, newReaderAddress());
      assert.equal(answer.status, 404, articleSlug);
    }
  });

  test('400 for an empty or too long body', async () => {
    const address = newReaderAddress();
    assert.equal((await post(site.url, '/api/comments', { articleSlug: ARTICLE, body: '   ' }, address)).status, 400);
    assert.equal((await post(site.url, '/api/comments', { articleSlug: ARTICLE, body: 'x'.repeat(4001) }, address)).status, 400);
  });
});

describe('votes', () => {
  test('the toggle on an article: up, up again removes, down switches', async () => {
    const slug = 'writing-in-plain-text';
    const address = newReaderAddress();
    const vote = async (value: number) => (await post(site.url, '/api/votes', { articleSlug: slug, value }, address)).json();
    const before = await vote(1);
    assert.equal(before['vote'], 1);
    const baseline = Number(before['score']) - 1;
    assert.deepEqual(await vote(1), { score: baseline, vote: 0 });
    assert.deepEqual(await vote(-1), { score: baseline - 1, vote: -1 });
    assert.deepEqual(await vote(1), { score: baseline + 1, vote: 1 });
    const mine = await get(site.url, `/api/votes?slug=${slug}`, address);
    assert.equal(mine.headers['cache-control'], 'private, no-store');
    assert.deepEqual(mine.json(), { article: 1, comments: {} });
  });

  test('votes on comments; GET /api/votes lists only the caller’s', async () => {
    const author = newReaderAddress();
    const comment = (await post(site.url, '/api/comments', { articleSlug: 'a-small-web-server', body: 'Vote on me' }, author)).json();
    const other = (await post(site.url, '/api/comments', { articleSlug: 'a-small-web-server', body: 'Not me' }, author)).json();
    const voter = newReaderAddress();
    const up = await post(site.url, '/api/votes', { articleSlug: 'a-small-web-server', commentId: comment['id'], value: 1 }, voter);
    assert.equal(up.status, 200);
    assert.deepEqual(up.json(), { score: 1, vote: 1 });
    const down = await post(
      site.url,
      '/api/votes',
      { articleSlug: 'a-small-web-server', commentId: comment['id'], value: -1 },
      newReaderAddress(),
    );
    assert.deepEqual(down.json(), { score: 0, vote: -1 });
    const mine = (await get(site.url, '/api/votes?slug=a-small-web-server', voter)).json<{
      article: number;
      comments: Record<string, number>;
    }>();
    assert.deepEqual(mine, { article: 0, comments: { [String(comment['id'])]: 1 } });
    assert.ok(!(String(other['id']) in mine.comments));
    const stranger = (await get(site.url, '/api/votes?slug=a-small-web-server', newReaderAddress())).json();
    assert.deepEqual(stranger, { article: 0, comments: {} });
  });

  test('one proxy connection carrying several readers in turn: each reads only its own votes', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const [voter, other] = [newReaderAddress(), newReaderAddress()];
    const ask = (address: string) =>
      request(`${site.url}/api/votes?slug=${ARTICLE}`, { headers: { 'X-Forwarded-For': address }, agent }).then((answer) => answer.json());
    try {
      assert.deepEqual(await ask(voter), { article: 0, comments: {} });
      assert.equal((await post(site.url, '/api/votes', { articleSlug: ARTICLE, value: -1 }, voter)).status, 200);
      assert.deepEqual(await ask(other), { article: 0, comments: {} });
      assert.deepEqual(await ask(voter), { article: -1, comments: {} });
      assert.deepEqual(await ask(other), { article: 0, comments: {} });
    } finally {
      agent.destroy();
    }
  });

  test('404 for an unknown article or comment, and for GET without a published slug', async () => {
    const address = newReaderAddress();
    assert.equal((await post(site.url, '/api/votes', { articleSlug: 'nope', value: 1 }, address)).status, 404);
    assert.equal((await post(site.url, '/api/votes', { articleSlug: ARTICLE, commentId: 'nope', value: 1 }, address)).status, 404);
    for (const query of ['', '?slug=', '?slug=draft-notes', '?slug=next-century', '?slug=../x']) {
      const answer = await get(site.url, `/api/votes${query}`, address);
      assert.equal(answer.status, 404, query);
      assert.equal(answer.headers['cache-control'], 'private, no-store');
    }
  });

  test('60 vote changes a minute; the 61st answers 429 with RateLimit headers', async () => {
    const address = newReaderAddress();
    for (let i = 0; i < 60; i++)
      assert.equal((await post(site.url, '/api/votes', { articleSlug: ARTICLE, value: 1 }, address)).status, 200);
    const refused = await post(site.url, '/api/votes', { articleSlug: ARTICLE, value: 1 }, address);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['ratelimit'], '"votes";r=0;t=60');
    assert.ok(Number(refused.headers['retry-after']) >= 1 && Number(refused.headers['retry-after']) <= 60);
  });

  test('1000 concurrent votes from 1000 readers on one article give a score of exactly 1000', async () => {
    const slug = 'one-site-fifteen-languages';
    const answers = await Promise.all(
      Array.from({ length: 1000 }, () => post(site.url, '/api/votes', { articleSlug: slug, value: 1 }, newReaderAddress())),
    );
    assert.ok(answers.every((answer) => answer.status === 200));
    assert.equal(Math.max(...answers.map((answer) => Number(answer.json()['score']))), 1000);
    const next = await post(site.url, '/api/votes', { articleSlug: slug, value: 1 }, newReaderAddress());
    assert.equal(next.json()['score'], 1001);
  });
});
