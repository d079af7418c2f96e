import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { LANGUAGE_CODES } from '../../src/i18n/languages.ts';
import { assertRevalidates, request, type Answer } from '../support/http.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { OPERATION_IDS } from '../support/operation-ids.ts';
import { readSitemapIndex, readUrlset } from '../support/sitemap-shape.ts';
import { ConformanceTester } from 'lighthouse/third-party/ard/ard.js';

const SITE_URL = 'http://localhost:4321';
const PAGE_CACHE = 'public, max-age=60';
const TEXT = 'text/plain; charset=utf-8';
const MARKDOWN = 'text/markdown; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const XML = 'application/xml; charset=utf-8';
const MCP_TOOLS = ['list_articles', 'get_article', 'search_articles', 'search_cities', 'get_comments', 'list_topic_requests'];
/** Published in English: the four real articles and the fixture that exists in English only. */
const PUBLISHED = ['one-site-fifteen-languages', 'the-price-of-a-beer', 'a-small-web-server', 'writing-in-plain-text', 'only-in-english'];
/** Never in a document: a draft, a future-dated article and an old version. */
const HIDDEN = [
  { slug: 'draft-notes', text: 'A draft is never visible' },
  { slug: 'next-century', text: 'Scheduled for the first day of 2099' },
  { slug: 'only-in-english.v1', text: 'kept for the record and never shown' },
];

let site: RunningSite;
before(async () => {
  site = await startSite(PREPARED_SITE);
});
after(async () => {
  await site.stop();
});

async function document(path: string, contentType: string, headers: Record<string, string> = {}): Promise<Answer> {
  const answer = await request(`${site.url}${path}`, { headers });
  assert.equal(answer.status, 200, path);
  assert.equal(answer.headers['content-type'], contentType, path);
  assert.equal(answer.headers['cache-control'], PAGE_CACHE, path);
  return answer;
}

/**
 * Every sitemap the index at /sitemap.xml lists, one after the other: the test
 * site's lowered limit makes it an index (tests/http/lists.test.ts checks that).
 */
async function wholeSitemap(url: string): Promise<string> {
  const index = (await request(`${url}/sitemap.xml`)).text;
  const parts = await Promise.all(readSitemapIndex(index).map(async (loc) => (await request(`${url}${new URL(loc).pathname}`)).text));
  for (const part of parts) readUrlset(part);
  return parts.join('\n');
}

function assertNothingHidden(text: string, where: string): void {
  for (const { slug, text: body } of HIDDEN) {
    assert.ok(!text.includes(`/articles/${slug}`), `${where} links ${slug}`);
    assert.ok(!text.includes(body), `${where} holds ${slug}`);
  }
}

describe('/llms.txt and /llms-full.txt', () => {
  test('/llms.txt: the name, a summary, how to use the site, the developer links and the English article index', async () => {
    const { text } = await document('/llms.txt', TEXT);
    assert.match(text, /^# Longhand\n\n> \S/);
    for (const heading of ['## When to use it', '## How to read and act', '## Developers', '## Languages', '## Articles']) {
      assert.ok(text.includes(`\n${heading}\n`), heading);
    }
    assert.match(text, /same-origin browser forms only/);
    for (const path of [
      '/openapi.json',
      '/developers.md',
      '/mcp',
      '/agents.md',
      '/auth.md',
      '/llms-full.txt',
      '/.well-known/ai-catalog.json',
      ...LANGUAGE_CODES.map((code) => `/${code}/llms.txt`),
    ]) {
      assert.ok(text.includes(`](${SITE_URL}${path})`), path);
    }
    assert.match(text, /`list_articles`, `get_article`, `search_articles`, `search_cities`, `get_comments`, `list_topic_requests`/);
    const index = text.slice(text.indexOf('## Articles'));
    const linked = [...index.matchAll(/\]\((http:\/\/localhost:4321\/articles\/[a-z0-9-]+)\.md\)/g)].map((match) => match[1]);
    assert.deepEqual(
      linked,
      PUBLISHED.map((slug) => `${SITE_URL}/articles/${slug}`),
    );
    assert.ok(index.includes('[Why I write in plain text]('), 'English titles');
    assertNothingHidden(text, '/llms.txt');
  });

  test('/llms-full.txt: /llms.txt, then every published English article’s Markdown, and nothing else', async () => {
    const llms = (await request(`${site.url}/llms.txt`)).text;
    const { text } = await document('/llms-full.txt', TEXT);
    assert.ok(text.startsWith(llms));
    for (const slug of PUBLISHED) {
      const twin = (await request(`${site.url}/articles/${slug}.md`)).text;
      assert.ok(twin.length > 0 && text.includes(twin), slug);
    }
    assertNothingHidden(text, '/llms-full.txt');
    assert.ok(!text.includes('القرن القادم'), 'no translation of the future article either');
  });
});

describe('/<code>/llms.txt', () => {
  test('every language has one: its articles, newest first, titled in that language where translated, each linked to its Markdown', async () => {
    for (const code of LANGUAGE_CODES) {
      const { text } = await document(`/${code}/llms.txt`, TEXT);
      assert.match(text, /^# Longhand: \S/, code);
      assert.ok(text.includes(`](${SITE_URL}/llms.txt)`), `${code} links /llms.txt`);
      const index = text.slice(text.indexOf('## Articles'));
      const linked = [...index.matchAll(/\]\((http:\/\/localhost:4321\/(?:[a-z]{2,3}\/)?articles\/([a-z0-9-]+))\.md\)/g)].map(
        (match) => match[2],
      );
      assert.deepEqual(linked, PUBLISHED, code);
      assertNothingHidden(text, `/${code}/llms.txt`);
    }
    const french = (await request(`${site.url}/fr/llms.txt`)).text;
    assert.ok(french.startsWith('# Longhand: Français\n'));
    const { articles } = (await request(`${site.url}/api/articles?lang=fr`)).json<{ articles: { title: string; url: string }[] }>();
    for (const { title, url } of articles) assert.ok(french.includes(`[${title}](${url}.md)`), title);
    assert.ok(french.includes(`](${SITE_URL}/fr/articles/the-price-of-a-beer.md)`), 'the French translation');
    assert.ok(french.includes(`](${SITE_URL}/articles/only-in-english.md)`), 'an untranslated article in English');
    assert.ok((await request(`${site.url}/ar/llms.txt`)).text.includes('[كم يكلّف كأس من البيرة، مدينةً بعد مدينة]('), 'Arabic titles');
  });

  test('a code that is no language answers the not-found page', async () => {
    assert.equal((await request(`${site.url}/xx/llms.txt`)).status, 404);
  });
});

describe('/agents.md and /auth.md', () => {
  test('/agents.md: Markdown with YAML front matter naming the API and no auth', async () => {
    const { text } = await document('/agents.md', MARKDOWN);
    const front = /^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? '';
    const fields = Object.fromEntries(
      front.split('\n').map((line) => {
        const [name = '', ...value] = line.split(': ');
        return [name, JSON.parse(value.join(': ')) as string];
      }),
    );
    assert.equal(fields['name'], 'Longhand');
    assert.ok(fields['description']);
    assert.equal(fields['url'], SITE_URL);
    assert.equal(fields['api'], `${SITE_URL}/openapi.json`);
    assert.equal(fields['mcp'], `${SITE_URL}/mcp`);
    assert.equal(fields['auth'], 'none');
    assert.match(text, /\n# Longhand for agents\n/);
    assert.ok(text.includes(`Or connect an MCP client to ${SITE_URL}/mcp`));
  });

  test('/auth.md: a top-level heading first; no authentication, and why writes need the site’s origin', async () => {
    const { text } = await document('/auth.md', MARKDOWN);
    assert.match(text, /^# \S/);
    assert.match(text, /There is no authentication/);
    assert.match(text, /`anonymous` is the only identity type/);
    assert.ok(text.includes(`\`Origin\` header is \`${SITE_URL}\``));
    assert.match(text, /cross-site request forgery/);
  });
});

describe('/robots.txt', () => {
  test('allows every crawler everywhere but the moderation links, signals search, AI input and AI training, and names the sitemap', async () => {
    const { text } = await document('/robots.txt', TEXT);
    const lines = text.split('\n');
    assert.ok(lines.includes('User-agent: *'));
    assert.ok(lines.includes('Allow: /'));
    assert.ok(lines.includes('Content-Signal: search=yes, ai-input=yes, ai-train=yes'));
    assert.ok(lines.includes(`Sitemap: ${SITE_URL}/sitemap.xml`));
    assert.deepEqual(
      lines.filter((line) => line.startsWith('Disallow:')),
      ['Disallow: /moderation/'],
    );
  });
});

describe('/.well-known documents', () => {
  test('oauth-protected-resource (RFC 9728): no bearer methods, scopes or grant types; anonymous only', async () => {
    const body = (await document('/.well-known/oauth-protected-resource', JSON_TYPE)).json();
    assert.equal(body['resource'], SITE_URL);
    assert.deepEqual(body['bearer_methods_supported'], []);
    assert.deepEqual(body['scopes_supported'], []);
    assert.deepEqual(body['grant_types_supported'], []);
    assert.deepEqual(body['authorization_servers'], []);
    assert.deepEqual((body['agent_auth'] as Record<string, unknown>)['identity_types_supported'], ['anonymous']);
  });

  test('oauth-authorization-server (RFC 8414): the same, and the identity endpoint', async () => {
    const body = (await document('/.well-known/oauth-authorization-server', JSON_TYPE)).json();
    assert.equal(body['issuer'], SITE_URL);
    for (const field of ['bearer_methods_supported', 'scopes_supported', 'grant_types_supported', 'response_types_supported']) {
      assert.deepEqual(body[field], [], field);
    }
    const agentAuth = body['agent_auth'] as Record<string, unknown>;
    assert.deepEqual(agentAuth['identity_types_supported'], ['anonymous']);
    assert.equal(agentAuth['identity_endpoint'], `${SITE_URL}/api/agent/identity`);
  });

  test('api-catalog (RFC 9727): a linkset to /openapi.json and /developers, and to the MCP server’s card', async () => {
    const answer = await request(`${site.url}/.well-known/api-catalog`);
    assert.equal(answer.status, 200);
    assert.match(String(answer.headers['content-type']), /^application\/linkset\+json\b/);
    assert.equal(answer.headers['cache-control'], PAGE_CACHE);
    const [api, mcp] = answer.json<{ linkset: Record<string, { href: string }[] | string>[] }>().linkset as {
      anchor: string;
      'service-desc': { href: string; type: string }[];
      'service-doc': { href: string }[];
    }[];
    assert.equal(api?.['service-desc'][0]?.href, `${SITE_URL}/openapi.json`);
    assert.equal(api['service-doc'][0]?.href, `${SITE_URL}/developers`);
    assert.equal(mcp?.anchor, `${SITE_URL}/mcp`);
    assert.deepEqual(mcp['service-desc'], [{ href: `${SITE_URL}/mcp/server-card`, type: 'application/mcp-server-card+json' }]);
  });

  test('ai-catalog.json (Agentic Resource Discovery): valid as Lighthouse’s ard-schema audit checks it, listing the MCP server, the API and the documents', async () => {
    const answer = await document('/.well-known/ai-catalog.json', 'application/ai-catalog+json');
    const tester = new ConformanceTester();
    assert.equal(tester.validate_manifest(answer.text, 'ai-catalog.json'), true, JSON.stringify(tester.errors));
    const { entries } = answer.json<{ entries: { type: string; url: string; capabilities?: string[] }[] }>();
    assert.deepEqual(
      entries.map(({ url }) => url),
      ['/mcp/server-card', '/openapi.json', '/agents.md', '/llms.txt'].map((path) => `${SITE_URL}${path}`),
    );
    assert.equal(entries[0]?.type, 'application/mcp-server-card+json');
    assert.deepEqual(entries[0].capabilities, MCP_TOOLS);
    // Only the media types ARD does not list are warned about: the OpenAPI description's and llms.txt's own.
    assert.deepEqual(
      tester.warnings.map(({ element }) => element),
      ['Longhand API', 'Longhand llms.txt'],
    );
  });

  test('the MCP server’s card at /mcp/server-card: its name, version and endpoint, readable from any origin', async () => {
    const answer = await request(`${site.url}/mcp/server-card`, { headers: { Accept: 'application/mcp-server-card+json' } });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], 'application/mcp-server-card+json');
    assert.equal(answer.headers['access-control-allow-origin'], '*');
    assert.equal(answer.headers['cache-control'], 'public, max-age=3600');
    assert.equal(answer.headers['x-content-type-options'], 'nosniff', 'the security headers too');
    const card = answer.json<{ $schema: string; name: string; version: string; description: string; remotes: unknown[] }>();
    assert.equal(card.$schema, 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json');
    assert.match(card.name, /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    assert.ok(card.description.length > 0 && card.description.length <= 100);
    assert.deepEqual(card.remotes, [{ type: 'streamable-http', url: `${SITE_URL}/mcp` }]);
    assert.equal((await request(`${site.url}/mcp/server-card`, { method: 'POST', body: '{}' })).status, 405);
  });
});

describe('GET /api/agent/identity', () => {
  const url = () => `${site.url}/api/agent/identity`;

  test('answers the identity document, cached for an hour, with an ETag that answers 304', async () => {
    const answer = await request(url());
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], JSON_TYPE);
    assert.equal(answer.headers['cache-control'], 'public, max-age=3600');
    assert.equal(answer.headers['api-version'], '1.7.0');
    assert.deepEqual(answer.json(), {
      identity_types_supported: ['anonymous'],
      authentication: 'none',
      documentation: `${SITE_URL}/auth.md`,
    });
    await assertRevalidates(url());
  });

  test('HEAD answers without a body; other methods 405 with Allow', async () => {
    const head = await request(url(), { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    const post = await request(url(), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    assert.equal(post.status, 405);
    assert.equal(post.headers['allow'], 'GET, HEAD');
  });
});

describe('/openapi.json and /developers', () => {
  test('/openapi.json is JSON, version 1.1.0, with the site as its server', async () => {
    const body = (await document('/openapi.json', JSON_TYPE)).json<{ info: { version: string }; servers: { url: string }[] }>();
    assert.equal(body.info.version, '1.7.0');
    assert.deepEqual(body.servers, [{ url: SITE_URL }]);
  });

  test('/developers documents each operation and shows the change log, 1.1.0 and 1.0.0', async () => {
    const { text } = await document('/developers', 'text/html; charset=utf-8');
    for (const id of OPERATION_IDS) assert.ok(text.includes(`<h3 id="${id}">`), id);
    assert.equal(text.match(/<pre[^>]*><code>curl /g)?.length, OPERATION_IDS.length, 'a curl example each');
    assert.match(text, /<h3 id="version-1\.1\.0">1\.1\.0 \(<time datetime="2026-11-24">2026-11-24<\/time>\)<\/h3>/);
    assert.match(text, /<h3 id="version-1\.0\.0">1\.0\.0 \(<time datetime="2026-11-22">2026-11-22<\/time>\)<\/h3>/);
    assert.ok(text.includes(`<link rel="alternate" type="text/markdown" href="${SITE_URL}/developers.md">`));
  });

  test('/developers and /developers.md describe the MCP server, each of its tools and a client’s configuration', async () => {
    for (const path of ['/developers', '/developers.md']) {
      const { text } = await request(`${site.url}${path}`);
      assert.match(text, /MCP server/, path);
      for (const tool of MCP_TOOLS) assert.ok(text.includes(tool), `${path}: ${tool}`);
      assert.ok(text.includes(`${SITE_URL}/mcp`), path);
      assert.ok(text.includes('mcpServers'), path);
    }
  });

  test('/developers.md says the same in Markdown, and /developers answers it to Accept: text/markdown', async () => {
    const { text } = await document('/developers.md', MARKDOWN);
    for (const id of OPERATION_IDS) assert.ok(text.includes(`\n### ${id}: `), id);
    assert.ok(text.includes('\n### 1.1.0 (2026-11-24)\n'));
    assert.ok(text.includes('\n### 1.0.0 (2026-11-22)\n'));
    const negotiated = await request(`${site.url}/developers`, { headers: { Accept: 'text/markdown' } });
    assert.equal(negotiated.headers['content-type'], MARKDOWN);
    assert.equal(negotiated.text, text);
  });
});

describe('Link headers', () => {
  test('every page in the sitemap names its Markdown twin, /llms.txt and the AI catalog; the twin answers Markdown', async () => {
    const pages = [...(await wholeSitemap(site.url)).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1] ?? '').pathname);
    assert.ok(pages.length > 50);
    for (const path of [...pages, '/developers', '/answers', '/cities']) {
      const answer = await request(`${site.url}${path}`, { method: 'HEAD' });
      assert.equal(answer.status, 200, path);
      const twin = path === '/' ? '/index.md' : /^\/[a-z]{2,3}\/$/.test(path) ? `${path}index.md` : `${path}.md`;
      assert.equal(
        answer.headers['link'],
        `<${twin}>; rel="alternate"; type="text/markdown", </llms.txt>; rel="describedby"; type="text/plain", </.well-known/ai-catalog.json>; rel="ai-catalog"; type="application/ai-catalog+json"`,
        path,
      );
      assert.equal((await request(`${site.url}${twin}`, { method: 'HEAD' })).headers['content-type'], MARKDOWN, twin);
    }
  });

  test('a twin, a thread fragment and a missing page name none', async () => {
    for (const path of ['/index.md', '/threads/the-price-of-a-beer', '/no-such-page']) {
      assert.equal((await request(`${site.url}${path}`)).headers['link'], undefined, path);
    }
  });
});

describe('/sitemap.xml', () => {
  test('lists every page and published article translation with hreflang alternates, and nothing hidden', async () => {
    await document('/sitemap.xml', XML);
    const text = await wholeSitemap(site.url);
    const entries = [...text.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((match) => match[1] ?? '');
    const entry = (url: string) => entries.find((item) => item.includes(`<loc>${url}</loc>`));
    for (const path of ['/', '/fr/', '/projects', '/ar/projects', '/developers', '/articles/only-in-english']) {
      assert.ok(entry(`${SITE_URL}${path}`), path);
    }
    const french = entry(`${SITE_URL}/fr/articles/the-price-of-a-beer`) ?? '';
    assert.match(french, /<lastmod>2026-07-19<\/lastmod>/);
    for (const [lang, path] of [
      ['en', '/articles/the-price-of-a-beer'],
      ['ar', '/ar/articles/the-price-of-a-beer'],
      ['x-default', '/articles/the-price-of-a-beer'],
    ]) {
      assert.ok(french.includes(`<xhtml:link rel="alternate" hreflang="${lang}" href="${SITE_URL}${path}"/>`), lang);
    }
    assert.ok(!text.includes(`${SITE_URL}/fr/articles/only-in-english`), 'an untranslated article has no French page');
    for (const slug of PUBLISHED) assert.ok(entry(`${SITE_URL}/articles/${slug}`), slug);
    assertNothingHidden(text, '/sitemap.xml');
  });
});

describe('RSS feeds', () => {
  test('every language has a feed of its published articles, newest first', async () => {
    for (const lang of LANGUAGE_CODES) {
      const prefix = lang === 'en' ? '' : `/${lang}`;
      const { text } = await document(`${prefix}/rss.xml`, XML);
      assert.match(text, /^<\?xml version="1\.0" encoding="utf-8"\?>\n<rss version="2\.0"/, lang);
      assert.ok(text.includes(`<language>${lang}</language>`), lang);
      assert.ok(text.includes(`<atom:link href="${SITE_URL}${prefix}/rss.xml" rel="self"`), lang);
      const links = [...text.matchAll(/<item>\s*<title>[^<]*<\/title>\s*<link>([^<]+)<\/link>/g)].map((match) => match[1]);
      assert.equal(links.length, PUBLISHED.length, lang);
      if (lang === 'en')
        assert.deepEqual(
          links,
          PUBLISHED.map((slug) => `${SITE_URL}/articles/${slug}`),
        );
      assertNothingHidden(text, `${prefix}/rss.xml`);
    }
  });

  test('a feed links each article in its language, and in English where it is not translated', async () => {
    const { text } = await document('/fr/rss.xml', XML);
    assert.ok(text.includes(`<link>${SITE_URL}/fr/articles/the-price-of-a-beer</link>`));
    assert.ok(text.includes(`<link>${SITE_URL}/articles/only-in-english</link>`));
    assert.ok(text.includes('<pubDate>Sun, 19 Jul 2026 00:00:00 GMT</pubDate>'));
  });

  test('every page links its language’s feed', async () => {
    for (const [path, feed] of [
      ['/', '/rss.xml'],
      ['/fr/', '/fr/rss.xml'],
      ['/ar/articles/the-price-of-a-beer', '/ar/rss.xml'],
    ] as const) {
      const page = (await request(`${site.url}${path}`)).text;
      assert.ok(page.includes(`<link rel="alternate" type="application/rss+xml" title="Longhand" href="${SITE_URL}${feed}">`), path);
    }
  });
});

describe('documents built ahead', () => {
  test('list a future-dated article from its date, without a rebuild, as the API does', async () => {
    const DOCUMENTS = ['/rss.xml', '/ar/rss.xml', '/llms.txt', '/llms-full.txt'];
    const before = await startSite(PREPARED_SITE, { TEST_CLOCK: '2098-12-31T23:59:00Z' });
    try {
      for (const path of DOCUMENTS) {
        const answer = await request(`${before.url}${path}`);
        assert.equal(answer.status, 200, path);
        assert.ok(!answer.text.includes('next-century'), `${path} does not list it before its date`);
      }
      assert.ok(!(await wholeSitemap(before.url)).includes('next-century'), 'the sitemap does not list it before its date');
    } finally {
      await before.stop();
    }
    const later = await startSite(PREPARED_SITE, { TEST_CLOCK: '2099-01-02T00:00:00Z' });
    try {
      const api = (await request(`${later.url}/api/articles`)).json<{ articles: { slug: string }[] }>();
      assert.ok(
        api.articles.some((item) => item.slug === 'next-century'),
        'the API shows it on its date',
      );
      for (const path of DOCUMENTS) {
        assert.ok((await request(`${later.url}${path}`)).text.includes('next-century'), `${path} lists it on its date`);
      }
      assert.ok((await wholeSitemap(later.url)).includes('next-century'), 'the sitemap lists it on its date');
    } finally {
      await later.stop();
    }
  });
});
