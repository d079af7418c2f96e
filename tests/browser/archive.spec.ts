import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator } from '@playwright/test';

/** The horizontal middle of an element, in CSS pixels. */
async function middle(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not laid out');
  return box.x + box.width / 2;
}

for (const { path, rtl } of [
  { path: '/archive/2', rtl: false },
  { path: '/ar/archive/2', rtl: true },
  { path: '/he/archive/2', rtl: true },
]) {
  test(`${path}: the pager reads in the text's direction, newer at the start, older at the end`, async ({ page }) => {
    await page.goto(path);
    const pager = page.getByRole('navigation', { name: /./ }).filter({ has: page.locator('a[rel="next"]') });
    const newer = pager.locator('a[rel="prev"]');
    const older = pager.locator('a[rel="next"]');
    const current = pager.locator('a[aria-current="page"]');
    await expect(current).toHaveText(/2|٢/);
    const [start, end] = [await middle(newer), await middle(older)];
    expect(rtl ? start > end : start < end, `newer at ${start}, older at ${end}`).toBe(true);
    // Keyboard order follows the reading order too: newer, the page numbers, then older.
    await newer.focus();
    await page.keyboard.press('Tab');
    await expect(pager.locator('ol a').first()).toBeFocused();
    await older.click();
    await expect(page).toHaveURL(new RegExp(`${path.replace(/2$/, '3')}$`));
    await expect(page.locator('h1')).toHaveCount(1);
  });
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violation on an archive page in Arabic and in English, ${colorScheme} mode`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    for (const path of ['/ar/archive/2', '/archive']) {
      await page.goto(path);
      const { violations } = await new AxeBuilder({ page }).analyze();
      const serious = violations
        .filter(({ impact }) => impact === 'serious' || impact === 'critical')
        .map(({ id, nodes }) => `${id}: ${nodes.map(({ target }) => target.join(' ')).join(', ')}`);
      expect(serious, `${path} (${colorScheme})`).toEqual([]);
    }
  });
}
