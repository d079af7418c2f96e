import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { access, appendFile, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { request } from '../support/http.ts';
import { copyOfPreparedSite, ROOT, startSite } from '../support/site.ts';

const REVISED = 'the-price-of-a-beer';
const UNTOUCHED = 'a-small-web-server';

/** Runs `command` in `dir`, resolving with its exit code and output. */
function run(dir: string, command: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(command, args, { cwd: dir }, (_error, stdout, stderr) => {
      resolve({ code: child.exitCode, stdout, stderr });
    });
  });
}

/** The translations tool in `dir` (what `npm run translations -- …` runs). */
function translations(dir: string, ...args: string[]) {
  return run(dir, process.execPath, ['scripts/translations.ts', ...args]);
}

/** The marks of one article's row in the table, one per translated language. */
function row(table: string, slug: string): string[] {
  const line = table.split('\n').find((text) => text.startsWith(`${slug} `));
  assert.ok(line, `${slug} in\n${table}`);
  return line.split(/\s+/).slice(1);
}

const ALL_CURRENT = Array<string>(14).fill('✓');
const ALL_OUTDATED = Array<string>(14).fill('!');

interface Item {
  slug: string;
  outdated: boolean;
}

async function outdatedIn(url: string, lang: string): Promise<string[]> {
  const list = (await request(`${url}/api/articles?lang=${lang}`)).json<{ articles: Item[] }>();
  return list.articles.filter((item) => item.outdated).map((item) => item.slug);
}

async function singleOutdated(url: string, slug: string, lang: string): Promise<boolean> {
  return (await request(`${url}/api/articles?slug=${slug}&lang=${lang}`)).json<{ article: Item }>().article.outdated;
}

/** The notice itself (its class is in every article page's style sheet too). */
const SHOWS_NOTICE = /<p class="outdated-notice"/;
const FRENCH_NOTICE =
  /<p class="outdated-notice"[^>]*>L’original anglais a changé depuis que cette traduction a été faite\. <a href="\/articles\/the-price-of-a-beer" hreflang="en"[^>]*>Lire l’original en anglais<\/a><\/p>/;

describe('translation status, from the files alone', () => {
  test('a revised English text makes its translations outdated, on their pages and in the API, until they are marked', async () => {
    const dir = await copyOfPreparedSite();
    await assert.rejects(access(join(dir, '.git')), 'the copy has no git history to read');

    const start = await run(dir, 'npm', ['run', '--silent', 'translations']);
    assert.equal(start.code, 0, start.stderr);
    assert.deepEqual(row(start.stdout, REVISED), ALL_CURRENT, 'the sample articles start current');
    assert.deepEqual(row(start.stdout, 'only-in-english'), Array<string>(14).fill('·'));

    await appendFile(join(dir, `content/articles/${REVISED}/en.md`), '\nA paragraph the writer added after the translations.\n');
    const revised = await translations(dir);
    assert.equal(revised.code, 0, 'outdated translations are news, not a failure');
    assert.deepEqual(row(revised.stdout, REVISED), ALL_OUTDATED);
    assert.deepEqual(row(revised.stdout, UNTOUCHED), ALL_CURRENT);

    const site = await startSite(dir);
    try {
      assert.match(site.output(), /Building the site first/);
      assert.match((await request(`${site.url}/fr/articles/${REVISED}`)).text, FRENCH_NOTICE);
      assert.match((await request(`${site.url}/ar/articles/${REVISED}`)).text, /class="outdated-notice"[^>]*>تغيّر الأصل الإنجليزي/);
      assert.match(
        (await request(`${site.url}/fr/articles/${REVISED}.md`)).text,
        /\n> L’original anglais a changé .*\[Lire l’original en anglais\]\(http:\/\/localhost:4321\/articles\/the-price-of-a-beer\)\n/,
      );
      for (const path of [`/articles/${REVISED}`, `/fr/articles/${UNTOUCHED}`]) {
        assert.doesNotMatch((await request(`${site.url}${path}`)).text, SHOWS_NOTICE, path);
      }
      assert.deepEqual(await outdatedIn(site.url, 'fr'), [REVISED]);
      assert.deepEqual(await outdatedIn(site.url, 'kab'), [REVISED]);
      assert.deepEqual(await outdatedIn(site.url, 'en'), []);
      assert.equal(await singleOutdated(site.url, REVISED, 'ja'), true);
      assert.equal(await singleOutdated(site.url, REVISED, 'en'), false);
      assert.equal(await singleOutdated(site.url, UNTOUCHED, 'ja'), false);
    } finally {
      await site.stop();
    }

    const marked = await translations(dir, 'mark', REVISED, '--all');
    assert.equal(marked.code, 0, marked.stderr);
    assert.match(marked.stdout, /the-price-of-a-beer\/fr: marked current/);
    assert.deepEqual(row((await translations(dir)).stdout, REVISED), ALL_CURRENT);

    const rebuilt = await startSite(dir);
    try {
      assert.match(rebuilt.output(), /Building the site first/);
      assert.doesNotMatch((await request(`${rebuilt.url}/fr/articles/${REVISED}`)).text, SHOWS_NOTICE);
      assert.deepEqual(await outdatedIn(rebuilt.url, 'fr'), []);
      assert.equal(await singleOutdated(rebuilt.url, REVISED, 'ja'), false);
    } finally {
      await rebuilt.stop();
    }
  });

  test('mark refuses what it cannot do, naming it, and changes nothing', async () => {
    const dir = await copyOfPreparedSite();
    const refusals: [string[], number, RegExp][] = [
      [['mark'], 2, /expected mark SLUG/],
      [['mark', REVISED, 'xx'], 2, /"xx" is not one of the language codes/],
      [['mark', REVISED, 'en'], 2, /English is the original/],
      [['mark', 'no-such-article', 'fr'], 1, /no article content\/articles\/no-such-article/],
      [['mark', 'only-in-english', 'fr'], 1, /has no translation in fr/],
      [['unmark'], 2, /unknown command "unmark"/],
    ];
    for (const [args, code, says] of refusals) {
      const answer = await translations(dir, ...args);
      assert.equal(answer.code, code, args.join(' '));
      assert.match(answer.stderr, says, args.join(' '));
    }
    assert.deepEqual(row((await translations(dir)).stdout, REVISED), ALL_CURRENT);
  });

  test('a shallow clone, without the history, gives the statuses a full clone gives', async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'longhand-clones-'));
    try {
      const tables: string[] = [];
      for (const [name, depth] of [
        ['full', []],
        ['shallow', ['--depth', '1']],
      ] as const) {
        const clone = join(scratch, name);
        const cloned = await run(scratch, 'git', ['clone', '--quiet', ...depth, `file://${ROOT}`, clone]);
        assert.equal(cloned.code, 0, cloned.stderr);
        await symlink(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
        const table = await translations(clone);
        assert.equal(table.code, 0, table.stderr);
        tables.push(table.stdout);
      }
      assert.equal((await run(join(scratch, 'shallow'), 'git', ['rev-list', '--count', 'HEAD'])).stdout.trim(), '1');
      assert.equal(tables[1], tables[0]);
      assert.match(tables[0] ?? '', /the-price-of-a-beer/);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
