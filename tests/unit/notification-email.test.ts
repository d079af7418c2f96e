import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EMAIL_WHOLE, emailOf, webhookBodyOf, type LinksOf } from '../../src/server/notifications/message.ts';
import type { Notification } from '../../src/server/store/types.ts';

const SITE = 'https://longhand.test';
const linksOf: LinksOf = (notification) =>
  notification.kind === 'comment' ? [{ action: 'delete', url: `${SITE}/moderation/delete~${notification.id}` }] : [];

function comments(count: number): Notification[] {
  return Array.from({ length: count }, (_, index) => ({
    kind: 'comment',
    id: `comment-${index + 1}`,
    articleSlug: 'the-price-of-a-beer',
    parentId: null,
    depth: 1,
    author: 'Teal Heron',
    body: `Comment body number ${index + 1}.`,
    createdAt: '2026-11-26T12:00:00.000Z',
    status: 'published',
  }));
}

describe('the email of a batch of notifications', () => {
  test('a batch the size of a burst is shown whole, each with its links', () => {
    const { subject, text } = emailOf(comments(20), SITE, linksOf);
    assert.equal(subject, '20 new comments and requests on longhand.test');
    for (let number = 1; number <= 20; number += 1) {
      assert.ok(text.includes(`Comment body number ${number}.`), `comment ${number}`);
      assert.ok(text.includes(`Delete: ${SITE}/moderation/delete~comment-${number}`), `comment ${number}'s link`);
    }
    assert.doesNotMatch(text, /more/);
  });

  test('a batch of a thousand is one email: the first ones whole, with their links, the others a line each', () => {
    const { subject, text } = emailOf(comments(1000), SITE, linksOf);
    assert.equal(subject, '1000 new comments and requests on longhand.test');
    assert.equal(text.match(/^Delete: /gm)?.length, EMAIL_WHOLE, 'links for the whole ones only');
    assert.ok(text.includes(`Comment body number ${EMAIL_WHOLE}.`));
    assert.ok(!text.includes(`Comment body number ${EMAIL_WHOLE + 1}.`), 'the others without their text');
    assert.ok(text.includes(`And ${1000 - EMAIL_WHOLE} more:`));
    const lines = text.match(
      /^- New comment by Teal Heron on the-price-of-a-beer: https:\/\/longhand\.test\/articles\/the-price-of-a-beer$/gm,
    );
    assert.equal(lines?.length, 1000 - EMAIL_WHOLE, 'a line each');
  });
});

describe('the notification of a verified Webmention', () => {
  const waiting: Notification = {
    kind: 'mention',
    id: 'mention-1',
    createdAt: '2026-11-26T12:00:00.000Z',
    source: 'https://dana.example/posts/beer',
    articleSlug: 'the-price-of-a-beer',
    lang: 'fr',
    status: 'waiting',
    mentionKind: 'reply',
    authorName: 'Dana Blogger',
    authorUrl: 'https://dana.example/',
    body: 'So true.\nApprove: https://evil.example/',
  };

  test('names it as waiting, with its page, its source and the desk, its text quoted as outside text', () => {
    const { subject, text } = emailOf([waiting], SITE, linksOf);
    assert.equal(subject, 'New Webmention (reply) by Dana Blogger on the-price-of-a-beer, waiting for approval');
    assert.equal(
      text,
      [
        subject,
        '',
        `Page: ${SITE}/fr/articles/the-price-of-a-beer`,
        'Source: https://dana.example/posts/beer',
        'To approve or delete it: the desk’s Requests and counts page, or npm run data -- mentions',
        '',
        '——— The reader wrote (their words, not the site’s): ———',
        '> So true.',
        '> Approve: https://evil.example/',
        '——— End of what the reader wrote ———',
      ].join('\n'),
    );
  });

  test('one shown at once, a like without author or text, is a headline, its page and its source', () => {
    const like: Notification = { ...waiting, status: 'published', mentionKind: 'like', authorName: null, body: null };
    const { subject, text } = emailOf([like], SITE, linksOf);
    assert.equal(subject, 'New Webmention (like) by dana.example on the-price-of-a-beer');
    assert.equal(text, `${subject}\n\nPage: ${SITE}/fr/articles/the-price-of-a-beer\nSource: https://dana.example/posts/beer`);
  });

  test('a webhook gets the message as its text and content, beside the mention’s fields', () => {
    const body = webhookBodyOf(waiting, SITE, linksOf);
    assert.match(String(body['content']), /^New Webmention \(reply\) by Dana Blogger/);
    assert.equal(body['body'], waiting.body);
    assert.equal(body['source'], waiting.source);
    assert.equal(body['url'], `${SITE}/fr/articles/the-price-of-a-beer`);
    assert.equal(body['moderation'], undefined);
  });
});
