// Replies from the fediverse: a signed reply to an article becomes a comment in its thread, with its author's name,
// handle and profile, as readers without JavaScript, feed readers, fediverse servers and the owner see it; its
// author's Update edits it and Delete removes it.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { startPeer } from '../support/fediverse-peer.ts';
import { readMail } from '../support/mail.ts';
import { startSmtp } from '../support/notification-sinks.ts';
import { notifying } from '../support/notifying.ts';
import { request } from '../support/http.ts';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { PREPARED_SITE, startSite } from '../support/site.ts';
import { until } from '../support/until.ts';

after(dropDatabases);

const SITE_URL = 'http://localhost:4321';
const ARTICLE = 'writing-in-plain-text';
const REPLY =
  '<p>Lovely piece &amp; thanks, <span class="h-card"><a href="https://social.example/@bob" class="u-url mention">@<span>bob</span></a></span>!</p>' +
  '<p>See <a href="https://example.org/a/long/path"><span class="invisible">https://</span>example.org/a/lo…</a><script>alert(1)</script></p>';
/** The reply as a comment holds it: the Markdown of its HTML, the mention a link to its profile. The owner's email carries it. */
const REPLY_TEXT = 'Lovely piece & thanks, [@bob](https://social.example/@bob)!';
/** The reply as a page shows it: rendered from that Markdown, its links with their rel. */
const REPLY_HTML = 'Lovely piece &amp; thanks, <a href="https://social.example/@bob" rel="nofollow ugc noopener">@bob</a>!';

const STORES = {
  embedded: () => Promise.resolve({}),
  PostgreSQL: async () => ({ DATABASE_URL: await freshDatabase('replies') }),
};

for (const [engine, makeStore] of Object.entries(STORES)) {
  describe(`replies from the fediverse on the ${engine} store`, () => {
    test('a signed reply is a comment on the page, in the feed and in the owner’s email; its Update edits it, its Delete removes it', async () => {
      const smtp = await startSmtp();
      const peer = await startPeer();
      const site = await startSite(PREPARED_SITE, {
        ...(await makeStore()),
        ...notifying(smtp.port, 1),
        FEDERATION: 'on',
        FEDERATION_ALLOW_PRIVATE_ADDRESSES: '1',
      });
      try {
        await peer.control('site', { url: site.url });
        const handle = `@alice@${new URL(peer.origin).host}`;
        const inReplyTo = `${SITE_URL}/fr/articles/${ARTICLE}`;
        assert.equal(await peer.control('reply', { inReplyTo, content: REPLY, signed: 'no' }), 401, 'unsigned');
        assert.equal(await peer.control('reply', { inReplyTo, content: REPLY }), 202);
        assert.equal(await peer.control('reply', { inReplyTo, content: REPLY }), 202, 'the same post again');

        const page = async () => (await request(`${site.url}/articles/${ARTICLE}`)).text;
        await until(async () => (await page()).includes(REPLY_HTML), 'the reply on the page, without JavaScript');
        const html = await page();
        assert.equal(html.split(REPLY_HTML).length, 2, 'one comment, however often its post came');
        assert.match(
          html,
          new RegExp(`<a class="comment-author"[^>]*href="${peer.actorId}"[^>]*rel="nofollow ugc noopener"[^>]*>\\s*Alice \\(${handle}\\)`),
        );
        assert.ok(
          html.includes('<a href="https://example.org/a/long/path" rel="nofollow ugc noopener">https://example.org/a/lo…</a>'),
          'a link kept as a link to its whole address',
        );
        assert.ok(!html.includes('alert(1)'), 'no script from the remote HTML');

        const article = (await (
          await fetch(`${site.url}/fr/articles/${ARTICLE}`, { headers: { Accept: 'application/activity+json' } })
        ).json()) as { replies: { totalItems: number; items: unknown } };
        assert.equal(article.replies.totalItems, 1, 'the Article’s replies count the comment');
        assert.deepEqual([article.replies.items].flat(), [`${peer.origin}/notes/alice-1`], 'listed by its remote post');

        const feed = (await request(`${site.url}/threads/${ARTICLE}.atom`)).text;
        assert.ok(feed.includes(`Alice (${handle})`) && feed.includes('Lovely piece'), 'in the thread’s feed');
        await until(() => smtp.messages.some((raw) => readMail(raw).text.includes(REPLY_TEXT)), 'the owner’s email');
        const mail = readMail(smtp.messages.find((raw) => readMail(raw).text.includes(REPLY_TEXT)) ?? '');
        assert.ok(mail.text.includes(`Alice (${handle})`), 'the email names the remote author');

        assert.equal(await peer.control('edit', { content: '<p>Edited: even <em>better</em>.</p>' }), 202);
        await until(async () => (await page()).includes('Edited: even <em>better</em>.'), 'the reply edited by its author');
        assert.ok(!(await page()).includes(REPLY_HTML), 'the old text gone');
        assert.equal(await peer.control('unreply', { as: 'mallory' }), 202, 'someone else’s Delete is taken and does nothing');
        await new Promise((resolve) => setTimeout(resolve, 500));
        assert.ok((await page()).includes('Edited: even <em>better</em>.'));
        assert.equal(await peer.control('unreply', {}), 202);
        await until(async () => !(await page()).includes('Edited: even <em>better</em>.'), 'the reply gone once its author deleted it');
      } finally {
        await site.stop();
        peer.stop();
        await smtp.stop();
      }
    });
  });
}

test('under MODERATION=first a reply from a new remote author waits, seen by no reader', async () => {
  const peer = await startPeer();
  const site = await startSite(PREPARED_SITE, { FEDERATION: 'on', FEDERATION_ALLOW_PRIVATE_ADDRESSES: '1', MODERATION: 'first' });
  try {
    await peer.control('site', { url: site.url });
    assert.equal(await peer.control('reply', { inReplyTo: `${SITE_URL}/articles/${ARTICLE}`, content: '<p>Waiting here.</p>' }), 202);
    await until(() => /a reply became a comment/.test(site.output()), 'the reply stored');
    assert.ok(!(await request(`${site.url}/articles/${ARTICLE}`)).text.includes('Waiting here.'));
  } finally {
    await site.stop();
    peer.stop();
  }
});
