import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Article } from '../../src/server/articles/catalog.ts';
import { issueEmail } from '../../src/server/newsletter/issue-email.ts';

const ARTICLE: Article = {
  slug: 'a-walk',
  title: 'A walk',
  date: '2026-01-01',
  excerpt: 'Out.',
  readingTime: 1,
  lang: 'en',
  url: 'https://blog.example/articles/a-walk',
  outdated: false,
  content: 'See [the other one](/articles/other), [a note](#note), [elsewhere](https://else.example/x) and ![a map](./map.png).',
};
const LINKS = {
  page: 'https://blog.example/he/articles/a-walk',
  unsubscribe: 'https://blog.example/newsletter/unsubscribe/abc.def',
  mailto: 'mailto:news@blog.example?subject=unsubscribe',
};

test('an article’s email has its links absolute, its list headers, and the missing-translation line in the reader’s language', () => {
  const email = issueEmail(ARTICLE, 'he', LINKS, 'The blog');
  assert.equal(email.subject, 'A walk');
  assert.match(email.html, /href="https:\/\/blog\.example\/articles\/other"/);
  assert.match(email.html, /href="https:\/\/blog\.example\/he\/articles\/a-walk#note"/);
  assert.match(email.html, /href="https:\/\/else\.example\/x"/);
  assert.match(email.html, /src="https:\/\/blog\.example\/he\/articles\/map\.png"/);
  assert.match(email.html, /<html lang="he" dir="rtl">/);
  assert.match(email.html, /<article lang="en" dir="ltr">/);
  assert.match(email.text, /^A walk\n\nהמאמר הזה עדיין לא תורגם לעברית/);
  assert.match(email.text, /https:\/\/blog\.example\/he\/articles\/a-walk#thread-heading/);
  assert.deepEqual(email.list, {
    unsubscribe: [LINKS.unsubscribe, LINKS.mailto],
    id: { url: 'newsletter.blog.example', comment: 'The blog' },
  });
});

test('a reader of the article’s own language gets no missing-translation line', () => {
  const email = issueEmail(ARTICLE, 'en', { ...LINKS, page: ARTICLE.url }, 'The blog');
  assert.doesNotMatch(email.text, /not translated/);
  assert.doesNotMatch(email.html, /not translated/);
});
