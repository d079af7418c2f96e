// What a Webmention's source says of its target (src/server/federation/webmention/h-entry.ts): whether it links to
// it, and its h-entry's kind, author and text, never its HTML; and where a page names its endpoint.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { endpointInHtml, readSource } from '../../src/server/federation/webmention/h-entry.ts';
import { MOST_NESTING } from '../../src/server/federation/webmention/nesting.ts';

const TARGET = 'https://site.example/articles/hello';
const BASE = 'https://blog.example/posts/1';

function entry(inside: string): string {
  return `<article class="h-entry"><a class="p-author h-card" href="/me">Ann</a>${inside}</article>`;
}

test('a source that names the target by an h-entry property is a reply, a like or a repost', () => {
  const reply = readSource(
    entry(`<a class="u-in-reply-to" href="${TARGET}">x</a><p class="e-content">Yes, <b>quite</b>.</p>`),
    BASE,
    TARGET,
  );
  assert.deepEqual(reply, { kind: 'reply', authorName: 'Ann', authorUrl: 'https://blog.example/me', content: 'Yes, quite.' });
  const like = readSource(entry(`<a class="u-like-of" href="${TARGET}#top">x</a><p class="e-content">Liked</p>`), BASE, TARGET);
  assert.deepEqual(like, { kind: 'like', authorName: 'Ann', authorUrl: 'https://blog.example/me', content: null }, 'no text');
  assert.equal(readSource(entry(`<a class="u-repost-of" href="${TARGET}">x</a>`), BASE, TARGET)?.kind, 'repost');
});

test('a source that links to the target otherwise mentions it; one that does not link is nothing', () => {
  const relative = readSource('<p>See <a href="//site.example/articles/hello">this</a>.</p>', BASE, TARGET);
  assert.deepEqual(relative, { kind: 'mention', authorName: null, authorUrl: null, content: null }, 'resolved, no h-entry');
  assert.equal(readSource(`<p>${TARGET} in text, not a link</p>`, BASE, TARGET), null);
  assert.equal(readSource(`<a href="${TARGET}/more">near</a><link rel="x" href="${TARGET}">`, BASE, TARGET), null);
  const long = readSource(entry(`<a href="${TARGET}">x</a><div class="e-content">${'word '.repeat(1000)}</div>`), BASE, TARGET);
  assert.equal(long?.content?.length, 2000, 'a long text is cut');
});

test('an author given as a URL is linked, never a script', () => {
  const url = readSource(`<div class="h-entry"><a class="u-author" href="/ann">me</a><a href="${TARGET}">x</a></div>`, BASE, TARGET);
  assert.equal(url?.authorUrl, 'https://blog.example/ann');
  const script = readSource(
    `<div class="h-entry"><span class="p-author h-card"><a class="u-url p-name" href="javascript:alert(1)">Eve</a></span><a href="${TARGET}">x</a></div>`,
    BASE,
    TARGET,
  );
  assert.deepEqual([script?.authorName, script?.authorUrl], ['Eve', null]);
});

test('a page names its endpoint by the first link or anchor with rel="webmention", made absolute', () => {
  assert.equal(
    endpointInHtml('<link rel="webmention" href="/wm?x=1"><a rel="webmention" href="/other">', BASE),
    'https://blog.example/wm?x=1',
  );
  assert.equal(endpointInHtml('<a rel="nofollow webmention" href="https://wm.example/in">', BASE), 'https://wm.example/in');
  assert.equal(endpointInHtml('<a href="/x">no endpoint</a>', BASE), null);
});

test('a page nested deeper than any page needs is read as linking nowhere, at once, however it is built', () => {
  const MiB = 1024 * 1024;
  const link = `<a href="${TARGET}">x</a>`;
  const built = {
    divs: '<div>'.repeat(MiB / 5),
    bold: '<b>'.repeat(MiB / 3),
    formatting: '<b id=1><i id=2>'.repeat(MiB / 16),
    tables: '<table><tr><td>'.repeat(MiB / 15),
  };
  for (const [name, nesting] of Object.entries(built)) {
    const page = `${nesting.slice(0, MiB - link.length)}${link}`;
    const started = performance.now();
    assert.equal(readSource(page, BASE, TARGET), null, name);
    assert.equal(endpointInHtml(`${nesting}<link rel="webmention" href="/wm">`, BASE), null, name);
    // A generous guard: parsers given such a page took minutes, or ran out of stack.
    assert.ok(performance.now() - started < 5000, `${name}: ${(performance.now() - started).toFixed(0)} ms`);
  }
});

test('a page as deep as pages are is read; comments, scripts and elements that close themselves do not count', () => {
  // The link is an element too: inside MOST_NESTING - 1 others, it is the last level read.
  const deep = (depth: number) => `${'<div>'.repeat(depth)}<a href="${TARGET}">x</a>${'</div>'.repeat(depth)}`;
  assert.equal(readSource(deep(MOST_NESTING - 1), BASE, TARGET)?.kind, 'mention');
  assert.equal(readSource(deep(MOST_NESTING), BASE, TARGET), null);
  const noise = `<!-- ${'<div>'.repeat(500)} --><script>${'<div>'.repeat(500)}</script>${'<p><li><br><img src=x><span/>'.repeat(500)}`;
  assert.equal(readSource(`${noise}<a href="${TARGET}">x</a>`, BASE, TARGET)?.kind, 'mention');
});

test('a page microformats-parser refuses (no element in its body) links nowhere, rather than failing each try', () => {
  assert.equal(readSource(`just text naming ${TARGET}`, BASE, TARGET), null);
  assert.equal(endpointInHtml('just text', BASE), null);
});
