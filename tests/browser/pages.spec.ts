import { expect, test } from '@playwright/test';

test('an Arabic article is laid out right to left', async ({ page }) => {
  await page.goto('/ar/articles/the-price-of-a-beer');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  const heading = page.locator('h1');
  await expect(heading).toHaveCSS('direction', 'rtl');
  // The title starts at the right edge of the column and the list markers sit on the right.
  const box = await heading.boundingBox();
  const main = await page.locator('main').boundingBox();
  if (!box || !main) throw new Error('the title and the main column must have boxes');
  expect(Math.abs(box.x + box.width - (main.x + main.width))).toBeLessThan(2);
  const listItem = page.locator('.prose li').first();
  const paragraph = page.locator('.prose p').first();
  const [itemBox, paragraphBox] = await Promise.all([listItem.boundingBox(), paragraph.boundingBox()]);
  if (!itemBox || !paragraphBox) throw new Error('the list item and the paragraph must have boxes');
  expect(itemBox.x).toBeLessThan(paragraphBox.x + 1);
  // Code stays left to right inside the right-to-left page.
  await expect(page.locator('pre').first()).toHaveCSS('direction', 'ltr');
});

test('an English article is laid out left to right', async ({ page }) => {
  await page.goto('/articles/the-price-of-a-beer');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  const box = await page.locator('h1').boundingBox();
  const main = await page.locator('main').boundingBox();
  if (!box || !main) throw new Error('the title and the main column must have boxes');
  expect(Math.abs(box.x - main.x)).toBeLessThan(2);
});

test('the language switcher leads to the same article in another language', async ({ page }) => {
  await page.goto('/articles/writing-in-plain-text');
  const switcher = page.locator('details.language-switcher');
  await switcher.locator('summary').click();
  await switcher.getByRole('link', { name: 'العربية' }).click();
  await expect(page).toHaveURL(/\/ar\/articles\/writing-in-plain-text$/);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await page.locator('details.language-switcher summary').click();
  await page.locator('details.language-switcher').getByRole('link', { name: 'Français' }).click();
  await expect(page).toHaveURL(/\/fr\/articles\/writing-in-plain-text$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page.locator('details.language-switcher a[aria-current="page"]')).toHaveText('Français');
});

test('on a phone the page fits the screen, in dark mode too', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, colorScheme: 'dark', isMobile: true });
  const page = await context.newPage();
  await page.goto('/he/articles/a-small-web-server');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  expect(background).toBe('rgb(22, 22, 26)');
  await context.close();
});

test('no request leaves the site: no web fonts or scripts from other hosts', async ({ page, baseURL }) => {
  const foreign: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(baseURL ?? '') && !request.url().startsWith('data:')) foreign.push(request.url());
  });
  for (const path of ['/', '/ja/articles/one-site-fifteen-languages', '/ar/projects']) await page.goto(path);
  expect(foreign).toEqual([]);
});
