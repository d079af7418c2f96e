import { expect, test } from '@playwright/test';

test('from the French home page, a word only a French article holds finds it, and the hit opens it', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto('/fr/');
  await page.getByRole('link', { name: 'Rechercher' }).click();
  await expect(page).toHaveURL(/\/fr\/search\/?$/);
  const input = page.locator('.pagefind-ui__search-input');
  await expect(input).toBeFocused();
  await page.keyboard.type('bière');
  const hit = page.locator('.pagefind-ui__result-link').first();
  await expect(hit).toHaveAttribute('href', /\/fr\/articles\/the-price-of-a-beer\/?$/);
  await hit.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/fr\/articles\/the-price-of-a-beer\/?$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  expect(errors).toEqual([]);
});

test('the same word from the English search finds nothing: each language has its own index', async ({ page }) => {
  await page.goto('/search');
  await page.locator('.pagefind-ui__search-input').fill('bière');
  await expect(page.locator('.pagefind-ui__message')).toBeVisible();
  await expect(page.locator('.pagefind-ui__result-link')).toHaveCount(0);
  // The English index answers English words.
  await page.locator('.pagefind-ui__search-input').fill('beer');
  await expect(page.locator('.pagefind-ui__result-link').first()).toHaveAttribute('href', /^\/articles\//);
});
