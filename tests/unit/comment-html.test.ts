// The comments' Markdown renderer: each construct of the subset, what is never made (raw HTML, images, headings,
// links other than http, https and mailto), the rel of every link, and its time on pathological bodies.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { COMMENT_LINK_REL, commentHtml } from '../../src/server/comment-markdown/comment-html.ts';
import { fastestMs } from '../support/fastest.ts';

/** The longest comment body (src/server/writes/schemas.ts). */
const BODY_CHARS = 4000;
const rendered = (body: string) => commentHtml(body).trim();

/** Every `<a …>` tag of some HTML. */
const linkTags = (html: string) => html.match(/<a\b[^>]*>/g) ?? [];

describe('the constructs a comment renders', () => {
  test('paragraphs and line breaks', () => {
    assert.equal(rendered('One\ntwo\n\nThree'), '<p>One<br>\ntwo</p>\n<p>Three</p>');
  });

  test('emphasis, strong, strikethrough and inline code', () => {
    assert.equal(
      rendered('*em* _em_ **strong** __strong__ ~~gone~~ `a < b`'),
      '<p><em>em</em> <em>em</em> <strong>strong</strong> <strong>strong</strong> <s>gone</s> <code>a &lt; b</code></p>',
    );
  });

  test('code blocks, fenced and indented, their text escaped and their info string dropped', () => {
    assert.equal(rendered('```js onload=x\n<b>&amp;</b>\n```'), '<pre><code>&lt;b&gt;&amp;amp;&lt;/b&gt;\n</code></pre>');
    assert.equal(rendered('    indented *code*'), '<pre><code>indented *code*\n</code></pre>');
  });

  test('block quotes and lists, nested', () => {
    assert.equal(
      rendered('> quoted\n> > again\n\n- one\n- two\n  1. inner'),
      '<blockquote>\n<p>quoted</p>\n<blockquote>\n<p>again</p>\n</blockquote>\n</blockquote>\n' +
        '<ul>\n<li>one</li>\n<li>two\n<ol>\n<li>inner</li>\n</ol>\n</li>\n</ul>',
    );
  });

  test('links to http, https and mailto, written, by reference, as autolinks and bare, each with its rel', () => {
    const rel = `rel="${COMMENT_LINK_REL}"`;
    assert.equal(
      rendered('[site](https://example.org/a_b "title") [mail](mailto:a@example.org) <http://example.org/x>'),
      `<p><a href="https://example.org/a_b" ${rel}>site</a> <a href="mailto:a@example.org" ${rel}>mail</a> ` +
        `<a href="http://example.org/x" ${rel}>http://example.org/x</a></p>`,
    );
    assert.equal(rendered('[ref]\n\n[ref]: https://example.org/ref'), `<p><a href="https://example.org/ref" ${rel}>ref</a></p>`);
    assert.equal(
      rendered('See https://example.org/a_b_c*d, then.'),
      `<p>See <a href="https://example.org/a_b_c*d" ${rel}>https://example.org/a_b_c*d</a>, then.</p>`,
    );
  });
});

describe('what a comment never makes', () => {
  test('raw HTML is shown as text', () => {
    assert.equal(
      rendered('<script>alert(1)</script> <b onclick="x()">bold</b>\n\n<div>\nblock\n</div>'),
      '<p>&lt;script&gt;alert(1)&lt;/script&gt; &lt;b onclick=&quot;x()&quot;&gt;bold&lt;/b&gt;</p>\n<p>&lt;div&gt;<br>\nblock<br>\n&lt;/div&gt;</p>',
    );
  });

  test('headings are shown as their text, in paragraphs', () => {
    assert.equal(rendered('# Big *news*\nSetext\n======\n###### small'), '<p>Big <em>news</em></p>\n<p>Setext</p>\n<p>small</p>');
  });

  test('images are never made: their alt text stays, as a link where the address may be one', () => {
    const html = rendered('![alt](https://example.org/x.png) ![a][r] <img src=x onerror=alert(1)>\n\n[r]: https://example.org/y.png');
    assert.ok(!html.includes('<img'), html);
    assert.equal(linkTags(html).length, 2);
  });

  test('tables and rules are not in the subset', () => {
    assert.equal(rendered('a | b\n--- | ---\n1 | 2'), '<p>a | b<br>\n--- | ---<br>\n1 | 2</p>');
    assert.equal(rendered('***'), '<p>***</p>');
  });

  test('javascript:, data:, vbscript: and other addresses are never links, however they are written', () => {
    for (const body of [
      '[x](javascript:alert(1))',
      '[x](JaVaScRiPt:alert(1))',
      '[x](java\u0000script:alert(1))',
      '[x](&#106;avascript:alert(1))',
      '[x](javascript&colon;alert(1))',
      '[x]( javascript:alert(1) )',
      '[x](<javascript:alert(1)>)',
      '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
      '[x](vbscript:msgbox(1))',
      '[x](file:///etc/passwd)',
      '[x](//example.org)',
      '[x](/relative)',
      '[x](#fragment)',
      '[x]()',
      '<javascript:alert(1)>',
      '<data:text/html,x>',
      '[x][r]\n\n[r]: javascript:alert(1)',
      'javascript:alert(1) data:text/html,x //example.org www.example.org ftp://example.org',
    ]) {
      const html = rendered(body);
      assert.deepEqual(linkTags(html), [], `${body} → ${html}`);
    }
  });

  test('entities are decoded as text, never into markup', () => {
    assert.equal(
      rendered('&lt;script&gt; &amp; &#60;b&#62; &copy; &#0; &bogus;'),
      '<p>&lt;script&gt; &amp; &lt;b&gt; © \uFFFD &amp;bogus;</p>',
    );
  });

  test('autolink tricks keep the link whole, escaped, and add no attribute', () => {
    const html = rendered(
      'https://example.org/"onmouseover="alert(1) <https://example.org/\'onfocus=\'alert(1)> [x](https://example.org/"><script>alert(1)</script>)',
    );
    for (const tag of linkTags(html)) assert.match(tag, new RegExp(`^<a href="https?://[^"<>\\s]*" rel="${COMMENT_LINK_REL}">$`), tag);
    assert.ok(!html.includes('<script'), html);
    assert.ok(!/<[^>]*\son\w+=/.test(html), 'no tag carries a handler');
  });

  test('nested brackets and parentheses', () => {
    assert.equal(
      rendered('[[a](https://a.example) b](https://b.example)'),
      `<p>[<a href="https://a.example" rel="${COMMENT_LINK_REL}">a</a> b](<a href="https://b.example" rel="${COMMENT_LINK_REL}">https://b.example</a>)</p>`,
    );
    assert.equal(
      rendered('[x](https://example.org/a_(b)_(c))'),
      `<p><a href="https://example.org/a_(b)_(c)" rel="${COMMENT_LINK_REL}">x</a></p>`,
    );
    const html = rendered(`${'['.repeat(50)}x${']'.repeat(50)}(https://example.org)((()))`);
    assert.equal(linkTags(html).length, 1, html);
  });

  test('every link carries its rel and nothing but its address and rel', () => {
    const html = rendered(
      '[a](https://a.example "t") <https://b.example> https://c.example [d] [e](mailto:e@example.org)\n\n[d]: http://d.example',
    );
    const tags = linkTags(html);
    assert.equal(tags.length, 5);
    for (const tag of tags) assert.match(tag, new RegExp(`^<a href="[^"]+" rel="${COMMENT_LINK_REL}">$`));
  });
});

describe('rendering time', () => {
  /** Bodies built to make a parser backtrack or nest, each made at any length. */
  const pathological: Record<string, (chars: number) => string> = {
    quotes: (chars) => '>'.repeat(chars),
    quotesWithText: (chars) => '> a\n'.repeat(chars / 4),
    stars: (chars) => '*'.repeat(chars),
    starWords: (chars) => '*a '.repeat(chars / 3),
    strongRuns: (chars) => '**a'.repeat(chars / 3),
    underscores: (chars) => '_a_'.repeat(chars / 3),
    tildes: (chars) => '~~a'.repeat(chars / 3),
    backticks: (chars) => '`'.repeat(chars),
    backtickRuns: (chars) => '`a``'.repeat(chars / 4),
    openBrackets: (chars) => '['.repeat(chars),
    closeBrackets: (chars) => ']'.repeat(chars),
    nestedBrackets: (chars) => `${'['.repeat(chars / 2)}${']'.repeat(chars / 2)}`,
    imageStarts: (chars) => '!['.repeat(chars / 2),
    linkStarts: (chars) => '[a]('.repeat(chars / 4),
    parentheses: (chars) => `[a](${'('.repeat(chars - 4)}`,
    angleBrackets: (chars) => '<'.repeat(chars),
    lists: (chars) => '- '.repeat(chars / 2),
    entities: (chars) => '&#x'.repeat(chars / 3),
    urls: (chars) => 'http://a.example/'.repeat(chars / 17),
    mixed: (chars) => '*_`[<~>'.repeat(chars / 7),
  };
  /** A quarter of the longest body: a renderer that grows with the square of the length takes 16 times as long on the whole. */
  const QUARTER = BODY_CHARS / 4;
  /** Times under this are too short to compare: the timer's grain and a collection weigh more than the renderer. */
  const TOO_SHORT_MS = 2;

  test(`a pathological body of ${BODY_CHARS} characters renders in under 20 ms, and at most 8 times as long as one of a quarter of that`, () => {
    for (const [name, make] of Object.entries(pathological)) {
      const whole = make(BODY_CHARS);
      assert.ok(whole.length <= BODY_CHARS && whole.length > BODY_CHARS * 0.95, name);
      const [quarterMs, wholeMs] = [fastestMs(() => commentHtml(make(QUARTER)), 10), fastestMs(() => commentHtml(whole), 10)];
      const times = `${name}: ${quarterMs.toFixed(2)} ms, then ${wholeMs.toFixed(2)} ms`;
      assert.ok(wholeMs < TOO_SHORT_MS || wholeMs <= 8 * quarterMs, `linear in the length: ${times}`);
      // The fastest of ten runs: the bound for the renderer's own time, not the machine's other work.
      assert.ok(wholeMs < 20, `under 20 ms: ${times}`);
    }
  });
});
