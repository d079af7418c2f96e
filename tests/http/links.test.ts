import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { LANGUAGE_CODES } from '../../src/i18n/languages.ts';
import { request } from '../support/http.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';

let site: RunningSite;
before(async () => {
  site = await startSite(PREPARED_SITE);
});
after(async () => {
  await site.stop();
});

function languageOfPath(path: string): string {
  const first = path.split('/')[1] ?? '';
  return (LANGUAGE_CODES as readonly string[]).includes(first) ? first : 'en';
}

/**
 * Crawls the site from every home page: every internal link and image must
 * answer 200, and a link inside an article's text must stay in the article's
 * language, so a translation never sends its reader back to English.
 */
test('every internal link and image resolves, and article text links stay in their language', async () => {
  const queue = LANGUAGE_CODES.map((lang) => (lang === 'en' ? '/' : `/${lang}/`));
  const seen = new Set(queue);
  const problems: string[] = [];
  while (queue.length > 0) {
    const path = queue.shift() ?? '/';
    const answer = await request(`${site.url}${path}`);
    if (answer.status !== 200) {
      problems.push(`${path} answered ${answer.status}`);
      continue;
    }
    if (!String(answer.headers['content-type']).startsWith('text/html')) continue;
    const prose = /<div class="prose">([\s\S]*?)<\/div>\s*<nav class="translations"/.exec(answer.text)?.[1] ?? '';
    for (const [, href = ''] of prose.matchAll(/<a href="(\/[^"]*)"/g)) {
      if (languageOfPath(href) !== languageOfPath(path)) problems.push(`${path} links out of its language to ${href}`);
    }
    for (const [, target = ''] of answer.text.matchAll(/(?:href|src)="(\/[^"#]*)/g)) {
      if (seen.has(target)) continue;
      seen.add(target);
      queue.push(target);
    }
  }
  assert.deepEqual(problems, []);
  assert.ok(seen.size > 15 * 6, `crawled ${seen.size} paths`);
});
