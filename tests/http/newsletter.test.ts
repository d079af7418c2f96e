import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openEmbeddedStore } from '../../src/server/store/embedded/engine.ts';
import { dataTool } from '../support/data-tool.ts';
import { request } from '../support/http.ts';
import { readMail, type ReadMail } from '../support/mail.ts';
import { BEFORE_THE_DATE, confirmedSubscriber, newsletterOn, ON_THE_DATE } from '../support/newsletter.ts';
import { startSmtp, type SmtpSink } from '../support/notification-sinks.ts';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { until } from '../support/until.ts';

after(dropDatabases);

const ORIGIN = 'http://localhost:4321';
const READER = 'lecteur.abonne@example.test';

/** The path of the first link of the site's under `prefix` in `text`. */
function linkPath(text: string, prefix: string): string {
  const found = new RegExp(`${ORIGIN}(${prefix}[A-Za-z0-9_~.-]+)`).exec(text)?.[1];
  assert.ok(found, `a link under ${prefix}`);
  return found;
}

async function nthMail(smtp: SmtpSink, count: number): Promise<ReadMail> {
  await until(() => smtp.messages.length >= count, `email ${count}`);
  return readMail(smtp.messages[count - 1] ?? '');
}

async function subscribeAndConfirm(site: RunningSite, smtp: SmtpSink): Promise<void> {
  // As curl -d would send it, from a form with no JavaScript: no stamp, no captcha (off here).
  const asked = await request(`${site.url}/subscribe`, {
    method: 'POST',
    headers: { Origin: ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: `email=${encodeURIComponent(READER)}&lang=fr&honeypot=`,
  });
  assert.equal(asked.status, 303);
  const inbox = await request(`${site.url}${asked.headers.location ?? ''}`);
  assert.equal(inbox.status, 200);
  assert.match(inbox.text, /<html lang="fr"/);
  assert.match(inbox.text, /Regardez votre boîte de réception/);

  const confirmation = await nthMail(smtp, 1);
  assert.match(confirmation.headers.get('to') ?? '', new RegExp(READER.replace('.', '\\.')));
  assert.match(confirmation.headers.get('subject') ?? '', /^Confirmez votre abonnement à /);
  assert.match(confirmation.text, /sans doute vous/);
  const link = linkPath(confirmation.text, '/newsletter/confirm/');

  // A scanner following the link twice confirms nothing: the page still asks.
  for (let i = 0; i < 2; i++) {
    const shown = await request(`${site.url}${link}`);
    assert.equal(shown.status, 200);
    assert.match(shown.text, /<form method="post"><button type="submit">Confirmer<\/button><\/form>/);
  }
  assert.equal((await request(`${site.url}${link}`, { method: 'POST', headers: { 'Content-Length': '0' } })).status, 403, 'no Origin');
  const confirmed = await request(`${site.url}${link}`, { method: 'POST', headers: { Origin: ORIGIN, 'Content-Length': '0' } });
  assert.equal(confirmed.status, 200);
  assert.match(confirmed.text, /Abonnement confirmé/);
  assert.doesNotMatch((await request(`${site.url}${link}`)).text, /<form/);

  // Asked again within the hour, as JSON: the same answer, and no second email.
  const again = await request(`${site.url}/subscribe`, {
    method: 'POST',
    headers: { Origin: ORIGIN, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: READER, lang: 'fr' }),
  });
  assert.equal(again.status, 202);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  assert.equal(smtp.messages.length, 1);
}

/** From the unsubscribe link's page, the reader keeps the articles but in German: the page then speaks German. */
async function changeLanguage(site: RunningSite, link: string): Promise<void> {
  const shown = await request(`${site.url}${link}`);
  assert.equal(shown.status, 200);
  assert.match(shown.text, /<html lang="fr"/);
  assert.match(shown.text, /<button type="submit">Se désabonner<\/button>/);
  assert.match(shown.text, /<label>Ou les recevoir dans cette langue : <select name="lang">/);
  assert.match(shown.text, /<option value="fr" lang="fr" dir="ltr" selected>Français<\/option>/);
  assert.match(shown.text, /<option value="ar" lang="ar" dir="rtl">العربية<\/option>/);
  const choose = (lang: string, origin?: string) =>
    request(`${site.url}${link}`, {
      method: 'POST',
      headers: { ...(origin ? { Origin: origin } : {}), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `lang=${lang}`,
    });
  assert.equal((await choose('de', 'https://elsewhere.example')).status, 403, 'another origin');
  assert.equal((await choose('de')).status, 403, 'no Origin: only the one-click goes without');
  assert.equal((await choose('xx', ORIGIN)).status, 400, 'not a language of the site');
  assert.match((await request(`${site.url}${link}`)).text, /<html lang="fr"/, 'nothing changed');
  const changed = await choose('de', ORIGIN);
  assert.equal(changed.status, 200);
  assert.match(changed.text, /<html lang="de"/);
  assert.match(changed.text, /Erledigt: Die nächsten Artikel von .+ kommen in dieser Sprache/);
  const again = await request(`${site.url}${link}`);
  assert.match(again.text, /<html lang="de"/, 'kept: the link’s page now speaks German');
  assert.match(again.text, /<option value="de" lang="de" dir="ltr" selected>Deutsch<\/option>/);
}

async function receiveAndUnsubscribe(site: RunningSite, smtp: SmtpSink): Promise<void> {
  const issue = await nthMail(smtp, 2);
  assert.equal(issue.headers.get('subject'), 'Next century');
  assert.match(issue.text, /Cet article n’est pas encore traduit en français/);
  assert.match(issue.text, /Scheduled for the first day of 2099\./);
  assert.match(issue.html, /<h1>Next century<\/h1>/);
  assert.match(issue.html, /href="http:\/\/localhost:4321\/fr\/articles\/next-century#thread-heading"/);
  const unsubscribe = issue.headers.get('list-unsubscribe') ?? '';
  assert.match(
    unsubscribe,
    /^<http:\/\/localhost:4321\/newsletter\/unsubscribe\/[^>]+>, <mailto:news@example\.test\?subject=unsubscribe>$/,
  );
  assert.equal(issue.headers.get('list-unsubscribe-post'), 'List-Unsubscribe=One-Click');
  assert.match(issue.headers.get('list-id') ?? '', /<newsletter\.localhost>$/);

  const link = linkPath(unsubscribe, '/newsletter/unsubscribe/');
  await changeLanguage(site, link);

  // As a mail provider sends it (RFC 8058): no Origin, no cookie, the one field.
  const oneClick = await request(`${site.url}${link}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  assert.equal(oneClick.status, 200);
  assert.equal((await request(`${site.url}${link}`)).status, 404, 'the subscriber is forgotten');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  assert.equal(smtp.messages.length, 2, 'one email per translation that appeared, nothing more');
}

for (const engine of ['embedded', 'PostgreSQL'] as const) {
  describe(`the newsletter on the ${engine} store`, () => {
    test('subscribe in French, confirm by the page’s button, get the article on its date, change to German, unsubscribe in one click', async () => {
      const smtp = await startSmtp();
      const store = engine === 'PostgreSQL' ? { DATABASE_URL: await freshDatabase('newsletter') } : {};
      let output = '';
      try {
        // Started first before the date: what is visible then is the baseline, never sent.
        const before = await startSite(PREPARED_SITE, newsletterOn(smtp.port, store, BEFORE_THE_DATE));
        try {
          await subscribeAndConfirm(before, smtp);
        } finally {
          output += before.output();
          await before.stop();
        }
        // The owner sees counts by language, never an address.
        const stats = await dataTool({ DATA_DIR: before.dataDir, ...store }, 'stats');
        assert.match(stats.output, /^subscribers +fr 1$/m);
        assert.ok(!stats.output.includes(READER));
        const on = await startSite(PREPARED_SITE, newsletterOn(smtp.port, { DATA_DIR: before.dataDir, ...store }, ON_THE_DATE));
        try {
          await receiveAndUnsubscribe(on, smtp);
        } finally {
          output += on.output();
          await on.stop();
        }
        assert.ok(!output.includes(READER) && !output.includes(encodeURIComponent(READER)), 'no address in the server’s output');
      } finally {
        await smtp.stop();
      }
    });
  });
}

test('an article queued before its reader changed language comes as the English original, with the line in the new language', async () => {
  const smtp = await startSmtp();
  const dataDir = await mkdtemp(join(tmpdir(), 'newsletter-changed-'));
  const at = '2098-12-31T00:00:00.000Z';
  const store = await openEmbeddedStore(dataDir);
  // Queued for the Arabic translation while the reader read Arabic; the reader has chosen French since.
  await store.importRecords([
    confirmedSubscriber('changed-reader', READER, 'fr', at),
    {
      kind: 'newsletterIssue',
      item: { slug: 'next-century', lang: 'ar', subscriberId: 'changed-reader', createdAt: at, attempts: 0, dueAt: at, sentAt: null },
    },
  ]);
  await store.close();
  const site = await startSite(PREPARED_SITE, newsletterOn(smtp.port, { DATA_DIR: dataDir }, ON_THE_DATE));
  try {
    const issue = await nthMail(smtp, 1);
    assert.equal(issue.headers.get('subject'), 'Next century');
    assert.match(issue.text, /Cet article n’est pas encore traduit en français/);
    assert.doesNotMatch(issue.text, /القرن القادم/);
  } finally {
    await site.stop();
    await smtp.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('POST /subscribe refuses another origin, a body too large, a filled honeypot, a bad address, and a reader’s sixth ask of the day', async () => {
  const smtp = await startSmtp();
  const site = await startSite(PREPARED_SITE, newsletterOn(smtp.port, {}, BEFORE_THE_DATE));
  const ask = (body: Record<string, string>, origin = ORIGIN) =>
    request(`${site.url}/subscribe`, {
      method: 'POST',
      headers: { Origin: origin, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  try {
    assert.equal((await ask({ email: READER, lang: 'fr' }, 'https://elsewhere.example')).status, 403);
    const large = await ask({ email: READER, lang: 'fr', padding: 'x'.repeat(64 * 1024) });
    assert.equal(large.status, 413);
    assert.equal(large.headers['connection'], 'close', 'the rest of the body was never read');
    assert.equal((await ask({ email: READER, lang: 'fr', honeypot: 'http://spam.example' })).status, 400);
    assert.equal((await ask({ email: 'not an address', lang: 'fr' })).status, 400);
    assert.equal((await ask({ email: READER, lang: 'xx' })).status, 400);
    for (let i = 1; i <= 5; i++) assert.equal((await ask({ email: `reader${i}@example.test`, lang: 'de' })).status, 202);
    const sixth = await ask({ email: 'reader6@example.test', lang: 'de' });
    assert.equal(sixth.status, 429);
    assert.ok(Number(sixth.headers['retry-after']) > 0);
    await until(() => smtp.messages.length === 5, 'one confirmation for each admitted ask');
    assert.match(readMail(smtp.messages[0] ?? '').headers.get('subject') ?? '', /^Bestätige dein Abonnement/);
    assert.doesNotMatch(site.output(), /example\.test/, 'no address in the server’s output');
  } finally {
    await site.stop();
    await smtp.stop();
  }
});

test('with NEWSLETTER off, /subscribe answers 404', async () => {
  const site = await startSite(PREPARED_SITE);
  try {
    const answer = await request(`${site.url}/subscribe`, {
      method: 'POST',
      headers: { Origin: ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `email=${encodeURIComponent(READER)}&lang=fr`,
    });
    assert.equal(answer.status, 404);
  } finally {
    await site.stop();
  }
});
