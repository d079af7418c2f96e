import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { request, type Answer } from '../support/http.ts';
import {
  ENGINES,
  getComments,
  GET_COMMENTS_BATCH,
  mcpPost,
  spread,
  THREAD,
  THREAD_COMMENTS,
  THREAD_PAGES,
  timed,
  type Spread,
} from '../support/long-thread.ts';
import { dropDatabases } from '../support/postgres.ts';
import type { RunningSite } from '../support/site.ts';
import { newReaderAddress, post } from '../support/writes.ts';

/** How long each flood lasts, and the quiet run measured before it. */
const SECONDS = Number(process.env['RELIABILITY_FLOOD_SECONDS'] ?? 8);
/** The longest any other visitor may wait during a flood. */
const WORST_WAIT_MS = 2000;
/** Where the others' writes go: another thread than the flooded one. */
const OTHER_ARTICLE = 'writing-in-plain-text';

after(dropDatabases);

interface Others {
  pages: Spread;
  writes: Spread;
  health: Spread;
}

/**
 * What the site's other visitors get while `flood` runs: an article page,
 * a comment on another article and /healthz, each one request at a time,
 * every answer checked.
 */
async function othersDuring(site: RunningSite, flood: Promise<unknown>): Promise<Others> {
  let going = true;
  const ended = flood.finally(() => (going = false));
  const times = { pages: [] as number[], writes: [] as number[], health: [] as number[] };
  const loop = async (kind: keyof typeof times, work: (index: number) => Promise<Answer>) => {
    for (let index = 0; going; index += 1) {
      let answer: Answer | undefined;
      times[kind].push(await timed(async () => (answer = await work(index))));
      assert.equal(answer?.status, 200, `${kind}: ${answer?.text.slice(0, 200)}`);
    }
  };
  await Promise.all([
    loop('pages', () => request(`${site.url}/articles/${THREAD}`)),
    loop('writes', (index) =>
      post(site.url, '/api/comments', { articleSlug: OTHER_ARTICLE, body: `Written during a flood, ${index}` }, newReaderAddress()),
    ),
    loop('health', () => request(`${site.url}/healthz`)),
    ended,
  ]);
  return { pages: spread(times.pages), writes: spread(times.writes), health: spread(times.health) };
}

function described({ pages, writes, health }: Others): string {
  const one = (name: string, { p50, p99, worst }: Spread) =>
    `${name} p50 ${p50.toFixed(1)} p99 ${p99.toFixed(1)} max ${worst.toFixed(1)} ms`;
  return [one('article page', pages), one('write', writes), one('/healthz', health)].join('; ');
}

/**
 * What a flood may cost the others: a saturated machine answers them later,
 * as any flood of requests would make it, but never seconds later, as one
 * small request that costs a whole thread did.
 */
function assertNoOneWaitsSeconds(others: Others): void {
  for (const kind of ['pages', 'writes', 'health'] as const) {
    const { worst } = others[kind];
    assert.ok(worst < WORST_WAIT_MS, `${kind} waited ${worst.toFixed(0)} ms`);
  }
}

/** Runs `work` from `concurrency` loops until SECONDS have passed; resolves with every answer. */
async function forSeconds(concurrency: number, work: (index: number) => Promise<Answer>): Promise<Answer[]> {
  const deadline = Date.now() + SECONDS * 1000;
  const answers: Answer[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < deadline) answers.push(await work(next++));
    }),
  );
  return answers;
}

function statusesOf(answers: readonly Answer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

for (const engine of ENGINES) {
  describe(`floods of cheap reads against a thread of ${THREAD_COMMENTS} comments on ${engine.name}`, () => {
    let site: RunningSite;
    test('start, and what others get with no flood', async () => {
      site = await engine.start();
      // The first render of each path, and the MCP server's loading, are the server's start, not a flood's cost.
      assert.equal((await getComments(site)).status, 200);
      const quiet = await othersDuring(site, new Promise((done) => setTimeout(done, SECONDS * 1000)));
      console.log(`${engine.name}, no flood: ${described(quiet)}`);
    });
    after(() => site.stop());

    test('MCP batches of 100 get_comments calls and single calls, from one agent and from many: refused or capped', async () => {
      const flood = Promise.all([
        // One agent: a batch and a call, four at a time.
        forSeconds(4, (index) => (index % 2 === 0 ? mcpPost(site, GET_COMMENTS_BATCH) : getComments(site))),
        // Many agents, each from an address of its own, so that no reader's rate stops them: the instance's cap does.
        forSeconds(8, (index) =>
          index % 2 === 0 ? mcpPost(site, GET_COMMENTS_BATCH, newReaderAddress()) : getComments(site, newReaderAddress()),
        ),
      ]);
      const others = await othersDuring(site, flood);
      const [one, many] = await flood;
      console.log(
        `${engine.name}, MCP flood: one agent ${JSON.stringify(statusesOf(one))}, many ${JSON.stringify(statusesOf(many))}; ${described(others)}`,
      );
      for (const answer of [...one, ...many]) {
        assert.ok([200, 400, 429, 503].includes(answer.status), `${answer.status} ${answer.text.slice(0, 200)}`);
        if (answer.status !== 200) assert.equal(answer.json<{ jsonrpc: string }>().jsonrpc, '2.0');
        if (answer.status >= 429) assert.match(answer.headers['retry-after'] ?? '', /^\d+$/);
      }
      assert.ok(many.some((answer) => answer.status === 400));
      assert.ok(one.some((answer) => answer.status === 429));
      assertNoOneWaitsSeconds(others);
    });

    test('thread pages past the last, every one a new number: 404 without reading the thread', async () => {
      // Pages 101 to 100,000, the highest a page number may be: every one asked once.
      const flood = forSeconds(20, (index) =>
        request(`${site.url}/threads/${THREAD}?page=${100_000 - (index % (100_000 - THREAD_PAGES))}`),
      );
      const others = await othersDuring(site, flood);
      const answers = await flood;
      console.log(
        `${engine.name}, page flood: ${(answers.length / SECONDS).toFixed(0)}/s, ${JSON.stringify(statusesOf(answers))}; ${described(others)}`,
      );
      for (const answer of answers) assert.equal(answer.status, 404);
      assertNoOneWaitsSeconds(others);
    });
  });
}
