import { expect, test, type Locator, type Page } from '@playwright/test';
import { readerNameIn } from '../../src/i18n/reader-names.ts';
import { newReaderAddress } from '../support/writes.ts';

/** Fails the test on any console error or uncaught exception of the page. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

async function postComment(page: Page, text: string): Promise<Locator> {
  await page.locator('#comment-body').fill(text);
  await page.locator('.comment-form button[type="submit"]').click();
  const posted = page.locator('.comment', { hasText: text }).first();
  await expect(posted).toBeVisible();
  return posted;
}

async function replyTo(page: Page, comment: Locator, text: string): Promise<void> {
  await comment.locator(':scope > .comment-actions .reply').click();
  const form = comment.locator(':scope > form.reply-form');
  await expect(form.locator('textarea')).toBeFocused();
  await form.locator('textarea').fill(text);
  await form.locator('button[type="submit"]').click();
  await expect(page.locator('.replies .comment', { hasText: text })).toBeVisible();
}

test('a comment and a reply to it are on the page at once, and for everyone after a reload', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/articles/writing-in-plain-text');
  const stamp = `Plain text ages well ${Date.now()}`;
  const comment = await postComment(page, stamp);
  await expect(comment.locator('.comment-author')).not.toBeEmpty();
  await expect(comment.locator('time')).toHaveAttribute('title', /\d/);
  await replyTo(page, comment, `Agreed: ${stamp}`);
  await page.reload();
  const again = page.locator('.comment', { hasText: stamp }).first();
  await expect(again).toBeVisible();
  await expect(again.locator('.replies .comment', { hasText: `Agreed: ${stamp}` })).toBeVisible();
  await page.goto('/fr/articles/writing-in-plain-text');
  await expect(page.locator('.comment', { hasText: stamp }).first()).toBeVisible();
  expect(errors).toEqual([]);
});

test('in Arabic the thread reads right to left, replies indented from the right', async ({ page }, testInfo) => {
  const errors = watchErrors(page);
  await page.goto('/ar/articles/the-price-of-a-beer');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  const stamp = `تعليق ${Date.now()}`;
  const comment = await postComment(page, stamp);
  await replyTo(page, comment, `ردّ على ${stamp}`);
  await page.reload();
  const parent = page.locator('.comment', { hasText: stamp }).first();
  const reply = parent.locator('.replies .comment').first();
  await expect(reply).toBeVisible();
  await expect(parent.locator('.comment-body').first()).toHaveCSS('direction', 'rtl');
  const [parentBox, replyBox] = await Promise.all([parent.boundingBox(), reply.boundingBox()]);
  if (!parentBox || !replyBox) throw new Error('the comment and its reply must have boxes');
  expect(replyBox.x + replyBox.width).toBeLessThan(parentBox.x + parentBox.width - 4);
  expect(Math.abs(replyBox.x - parentBox.x)).toBeLessThan(2);
  await page.locator('.thread').screenshot({ path: testInfo.outputPath('ar-thread.png') });
  expect(errors).toEqual([]);
});

test('votes on the article and on a comment: vote, unvote and switch, as the API toggles', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/articles/one-site-fifteen-languages');
  const article = page.locator('.article-votes');
  const up = article.locator('.vote[data-vote="1"]');
  const down = article.locator('.vote[data-vote="-1"]');
  const score = article.locator('.score');
  await expect(score).toHaveText('0');
  await up.click();
  await expect(up).toHaveAttribute('aria-pressed', 'true');
  await expect(score).toHaveText('1');
  await up.click();
  await expect(up).toHaveAttribute('aria-pressed', 'false');
  await expect(score).toHaveText('0');
  await down.click();
  await expect(down).toHaveAttribute('aria-pressed', 'true');
  await expect(score).toHaveText('-1');
  await up.click();
  await expect(up).toHaveAttribute('aria-pressed', 'true');
  await expect(down).toHaveAttribute('aria-pressed', 'false');
  await expect(score).toHaveText('1');

  const comment = await postComment(page, `Vote on me ${Date.now()}`);
  const commentUp = comment.locator(':scope > .comment-actions .vote[data-vote="1"]');
  const commentDown = comment.locator(':scope > .comment-actions .vote[data-vote="-1"]');
  await commentDown.click();
  await expect(commentDown).toHaveAttribute('aria-pressed', 'true');
  await expect(comment.locator(':scope > .comment-actions .score')).toHaveText('-1');
  await page.reload();
  const reloaded = page.locator('.article-votes');
  await expect(reloaded.locator('.score')).toHaveText('1');
  await expect(reloaded.locator('.vote[data-vote="1"]')).toHaveAttribute('aria-pressed', 'true');
  const again = page.locator(`#${await comment.getAttribute('id')}`);
  await expect(again.locator(':scope > .comment-actions .vote[data-vote="-1"]')).toHaveAttribute('aria-pressed', 'true');
  await again.locator(':scope > .comment-actions .vote[data-vote="-1"]').click();
  await expect(again.locator(':scope > .comment-actions .score')).toHaveText('0');
  await expect(commentUp).toHaveAttribute('aria-pressed', 'false');
  expect(errors).toEqual([]);
});

test('reader text is shown as text: markup runs nothing, and a long word does not widen a phone screen', async ({ page }) => {
  const errors = watchErrors(page);
  let dialogs = 0;
  page.on('dialog', (dialog) => {
    dialogs += 1;
    void dialog.dismiss();
  });
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto('/articles/a-small-web-server');
  const markup = `<script>alert(1)</script> <img src=x onerror=alert(1)> ${'w'.repeat(300)}`;
  const comment = await postComment(page, markup);
  await expect(comment.locator('.comment-body')).toHaveText(markup);
  await expect(comment.locator('.comment-body img')).toHaveCount(0);
  await page.reload();
  await expect(page.locator('.comment-body', { hasText: 'w'.repeat(300) }).first()).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(320);
  expect(dialogs).toBe(0);
  expect(errors).toEqual([]);
});

/** Comments that try to run script or load something, each its own: a window flag or a dialog tells if any did. */
const XSS_CORPUS = [
  '[a](javascript:window.ran=1) [b](JAVASCRIPT:alert(1)) [c](javascript&#58;window.ran=1)',
  '[d](&#x6A;avascript:window.ran=1) [e](java\tscript:window.ran=1) [f]( javascript:alert(1) )',
  '[g](data:text/html;base64,PHNjcmlwdD53aW5kb3cucmFuPTE8L3NjcmlwdD4=) [h](vbscript:msgbox(1)) [i](//example.org)',
  '<javascript:window.ran=1> <data:text/html,<script>alert(1)</script>>',
  '<script>window.ran=1</script> <svg onload="window.ran=1"></svg> <iframe src="javascript:alert(1)"></iframe>',
  '<img src=x onerror="window.ran=1"> ![x](x" onerror="window.ran=1) ![y](javascript:window.ran=1)',
  '<a href="javascript:window.ran=1">an HTML link</a> <details open ontoggle="window.ran=1">x</details>',
  '[x](https://example.org/"onmouseover="window.ran=1) https://example.org/"onmouseover="window.ran=1',
  '<https://example.org/\'onmouseover=\'alert(1)> [t](https://example.org "t\\" onmouseover=\\"alert(1)")',
  '[[nested](javascript:window.ran=1)](https://example.org/(a)(b)) [x]: javascript:alert(1)',
  '[ref]\n\n[ref]: javascript:window.ran=1',
  '&lt;script&gt;window.ran=1&lt;/script&gt; &#60;img src=x onerror=alert(1)&#62;',
  '`<script>window.ran=1</script>`\n\n```html\n<img src=x onerror=window.ran=1>\n```',
  '*<b onmouseover=window.ran=1>hover</b>* <style>body{display:none}</style> <link rel=stylesheet href=https://example.org/x.css>',
  '# <img src=x onerror=alert(1)>\n\n> <script>alert(1)</script>\n\n- [list](javascript:alert(1))',
];

test('an XSS corpus posted as comments runs nothing, loads nothing, and every link of the thread carries its rel', async ({
  page,
  baseURL,
}) => {
  const errors = watchErrors(page);
  let dialogs = 0;
  page.on('dialog', (dialog) => {
    dialogs += 1;
    void dialog.dismiss();
  });
  const origin = baseURL ?? '';
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(origin)) elsewhere.push(request.url());
  });
  const slug = 'one-site-fifteen-languages';
  for (const body of XSS_CORPUS) {
    const answer = await page.request.post('/api/comments', {
      data: { articleSlug: slug, body },
      headers: { Origin: origin, 'X-Forwarded-For': newReaderAddress() },
    });
    expect(answer.status(), body).toBe(200);
  }
  await page.goto(`/articles/${slug}`);
  await expect(page.locator('.comment', { hasText: 'an HTML link' }).first()).toBeVisible();
  // A reader's Markdown comment through the form: the thread shown after it is the server's render too.
  const stamp = Date.now();
  await page.locator('#comment-body').fill(`**Bold** and [a link](https://example.org/ok) ${stamp}`);
  await page.locator('.comment-form button[type="submit"]').click();
  const posted = page.locator('.comment', { hasText: `Bold and a link ${stamp}` });
  await expect(posted.locator('.comment-body strong')).toHaveText('Bold');
  await expect(posted.locator('.comment-body a')).toHaveAttribute('href', 'https://example.org/ok');
  for (const body of await page.locator('.comment-body').all()) await body.hover();
  await page.reload();
  const thread = page.locator('.thread-body');
  await expect(thread.locator('.comment-body :is(img, svg, iframe, script, style, link, details, h1)')).toHaveCount(0);
  const links = await thread.locator('a').evaluateAll((anchors) =>
    anchors.map((anchor) => ({
      href: anchor.getAttribute('href') ?? '',
      rel: anchor.getAttribute('rel'),
      attributes: anchor.attributes.length,
    })),
  );
  expect(links.length).toBeGreaterThan(4);
  for (const link of links) {
    expect(link.rel, link.href).toBe('nofollow ugc noopener');
    expect(link.href, link.href).toMatch(/^(https?:|mailto:)/);
  }
  expect(await page.evaluate(() => (window as Window & { ran?: unknown }).ran)).toBeUndefined();
  expect(dialogs).toBe(0);
  expect(elsewhere).toEqual([]);
  expect(errors).toEqual([]);
});

test('an empty comment is refused with the field named, and the field focused', async ({ page }) => {
  await page.goto('/articles/a-small-web-server');
  await page.locator('.comment-form button[type="submit"]').click();
  const message = page.locator('.comment-form .form-message');
  await expect(message).toHaveClass(/error/);
  await expect(message).toContainText('body');
  await expect(page.locator('#comment-body')).toBeFocused();
});

test('a comment is clipped to its own box, so a tower of combining marks cannot draw over its neighbours', async ({ page }) => {
  await page.goto('/articles/writing-in-plain-text');
  // Whether marks stack into a tower depends on the font: the rule is checked on the comment as shown, whatever this machine draws.
  const tower = await postComment(page, `Z${'\u0316'.repeat(3000)} ${Date.now()}`);
  const body = tower.locator('.comment-body');
  await expect(body).toHaveCSS('overflow-x', 'clip');
  await expect(body).toHaveCSS('overflow-y', 'clip');
  const [bodyBox, commentBox] = await Promise.all([body.boundingBox(), tower.boundingBox()]);
  if (!bodyBox || !commentBox) throw new Error('the comment and its text must have boxes');
  expect(bodyBox.height).toBeLessThan(commentBox.height);
});

test('a reader’s name is shown in the page’s language, the same words on every page for the same reader', async ({ page }) => {
  const errors = watchErrors(page);
  // A reader of this test's own (the test server trusts one proxy), so that every comment here is theirs.
  await page.context().setExtraHTTPHeaders({ 'X-Forwarded-For': `198.51.100.${String(Date.now() % 250)}` });
  await page.goto('/articles/the-price-of-a-beer');
  const stamp = `Named in every language ${Date.now()}`;
  const english = (await (await postComment(page, stamp)).locator('.comment-author').textContent())?.trim() ?? '';
  expect(english).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
  const shown: Record<string, string> = {};
  for (const [lang, script] of [
    ['fr', /^\p{Script=Latin}[\p{Script=Latin} -]+$/u],
    ['ja', /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー]+$/u],
    ['ar', /^[\p{Script=Arabic} ]+$/u],
  ] as const) {
    await page.goto(`/${lang}/articles/the-price-of-a-beer`);
    const author = page.locator('.comment', { hasText: stamp }).first().locator('.comment-author');
    await expect(author).toHaveText(readerNameIn(english, lang));
    shown[lang] = (await author.textContent())?.trim() ?? '';
    expect(shown[lang]).toMatch(script);
  }
  expect(shown['fr']).not.toBe(english);
  // The same reader on another article, in French: the same words.
  await page.goto('/fr/articles/a-small-web-server');
  const elsewhere = await postComment(page, `${stamp}, again`);
  await expect(elsewhere.locator('.comment-author')).toHaveText(shown['fr'] ?? '');
  expect(errors).toEqual([]);
});

test('the page comes with its thread, readable without JavaScript; the island enhances it without loading its first page again', async ({
  page,
  browser,
  baseURL,
}) => {
  const errors = watchErrors(page);
  const slug = 'only-in-english';
  const stamp = `Served with the page ${Date.now()}`;
  const origin = baseURL ?? '';
  // One more than a page of top-level comments, each from a reader of its own (the test server trusts one proxy), oldest first.
  for (let n = 0; n <= 30; n += 1) {
    const answer = await page.request.post('/api/comments', {
      data: { articleSlug: slug, body: `${stamp} #${n}` },
      headers: { Origin: origin, 'X-Forwarded-For': newReaderAddress() },
    });
    expect(answer.status()).toBe(200);
  }

  const reader = await browser.newContext({ javaScriptEnabled: false, baseURL: origin });
  const plain = await reader.newPage();
  await plain.goto(`/articles/${slug}`);
  await expect(plain.locator('.comment', { hasText: `${stamp} #30` })).toBeVisible();
  await expect(plain.locator('.comment', { hasText: `${stamp} #30` }).locator('.score')).toHaveText('0');
  await expect(plain.locator('.thread-noscript')).toHaveText(
    'Writing a comment or voting needs JavaScript; the article and its comments read without it.',
  );
  await expect(plain.locator('.comment-form')).toBeHidden();
  await expect(plain.locator('.thread .vote').first()).toBeHidden();
  await reader.close();

  const fragments: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.includes('/threads/')) fragments.push(request.url());
  });
  await page.goto(`/articles/${slug}`);
  const newest = page.locator('.comment', { hasText: `${stamp} #30` });
  await expect(newest.locator('time')).toHaveText(/ago|now|second|minute/);
  const up = newest.locator(':scope > .comment-actions .vote[data-vote="1"]');
  await up.click();
  await expect(up).toHaveAttribute('aria-pressed', 'true');
  await expect(newest.locator(':scope > .comment-actions .score')).toHaveText('1');
  await expect(page.locator('.comment', { hasText: `${stamp} #0` })).toHaveCount(0);
  await page.locator('.thread-more').click();
  await expect(page.locator('.comment', { hasText: `${stamp} #0` })).toBeVisible();
  expect(fragments.map((url) => new URL(url).search)).toEqual(['?page=2']);
  await replyTo(page, newest, `A reply to ${stamp}`);
  expect(errors).toEqual([]);
});
