import { expect, test, type Page } from '@playwright/test';
import { seriousViolations } from '../support/axe.ts';
import { readMail, type ReadMail } from '../support/mail.ts';
import { startSmtp, type SmtpSink } from '../support/notification-sinks.ts';
import { freePort } from '../support/ports.ts';
import { copyOfPreparedSite, startSite } from '../support/site.ts';
import { until } from '../support/until.ts';

/**
 * A reader of the Arabic pages subscribes to the newsletter, confirms, and
 * later unsubscribes, in the browser, on a site of this file's own: SITE_URL
 * is the browser's Origin and is built into the pages (a copy, built again),
 * NEWSLETTER and FEDERATION on, its emails caught by an SMTP sink. The
 * server's clock is moved (TEST_CLOCK) so that the fixture article of
 * 2099-01-01, written in Arabic, appears after the reader confirmed: its
 * email carries the unsubscribe link.
 */
const READER = 'qari.browser@example.test';
const BEFORE_THE_DATE = '2098-12-31T23:58:00Z';
const ON_THE_DATE = '2099-01-01T00:00:10Z';

let smtp: SmtpSink;
let dir = '';
let port = 0;
let origin = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  smtp = await startSmtp();
  port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  dir = await copyOfPreparedSite();
});

test.afterAll(async () => {
  await smtp.stop();
});

/** The site's settings, its clock at `clock`; the forms post at once here (spam-defence.spec.ts times them). */
function settings(clock: string): Record<string, string> {
  return {
    PORT: String(port),
    SITE_URL: origin,
    NEWSLETTER: 'on',
    FEDERATION: 'on',
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    NEWSLETTER_FROM: 'Longhand <news@example.test>',
    FORM_MIN_SECONDS: '0',
    TEST_CLOCK: clock,
  };
}

async function nthMail(count: number): Promise<ReadMail> {
  await until(() => smtp.messages.length >= count, `email ${count}`, { timeoutMs: 60_000 });
  return readMail(smtp.messages[count - 1] ?? '');
}

/** The first link of the site's under `prefix` in an email's text. */
function linkIn(mail: ReadMail, prefix: string): string {
  const found = new RegExp(`${origin}${prefix}[A-Za-z0-9_~.-]+`).exec(mail.text)?.[0];
  expect(found, `a link under ${prefix}`).toBeTruthy();
  return found ?? '';
}

/** No serious or critical violation on the page as it is, in light mode and in dark. */
async function expectAxeClean(page: Page, what: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await seriousViolations(page), `${what} (${colorScheme})`).toEqual([]);
  }
}

test('from /ar/, subscribe through the form, confirm from the email, then unsubscribe from the article’s email', async ({ page }) => {
  // The copy is built again, then served twice: before the article's date and on it.
  test.setTimeout(300_000);
  const before = await startSite(dir, settings(BEFORE_THE_DATE));
  try {
    await page.goto(`${origin}/ar/`);
    await expect(page.locator('.site-footer .follow-line')).toHaveText(`تابِع على الفيديفيرس: @ar@127.0.0.1:${port}`);
    await expectAxeClean(page, '/ar/ with the form and the follow line');
    await page.getByLabel('عنوان البريد الإلكتروني', { exact: true }).fill(READER);
    const posted = page.waitForRequest((request) => request.url() === `${origin}/subscribe` && request.method() === 'POST');
    await page.getByRole('button', { name: 'اشترك', exact: true }).click();
    const body = new URLSearchParams((await posted).postData() ?? '');
    expect(body.get('email')).toBe(READER);
    expect(body.get('lang')).toBe('ar');
    expect(body.get('formStamp'), 'the script added the page’s stamp').toBeTruthy();
    expect(body.has('honeypot'), 'an empty honeypot is not sent').toBe(false);
    await expect(page).toHaveURL(`${origin}/newsletter/asked?lang=ar`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('تفقّد بريدك الوارد');

    await page.goto(linkIn(await nthMail(1), '/newsletter/confirm/'));
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expectAxeClean(page, 'the confirmation page');
    await page.getByRole('button', { name: 'تأكيد', exact: true }).click();
    await expect(page.getByText(/^تم الاشتراك/)).toBeVisible();
  } finally {
    await before.stop();
  }

  const on = await startSite(dir, { ...settings(ON_THE_DATE), DATA_DIR: before.dataDir });
  try {
    const issue = await nthMail(2);
    expect(issue.headers.get('subject')).toBe('القرن القادم');
    await page.goto(linkIn(issue, '/newsletter/unsubscribe/'));
    await expectAxeClean(page, 'the unsubscribe page');
    await page.getByRole('button', { name: 'إلغاء الاشتراك', exact: true }).click();
    await expect(page.getByText(/^أُلغي الاشتراك/)).toBeVisible();
  } finally {
    await on.stop();
  }
});
