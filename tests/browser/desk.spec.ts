import { readFile } from 'node:fs/promises';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { seriousViolations } from '../support/axe.ts';
import { freePort } from '../support/ports.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { newReaderAddress } from '../support/writes.ts';

/**
 * The owner's desk in the browser, on a site of its own under
 * MODERATION=first: readers comment from the article pages, each from an
 * address of its own (X-Forwarded-For, TRUST_PROXY=1), and the owner works
 * at the desk's own listener (OWNER_PORT) while the site runs.
 */
const BEER = 'the-price-of-a-beer';
const SERVER = 'a-small-web-server';

let site: RunningSite;
let origin: string;
let desk: string;
test.beforeAll(async () => {
  const [port, ownerPort] = [await freePort(), await freePort()];
  origin = `http://127.0.0.1:${port}`;
  desk = `http://127.0.0.1:${ownerPort}`;
  site = await startSite(PREPARED_SITE, {
    PORT: String(port),
    SITE_URL: origin,
    TRUST_PROXY: '1',
    MODERATION: 'first',
    FORM_MIN_SECONDS: '0',
    OWNER_PORT: String(ownerPort),
  });
});
test.afterAll(async () => {
  await site.stop();
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
  const now = Date.now();
  const first = `A first thought on beer ${now}`;
  const spam = `Buy cheap watches ${now}`;
  await commentAs(browser, newReaderAddress(), BEER, first);
  const spammerAddress = newReaderAddress();
  const spammer = await commentAs(browser, spammerAddress, SERVER, spam);

  const owner = await browser.newContext({ acceptDownloads: true });
  const page = await owner.newPage();
  await page.goto(`${desk}/`);
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
  await page.goto(`${desk}/`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export the store' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^longhand-export-\d{4}-\d{2}-\d{2}\.ndjson$/);
  const exported = await readFile(await download.path(), 'utf8');
  expect(exported).toContain(first);
  expect(exported.split('\n')[0]).toContain('"kind":"salt"');
  await owner.close();
});
