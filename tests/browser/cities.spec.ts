import { expect, test } from '@playwright/test';

test('keyboard only: type a city, pick it with the arrow keys, submit the form', async ({ page }) => {
  await page.goto('/cities');
  const combobox = page.getByRole('combobox', { name: 'City' });
  await combobox.focus();
  await page.keyboard.type('zuri');
  const listbox = page.getByRole('listbox');
  await expect(listbox).toBeVisible();
  await expect(combobox).toHaveAttribute('aria-expanded', 'true');
  await expect(listbox.getByRole('option').first()).toContainText('Zürich');
  await page.keyboard.press('ArrowDown');
  await expect(listbox.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
  await expect(combobox).toHaveAttribute('aria-activedescendant', 'city-option-0');
  await page.keyboard.press('Enter');
  await expect(listbox).toBeHidden();
  await expect(combobox).toHaveValue('Zürich');
  await expect(combobox).toHaveAttribute('aria-expanded', 'false');
  // Tab through the rest of the form and type the figures.
  await page.keyboard.press('Tab');
  await page.keyboard.type('CHF');
  await page.keyboard.press('Tab');
  await page.keyboard.type('6200');
  await page.keyboard.press('Tab');
  await page.keyboard.type('2100');
  await page.keyboard.press('Tab');
  await page.keyboard.type('8');
  await page.keyboard.press('Enter');
  await expect(page.locator('city-submission-form .form-message')).toContainText('Zürich');
  await expect(page.locator('city-submission-form .form-message')).not.toHaveClass(/error/);
});

test('Escape closes the list; a refusal is explained, with the wait on 429', async ({ page }) => {
  await page.goto('/fr/cities');
  const combobox = page.locator('#city-input');
  await combobox.fill('lyon');
  await expect(page.getByRole('listbox')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('listbox')).toBeHidden();
  await page.route('**/api/city-submissions', (route) =>
    route.fulfill({
      status: 429,
      headers: { 'Retry-After': '7200', 'Content-Type': 'application/json' },
      body: '{"error":"Quota reached"}',
    }),
  );
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.locator('#net-pay').fill('2400');
  await page.locator('#rent').fill('800');
  await page.locator('#beer-price').fill('6');
  await page.getByRole('button', { name: /./ }).last().click();
  await expect(page.locator('city-submission-form .form-message')).toContainText('2 heures');
});

test('empty figures are named in the message, and the first one gets the focus', async ({ page }) => {
  await page.goto('/cities');
  const combobox = page.locator('#city-input');
  await combobox.fill('lyon');
  await page.getByRole('listbox').getByRole('option').first().click();
  await page.locator('#rent').fill('800');
  await page.getByRole('button', { name: /./ }).last().click();
  await expect(page.locator('city-submission-form .form-message')).toContainText('Monthly net pay');
  await expect(page.locator('city-submission-form .form-message')).toContainText('A 0.5 l beer in a bar');
  await expect(page.locator('city-submission-form .form-message')).not.toContainText('lower than net pay');
  await expect(page.locator('#net-pay')).toBeFocused();
});

test('sending without picking a city says so', async ({ page }) => {
  await page.goto('/cities');
  await page.getByRole('combobox', { name: 'City' }).fill('Atlantis');
  await page.locator('#net-pay').fill('1');
  await page.getByRole('button', { name: /./ }).last().click();
  await expect(page.locator('city-submission-form .form-message')).toHaveClass(/error/);
  await expect(page.getByRole('combobox', { name: 'City' })).toBeFocused();
});

test('on a phone: the list fits the screen and a tap picks the city', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 720 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto('/ar/cities');
  const combobox = page.locator('#city-input');
  await combobox.tap();
  await combobox.fill('sao');
  const option = page.getByRole('listbox').getByRole('option').first();
  await expect(option).toContainText('São Paulo');
  const box = await page.getByRole('listbox').boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 360).toBeTruthy();
  await option.tap();
  await expect(combobox).toHaveValue('São Paulo');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await context.close();
});

test('on /ja/cities, 東京 finds Tokyo by its Japanese name, with the country in Japanese, and the form sends it', async ({ page }) => {
  await page.goto('/ja/cities');
  const combobox = page.locator('#city-input');
  await combobox.focus();
  await page.keyboard.insertText('東京');
  const first = page.getByRole('listbox').getByRole('option').first();
  await expect(first).toHaveText('東京 (Tokyo), Tokyo, 日本');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(combobox).toHaveValue('東京');
  await page.locator('select[name="currency"]').selectOption('JPY');
  await page.locator('input[name="netPay"]').fill('300000');
  await page.locator('input[name="rent"]').fill('90000');
  await page.locator('input[name="beerPrice"]').fill('600');
  const sent = page.waitForResponse((response) => response.url().endsWith('/api/city-submissions'));
  await page.locator('city-submission-form button').click();
  expect((await sent).status()).toBe(200);
  await expect(page.locator('city-submission-form .form-message')).toContainText('東京');
  await expect(page.locator('city-submission-form .form-message')).not.toHaveClass(/error/);
});
