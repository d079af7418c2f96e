import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FOLLOW_WORDS } from '../../src/i18n/follow-words.ts';
import type { LanguageCode } from '../../src/i18n/languages.ts';
import { submittedForm } from '../support/html-form.ts';
import { request } from '../support/http.ts';
import { readMail } from '../support/mail.ts';
import { startSmtp, type SmtpSink } from '../support/notification-sinks.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { until } from '../support/until.ts';

/**
 * The pages of a site that follows: the footer's fediverse line and the
 * newsletter's subscribe form. The prepared site is built with FEDERATION
 * and NEWSLETTER on (tests/support/prepared-build.ts), so its built pages
 * (articles, projects) carry both whatever the server runs with; a page
 * rendered on demand (a home page) reads the settings as the build does, at
 * its render, so a server with them off shows what a build with them off
 * bakes in.
 */
const ORIGIN = 'http://localhost:4321';
const ARTICLE = 'the-price-of-a-beer';
const FOLLOW_LINE = /<p class="follow-line">([^<]*) <bdi dir="ltr" translate="no">([^<]*)<\/bdi><\/p>/;

/** The follow line of a page, its words and handle; null when the page has none. */
async function followLine(site: RunningSite, path: string): Promise<{ words: string; handle: string } | null> {
  const page = await request(`${site.url}${path}`);
  assert.equal(page.status, 200, path);
  const footer = /<footer class="site-footer">[\s\S]*<\/footer>/.exec(page.text)?.[0] ?? '';
  const found = FOLLOW_LINE.exec(footer);
  return found ? { words: found[1] ?? '', handle: found[2] ?? '' } : null;
}

describe('a site served with FEDERATION and NEWSLETTER off, from a build that had them on', () => {
  let site: RunningSite;
  before(async () => {
    site = await startSite(PREPARED_SITE);
  });
  after(() => site.stop());

  test("each built page's footer names the actor of its language, in its language", async () => {
    const expected = {
      [`/articles/${ARTICLE}`]: { words: 'Follow on the fediverse:', handle: '@en@localhost:4321' },
      [`/fr/articles/${ARTICLE}`]: { words: 'Suivre sur le fédivers\u00a0:', handle: '@fr@localhost:4321' },
      [`/ar/articles/${ARTICLE}`]: { words: 'تابِع على الفيديفيرس:', handle: '@ar@localhost:4321' },
      '/kab/projects': { words: 'Ḍfeṛ deg fediverse:', handle: '@kab@localhost:4321' },
    };
    assert.doesNotMatch(site.output(), /Building the site first/, 'served as built');
    for (const [path, line] of Object.entries(expected)) assert.deepEqual(await followLine(site, path), line, path);
    assert.match((await request(`${site.url}/ar/articles/${ARTICLE}`)).text, /<html lang="ar" dir="rtl">/);
  });

  test('a page rendered with them off has neither the follow line nor the form', async () => {
    assert.equal(await followLine(site, '/fr/'), null);
    assert.doesNotMatch((await request(`${site.url}/fr/`)).text, /action="\/subscribe"/);
    assert.match((await request(`${site.url}/fr/articles/${ARTICLE}`)).text, /action="\/subscribe"/, 'the built article has it');
  });
});

describe('a site served with FEDERATION and NEWSLETTER on', () => {
  let site: RunningSite;
  let smtp: SmtpSink;
  before(async () => {
    smtp = await startSmtp();
    site = await startSite(PREPARED_SITE, {
      FEDERATION: 'on',
      NEWSLETTER: 'on',
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      NEWSLETTER_FROM: 'Longhand <news@example.test>',
    });
  });
  after(async () => {
    await site.stop();
    await smtp.stop();
  });

  test('the home page names its actor, which WebFinger finds by that handle', async () => {
    assert.deepEqual(await followLine(site, '/fr/'), { words: 'Suivre sur le fédivers\u00a0:', handle: '@fr@localhost:4321' });
    const found = await request(`${site.url}/.well-known/webfinger?resource=acct:fr@localhost:4321`);
    assert.equal(found.status, 200);
    assert.equal(found.json()['subject'], 'acct:fr@localhost:4321');
  });

  test('the form of a home page and of an article, posted as a browser without JavaScript posts it: 303, one confirmation', async () => {
    const cases: { path: string; lang: LanguageCode; email: string; subject: RegExp }[] = [
      { path: '/ar/', lang: 'ar', email: 'home.reader@example.test', subject: /^أكّد اشتراكك في / },
      { path: `/fr/articles/${ARTICLE}`, lang: 'fr', email: 'article.reader@example.test', subject: /^Confirmez votre abonnement à / },
    ];
    for (const [index, { path, lang, email, subject }] of cases.entries()) {
      const page = (await request(`${site.url}${path}`)).text;
      assert.match(page, /<label for="subscribe-email"[^>]*>[^<]+<\/label><input id="subscribe-email" type="email" name="email" required/);
      assert.ok(page.includes(`<p id="subscribe-kept" class="hint"`) && page.includes(FOLLOW_WORDS[lang].kept), 'what is kept, and why');
      const form = submittedForm(page, '/subscribe', { email });
      assert.equal(form.method, 'POST');
      assert.deepEqual(
        [...form.body],
        [
          ['email', email],
          ['lang', lang],
        ],
      );
      const answer = await request(`${site.url}${form.action}`, {
        method: form.method,
        headers: { Origin: ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: form.body.toString(),
      });
      assert.equal(answer.status, 303, path);
      assert.equal(answer.headers.location, `/newsletter/asked?lang=${lang}`);
      await until(() => smtp.messages.length === index + 1, `the confirmation of ${path}`);
      const mail = readMail(smtp.messages[index] ?? '');
      assert.match(mail.headers.get('to') ?? '', new RegExp(email.replaceAll('.', '\\.')));
      assert.match(mail.headers.get('subject') ?? '', subject);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(smtp.messages.length, cases.length, 'one confirmation each');
  });
});
