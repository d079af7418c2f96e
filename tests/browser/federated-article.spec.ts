import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { seriousViolations } from '../support/axe.ts';
import { dataTool } from '../support/data-tool.ts';
import { expectLighthouse100, launchForLighthouse, type LighthouseBrowser } from '../support/lighthouse.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';

/**
 * A Hebrew article as a site with FEDERATION and NEWSLETTER on shows it:
 * the follow line and the subscribe form, a reply from the fediverse and a
 * reader's answer to it, the likes and boosts, and a Webmention. Its store is given them as an owner's import
 * would (the export format, docs/owner.md): what the HTTP tests of the
 * fediverse receive through signed activities. axe finds nothing serious
 * and Lighthouse scores 100, in light and dark.
 */
const SLUG = 'writing-in-plain-text';
const PATH = `/he/articles/${SLUG}`;
/** The origin the prepared site was built with (SITE_URL's default): the pages' own links name it. */
const BUILT_ORIGIN = 'http://localhost:4321';
const REMOTE = 'https://social.example';
const AT = '2026-11-20T10:00:00.000Z';
const HASH = 'KrqQqSzaV12xZV8C-GaNDBuE9aTTSLzLY4qpCliaRRg';

const comment = (id: string, parentId: string | null, author: string, body: string, remote: object | null) => ({
  kind: 'comment',
  comment: { id, articleSlug: SLUG, parentId, depth: parentId ? 2 : 1, author, authorHash: HASH, body, createdAt: AT, score: 0, remote },
});
const reaction = (kind: 'like' | 'boost', actor: string) => ({
  kind: 'reaction',
  item: { articleSlug: SLUG, kind, actorId: `${REMOTE}/users/${actor}`, at: AT },
});
const RECORDS = [
  comment(
    'fediverse-reply-1',
    null,
    'Bob Remote (@bob@social.example)',
    'תשובה מהפדיברס, with [@alice](https://social.example/@alice) and [a link](https://social.example/notes/1)',
    { object: `${REMOTE}/notes/1`, actor: `${REMOTE}/users/bob`, profile: `${REMOTE}/@bob` },
  ),
  comment('local-answer-1', 'fediverse-reply-1', 'Teal Otter', 'A reader answers the **fediverse**.', null),
  reaction('like', 'bob'),
  reaction('like', 'carol'),
  reaction('boost', 'bob'),
  {
    kind: 'mention',
    item: {
      source: 'https://blog.example/2026/a-reply',
      target: `${BUILT_ORIGIN}${PATH}`,
      direction: 'received',
      articleSlug: SLUG,
      lang: 'he',
      status: 'published',
      kind: 'reply',
      authorName: 'Dana Blogger',
      authorUrl: 'https://blog.example/',
      content: 'A reply written on another site.',
      receivedAt: AT,
      settledAt: AT,
      attempts: 0,
      dueAt: null,
    },
  },
];

test.describe.configure({ mode: 'serial' });

/** Both features on; no one subscribes, so nothing is sent to the mail server named. */
const FEATURES = { FEDERATION: 'on', NEWSLETTER: 'on', SMTP_URL: 'smtp://127.0.0.1:9', NEWSLETTER_FROM: 'Longhand <news@example.test>' };

let site: RunningSite | undefined;
const articleUrl = () => `${site?.url ?? ''}${PATH}`;
let lighthouseBrowser: LighthouseBrowser | undefined;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const first = await startSite(PREPARED_SITE, FEATURES);
  await first.stop();
  const file = join(first.dataDir, 'federated-article.jsonl');
  await writeFile(file, RECORDS.map((record) => JSON.stringify(record)).join('\n'));
  const imported = await dataTool({ DATA_DIR: first.dataDir }, 'import', file);
  expect(imported.code, imported.output).toBe(0);
  site = await startSite(PREPARED_SITE, { ...FEATURES, DATA_DIR: first.dataDir });
  lighthouseBrowser = await launchForLighthouse();
});
test.afterAll(async () => {
  await lighthouseBrowser?.browser.close();
  await site?.stop();
});

test('the page shows the follow line, the subscribe form, the fediverse reply and its answer, the reactions and the mention; axe finds nothing serious', async ({
  page,
}) => {
  await page.goto(articleUrl());
  await expect(page.locator('.follow-line bdi')).toHaveText('@he@localhost:4321');
  await expect(page.locator('form[action="/subscribe"] input[type="email"]')).toBeVisible();
  const reply = page.locator('article', { has: page.getByText('Bob Remote (@bob@social.example)') }).first();
  await expect(reply.locator('a.comment-author')).toHaveAttribute('href', `${REMOTE}/@bob`);
  await expect(reply.locator('.comment-body a', { hasText: '@alice' })).toHaveAttribute('rel', 'nofollow ugc noopener');
  await expect(page.getByText('A reader answers the')).toBeVisible();
  await expect(page.locator('.thread-reactions')).toContainText('2');
  await expect(page.locator('.thread-mentions .mention-author')).toHaveText('Dana Blogger');
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await seriousViolations(page), colorScheme).toEqual([]);
  }
});

for (const scheme of ['light', 'dark'] as const) {
  test(`Lighthouse 100 on the same page, ${scheme} mode`, async () => {
    test.setTimeout(600_000);
    await expectLighthouse100(lighthouseBrowser as LighthouseBrowser, articleUrl(), scheme);
  });
}
