import { expect, test } from '@playwright/test';
import { seriousViolations } from '../support/axe.ts';

const PAGES = ['/', '/articles/writing-in-plain-text', '/ar/articles/the-price-of-a-beer', '/cities', '/answers', '/developers'];
/** Pages checked for console errors besides those axe visits. */
const MORE_PAGES = [
  '/fr/',
  '/ja/articles/one-site-fifteen-languages',
  '/he/cities',
  '/kab/answers',
  '/search',
  '/projects',
  '/no-such-page',
];

for (const colorScheme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violation, ${colorScheme} mode, and no page logs an error`, async ({ page }) => {
    // Thirteen pages, six of them checked by axe: 27–33 s on a busy 2-core machine, past the 30 s a test gets by default.
    test.setTimeout(120_000);
    const errors: string[] = [];
    page.on('console', (message) => {
      // The missing page answers 404 on purpose; the browser reports that status, which is no fault of the page.
      if (message.type() === 'error' && !message.text().includes('404')) errors.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
    await page.emulateMedia({ colorScheme });
    // An Arabic article with a thread: a comment and a reply to it in Markdown, shown as readers see them.
    await page.goto('/ar/articles/the-price-of-a-beer');
    await page
      .locator('#comment-body')
      .fill(
        `تعليق **للفحص** ${colorScheme}\n\n> اقتباس مع \`code\` و [رابط](https://example.org/${colorScheme})\n\n- أولًا\n- ~~ثانيًا~~ *ثالثًا*`,
      );
    await page.locator('.comment-form button[type="submit"]').click();
    const comment = page.locator('.comment', { hasText: `تعليق للفحص ${colorScheme}` }).first();
    await expect(comment).toBeVisible();
    await comment.locator(':scope > .comment-actions .reply').click();
    // Its own text: the two modes run side by side as one reader, who may not send the same text twice in a row.
    await comment
      .locator('form.reply-form textarea')
      .fill(`ردّ ${colorScheme}\n\n\`\`\`\nconst beer = 1;\n\`\`\`\n\n1. https://example.org/${colorScheme}`);
    await comment.locator('form.reply-form button[type="submit"]').click();
    await expect(comment.locator('.replies .comment')).toBeVisible();
    for (const path of PAGES) {
      await page.goto(path);
      // Wait for the islands: the thread's fragment where there is one.
      if (path.includes('/articles/')) await expect(page.locator('.thread-page')).toBeAttached();
      expect(await seriousViolations(page), `${path} (${colorScheme})`).toEqual([]);
    }
    for (const path of MORE_PAGES) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
    }
    expect(errors).toEqual([]);
  });
}

test('the search page names its input with a visible label that axe accepts, in English, Arabic and Kabyle', async ({ page }) => {
  for (const [path, label] of [
    ['/search', 'Words to search for'],
    ['/ar/search', 'كلمات البحث'],
    ['/kab/search', 'Awalen n unadi'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByLabel(label, { exact: true })).toBeFocused();
    await expect(page.getByText(label, { exact: true })).toBeVisible();
    expect(await seriousViolations(page), path).toEqual([]);
  }
});
