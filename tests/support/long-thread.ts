// A site whose one thread is long (the reads a visitor can repeat against it), and what tests send and measure there.
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedStore } from '../../src/server/store/embedded/engine.ts';
import { openPostgresStore } from '../../src/server/store/postgres/engine.ts';
import type { StoreEngine } from '../../src/server/store/roles.ts';
import type { ExportRecord } from '../../src/server/store/types.ts';
import { request, type Answer } from './http.ts';
import { freshDatabase } from './postgres.ts';
import { PREPARED_SITE, startSite, type RunningSite } from './site.ts';

/** The long thread: 3,000 top-level comments (100 pages of 30) and 1,000 replies. */
export const THREAD = 'the-price-of-a-beer';
export const TOP_LEVEL = 3000;
const REPLIES = 1000;
export const THREAD_COMMENTS = TOP_LEVEL + REPLIES;
export const THREAD_PAGES = TOP_LEVEL / 30;

function* longThread(): Generator<ExportRecord> {
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  for (let index = 0; index < THREAD_COMMENTS; index += 1) {
    const reply = index >= TOP_LEVEL;
    yield {
      kind: 'comment',
      comment: {
        id: `seeded-${index}`,
        articleSlug: THREAD,
        parentId: reply ? `seeded-${index - TOP_LEVEL}` : null,
        depth: reply ? 2 : 1,
        author: 'Amber otter',
        authorHash: 'f'.repeat(43),
        body: `Comment ${index}: a reader's thoughts on the article, long enough to weigh what a real comment weighs.`,
        createdAt: new Date(start + index * 1000).toISOString(),
        score: 0,
        deletedAt: null,
        status: 'published',
      },
    };
  }
}

async function seeded(open: () => Promise<StoreEngine>): Promise<void> {
  const store = await open();
  try {
    const { added } = await store.importRecords(longThread());
    assert.equal(added, THREAD_COMMENTS);
  } finally {
    await store.close();
  }
}

/** The prepared site on each store engine, its store holding the long thread, readers known by X-Forwarded-For. */
export const ENGINES: { name: string; start: () => Promise<RunningSite> }[] = [
  {
    name: 'the embedded store',
    start: async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'long-thread-'));
      await seeded(() => openEmbeddedStore(dataDir));
      return startSite(PREPARED_SITE, { TRUST_PROXY: '1', DATA_DIR: dataDir });
    },
  },
  {
    name: 'PostgreSQL',
    start: async () => {
      const databaseUrl = await freshDatabase('long_thread');
      await seeded(() => openPostgresStore(databaseUrl, { timeoutMs: null, poolSize: 2, watchBans: false }));
      return startSite(PREPARED_SITE, { TRUST_PROXY: '1', DATABASE_URL: databaseUrl });
    },
  },
];

export interface Spread {
  p50: number;
  p99: number;
  worst: number;
}

/** The p50, p99 and worst of some durations, in ms. */
export function spread(durations: readonly number[]): Spread {
  const sorted = [...durations].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.max(0, Math.ceil(sorted.length * share) - 1)] ?? 0;
  return { p50: at(0.5), p99: at(0.99), worst: sorted.at(-1) ?? 0 };
}

/** How long `work` takes, in ms. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

/** A JSON-RPC batch of 100 get_comments calls on the long thread, as a 2025-era client may send one (15 KB). */
export const GET_COMMENTS_BATCH = JSON.stringify(
  Array.from({ length: 100 }, (_, id) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'get_comments', arguments: { slug: THREAD, page: 1 } },
  })),
);

/** One get_comments call on the 2026-07-28 revision, which needs no initialization: its headers say what its body holds. */
const GET_COMMENTS_CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'get_comments',
    arguments: { slug: THREAD, page: 1 },
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'long-thread', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});
const GET_COMMENTS_HEADERS = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'get_comments' };

/** A POST to `/mcp` of `body`, from `address` (X-Forwarded-For) when one is given. */
export function mcpPost(site: RunningSite, body: string, address?: string): Promise<Answer> {
  const headers = {
    ...MCP_HEADERS,
    ...(body === GET_COMMENTS_CALL ? GET_COMMENTS_HEADERS : {}),
    ...(address ? { 'X-Forwarded-For': address } : {}),
  };
  return request(`${site.url}/mcp`, { method: 'POST', headers, body });
}

/** One get_comments call of page 1 of the long thread. */
export function getComments(site: RunningSite, address?: string): Promise<Answer> {
  return mcpPost(site, GET_COMMENTS_CALL, address);
}
