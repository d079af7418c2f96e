import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { request, type Answer } from '../support/http.ts';
import { freePort } from '../support/ports.ts';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { newReaderAddress, post } from '../support/writes.ts';

const ARTICLE = 'the-price-of-a-beer';

/** What an action's redirect tells the page to say: what was done, or why not. */
function noticeOf(answer: Answer, kind: 'done' | 'failed'): string {
  return new URL(answer.headers.location ?? '', 'http://desk').searchParams.get(kind) ?? '';
}
const OTHER_ARTICLE = 'a-small-web-server';

after(dropDatabases);

// Every action of the desk holds on either store engine.
for (const engine of ['the embedded store', 'PostgreSQL']) {
  describe(`the owner's desk, on a listener of its own, on ${engine}`, () => {
    let site: RunningSite;
    let desk: string;
    const alice = newReaderAddress();
    const bob = newReaderAddress();
    const ids: Record<string, string> = {};

    /** A POST from the desk's own page: its Origin, a form. */
    function press(path: string, fields: Record<string, string> = {}, origin = desk): Promise<Answer> {
      return request(`${desk}${path}`, {
        method: 'POST',
        headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ back: '/', ...fields }).toString(),
      });
    }

    async function comment(address: string, articleSlug: string, body: string): Promise<string> {
      const answer = await post(site.url, '/api/comments', { articleSlug, body }, address);
      assert.equal(answer.status, 200, answer.text);
      return String(answer.json()['id']);
    }

    before(async () => {
      const port = await freePort();
      const store = engine === 'PostgreSQL' ? { DATABASE_URL: await freshDatabase('desk') } : {};
      site = await startSite(PREPARED_SITE, { ...store, TRUST_PROXY: '1', OWNER_PORT: String(port) });
      desk = `http://127.0.0.1:${port}`;
      await site.printed(/The owner's desk at http:\/\/127\.0\.0\.1:\d+\//);
      ids['alice'] = await comment(alice, ARTICLE, 'Alice on beer, **cheap** <script>alert(1)</script>');
      ids['bob'] = await comment(bob, OTHER_ARTICLE, 'Bob on servers');
      ids['alice2'] = await comment(alice, OTHER_ARTICLE, 'Alice on servers');
      assert.equal((await post(site.url, '/api/topic-requests', { requestTitle: 'Night trains in Europe' }, bob)).status, 200);
    });
    after(() => site.stop());

    test('lists the newest comments across articles, the readers’ Markdown rendered, their HTML escaped, filtered by article and by reader', async () => {
      const all = await request(`${desk}/`);
      assert.equal(all.status, 200);
      assert.match(all.headers['content-type'] ?? '', /^text\/html/);
      assert.equal(all.headers['cache-control'], 'no-store');
      assert.match(String(all.headers['content-security-policy']), /default-src 'none'/);
      const order = ['Alice on servers', 'Bob on servers', 'Alice on beer'].map((text) => all.text.indexOf(text));
      assert.ok(
        order.every((at) => at > 0),
        'every comment listed',
      );
      assert.deepEqual(
        order,
        [...order].sort((a, b) => a - b),
        'newest first',
      );
      assert.ok(
        all.text.includes('Alice on beer, <strong>cheap</strong> &lt;script&gt;alert(1)&lt;/script&gt;') &&
          !all.text.includes('<script>alert'),
        'rendered, its HTML as text',
      );

      const onBeer = await request(`${desk}/?article=${ARTICLE}`);
      assert.ok(onBeer.text.includes('Alice on beer') && !onBeer.text.includes('on servers'));
      const readerLink = /href="\/\?reader=([^"]+)"/.exec(onBeer.text)?.[1] ?? '';
      const byAlice = await request(`${desk}/?reader=${readerLink}`);
      assert.ok(byAlice.text.includes('Alice on beer') && byAlice.text.includes('Alice on servers') && !byAlice.text.includes('Bob'));
    });

    test('deletes a comment in place: the thread loses its text', async () => {
      const done = await press(`/comments/${ids['bob'] ?? ''}/delete`);
      assert.equal(done.status, 303);
      assert.match(done.headers.location ?? '', /^\/\?done=comment/);
      const thread = await request(`${site.url}/threads/${OTHER_ARTICLE}.md`);
      assert.equal(thread.status, 200);
      assert.ok(thread.text.includes('Alice on servers') && !thread.text.includes('Bob on servers'));
      assert.match((await request(`${desk}${done.headers.location ?? ''}`)).text, /class="state">deleted/);
      const again = await press(`/comments/no-such-comment/delete`);
      assert.equal(noticeOf(again, 'failed'), 'no comment no-such-comment');
    });

    test('bans a reader, whose next write is refused, and unbans them', async () => {
      const page = await request(`${desk}/?article=${ARTICLE}`);
      const banPath = /action="(\/readers\/[^"]+\/ban)"/.exec(page.text)?.[1] ?? '';
      assert.equal((await press(banPath)).status, 303);
      const refused = await post(site.url, '/api/comments', { articleSlug: ARTICLE, body: 'Once more' }, alice);
      assert.equal(refused.status, 429);
      assert.match((await request(`${desk}/?article=${ARTICLE}`)).text, /reader banned/);
      assert.equal((await press(banPath.replace(/\/ban$/, '/unban'))).status, 303);
      assert.equal((await post(site.url, '/api/comments', { articleSlug: ARTICLE, body: 'Back again' }, alice)).status, 200);
    });

    test('answers a topic request, refusing an answer that is not a link, and shows the counts', async () => {
      const requests = await request(`${desk}/requests`);
      assert.ok(requests.text.includes('Night trains in Europe'));
      const answerPath = /action="(\/topic-requests\/[^"]+\/answer)"/.exec(requests.text)?.[1] ?? '';
      const refused = await press(answerPath, { back: '/requests', url: 'javascript:alert(1)' });
      assert.match(noticeOf(refused, 'failed'), /^The answer must be/);
      assert.match(refused.headers.location ?? '', /^\/requests\?/);
      const answered = await press(answerPath, { back: '/requests', url: `/articles/${ARTICLE}` });
      assert.match(noticeOf(answered, 'done'), /answered by \/articles\//);
      const after = await request(`${desk}/requests`);
      assert.ok(!after.text.includes('Night trains in Europe'));
      assert.match(after.text, /<dt>Comments<\/dt>\s*<dd>4<\/dd>/);
    });

    test('comes back to a path on the desk only, however `back` is spelled', async () => {
      const action = `/comments/no-such-comment/delete`;
      const kept = await press(action, { back: '/requests?x=1' });
      assert.match(kept.headers.location ?? '', /^\/requests\?x=1&failed=/, 'a path on the desk is kept');
      for (const back of ['/.//evil.example/x', '/..//x', '/%2e//x', '/%2E%2E//x', '//x', '/\\x', '/\\/x', 'https://evil.example/', 'x']) {
        const answer = await press(action, { back });
        assert.equal(answer.status, 303, back);
        const location = answer.headers.location ?? '';
        assert.match(location, /^\/\?failed=/, `${back} comes back to the desk's home, not ${location}`);
        assert.equal(new URL(location, desk).origin, desk, back);
      }
    });

    test('exports the store while the site runs, the embedded one included', async () => {
      const exported = await request(`${desk}/export`);
      assert.equal(exported.status, 200);
      assert.match(exported.headers['content-disposition'] ?? '', /^attachment; filename="longhand-export-\d{4}-\d{2}-\d{2}\.ndjson"$/);
      const records = exported.text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { kind: string; comment?: { body: string } });
      assert.equal(records[0]?.kind, 'salt');
      assert.ok(records.some((record) => record.comment?.body === 'Alice on servers'));
    });

    test('refuses a foreign Host and a POST from any other page, and is nowhere on the public port', async () => {
      assert.equal((await request(`${desk}/`, { headers: { Host: `attacker.example:${new URL(desk).port}` } })).status, 421);
      assert.equal((await press(`/comments/${ids['alice'] ?? ''}/delete`, {}, 'https://attacker.example')).status, 403);
      const noOrigin = await request(`${desk}/comments/${ids['alice'] ?? ''}/delete`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'back=/',
      });
      assert.equal(noOrigin.status, 403);
      assert.ok((await request(`${desk}/`)).text.includes('Alice on beer'), 'nothing deleted');
      for (const path of ['/requests', '/export']) assert.equal((await request(`${site.url}${path}`)).status, 404, path);
    });
  });
}
