import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { signingKey } from '../../src/server/identity/signing.ts';
import { refusal } from '../../src/server/api-frame/refusals.ts';
import { LINK_LIFETIME_MS, moderationLinks, moderationToken, readModerationToken } from '../../src/server/owner/moderation-links.ts';
import { emailOf, webhookBodyOf, type LinksOf } from '../../src/server/notifications/message.ts';
import type { Notification } from '../../src/server/store/types.ts';

const SITE = 'https://longhand.test';
const KEY = signingKey('a-salt-of-the-store'.padEnd(48, 's'), 'moderation-link');
const NOW = Date.UTC(2026, 10, 26, 12);

const comment: Notification = {
  kind: 'comment',
  id: 'Q29tbWVudElkMTIz',
  articleSlug: 'the-price-of-a-beer',
  parentId: null,
  depth: 1,
  author: 'Teal Heron',
  body: 'Cheap beer, cheap pay.',
  createdAt: '2026-11-26T12:00:00.000Z',
  status: 'pending',
};

const linksOf: LinksOf = (notification) => (notification.kind === 'comment' ? moderationLinks(KEY, SITE, notification, NOW) : []);

describe('moderation links', () => {
  test('a token names one action on one comment, and reads back until it expires, 7 days after it was made', () => {
    const [approve] = moderationLinks(KEY, SITE, comment, NOW);
    assert.ok(approve);
    const token = approve.url.slice(`${SITE}/moderation/`.length);
    // The link as the store keeps it once used: the token's signed part, and when it stops working.
    const expected = {
      ok: true,
      action: 'approve',
      commentId: comment.id,
      link: { link: `approve~${(NOW + LINK_LIFETIME_MS) / 1000}~${comment.id}`, expiresAt: new Date(NOW + LINK_LIFETIME_MS).toISOString() },
    };
    assert.deepEqual(readModerationToken(KEY, token, NOW), expected);
    assert.deepEqual(readModerationToken(KEY, token, NOW + LINK_LIFETIME_MS - 1000), expected);
    assert.deepEqual(readModerationToken(KEY, token, NOW + LINK_LIFETIME_MS), { ok: false, refusal: refusal('link_expired') });
  });

  test('a token altered, made with another key or naming no action reads as invalid', () => {
    const token = moderationToken(KEY, 'ban', comment.id, NOW + 1000);
    const [payload = '', mac = ''] = token.split('.');
    for (const wrong of [
      `${payload.replace('ban', 'delete')}.${mac}`,
      moderationToken(signingKey('a-salt-of-the-store'.padEnd(48, 's'), 'form-stamp'), 'ban', comment.id, NOW + 1000),
      moderationToken(KEY, 'publish' as 'ban', comment.id, NOW + 1000),
      payload,
      '',
    ])
      assert.deepEqual(readModerationToken(KEY, wrong, NOW), { ok: false, refusal: refusal('link_invalid') }, wrong);
  });

  test('a waiting comment’s notification links to approve, delete and ban; a published one’s to delete and ban', () => {
    const waiting = webhookBodyOf(comment, SITE, linksOf);
    assert.deepEqual(Object.keys(waiting['moderation'] as object), ['approve', 'delete', 'ban']);
    assert.match(String(waiting['text']), /waiting for approval[\s\S]*Approve: https:\/\/longhand\.test\/moderation\/approve~/);
    const published = webhookBodyOf({ ...comment, status: 'published' }, SITE, linksOf);
    assert.deepEqual(Object.keys(published['moderation'] as object), ['delete', 'ban']);
    assert.doesNotMatch(String(published['text']), /waiting for approval|Approve:/);
    const request: Notification = { kind: 'topicRequest', id: 'r', requestTitle: 'Tides', details: null, createdAt: comment.createdAt };
    assert.equal(webhookBodyOf(request, SITE, linksOf)['moderation'], undefined);
    const { subject, text } = emailOf([comment], SITE, linksOf);
    assert.equal(subject, 'New comment by Teal Heron on the-price-of-a-beer, waiting for approval');
    assert.match(text, /^Delete: https:\/\/longhand\.test\/moderation\/delete~\d+~Q29tbWVudElkMTIz\.[\w-]+$/m);
    assert.match(text, /^Ban the writer: https:\/\/longhand\.test\/moderation\/ban~/m);
  });
});
