import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, ProtocolError, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { request, type Answer } from '../support/http.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { newReaderAddress, post, SITE_ORIGIN } from '../support/writes.ts';

const TOOL_NAMES = ['list_articles', 'get_article', 'search_articles', 'search_cities', 'get_comments', 'list_topic_requests'];
/** Never visible anywhere: a draft, a future-dated article (translated into Arabic too) and an old version. */
const HIDDEN = ['draft-notes', 'next-century', 'only-in-english.v1'];
const BEER = 'the-price-of-a-beer';
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

let site: RunningSite;
let comment: { id: string; body: string };
let reply: { id: string; body: string };
before(async () => {
  site = await startSite(PREPARED_SITE, { TRUST_PROXY: '1' });
  const reader = newReaderAddress();
  comment = (await post(site.url, '/api/comments', { articleSlug: BEER, body: 'البيرة في لشبونة رخيصة' }, reader)).json();
  reply = (
    await post(
      site.url,
      '/api/comments',
      { articleSlug: BEER, parentId: comment.id, body: 'But so is the *pay*: [see](https://example.org).' },
      reader,
    )
  ).json();
  for (const requestTitle of ['Night trains in Europe', 'القطارات الليلية في أوروبا']) {
    assert.equal((await post(site.url, '/api/topic-requests', { requestTitle }, reader)).status, 200);
  }
});
after(async () => {
  await site.stop();
});

/** A request as a reader of its own sends it (X-Forwarded-For): the tests' many calls stay within a reader's MCP rate. */
function asNewReader(url: string | URL, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('X-Forwarded-For', newReaderAddress());
  return fetch(url, { ...init, headers });
}

/** A client of the SDK connected to the site's `/mcp`: on the 2026-07-28 revision, or on the 2025 one by `initialize`. */
async function connected(era: 'modern' | 'legacy'): Promise<Client> {
  const client = new Client(
    { name: 'longhand-test', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${site.url}/mcp`), { fetch: asNewReader }));
  assert.equal(client.getProtocolEra(), era);
  return client;
}

async function api(path: string): Promise<unknown> {
  const answer = await request(`${site.url}${path}`);
  assert.equal(answer.status, 200, path);
  return answer.json();
}

function structured(result: CallToolResult): Record<string, unknown> {
  assert.notEqual(result.isError, true, JSON.stringify(result.content));
  const content = result.structuredContent as Record<string, unknown> | undefined;
  assert.ok(content, 'structured content');
  // Clients that read text only get the same answer.
  assert.deepEqual(JSON.parse(textOf(result)), content);
  return content;
}

/** The one text block of a result. */
function textOf(result: CallToolResult): string {
  const [block, ...more] = result.content;
  assert.equal(more.length, 0);
  assert.equal(block?.type, 'text');
  return 'text' in block && typeof block.text === 'string' ? block.text : '';
}

function refusal(result: CallToolResult): string {
  assert.equal(result.isError, true);
  return textOf(result);
}

function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return client.callTool({ name, arguments: args });
}

function mcpPost(body: string, headers: Record<string, string> = {}): Promise<Answer> {
  return request(`${site.url}/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, 'X-Forwarded-For': newReaderAddress(), ...headers },
    body,
  });
}

for (const era of ['modern', 'legacy'] as const) {
  describe(`an MCP client on the ${era} protocol`, () => {
    let client: Client;
    before(async () => {
      client = await connected(era);
    });
    after(async () => {
      await client.close();
    });

    test('the server names itself, says it is read-only, and lists the six tools with their schemas', async () => {
      assert.equal(client.getServerVersion()?.name, 'longhand');
      assert.match(client.getInstructions() ?? '', /read-only/);
      assert.match(
        client.getInstructions() ?? '',
        /Writes \(comments, votes, topic requests, bug reports, city submissions\) are not offered/,
      );
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map(({ name }) => name),
        TOOL_NAMES,
      );
      for (const tool of tools) {
        assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
        assert.equal(tool.inputSchema.type, 'object', tool.name);
        assert.equal(tool.outputSchema?.type, 'object', tool.name);
        assert.ok(tool.description && tool.description.length > 20, tool.name);
      }
      const getArticle = tools.find(({ name }) => name === 'get_article');
      assert.ok(getArticle);
      assert.deepEqual(getArticle.inputSchema.required, ['slug']);
      assert.equal((getArticle.inputSchema.properties?.['slug'] as { pattern?: string }).pattern, '^[a-z0-9]+(?:-[a-z0-9]+)*$');
    });

    test('every published translation is a resource, its Markdown at its twin’s URL, listed page by page', async () => {
      const uris: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listResources(cursor === undefined ? {} : { cursor });
        uris.push(...page.resources.map(({ uri }) => uri));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      assert.equal(new Set(uris).size, uris.length, 'each once');
      for (const uri of [
        `${SITE_ORIGIN}/articles/${BEER}.md`,
        `${SITE_ORIGIN}/ar/articles/${BEER}.md`,
        `${SITE_ORIGIN}/articles/only-in-english.md`,
      ]) {
        assert.ok(uris.includes(uri), uri);
      }
      assert.ok(!uris.includes(`${SITE_ORIGIN}/ar/articles/only-in-english.md`), 'no resource stands for an untranslated article');
      for (const slug of HIDDEN) assert.ok(!uris.some((uri) => uri.includes(`/articles/${slug}.md`)), slug);
      const { contents } = await client.readResource({ uri: `${SITE_ORIGIN}/ar/articles/${BEER}.md` });
      const { article } = (await api(`/api/articles?slug=${BEER}&lang=ar`)) as { article: { content: string } };
      assert.deepEqual(contents, [{ uri: `${SITE_ORIGIN}/ar/articles/${BEER}.md`, mimeType: 'text/markdown', text: article.content }]);
      const { resourceTemplates } = await client.listResourceTemplates();
      assert.deepEqual(
        resourceTemplates.map(({ uriTemplate }) => uriTemplate),
        [`${SITE_ORIGIN}/articles/{slug}.md`, `${SITE_ORIGIN}/{lang}/articles/{slug}.md`],
      );
    });

    for (const lang of ['en', 'ar']) {
      test(`list_articles and get_article answer as the API does, in ${lang}`, async () => {
        assert.deepEqual(structured(await call(client, 'list_articles', { lang })), await api(`/api/articles?lang=${lang}`));
        assert.deepEqual(
          structured(await call(client, 'get_article', { slug: BEER, lang })),
          await api(`/api/articles?slug=${BEER}&lang=${lang}`),
        );
      });

      test(`search_cities answers as the API does, in ${lang}`, async () => {
        const q = lang === 'ar' ? 'زيورخ' : 'zurich';
        const found = structured(await call(client, 'search_cities', { q, lang }));
        assert.deepEqual(found, await api(`/api/city-search?q=${encodeURIComponent(q)}&lang=${lang}`));
        const [first] = (found as { results: { countryName: string }[] }).results;
        assert.equal(first?.countryName, lang === 'ar' ? 'سويسرا' : 'Switzerland');
      });
    }

    test('search_articles ranks the articles of one language, English or Arabic', async () => {
      const english = structured(await call(client, 'search_articles', { query: 'beer rent' })) as {
        lang: string;
        articles: { slug: string; lang: string }[];
      };
      assert.equal(english.lang, 'en');
      assert.equal(english.articles[0]?.slug, BEER);
      const arabic = structured(await call(client, 'search_articles', { query: 'البيرة', lang: 'ar' })) as {
        articles: { slug: string; lang: string }[];
      };
      assert.equal(arabic.articles[0]?.slug, BEER);
      assert.equal(arabic.articles[0].lang, 'ar');
      assert.deepEqual(structured(await call(client, 'search_articles', { query: 'zzzqqq' })), {
        query: 'zzzqqq',
        lang: 'en',
        count: 0,
        articles: [],
      });
    });

    test('get_comments reads the thread every translation shares, replies under their comment, text as written (its Markdown, Arabic)', async () => {
      const thread = structured(await call(client, 'get_comments', { slug: BEER })) as {
        comments: { id: string; body: string; depth: number; parentId: string | null }[];
      };
      const ids = thread.comments.map(({ id }) => id);
      assert.ok(ids.indexOf(reply.id) === ids.indexOf(comment.id) + 1, 'the reply right after its comment');
      const shown = thread.comments.find(({ id }) => id === comment.id);
      assert.equal(shown?.body, 'البيرة في لشبونة رخيصة');
      assert.deepEqual(
        thread.comments.find(({ id }) => id === reply.id),
        {
          ...thread.comments.find(({ id }) => id === reply.id),
          parentId: comment.id,
          depth: 2,
          body: 'But so is the *pay*: [see](https://example.org).',
        },
      );
      assert.ok(!JSON.stringify(thread).includes('authorHash'));
    });

    test('list_topic_requests lists the requests, in English and Arabic, without who sent them', async () => {
      const { topicRequests } = structured(await call(client, 'list_topic_requests', {})) as {
        topicRequests: { requestTitle: string; status: string }[];
      };
      const titles = topicRequests.map(({ requestTitle }) => requestTitle);
      assert.ok(titles.indexOf('القطارات الليلية في أوروبا') < titles.indexOf('Night trains in Europe'), 'newest first');
      assert.ok(titles.includes('Night trains in Europe'));
      assert.ok(topicRequests.every(({ status }) => status === 'pending'));
      assert.ok(!JSON.stringify(topicRequests).includes('authorHash'));
    });

    test('an unknown or unpublished slug is a tool error, not a protocol error', async () => {
      for (const slug of ['no-such-article', 'next-century', 'draft-notes']) {
        assert.equal(refusal(await call(client, 'get_article', { slug, lang: 'ar' })), `No published article has the slug "${slug}"`);
        assert.equal(refusal(await call(client, 'get_comments', { slug })), `No published article has the slug "${slug}"`);
      }
      assert.match(refusal(await call(client, 'get_article', { slug: 'Not A Slug' })), /slug/);
      assert.match(refusal(await call(client, 'get_comments', { slug: BEER, page: 9 })), /no page 9/);
    });

    test('an unknown tool and an unknown resource are protocol errors (invalid params)', async () => {
      await assert.rejects(call(client, 'post_comment', {}), (error) => error instanceof ProtocolError && error.code === -32602);
      await assert.rejects(
        client.readResource({ uri: `${SITE_ORIGIN}/fr/articles/only-in-english.md` }),
        (error) => error instanceof ProtocolError && error.code === -32602 && /Resource not found/.test(error.message),
      );
    });
  });
}

describe('/mcp over HTTP', () => {
  test('a browser on another origin is refused with a JSON-RPC error; the site’s own origin and non-browsers are served', async () => {
    const foreign = await mcpPost(INITIALIZE, { Origin: 'http://evil.example.com', Host: 'evil.example.com' });
    assert.equal(foreign.status, 403);
    assert.deepEqual(Object.keys(foreign.json()), ['jsonrpc', 'error', 'id']);
    assert.equal(foreign.json<{ id: null }>().id, null);
    assert.equal((await mcpPost(INITIALIZE, { Origin: 'null' })).status, 403);
    assert.equal((await mcpPost(INITIALIZE, { Origin: SITE_ORIGIN })).status, 200);
    assert.equal((await mcpPost(INITIALIZE)).status, 200);
  });

  test('answers carry the site’s security headers, are never cached, and spend no quota', async () => {
    const page = await request(`${site.url}/`);
    for (const answer of [await mcpPost(INITIALIZE), await mcpPost(INITIALIZE, { Origin: 'http://evil.example.com' })]) {
      for (const name of [
        'content-security-policy',
        'x-content-type-options',
        'x-frame-options',
        'referrer-policy',
        'permissions-policy',
      ]) {
        assert.equal(answer.headers[name], page.headers[name], name);
      }
      assert.equal(answer.headers['cache-control'], 'no-store');
      assert.equal(answer.headers['ratelimit'], undefined);
      assert.equal(answer.headers['ratelimit-policy'], undefined);
    }
  });

  test('bad requests get well-formed JSON-RPC errors with the right status, never a 500', async () => {
    const cases: [string, Promise<Answer>, number][] = [
      [
        'a body over 16 KiB',
        mcpPost(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(17 * 1024) } })),
        413,
      ],
      ['a body declared over 16 KiB', mcpPost(INITIALIZE, { 'Content-Length': String(17 * 1024) }), 413],
      ['a body that is not JSON', mcpPost('{"jsonrpc": '), 400],
      ['a body that is not JSON-RPC', mcpPost('[1, 2]'), 400],
      ['a body that is not declared JSON', mcpPost(INITIALIZE, { 'Content-Type': 'text/plain' }), 415],
      ['GET', request(`${site.url}/mcp`, { headers: { Accept: 'text/event-stream' } }), 405],
      ['DELETE', request(`${site.url}/mcp`, { method: 'DELETE' }), 405],
    ];
    for (const [what, pending, status] of cases) {
      const answer = await pending;
      assert.equal(answer.status, status, what);
      assert.match(answer.headers['content-type'] ?? '', /^application\/json/, what);
      const body = answer.json<{ jsonrpc: string; error: { code: number; message: string } }>();
      assert.equal(body.jsonrpc, '2.0', what);
      assert.equal(typeof body.error.code, 'number', what);
      assert.ok(body.error.message.length > 0, what);
    }
  });
});
