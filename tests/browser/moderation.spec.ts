import { expect, test } from '@playwright/test';
import { signingKey } from '../../src/server/identity/signing.ts';
import { moderationToken } from '../../src/server/moderation/links.ts';
import { freePort } from '../support/ports.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { newReaderAddress } from '../support/writes.ts';

/**
 * MODERATION=first in the browser, on a site of its own: a first comment
 * shows as waiting to its writer alone, until the owner approves it from a
 * signed link; then everyone sees it. Each reader comes from an address of
 * its own (X-Forwarded-For, TRUST_PROXY=1).
 */
const SALT = 'browser-moderation-salt-'.padEnd(48, 'z');
const ARTICLE = '/articles/the-price-of-a-beer';

let site: RunningSite;
let origin: string;
test.beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  site = await startSite(PREPARED_SITE, {
    PORT: String(port),
    SITE_URL: origin,
    TRUST_PROXY: '1',
    MODERATION: 'first',
    IP_HASH_SALT: SALT,
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
