import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { signingKey } from '../../src/server/identity/signing.ts';
import { moderationToken } from '../../src/server/owner/moderation-links.ts';
import { issueFormStamp } from '../../src/server/spam/form-stamp.ts';
import { request } from '../support/http.ts';
import { copyOfPreparedSite, PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { newReaderAddress, post, SITE_ORIGIN } from '../support/writes.ts';

const ARTICLE = 'the-price-of-a-beer';
/** The salt the sites run with, so that this test can sign stamps as the site would, at any time it likes. */
const SALT = 'spam-defence-test-salt';
const STAMP_KEY = signingKey(SALT, 'form-stamp');

/** A stamp the site would have made `seconds` ago. */
const stampedAgo = (seconds: number) => issueFormStamp(STAMP_KEY, Date.now() - seconds * 1000);

describe('a form’s stamp and honeypot, the links and the repeated text', () => {
  let site: RunningSite;
  before(async () => {
    site = await startSite(PREPARED_SITE, { TRUST_PROXY: '1', IP_HASH_SALT: SALT });
  });
  after(async () => {
    await site.stop();
  });

  const comment = (body: string, extra: Record<string, string> = {}) => ({ articleSlug: ARTICLE, body, ...extra });

  test('GET /form-stamp answers a stamp the site signed now, kept by no one; /captcha/challenge is nothing without ALTCHA', async () => {
    const answer = await request(`${site.url}/form-stamp`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['cache-control'], 'no-store');
    assert.match(String(answer.headers['content-type']), /^application\/json/);
    const stamp = String(answer.json()['formStamp']);
    const made = parseInt(stamp.split('.')[0] ?? '', 36);
    assert.ok(Math.abs(Date.now() - made) < 60_000, 'made now');
    assert.equal(stamp, issueFormStamp(STAMP_KEY, made), 'signed with the form-stamp key of the salt');
    assert.notEqual((await request(`${site.url}/form-stamp`, { method: 'POST' })).status, 200);
    assert.equal((await request(`${site.url}/captcha/challenge`)).status, 404);
  });

  test('a filled honeypot is refused with its code on every form’s write, spending no quota', async () => {
    const address = newReaderAddress();
    const writes: [string, Record<string, unknown>][] = [
      ['/api/comments', comment('A real thought.')],
      ['/api/topic-requests', { requestTitle: 'Night trains' }],
      ['/api/bug-reports', { description: 'The footer overlaps.' }],
    ];
    for (const [path, body] of writes) {
      const refused = await post(site.url, path, { ...body, formStamp: stampedAgo(10), honeypot: 'https://spam.example' }, address);
      assert.equal(refused.status, 400, path);
      assert.equal(refused.json()['code'], 'honeypot', path);
      assert.match(String(refused.json()['error']), /^honeypot: /);
    }
    const taken = await post(site.url, '/api/topic-requests', { requestTitle: 'Night trains', honeypot: '' }, address);
    assert.equal(taken.status, 200, 'an empty honeypot is a person’s');
    assert.equal(taken.headers['ratelimit-remaining'], '4', 'the refused ones spent nothing');
  });

  test('too fast after the stamp: refused; the same write once the stamp is older: taken', async () => {
    const address = newReaderAddress();
    const fresh = String((await request(`${site.url}/form-stamp`)).json()['formStamp']);
    const tooFast = await post(site.url, '/api/comments', comment('Quick thought.', { formStamp: fresh }), address);
    assert.equal(tooFast.status, 400);
    assert.equal(tooFast.json()['code'], 'too_fast');
    const later = await post(site.url, '/api/comments', comment('Quick thought.', { formStamp: stampedAgo(5) }), address);
    assert.equal(later.status, 200);
  });

  test('an altered stamp is refused; one older than a day, or none, is taken as before', async () => {
    const address = newReaderAddress();
    const [, mac] = stampedAgo(0).split('.');
    const backdated = `${(Date.now() - 60_000).toString(36)}.${mac}`;
    for (const formStamp of [backdated, 'not-a-stamp', issueFormStamp(signingKey('another salt', 'form-stamp'), Date.now() - 60_000)]) {
      const refused = await post(site.url, '/api/topic-requests', { requestTitle: 'Altered stamps', formStamp }, address);
      assert.equal(refused.status, 400, formStamp);
      assert.equal(refused.json()['code'], 'form_stamp', formStamp);
    }
    assert.equal(
      (await post(site.url, '/api/topic-requests', { requestTitle: 'A day-old page', formStamp: stampedAgo(90_000) }, address)).status,
      200,
    );
    assert.equal((await post(site.url, '/api/topic-requests', { requestTitle: 'An API client' }, address)).status, 200);
    assert.equal((await post(site.url, '/api/bug-reports', { description: 'No fields at all' }, address)).status, 200);
  });

  test('a comment with more than 3 links is refused naming the body; 3 are fine', async () => {
    const address = newReaderAddress();
    const three = 'See https://a.example/x, www.b.example and c-shop.com for prices.';
    assert.equal((await post(site.url, '/api/comments', comment(three), address)).status, 200);
    const four = await post(site.url, '/api/comments', comment(`${three} And http://d.example too.`), address);
    assert.equal(four.status, 400);
    assert.equal(four.json()['code'], 'too_many_links');
    assert.match(String(four.json()['error']), /^body: holds 4 links; a comment may hold at most 3/);
  });

  test('the same text twice in a row is refused, whatever its case and spacing; after another comment, or from another reader, it is taken', async () => {
    const reader = newReaderAddress();
    const text = `Cheap beer, expensive rent ${Date.now()}.`;
    assert.equal((await post(site.url, '/api/comments', comment(text), reader)).status, 200);
    const again = await post(site.url, '/api/comments', comment(`  ${text.toUpperCase().replace(' ', '   ')}`), reader);
    assert.equal(again.status, 400);
    assert.equal(again.json()['code'], 'repeated_comment');
    assert.match(String(again.json()['error']), /^body: /);
    assert.equal((await post(site.url, '/api/comments', comment(text), newReaderAddress())).status, 200, 'another reader');
    assert.equal((await post(site.url, '/api/comments', comment('Something else entirely.'), reader)).status, 200);
    assert.equal((await post(site.url, '/api/comments', comment(text), reader)).status, 200, 'not twice in a row any more');
  });
});

describe('ALTCHA, the captcha served by the site', () => {
  let site: RunningSite;
  before(async () => {
    // The provider is baked into the pages (the widget): a copy of the site, rebuilt with it, never the one the other tests serve.
    site = await startSite(await copyOfPreparedSite(), { TRUST_PROXY: '1', CAPTCHA_PROVIDER: 'altcha' });
  });
  after(async () => {
    await site.stop();
  });

  /** A challenge from the site, solved as the widget would, as its token. */
  async function solvedToken(): Promise<string> {
    const answer = await request(`${site.url}/captcha/challenge`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['cache-control'], 'no-store');
    const challenge = answer.json<Challenge>();
    const solution = await solveChallenge({ challenge, deriveKey });
    assert.ok(solution);
    return Buffer.from(
      JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution }),
    ).toString('base64');
  }

  test('needs no key; a solved challenge is taken once, its replay refused, a bad payload refused; votes need none', async () => {
    const address = newReaderAddress();
    const missing = await post(site.url, '/api/topic-requests', { requestTitle: 'Night trains' }, address);
    assert.equal(missing.status, 400);
    assert.equal(missing.json()['code'], 'captcha_missing');
    const token = await solvedToken();
    assert.equal(
      (await post(site.url, '/api/comments', { articleSlug: ARTICLE, body: 'Solved.', captchaToken: token }, address)).status,
      200,
    );
    const replayed = await post(site.url, '/api/comments', { articleSlug: ARTICLE, body: 'Solved again.', captchaToken: token }, address);
    assert.equal(replayed.status, 400);
    assert.equal(replayed.json()['code'], 'captcha_rejected');
    assert.match(String(replayed.json()['error']), /used already/);
    const test = Buffer.from(JSON.stringify({ challenge: null, solution: null, test: true })).toString('base64');
    for (const bad of ['not base64 JSON', test, token.slice(0, -8)]) {
      const refused = await post(site.url, '/api/topic-requests', { requestTitle: 'Bad tokens', captchaToken: bad }, address);
      assert.equal(refused.status, 400, bad);
      assert.equal(refused.json()['code'], 'captcha_rejected', bad);
    }
    assert.equal((await post(site.url, '/api/votes', { articleSlug: ARTICLE, value: 1 }, address)).status, 200);
  });

  test('a page with a comment form carries the widget’s place and the site’s own words for it; the CSP allows no other host', async () => {
    const page = await request(`${site.url}/fr/articles/${ARTICLE}`);
    assert.match(page.text, /class="captcha" data-provider="altcha" data-strings="[^"]*Je ne suis pas un robot/);
    const policy = String(page.headers['content-security-policy']);
    assert.doesNotMatch(policy, /https?:\/\//, 'no host but the site');
    assert.match(policy, /frame-src 'none'/);
  });
});

describe('under moderation, a form that looks sent by a robot, or sent with no stamp, waits for the owner', () => {
  let site: RunningSite;
  before(async () => {
    site = await startSite(PREPARED_SITE, { TRUST_PROXY: '1', IP_HASH_SALT: SALT, MODERATION: 'first' });
  });
  after(async () => {
    await site.stop();
  });

  test('a reader whose comments pass is held for a filled honeypot, a stamp sent too fast or none; a topic request too', async () => {
    const reader = newReaderAddress();
    const write = (body: string, extra: Record<string, string>) =>
      post(site.url, '/api/comments', { articleSlug: ARTICLE, body, ...extra }, reader);
    const first = await write('My first comment here', { formStamp: stampedAgo(30) });
    assert.equal(first.json()['status'], 'pending', 'a first comment waits under MODERATION=first');
    const link = `/moderation/${moderationToken(signingKey(SALT, 'moderation-link'), 'approve', String(first.json()['id']), Date.now() + 60_000)}`;
    assert.equal((await request(`${site.url}${link}`, { method: 'POST', headers: { Origin: SITE_ORIGIN } })).status, 200);
    const clean = await write('A second, clean comment', { formStamp: stampedAgo(30) });
    assert.equal(clean.json()['status'], 'published', 'an approved reader’s clean comment is published');
    // Held ones answer 200 and wait, whatever the reader's history: the form is the reason.
    for (const [body, extra] of [
      ['A honeypot comment', { formStamp: stampedAgo(30), honeypot: 'http://spam.example' }],
      ['A hurried comment', { formStamp: stampedAgo(0) }],
      ['An unstamped comment', {}],
    ] as const) {
      const answer = await write(body, extra);
      assert.equal(answer.status, 200, `${body}: ${answer.text}`);
      assert.equal(answer.json()['status'], 'pending', body);
    }
    const topic = await post(site.url, '/api/topic-requests', { requestTitle: 'A topic with honey', honeypot: 'filled' }, reader);
    assert.equal(topic.status, 200, topic.text);
    assert.equal(topic.json()['status'], 'waiting', 'a topic request waits as a comment does');
    assert.doesNotMatch((await request(`${site.url}/answers`)).text, /A topic with honey/);
  });
});
