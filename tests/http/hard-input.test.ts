import assert from 'node:assert/strict';
import { Agent } from 'node:http';
import { after, describe, test } from 'node:test';
import { request, type Answer } from '../support/http.ts';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { newReaderAddress } from '../support/writes.ts';

/**
 * Input that once hurt other readers or walked around quotas, on both
 * stores: text the stores cannot keep or that shows nothing, one bad write
 * among many at once, IPv6 readers, and a forged X-Forwarded-For. The sites
 * trust one proxy by its address, 127.0.0.2; the tests' own requests come
 * from there unless they say otherwise.
 */
const PROXY = '127.0.0.2';
const ARTICLE = 'the-price-of-a-beer';
const SITE_ORIGIN = 'http://localhost:4321';

after(dropDatabases);

const fromProxy = new Agent({ localAddress: PROXY });
const fromElsewhere = new Agent({ localAddress: '127.0.0.3' });

function write(site: RunningSite, path: string, body: unknown, address: string, agent = fromProxy): Promise<Answer> {
  return request(`${site.url}${path}`, {
    method: 'POST',
    headers: { Origin: SITE_ORIGIN, 'Content-Type': 'application/json', 'X-Forwarded-For': address },
    body: JSON.stringify(body),
    agent,
  });
}

function read(site: RunningSite, path: string, address: string, agent = fromProxy): Promise<Answer> {
  return request(`${site.url}${path}`, { headers: { 'X-Forwarded-For': address }, agent });
}

/** Every text field of every write, with a valid body to put a bad value in. */
const TEXT_FIELDS: { path: string; field: string; body: Record<string, unknown> }[] = [
  { path: '/api/comments', field: 'body', body: { articleSlug: ARTICLE, body: 'Fine.' } },
  { path: '/api/comments', field: 'articleSlug', body: { articleSlug: ARTICLE, body: 'Fine.' } },
  { path: '/api/topic-requests', field: 'requestTitle', body: { requestTitle: 'Night trains', details: 'Which run?' } },
  { path: '/api/topic-requests', field: 'details', body: { requestTitle: 'Night trains', details: 'Which run?' } },
  { path: '/api/bug-reports', field: 'description', body: { description: 'The menu overlaps.' } },
  {
    path: '/api/city-submissions',
    field: 'city',
    body: { city: 'Paris', country: 'FR', currency: 'EUR', netPay: 2500, rent: 1200, beerPrice: 7 },
  },
];

const BAD_TEXT: Record<string, string> = {
  NUL: 'a\u0000b',
  'an escape sequence': 'see \u001b]8;;https://evil.example\u0007here',
  backspace: 'ok\u0008\u0008',
  'zero-width characters alone': '\u200b\u200c\u200d\u2060\ufeff',
  'direction controls alone': '\u202e\u2066 \u2069',
};

/** The thread fragment's text: what a reader sees. */
async function threadText(site: RunningSite): Promise<string> {
  const answer = await request(`${site.url}/threads/${ARTICLE}`);
  assert.equal(answer.status, 200);
  return answer.text;
}

for (const store of ['embedded', 'PostgreSQL'] as const) {
  describe(`hard input on the ${store} store`, () => {
    let site: RunningSite;
    test('the site starts', async () => {
      const env: Record<string, string> = { TRUST_PROXY: PROXY };
      if (store === 'PostgreSQL') env['DATABASE_URL'] = await freshDatabase('hard_input');
      site = await startSite(PREPARED_SITE, env);
    });
    after(() => site.stop());

    test('control characters and text with nothing visible answer 400 naming the field', async () => {
      for (const { path, field, body } of TEXT_FIELDS) {
        for (const [what, value] of Object.entries(BAD_TEXT)) {
          const answer = await write(site, path, { ...body, [field]: value }, newReaderAddress());
          assert.equal(answer.status, 400, `${path} ${field} with ${what}: ${answer.text}`);
          assert.match(answer.json<{ error: string }>().error, new RegExp(`^${field}: `), `${path} ${field} with ${what}`);
        }
      }
      const kept = await write(
        site,
        '/api/comments',
        { articleSlug: ARTICLE, body: 'Line one\r\n\tLine two \u200d👩‍🔬' },
        newReaderAddress(),
      );
      assert.equal(kept.status, 200, 'newline, tab and a joiner inside visible text are kept');
    });

    test('one bad comment among many sent at once fails alone: every other is answered 200 and stored', async () => {
      const sent = Array.from({ length: 30 }, (_, index) => ({
        token: `batch-${store}-${index}-${Date.now()}`,
        bad: index % 2 === 1,
      }));
      const answers = await Promise.all(
        sent.map(({ token, bad }) =>
          write(site, '/api/comments', { articleSlug: ARTICLE, body: bad ? `${token}\u0000` : token }, newReaderAddress()),
        ),
      );
      assert.deepEqual(
        answers.map((answer) => answer.status),
        sent.map(({ bad }) => (bad ? 400 : 200)),
      );
      const shown = await threadText(site);
      for (const { token, bad } of sent) assert.equal(shown.includes(token), !bad, token);
    });

    test('2001:db8::1 and 2001:db8::2 are one reader: one name, one vote', async () => {
      const first = await write(site, '/api/comments', { articleSlug: ARTICLE, body: 'From the first address.' }, '2001:db8::1');
      const second = await write(site, '/api/comments', { articleSlug: ARTICLE, body: 'From the second.' }, '2001:0db8:0:0::2%eth0');
      assert.equal(first.status, 200);
      assert.equal(second.status, 200);
      assert.equal(first.json<{ author: string }>().author, second.json<{ author: string }>().author);
      const other = await write(site, '/api/comments', { articleSlug: ARTICLE, body: 'Another /64.' }, '2001:db8:0:1::1');
      assert.notEqual(other.json<{ author: string }>().author, first.json<{ author: string }>().author);

      assert.equal((await write(site, '/api/votes', { articleSlug: ARTICLE, value: 1 }, '2001:db8::1')).status, 200);
      const votes = await read(site, `/api/votes?slug=${ARTICLE}`, '2001:db8::ffff');
      assert.equal(votes.json<{ article: number }>().article, 1, 'the vote is the /64’s');
      const again = await write(site, '/api/votes', { articleSlug: ARTICLE, value: 1 }, '2001:db8::3');
      assert.equal(again.status, 200);
      assert.equal(again.json<{ vote: number }>().vote, 0, 'a second up-vote from the same /64 takes it back');
      const mapped = await write(site, '/api/comments', { articleSlug: ARTICLE, body: 'Mapped.' }, '::ffff:203.0.113.7');
      const plain = await write(site, '/api/comments', { articleSlug: ARTICLE, body: 'Plain.' }, '203.0.113.7');
      assert.equal(mapped.json<{ author: string }>().author, plain.json<{ author: string }>().author);
    });

    test('the thread fragment answers each page in one form only, and no page past the last', async () => {
      const first = await request(`${site.url}/threads/${ARTICLE}`);
      const junk = await request(`${site.url}/threads/${ARTICLE}?utm_source=crawler&x=${Date.now()}`);
      assert.equal(junk.status, 200);
      assert.equal(junk.headers['etag'], first.headers['etag'], 'made-up parameters are the same page');
      for (const page of ['02', '1.0', '2e0', '-1', 'x', '2', '100000'])
        assert.equal((await request(`${site.url}/threads/${ARTICLE}?page=${page}`)).status, 404, `page=${page}`);
    });

    test('X-Forwarded-For is read only from the trusted proxy: a forged one from elsewhere is ignored', async () => {
      const victim = newReaderAddress();
      assert.equal((await write(site, '/api/votes', { articleSlug: ARTICLE, value: -1 }, victim)).status, 200);
      assert.equal((await read(site, `/api/votes?slug=${ARTICLE}`, victim)).json<{ article: number }>().article, -1);
      const forged = await read(site, `/api/votes?slug=${ARTICLE}`, victim, fromElsewhere);
      assert.equal(forged.json<{ article: number }>().article, 0, 'the forger is itself, not the victim');
      const forgedComment = await write(site, '/api/comments', { articleSlug: ARTICLE, body: 'Forged.' }, victim, fromElsewhere);
      const ownComment = await write(site, '/api/comments', { articleSlug: ARTICLE, body: 'Own.' }, 'anything', fromElsewhere);
      assert.equal(forgedComment.json<{ author: string }>().author, ownComment.json<{ author: string }>().author);
    });
  });
}
