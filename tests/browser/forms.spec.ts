import { expect, test } from '@playwright/test';
import { storedItems } from '../support/stored.ts';

test('a topic request sent from /answers is listed there, as pending, at once and after a reload', async ({ page }) => {
  await page.goto('/fr/answers');
  await expect(page.locator('h1')).toHaveText('Sujets proposés');
  const title = `Les trains de nuit ${Date.now()}`;
  await page.locator('#request-title').fill(title);
  await page.locator('#request-details').fill('Lesquels roulent encore ?');
  await page.locator('.topic-request button[type="submit"]').click();
  await expect(page.locator('.topic-request .form-message')).toHaveText('Merci : votre sujet est dans la liste.');
  await page.reload();
  const item = page.locator('.topic-requests li', { hasText: title });
  await expect(item).toBeVisible();
  await expect(item.locator('.status')).toHaveText('en attente');
  await page.goto('/answers');
  await expect(page.locator('.topic-requests li', { hasText: title }).locator('.status')).toHaveText('pending');
});

test('once the quota is used up, the next topic request is refused with the time to wait', async ({ page }) => {
  // A reader of its own (a documentation address), so the other tests keep their quota.
  await page.context().setExtraHTTPHeaders({ 'X-Forwarded-For': `203.0.113.${String(Date.now() % 250)}` });
  await page.goto('/answers');
  const send = page.locator('.topic-request button[type="submit"]');
  const message = page.locator('.topic-request .form-message');
  const statuses: number[] = [];
  for (let sent = 0; sent < 6; sent += 1) {
    await page.locator('#request-title').fill(`Quota topic ${String(sent)} ${String(Date.now())}`);
    const answered = page.waitForResponse((answer) => answer.url().endsWith('/api/topic-requests') && answer.request().method() === 'POST');
    await send.click();
    statuses.push((await answered).status());
    await expect(send).toBeEnabled();
  }
  expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  await expect(message).toHaveText(/^Too many at once: you can write again .*\d.*\.$/);
  await expect(message).toHaveClass(/error/);
});

test('a title too short is refused with the field named and focused', async ({ page }) => {
  await page.goto('/answers');
  await page.locator('#request-title').fill('No');
  await page.locator('.topic-request button[type="submit"]').click();
  await expect(page.locator('.topic-request .form-message')).toContainText('requestTitle');
  await expect(page.locator('#request-title')).toBeFocused();
});

test('a bug report sent from an article’s footer is stored with that page’s path', async ({ page }) => {
  await page.goto('/articles/the-price-of-a-beer');
  await page.locator('.bug-report summary').click();
  const description = `The table overflows ${Date.now()}`;
  await page.locator('#bug-description').fill(description);
  await page.locator('.bug-report button[type="submit"]').click();
  await expect(page.locator('.bug-report .form-message')).toHaveText('Thank you: the report is sent.');
  await expect
    .poll(
      async () =>
        (await storedItems(process.env['BROWSER_DATA_DIR'] ?? '', 'bug-reports')).find((report) => report['description'] === description)?.[
          'pagePath'
        ],
    )
    .toBe('/articles/the-price-of-a-beer');
});

test('a long unbroken topic title wraps inside the column', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 700 });
  await page.goto('/answers');
  await page.locator('#request-title').fill('x'.repeat(200));
  await page.locator('.topic-request button[type="submit"]').click();
  await expect(page.locator('.topic-request .form-message')).not.toHaveClass(/error/);
  await page.reload();
  await expect(page.locator('.topic-requests h2', { hasText: 'x'.repeat(200) })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

test('a refusal is told in the page’s language: the wait of a 429, the reference of a 5xx', async ({ page }) => {
  await page.goto('/de/answers');
  let answer: { status: number; headers: Record<string, string>; body: Record<string, string> } = {
    status: 429,
    headers: { 'Retry-After': '7200' },
    body: { error: 'Quota reached for topic-requests; try again later' },
  };
  await page.route('**/api/topic-requests', (route) =>
    route.fulfill({ status: answer.status, headers: answer.headers, contentType: 'application/json', body: JSON.stringify(answer.body) }),
  );
  await page.locator('#request-title').fill('Nachtzüge');
  await page.locator('.topic-request button[type="submit"]').click();
  const message = page.locator('.topic-request .form-message');
  await expect(message).toHaveText('Zu viele auf einmal: Sie können in 2 Stunden wieder schreiben.');
  answer = { status: 503, headers: {}, body: { error: 'The rate limits could not be checked', requestId: 'abc-123' } };
  await page.locator('.topic-request button[type="submit"]').click();
  await expect(message).toContainText('abc-123');
  await expect(message).toHaveClass(/error/);
});
