// HTML written elsewhere (a fediverse post, an imported comment) made the Markdown comments render: each element of
// the subset kept, everything else its text, and text that never turns into markup once rendered.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Note } from '@fedify/vocab';
import { COMMENT_LINK_REL, commentHtml } from '../../src/server/comment-markdown/comment-html.ts';
import { markdownFromHtml } from '../../src/server/comment-markdown/markdown-from-html.ts';
import { replyBody } from '../../src/server/federation/reply-body.ts';
import { fastestMs } from '../support/fastest.ts';

/** What a page shows of some remote HTML: its Markdown, rendered. */
const shown = (html: string) => commentHtml(markdownFromHtml(html)).trim();
const rel = `rel="${COMMENT_LINK_REL}"`;

describe('the subset is kept', () => {
  test('a Mastodon reply: paragraphs, a mention, a hashtag and a shortened link become Markdown links', () => {
    const html =
      '<p>Thanks <span class="h-card"><a href="https://social.example/@bob" class="u-url mention">@<span>bob</span></a></span> ' +
      '<a href="https://social.example/tags/plain" class="mention hashtag" rel="tag">#<span>plain</span></a></p>' +
      '<p>See <a href="https://example.org/a/long/path_(x)"><span class="invisible">https://</span><span class="ellipsis">example.org/a/lo</span>' +
      '<span class="invisible">ng/path_(x)</span></a></p>';
    assert.equal(
      markdownFromHtml(html),
      'Thanks [@bob](https://social.example/@bob) [#plain](https://social.example/tags/plain)\n\n' +
        'See [https://example.org/a/long/path\\_(x)](https://example.org/a/long/path_%28x%29)',
    );
    assert.equal(
      shown(html),
      `<p>Thanks <a href="https://social.example/@bob" ${rel}>@bob</a> <a href="https://social.example/tags/plain" ${rel}>#plain</a></p>\n` +
        `<p>See <a href="https://example.org/a/long/path_%28x%29" ${rel}>https://example.org/a/long/path_(x)</a></p>`,
    );
  });

  test('line breaks, emphasis, strong, strikethrough and code', () => {
    assert.equal(
      markdownFromHtml(
        '<p>one<br>two <em>em</em> <i>i</i> <strong> strong </strong> <b>b</b> <del>del</del> <s>s</s> <code>a`b</code></p>',
      ),
      'one\ntwo *em* *i* **strong** **b** ~~del~~ ~~s~~ ``a`b``',
    );
    assert.equal(
      shown('<p>one<br>two <em>em</em> <strong>strong</strong> <del>del</del> <code>x</code></p>'),
      '<p>one<br>\ntwo <em>em</em> <strong>strong</strong> <s>del</s> <code>x</code></p>',
    );
  });

  test('code blocks keep their text, whatever fence it holds', () => {
    const html = '<pre><code>```\nif (a &lt; b) *x* [y](z)\n    indented\n</code></pre>';
    assert.equal(markdownFromHtml(html), '````\n```\nif (a < b) *x* [y](z)\n    indented\n````');
    assert.equal(shown(html), '<pre><code>```\nif (a &lt; b) *x* [y](z)\n    indented\n</code></pre>');
  });

  test('quotes and lists, nested', () => {
    const html = '<blockquote><p>said</p><ul><li>one</li><li><p>two</p><ol><li>inner</li></ol></li></ul></blockquote>';
    assert.equal(markdownFromHtml(html), '> said\n>\n> - one\n> - two\n>\n>   1. inner');
    assert.equal(
      shown(html),
      '<blockquote>\n<p>said</p>\n<ul>\n<li>\n<p>one</p>\n</li>\n<li>\n<p>two</p>\n<ol>\n<li>inner</li>\n</ol>\n</li>\n</ul>\n</blockquote>',
    );
  });
});

describe('anything else is its text', () => {
  test('links that are not http or https, scripts, styles, images and headings', () => {
    assert.equal(
      markdownFromHtml(
        '<h1>Title</h1><p><a href="javascript:alert(1)">js</a> <a href="mailto:a@example.org">mail</a> <a href="/local">local</a> ' +
          '<img src="https://example.org/x.png" alt="a cat" onerror="alert(1)"><script>alert(1)</script><style>p{}</style></p>' +
          '<table><tr><td>cell</td></tr></table><hr><p>after</p>',
      ),
      'Title\n\njs mail local a cat\n\ncell\n\nafter',
    );
  });

  test('text that would be markup is escaped, and shows as it was written (a bare address in it is the one link it makes)', () => {
    const text =
      '[ref]: x\n# not a heading\n> not a quote\n- not a list\n+ nor this\n1. nor this\n2) nor this\n===\n' +
      '*not em* _nor_ **strong** ~~struck~~ `code` [link](x) [ref] <x> <a@example.org> ![img](x) &amp; &#60; \\ |a|b|';
    const html = `<p>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/\n/g, '<br>')}</p>`;
    const markdown = markdownFromHtml(html);
    const page = commentHtml(markdown);
    assert.ok(!/<(?!\/?p>|br>)/.test(page), page);
    const decoded = page
      .replace(/<br>\n/g, '\n')
      .replace(/<\/?p>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
    assert.equal(decoded.trim(), text);
    assert.equal(
      shown('<p>see https://example.org/a_b</p>'),
      `<p>see <a href="https://example.org/a_b" ${rel}>https://example.org/a_b</a></p>`,
    );
  });

  test('a “!” just before a link stays text: a link never becomes an image', () => {
    const link = `<a href="https://example.org/x.png" ${rel}>x</a>`;
    assert.equal(markdownFromHtml('<p>!<a href="https://example.org/x.png">x</a></p>'), '\\![x](https://example.org/x.png)');
    assert.equal(shown('<p>Look!<a href="https://example.org/x.png">x</a></p>'), `<p>Look!${link}</p>`);
    assert.equal(shown('<p>\\!<a href="https://example.org/x.png">x</a></p>'), `<p>\\!${link}</p>`);
    assert.equal(shown('<p>wow! <a href="https://example.org/x.png">x</a></p>'), `<p>wow! ${link}</p>`);
  });

  test('elements nested past any reader’s depth count as their text', () => {
    const deep = `${'<blockquote><div>'.repeat(500)}deep${'</div></blockquote>'.repeat(500)}`;
    const markdown = markdownFromHtml(deep);
    assert.ok(markdown.endsWith('deep'));
    assert.ok(shown(deep).includes('<p>deep</p>'));
  });
});

describe('hostile sizes', () => {
  test('a paragraph of many links converts in time linear in their number: 4 times as many take at most 8 times as long', () => {
    const links = (count: number) => `<p>${'!<a href="https://example.org/x">x</a>'.repeat(count)}</p>`;
    const [quarterMs, wholeMs] = [fastestMs(() => markdownFromHtml(links(2500)), 3), fastestMs(() => markdownFromHtml(links(10_000)), 3)];
    assert.ok(wholeMs <= 8 * quarterMs, `${quarterMs.toFixed(1)} ms, then ${wholeMs.toFixed(1)} ms`);
    assert.ok(markdownFromHtml(links(3)).startsWith('\\![x](https://example.org/x)\\![x]'));
  });

  test('a remote post is read up to 32,000 characters of its HTML: what comes after is not its text', () => {
    const after = (skipped: number) => new Note({ content: `<!--${'x'.repeat(skipped)}-->after the comment` });
    assert.equal(replyBody(after(1000)), 'after the comment');
    assert.equal(replyBody(after(40_000)), null);
  });
});
