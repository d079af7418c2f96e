import { expect, test, type Page } from '@playwright/test';
import { freePort } from '../support/ports.ts';
import { copyOfPreparedSite, startSite, type RunningSite } from '../support/site.ts';

/**
 * The site's forms against spam, on a site of this file's own: ALTCHA as the
 * captcha (built into its pages) and a form refused under 4 seconds after
 * its page showed it (the shared server allows any time, FORM_MIN_SECONDS=0).
 */
const MIN_SECONDS = 4;
const ARTICLE = '/articles/the-price-of-a-beer';

let site: RunningSite;
let origin = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  // SITE_URL is the browser's Origin here; it and the provider are built into the pages, so the copy is built again.
  site = await startSite(await copyOfPreparedSite(), {
    PORT: String(port),
    SITE_URL: origin,
    CAPTCHA_PROVIDER: 'altcha',
    FORM_MIN_SECONDS: String(MIN_SECONDS),
  });
});

test.afterAll(async () => {
  await site.stop();
});

async function fillComment(page: Page, text: string): Promise<void> {
  await page.locator('#comment-body').fill(text);
}

/**
 * Resolves once the form's ALTCHA widget has solved its challenge (focus in
 * the form starts it): a write sent then goes out at once, however long the
 * proof of work took on this machine.
 */
async function captchaSolved(page: Page): Promise<void> {
  await page.waitForFunction(
    () => document.querySelector<Element & { getState?: () => string }>('.comment-form altcha-widget')?.getState?.() === 'verified',
    null,
    { timeout: 20_000 },
  );
}

test('ALTCHA on: a comment is posted, and every request the page makes goes to the site itself', async ({ page }) => {
  const requested: string[] = [];
  page.context().on('request', (request) => requested.push(request.url()));
  await page.goto(`${origin}${ARTICLE}`);
  const shown = Date.now();
  const text = `Solved in the browser ${Date.now()}`;
  // The widget is loaded once the form shows; focus in the form then starts its work, which ends verified.
  await page.locator('.comment-form altcha-widget').waitFor();
  await fillComment(page, text);
  await expect(page.locator('.comment-form altcha-widget')).toContainText('Checked', { timeout: 20_000 });
  // A reader takes a few seconds to write; the form is refused sooner.
  await page.waitForTimeout(Math.max(0, shown + MIN_SECONDS * 1000 + 500 - Date.now()));
  await page.locator('.comment-form button[type="submit"]').click();
  await expect(page.locator('.comment-form .form-message')).toHaveText('Posted. Thank you!');
  await expect(page.locator('.comment', { hasText: text })).toBeVisible();
  expect(requested.some((url) => url.endsWith('/captcha/challenge'))).toBe(true);
  expect(requested.some((url) => url.endsWith('/form-stamp'))).toBe(true);
  expect(requested.filter((url) => new URL(url).origin !== origin)).toEqual([]);
});

test('ALTCHA on: a reader already writing when the widget arrives has it solve its challenge all the same', async ({ page }) => {
  // The widget's script held back until the reader is in the form: no focus is left for the widget to see.
  const { promise: released, resolve: release } = Promise.withResolvers<undefined>();
  await page.route(/\/_astro\/altcha\.[^/]*\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto(`${origin}${ARTICLE}`);
  await page.locator('#comment-body').click();
  await page.keyboard.type('Already writing');
  release(undefined);
  await page.locator('.comment-form altcha-widget').waitFor();
  await expect(page.locator('#comment-body')).toBeFocused();
  await expect(page.locator('.comment-form altcha-widget')).toContainText('Checked', { timeout: 20_000 });
});

test('a form sent at once after its page showed it is refused, in the page’s language', async ({ page }) => {
  // The page's stamp held back until the form is sent, its captcha solved: the write then goes out moments after its
  // stamp, however long the proof of work took on this machine (a slow solve would otherwise age the stamp past the
  // limit before the write is sent).
  const { promise: sent, resolve: send } = Promise.withResolvers<undefined>();
  await page.route(/\/form-stamp$/, async (route) => {
    await sent;
    await route.continue();
  });
  await page.goto(`${origin}/fr${ARTICLE}`);
  await fillComment(page, `Trop vite ${Date.now()}`);
  await captchaSolved(page);
  await page.locator('.comment-form button[type="submit"]').click();
  send(undefined);
  const message = page.locator('.comment-form .form-message');
  await expect(message).toHaveText('Envoyé trop tôt après l’ouverture de la page. Attendez quelques secondes et envoyez de nouveau.');
  await expect(message).toHaveClass(/error/);
});

test('a form whose honeypot a robot filled is refused, in the page’s language; people cannot reach the honeypot', async ({ page }) => {
  await page.goto(`${origin}/de${ARTICLE}`);
  const trap = page.locator('.comment-form .form-trap input');
  await expect(trap).toHaveAttribute('tabindex', '-1');
  await expect(page.locator('.comment-form .form-trap')).toHaveAttribute('aria-hidden', 'true');
  expect(await trap.evaluate((input) => input.getBoundingClientRect().right <= 0 || input.getBoundingClientRect().left >= innerWidth)).toBe(
    true,
  );
  await fillComment(page, `Ein Roboter ${Date.now()}`);
  await trap.evaluate((input: HTMLInputElement) => {
    input.value = 'https://spam.example';
  });
  await captchaSolved(page);
  await page.locator('.comment-form button[type="submit"]').click();
  await expect(page.locator('.comment-form .form-message')).toHaveText(
    'Nicht gesendet: Ein für Menschen verborgenes Feld wurde ausgefüllt, vielleicht von einer Autofill-Funktion. Bitte laden Sie die Seite neu und schreiben Sie erneut.',
  );
});
