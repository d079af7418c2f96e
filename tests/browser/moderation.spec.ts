import { readFile } from 'node:fs/promises';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { signingKey } from '../../src/server/identity/signing.ts';
import { moderationToken } from '../../src/server/owner/moderation-links.ts';
import { seriousViolations } from '../support/axe.ts';
import { freePort } from '../support/ports.ts';
import { copyOfPreparedSite, startSite, type RunningSite } from '../support/site.ts';
import { newReaderAddress } from '../support/writes.ts';

/**
 * MODERATION=first in the browser, on a site of its own, with the owner's
 * desk on its own listener (OWNER_PORT): a first comment
 * shows as waiting to its writer alone, until the owner approves it from a
 * signed link; then everyone sees it. Each reader comes from an address of
 * its own (X-Forwarded-For, TRUST_PROXY=1).
 */
const SALT = 'browser-moderation-salt-'.padEnd(48, 'z');
const ARTICLE = '/articles/the-price-of-a-beer';
const BEER = 'the-price-of-a-beer';
const SERVER = 'a-small-web-server';

let site: RunningSite;
let origin: string;
/** The owner's desk of this site (OWNER_PORT). */
let deskUrl: string;

// One site for the file's tests, built once.
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const [port, ownerPort] = [await freePort(), await freePort()];
  origin = `http://127.0.0.1:${port}`;
  deskUrl = `http://127.0.0.1:${ownerPort}`;
  // SITE_URL is the browser's Origin here and is built into the pages: a copy, built again, never the shared site.
  site = await startSite(await copyOfPreparedSite(), {
    PORT: String(port),
    SITE_URL: origin,
    TRUST_PROXY: '1',
    MODERATION: 'first',
    IP_HASH_SALT: SALT,
    // The forms post at once here; the spam defence's own spec times them.
    FORM_MIN_SECONDS: '0',
    OWNER_PORT: String(ownerPort),
  });
});
test.afterAll(async () => {
  await site.stop();
});

test('a first comment waits, seen by its writer only, until approved from a signed link; then by everyone', async ({ browser }) => {
  const writer = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': newReaderAddress() } });
  const reader = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': newReaderAddress() } });
  const owner = await browser.newContext();
  const stamp = `My first comment here ${Date.now()}`;

  const page = await writer.newPage();
  await page.goto(`${origin}${ARTICLE}`);
  await page.locator('#comment-body').fill(stamp);
  await page.locator('.comment-form button[type="submit"]').click();
  await expect(page.locator('.comment-form .form-message')).toHaveText(/once it is approved/);
  const waiting = page.locator('.comment-waiting', { hasText: stamp });
  await expect(waiting).toBeVisible();
  await expect(waiting.locator('.comment-meta')).toHaveText(/Waiting for approval/);
  await expect(waiting.locator('.vote, .reply')).toHaveCount(0);
  await page.reload();
  await expect(page.locator('.comment-waiting', { hasText: stamp })).toBeVisible();

  const other = await reader.newPage();
  await other.goto(`${origin}${ARTICLE}`);
  await expect(other.locator('.thread-controls')).toBeVisible();
  await expect(other.locator('.thread', { hasText: stamp })).toHaveCount(0);

  const id = await page.evaluate(() => (JSON.parse(localStorage.getItem('longhand.waitingComments') ?? '[]') as { id: string }[])[0]?.id);
  expect(id).toBeTruthy();
  const link = `${origin}/moderation/${moderationToken(signingKey(SALT, 'moderation-link'), 'approve', id ?? '', Date.now() + 60_000)}`;
  const desk = await owner.newPage();
  await desk.goto(link);
  await expect(desk.locator('h1')).toHaveText('Approve?');
  await expect(desk.locator('blockquote')).toHaveText(stamp);
  await other.reload();
  await expect(other.locator('.thread', { hasText: stamp })).toHaveCount(0);
  await desk.getByRole('button', { name: 'Approve' }).click();
  await expect(desk.locator('h1')).toHaveText('Done');

  await other.reload();
  await expect(other.locator(`.comment[data-comment-id="${id ?? ''}"]`, { hasText: stamp })).toBeVisible();
  await page.reload();
  await expect(page.locator(`.comment[data-comment-id="${id ?? ''}"]`, { hasText: stamp })).toBeVisible();
  await expect(page.locator('.comment-waiting')).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('longhand.waitingComments'))).toBe('[]');
  await Promise.all([writer.close(), reader.close(), owner.close()]);
});

/** A reader of its own, who comments on `slug` from its page and stays on it. */
async function commentAs(browser: Browser, address: string, slug: string, text: string): Promise<Page> {
  const reader = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': address } });
  const page = await reader.newPage();
  await page.goto(`${origin}/articles/${slug}`);
  await page.locator('#comment-body').fill(text);
  await page.locator('.comment-form button[type="submit"]').click();
  await expect(page.locator('.comment-form .form-message')).toHaveText(/once it is approved/);
  return page;
}

/** The desk's list item of the comment that says `text`. */
const itemOf = (page: Page, text: string) => page.locator('ol.items > li', { hasText: text });

test('the desk lists what waits, filters, approves, deletes, bans and exports while the site runs, axe-clean', async ({ browser }) => {
  // A walk through every action of the desk, with two axe runs and three browser contexts: more than the usual
  // time allows on a loaded machine.
  test.slow();
  const now = Date.now();
  const first = `A first thought on beer ${now}`;
  const spam = `Buy cheap watches ${now}`;
  await commentAs(browser, newReaderAddress(), BEER, first);
  const spammerAddress = newReaderAddress();
  const spammer = await commentAs(browser, spammerAddress, SERVER, spam);

  const owner = await browser.newContext({ acceptDownloads: true });
  const page = await owner.newPage();
  await page.goto(`${deskUrl}/`);
  await expect(page.locator('h1')).toHaveText('Comments');
  await expect(itemOf(page, first)).toContainText('waiting for approval');
  await expect(itemOf(page, spam)).toContainText('waiting for approval');
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await seriousViolations(page), `the desk (${colorScheme})`).toEqual([]);
  }

  // Filters, by keyboard: what waits, on one article.
  await page.getByLabel('Show').selectOption('waiting');
  await page.getByLabel('Article (its slug)').fill(BEER);
  await page.getByLabel('Article (its slug)').press('Enter');
  await expect(itemOf(page, first)).toBeVisible();
  await expect(itemOf(page, spam)).toHaveCount(0);

  // Approve in place: another reader, who did not see it, sees it on the article.
  const reader = await (await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': newReaderAddress() } })).newPage();
  await reader.goto(`${origin}/articles/${BEER}`);
  await expect(reader.locator('.thread-controls')).toBeVisible();
  await expect(reader.locator('.comment', { hasText: first })).toHaveCount(0);
  await itemOf(page, first).getByRole('button', { name: 'Approve' }).click();
  await expect(page.locator('.notice')).toContainText('approved');
  await expect(itemOf(page, first)).toHaveCount(0);
  await reader.reload();
  await expect(reader.locator('.comment', { hasText: first })).toBeVisible();

  // Ban and delete in place, from the reader's own list: a waiting comment deleted is gone.
  await page.getByRole('link', { name: 'Every comment' }).click();
  await itemOf(page, spam).getByRole('link', { name: "This reader's comments" }).click();
  await expect(page.locator('ol.items > li')).toHaveCount(1);
  await itemOf(page, spam).getByRole('button', { name: 'Ban the reader' }).click();
  await expect(page.locator('.notice')).toContainText('banned');
  await expect(itemOf(page, spam)).toContainText('reader banned');
  await itemOf(page, spam).getByRole('button', { name: 'Delete' }).click();
  await expect(page.locator('.notice')).toContainText('deleted');
  await expect(itemOf(page, spam)).toHaveCount(0);
  await spammer.locator('#comment-body').fill(`Once more ${now}`);
  await spammer.locator('.comment-form button[type="submit"]').click();
  await expect(spammer.locator('.comment-form .form-message')).toHaveClass(/error/);

  // Export while the site runs.
  await page.goto(`${deskUrl}/`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export the store' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^longhand-export-\d{4}-\d{2}-\d{2}\.ndjson$/);
  const exported = await readFile(await download.path(), 'utf8');
  expect(exported).toContain(first);
  // IP_HASH_SALT is set here: the salt stays in the settings, and the export holds the records only (with the
  // moderation links used by the test before, which travel so that they stay used, and the articles' appearances,
  // recorded at start so that a newsletter turned on later sends none of them).
  const kinds = new Set(
    exported
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { kind: string }).kind),
  );
  kinds.delete('spentLink');
  expect([...kinds].sort()).toEqual(['appearance', 'ban', 'comment']);
  await owner.close();
});

test('a first topic request waits, shown as waiting to its writer only, until the owner approves it from the desk', async ({ browser }) => {
  const writer = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': newReaderAddress() } });
  const reader = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': newReaderAddress() } });
  const owner = await browser.newContext();
  const title = `Night trains, asked ${Date.now()}`;

  const page = await writer.newPage();
  await page.goto(`${origin}/answers`);
  await page.locator('#request-title').fill(title);
  await page.locator('.topic-request button[type="submit"]').click();
  await expect(page.locator('.topic-request .form-message')).toHaveText(/once it is approved/);
  const waiting = page.locator('waiting-topic-requests li', { hasText: title });
  await expect(waiting).toBeVisible();
  await expect(waiting.locator('.status')).toHaveText(/waiting for approval/);
  await page.reload();
  await expect(page.locator('waiting-topic-requests li', { hasText: title })).toBeVisible();
  await expect(page.locator('[data-topic-request]', { hasText: title })).toHaveCount(0);

  const other = await reader.newPage();
  await other.goto(`${origin}/answers`);
  await expect(other.locator('main', { hasText: title })).toHaveCount(0);
  expect((await (await fetch(`${origin}/answers.md`)).text()).includes(title)).toBe(false);

  const desk = await owner.newPage();
  await desk.goto(`${deskUrl}/requests`);
  const item = desk.locator('li', { has: desk.getByRole('heading', { name: title }) });
  await expect(item).toContainText('waiting for approval');
  await item.getByRole('button', { name: 'Approve' }).click();
  await expect(desk.locator('.notice')).toContainText('approved');

  await other.reload();
  await expect(other.locator('[data-topic-request]', { hasText: title })).toBeVisible();
  await page.reload();
  await expect(page.locator('[data-topic-request]', { hasText: title })).toBeVisible();
  await expect(page.locator('waiting-topic-requests li')).toHaveCount(0);
  await Promise.all([writer.close(), reader.close(), owner.close()]);
});
