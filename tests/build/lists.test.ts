import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ARCHIVE_PAGE_SIZE, FEED_LATEST, HOME_LATEST } from '../../src/server/articles/lists.ts';
import { archivePath, homePath, rssPath } from '../../src/server/http/site-paths.ts';
import { request } from '../support/http.ts';
import { readUrlset } from '../support/sitemap-shape.ts';
import { addFiles, copyProject, startSite, type RunningSite } from '../support/site.ts';

/**
 * The real sizes (src/server/articles/lists.ts), on a copy of the project
 * with more articles than a feed carries and two archive pages hold: 37
 * generated ones, in English, French and Arabic, besides the four real ones.
 * The HTTP tests check the same rules on the test site's smaller sizes.
 */
const GENERATED = 37;
const LANGUAGES = ['en', 'fr', 'ar'] as const;

function generated(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let number = 1; number <= GENERATED; number += 1) {
    const day = `2025-${String(Math.ceil(number / 28)).padStart(2, '0')}-${String(((number - 1) % 28) + 1).padStart(2, '0')}`;
    for (const lang of LANGUAGES)
      files[`content/articles/generated-${number}/${lang}.md`] =
        `---\ntitle: "Generated ${number} (${lang})"\ndate: ${day}\nexcerpt: "Article ${number}, in ${lang}."\n---\n\nText ${number}.\n`;
  }
  return files;
}

let site: RunningSite;
before(async () => {
  const dir = await copyProject('many-articles');
  await addFiles(dir, generated());
  site = await startSite(dir);
});
after(async () => {
  await site.stop();
});

function listed(html: string): string[] {
  const main = /<main[^>]*>([\s\S]*?)<\/main>/.exec(html)?.[1] ?? '';
  return [...main.matchAll(/<h[23][^>]*>\s*<a href="([^"]+)"/g)].map((match) => match[1] ?? '');
}

test('at the real sizes: the home page shows the latest, the archive pages hold every article once, the feeds the latest, the sitemap stays one', async () => {
  for (const lang of LANGUAGES) {
    const { articles } = (await request(`${site.url}/api/articles?lang=${lang}`)).json<{ articles: { url: string }[] }>();
    const all = articles.map(({ url }) => new URL(url).pathname);
    assert.equal(all.length, GENERATED + 4, 'the API still answers every article');
    assert.ok(all.length > FEED_LATEST && all.length > 2 * ARCHIVE_PAGE_SIZE);

    assert.deepEqual(listed((await request(`${site.url}${homePath(lang)}`)).text), all.slice(0, HOME_LATEST), `${lang} home`);

    const seen: string[] = [];
    const pages = Math.ceil(all.length / ARCHIVE_PAGE_SIZE);
    for (let number = 1; number <= pages; number += 1) {
      const answer = await request(`${site.url}${archivePath(lang, number)}`);
      assert.equal(answer.status, 200, archivePath(lang, number));
      seen.push(...listed(answer.text));
    }
    assert.equal((await request(`${site.url}${archivePath(lang, pages + 1)}`)).status, 404);
    assert.deepEqual(seen, all, `${lang}: every article once, newest first`);

    const feed = (await request(`${site.url}${rssPath(lang)}`)).text;
    const items = [...feed.matchAll(/<item>\s*<title>[^<]*<\/title>\s*<link>([^<]+)<\/link>/g)].map(
      (match) => new URL(match[1] ?? '').pathname,
    );
    assert.deepEqual(items, all.slice(0, FEED_LATEST), `${lang} feed`);
  }
  const sitemap = (await request(`${site.url}/sitemap.xml`)).text;
  const urls = readUrlset(sitemap).map(({ loc }) => new URL(loc).pathname);
  assert.ok(urls.includes('/ar/archive/3') && urls.includes('/fr/articles/generated-1'), 'one sitemap lists every page');
  assert.equal((await request(`${site.url}/sitemaps/1.xml`)).status, 404, 'no part while one sitemap holds every page');
});
