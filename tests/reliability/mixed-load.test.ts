import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openEmbeddedStore } from '../../src/server/store/embedded/engine.ts';
import { request, type Answer } from '../support/http.ts';
import { PREPARED_SITE, startSite } from '../support/site.ts';
import { newReaderAddress, post } from '../support/writes.ts';

/** How long the load runs, and how many readers take part at once. */
const SECONDS = Number(process.env['RELIABILITY_LOAD_SECONDS'] ?? 30);
const READERS = 40;
const ARTICLE = 'the-price-of-a-beer';

const dataDir = await mkdtemp(join(tmpdir(), 'reliability-load-'));
after(() => rm(dataDir, { recursive: true, force: true }));

/** What one reader does next: mostly reading, sometimes writing, as a site's visitors do. */
type Step = (address: string) => Promise<{ answer: Answer; write?: 'comment' | 'topicRequest' }>;

test(`${SECONDS} s of mixed reads and writes from ${READERS} readers at once: every answer 2xx or the expected 429, and every acknowledged write stored`, async () => {
  const site = await startSite(PREPARED_SITE, { TRUST_PROXY: '1', DATA_DIR: dataDir });
  let written = 0;
  const get = (path: string, address: string) => request(`${site.url}${path}`, { headers: { 'X-Forwarded-For': address } });
  const steps: Step[] = [
    async (address) => ({ answer: await get('/', address) }),
    async (address) => ({ answer: await get(`/articles/${ARTICLE}`, address) }),
    async (address) => ({ answer: await get(`/fr/articles/${ARTICLE}.md`, address) }),
    async (address) => ({ answer: await get('/api/articles', address) }),
    async (address) => ({ answer: await get('/api/city-search?q=mun&lang=de', address) }),
    async (address) => ({ answer: await get(`/threads/${ARTICLE}`, address) }),
    async (address) => ({ answer: await get('/answers', address) }),
    async (address) => ({ answer: await get(`/api/votes?slug=${ARTICLE}`, address) }),
    async (address) => ({
      // Each comment its own text: the same text twice in a row from one reader is refused as spam.
      answer: await post(
        site.url,
        '/api/comments',
        { articleSlug: ARTICLE, body: `Under load from ${address}, comment ${(written += 1)}` },
        address,
      ),
      write: 'comment',
    }),
    async (address) => ({ answer: await post(site.url, '/api/votes', { articleSlug: ARTICLE, value: 1 }, address) }),
    async (address) => ({
      // The same few readers ask again and again: past five a day, the quota answers 429.
      answer: await post(site.url, '/api/topic-requests', { requestTitle: `Asked under load by ${address}` }, address),
      write: 'topicRequest',
    }),
  ];
  const statuses = new Map<number, number>();
  const refusedUnexpectedly: string[] = [];
  const acknowledged = { comment: new Set<string>(), topicRequest: new Set<string>() };
  let requests = 0;
  let connectionErrors = 0;
  const deadline = Date.now() + SECONDS * 1000;
  try {
    await Promise.all(
      Array.from({ length: READERS }, async (_, reader) => {
        // Each reader comes back under a handful of addresses, so some quotas run out and most do not.
        const addresses = Array.from({ length: 5 }, () => newReaderAddress());
        for (let turn = 0; Date.now() < deadline; turn += 1) {
          const step = steps[(reader + turn * 7) % steps.length] as Step;
          const address = addresses[turn % addresses.length] as string;
          requests += 1;
          try {
            const { answer, write } = await step(address);
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
            if (answer.status === 200 && write) acknowledged[write].add(String(answer.json()['id']));
            const expected = answer.status < 300 || answer.status === 304 || (answer.status === 429 && write === 'topicRequest');
            if (!expected) refusedUnexpectedly.push(`${answer.status} ${answer.text.slice(0, 120)}`);
          } catch {
            connectionErrors += 1;
          }
        }
      }),
    );
  } finally {
    await site.stop();
  }
  const store = await openEmbeddedStore(dataDir);
  try {
    const comments = new Set((await store.listComments(ARTICLE)).map(({ id }) => id));
    const topicRequests = new Set((await store.listTopicRequests()).map(({ id }) => id));
    const lost =
      [...acknowledged.comment].filter((id) => !comments.has(id)).length +
      [...acknowledged.topicRequest].filter((id) => !topicRequests.has(id)).length;
    console.log(
      `load: ${requests} requests in ${SECONDS} s from ${READERS} readers, statuses ${JSON.stringify(Object.fromEntries(statuses))}, connection errors ${connectionErrors}, acknowledged writes ${acknowledged.comment.size + acknowledged.topicRequest.size}, lost ${lost}`,
    );
    assert.equal(connectionErrors, 0);
    assert.deepEqual(refusedUnexpectedly.slice(0, 5), []);
    assert.ok((statuses.get(429) ?? 0) > 0, 'the topic-request quota was reached');
    assert.ok(acknowledged.comment.size > 0);
    assert.equal(lost, 0);
  } finally {
    await store.close();
  }
});
