import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prefersMarkdown, twinPath } from '../../src/server/http/negotiation.ts';

test('prefersMarkdown follows the Accept header', () => {
  const cases: [string | undefined, boolean][] = [
    [undefined, false],
    ['', false],
    ['text/markdown', true],
    ['text/markdown; charset=utf-8', true],
    ['TEXT/MARKDOWN', true],
    ['text/markdown, text/html;q=0.9', true],
    ['text/html, text/markdown;q=0.9', false],
    ['text/html, text/markdown', false],
    ['text/markdown, text/html', true],
    ['text/markdown, */*', true],
    ['text/markdown;q=0.5, */*', false],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', false],
    ['*/*', false],
    ['text/*', false],
    ['text/markdown;q=0', false],
    ['text/plain', false],
  ];
  for (const [accept, expected] of cases) assert.equal(prefersMarkdown(accept), expected, String(accept));
});

test('twinPath maps a page to its Markdown twin', () => {
  assert.equal(twinPath('/'), '/index.md');
  assert.equal(twinPath('/fr/'), '/fr/index.md');
  assert.equal(twinPath('/fr'), '/fr/index.md');
  assert.equal(twinPath('/projects'), '/projects.md');
  assert.equal(twinPath('/ar/articles/x'), '/ar/articles/x.md');
  assert.equal(twinPath('/articles/x/'), '/articles/x.md');
  assert.equal(twinPath('/articles/x.md'), null);
  assert.equal(twinPath('/images/a.svg'), null);
});
