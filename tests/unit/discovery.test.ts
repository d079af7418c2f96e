import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { OperationDefinition } from '../../src/server/api/definition.ts';
import { developerDocs } from '../../src/server/api/developer-docs.ts';
import { developersMarkdown } from '../../src/server/api/developers-markdown.ts';
import { inlineHtml } from '../../src/server/api/inline-html.ts';
import { requestSchemaOf } from '../../src/server/api/json-schema.ts';
import { OPERATIONS } from '../../src/server/api/registry.ts';
import { rulesOf, typeOf } from '../../src/server/api/schema-summary.ts';
import { agentsMd } from '../../src/server/discovery/agents.ts';
import { authMd } from '../../src/server/discovery/auth.ts';
import { languageLlmsTxt, llmsFullTxt, llmsTxt } from '../../src/server/discovery/llms.ts';
import { LLMS_LATEST } from '../../src/server/articles/lists.ts';
import { rssFeed } from '../../src/server/discovery/rss.ts';
import { translatedPages } from '../../src/server/discovery/sitemap.ts';
import { mediaTypeOf } from '../../src/server/http/media-types.ts';
import { citySubmissionInput, commentInput, voteInput } from '../../src/server/writes/schemas.ts';

const SITE = 'https://longhand.test';
const FACTS = {
  site: SITE,
  name: 'Longhand',
  summary: 'Essays: on writing, "plain" text & more.',
  mcpTools: ['list_articles', 'get_article'],
};

describe('field types and rules, read from the request schemas', () => {
  test('as /developers shows them', () => {
    const comment = requestSchemaOf(commentInput).properties ?? {};
    assert.equal(typeOf(comment['parentId'] ?? {}), 'string or null');
    assert.deepEqual(rulesOf(comment['parentId'] ?? {}), ['1–200 characters']);
    assert.deepEqual(rulesOf(comment['captchaToken'] ?? {}), ['at most 4096 characters']);
    assert.equal(typeOf(requestSchemaOf(voteInput).properties?.['value'] ?? {}), '1 or -1');
    const netPay = requestSchemaOf(citySubmissionInput).properties?.['netPay'] ?? {};
    assert.equal(typeOf(netPay), 'number');
    assert.deepEqual(rulesOf(netPay), ['> 0', '≤ 1000000000']);
    assert.deepEqual(rulesOf(requestSchemaOf(citySubmissionInput).properties?.['country'] ?? {}), ['matches `^[A-Za-z]{2}$`']);
  });
});

describe('the developer documentation', () => {
  test('a curl line each, quoted for the shell, writes sent as the site’s own form sends them', () => {
    const [getArticles, , , , , createComment] = OPERATIONS as OperationDefinition[];
    assert.ok(getArticles && createComment);
    const quoting: OperationDefinition = { ...createComment, requestExample: { articleSlug: 'x', body: "it's" } };
    const [read, write] = developerDocs(SITE, [getArticles, quoting]).operations;
    assert.equal(read?.curl, `curl '${SITE}/api/articles?slug=writing-in-plain-text&lang=en'`);
    assert.equal(
      write?.curl,
      `curl -X POST '${SITE}/api/comments' \\\n  -H 'Origin: ${SITE}' \\\n  -H 'Content-Type: application/json' \\\n  --data '{"articleSlug":"x","body":"it'\\''s"}'`,
    );
  });

  test('the Markdown twin has a section per operation and escapes pipes in tables', () => {
    const text = developersMarkdown(developerDocs(SITE));
    for (const { operationId, method, path } of OPERATIONS)
      assert.ok(text.includes(`\n### ${operationId}: ${method} ${path}\n`), operationId);
    // A pipe inside a cell (a pattern's `a|b`) must not split it: each row has its table's number of cells.
    for (const table of text.split('\n\n').filter((block) => block.startsWith('| '))) {
      const cellCounts = table.split('\n').map((row) => row.split(/(?<!\\)\|/).length);
      assert.equal(new Set(cellCounts).size, 1, table);
    }
  });

  test('inline Markdown becomes HTML with everything else escaped', () => {
    assert.equal(
      inlineHtml('Use `<script>` & [the API](/api?a=1&b=2)'),
      'Use <code>&#60;script&#62;</code> &#38; <a href="/api?a=1&#38;b=2">the API</a>',
    );
  });
});

describe('text documents', () => {
  test('llms-full.txt puts a blank line before each rule, so no line above becomes a heading', () => {
    const full = llmsFullTxt(llmsTxt(FACTS, []), ['# One\n\nText\n', '# Two\n\nMore\n']);
    assert.ok(full.includes('Nothing is published yet.\n\n---\n\n# One\n\nText\n\n---\n\n# Two\n'));
  });

  test('an llms.txt lists the latest LLMS_LATEST articles and sends to the archive for the older ones', () => {
    const articles = Array.from({ length: LLMS_LATEST + 1 }, (_, index) => ({
      title: `T${index}`,
      url: `${SITE}/fr/articles/a${index}`,
      excerpt: 'e',
    }));
    const text = languageLlmsTxt(FACTS, 'fr', articles);
    assert.ok(text.includes(`[T${LLMS_LATEST - 1}](${SITE}/fr/articles/a${LLMS_LATEST - 1}.md)`));
    assert.ok(!text.includes(`[T${LLMS_LATEST}]`));
    assert.ok(text.includes(`[the archive](${SITE}/fr/archive.md)`));
    assert.ok(!languageLlmsTxt(FACTS, 'fr', articles.slice(1)).includes('the archive'));
  });

  test('agents.md front matter quotes every value, so any summary is valid YAML', () => {
    const front = /^---\n([\s\S]*?)\n---\n/.exec(agentsMd(FACTS))?.[1] ?? '';
    assert.ok(front.includes('description: "Essays: on writing, \\"plain\\" text & more."'));
    assert.ok(front.includes(`api: "${SITE}/openapi.json"`));
    assert.ok(front.includes('auth: "none"'));
  });

  test('auth.md begins with a top-level heading', () => {
    assert.match(authMd(FACTS), /^# Authentication\n\nThere is no authentication\./);
  });
});

describe('XML documents', () => {
  test('an RSS feed escapes what it quotes', () => {
    const feed = rssFeed({
      title: 'Longhand',
      description: 'A & B',
      lang: 'fr',
      homeUrl: `${SITE}/fr/`,
      feedUrl: `${SITE}/fr/rss.xml`,
      items: [{ title: 'Tom & <Jerry>', url: `${SITE}/fr/articles/x`, date: '2026-03-14', excerpt: '"Quoted"' }],
    });
    assert.ok(feed.includes('<title>Tom &#38; &#60;Jerry&#62;</title>'));
    assert.ok(feed.includes('<description>&#34;Quoted&#34;</description>'));
    assert.ok(feed.includes('<pubDate>Sat, 14 Mar 2026 00:00:00 GMT</pubDate>'));
  });

  test('sitemap alternates: every language of the page, and English as x-default when there is English', () => {
    const [english] = translatedPages(SITE, (lang) => `/${lang}/x`, ['en', 'fr'], '2026-01-01');
    assert.deepEqual(english, {
      url: `${SITE}/en/x`,
      lastmod: '2026-01-01',
      alternates: [
        { hreflang: 'en', url: `${SITE}/en/x` },
        { hreflang: 'fr', url: `${SITE}/fr/x` },
        { hreflang: 'x-default', url: `${SITE}/en/x` },
      ],
    });
    assert.deepEqual(
      translatedPages(SITE, () => '/fr/only', ['fr']).map((page) => page.alternates.map(({ hreflang }) => hreflang)),
      [['fr']],
    );
  });
});

describe('well-known files', () => {
  test('are served as the JSON they are, though named without an extension', () => {
    assert.equal(mediaTypeOf('/srv/dist/client/.well-known/oauth-protected-resource'), 'application/json; charset=utf-8');
    assert.equal(mediaTypeOf('/srv/dist/client/.well-known/oauth-authorization-server'), 'application/json; charset=utf-8');
    assert.match(mediaTypeOf('/.well-known/api-catalog'), /^application\/linkset\+json; profile=/);
    assert.equal(mediaTypeOf('/srv/dist/client/.well-known/unknown'), 'application/octet-stream');
    // As the build's manifest names them: relative to the client folder.
    assert.match(mediaTypeOf('.well-known/api-catalog'), /^application\/linkset\+json; profile=/);
    assert.equal(mediaTypeOf('.well-known/ai-catalog.json'), 'application/ai-catalog+json');
    assert.equal(mediaTypeOf('not.well-known/api-catalog'), 'application/octet-stream');
    assert.equal(mediaTypeOf('/srv/dist/client/llms.txt'), 'text/plain; charset=utf-8');
  });
});
