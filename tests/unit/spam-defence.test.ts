import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { signingKey } from '../../src/server/identity/signing.ts';
import { linkCount, sameText } from '../../src/server/spam/comment-text.ts';
import { FORM_STAMP_LIFETIME_SECONDS, issueFormStamp } from '../../src/server/spam/form-stamp.ts';
import { formVerdict } from '../../src/server/spam/form-verdict.ts';

const KEY = signingKey('salt', 'form-stamp');
const NOW = Date.parse('2026-11-26T12:00:00Z');

describe("a form's verdict", () => {
  const stampedAgo = (seconds: number) => issueFormStamp(KEY, NOW - seconds * 1000);
  const verdict = (fields: { formStamp?: string; honeypot?: string }) => formVerdict(fields, KEY, 3, NOW);

  test('clean once its stamp is old enough, with the honeypot empty or absent', () => {
    assert.deepEqual(verdict({ formStamp: stampedAgo(4), honeypot: '' }), { verdict: 'clean' });
    assert.deepEqual(verdict({ formStamp: stampedAgo(3) }), { verdict: 'clean' });
  });

  test('unsigned without a stamp, or with one past its lifetime', () => {
    assert.deepEqual(verdict({}), { verdict: 'unsigned' });
    assert.deepEqual(verdict({ honeypot: ' ' }), { verdict: 'unsigned' });
    assert.deepEqual(verdict({ formStamp: stampedAgo(FORM_STAMP_LIFETIME_SECONDS + 1) }), { verdict: 'unsigned' });
  });

  test('spam: the honeypot filled, a stamp too fresh, from ahead, altered, or signed for another purpose', () => {
    const codeOf = (fields: { formStamp?: string; honeypot?: string }) => {
      const found = verdict(fields);
      return found.verdict === 'spam' ? found.refusal.code : found.verdict;
    };
    assert.equal(codeOf({ formStamp: stampedAgo(10), honeypot: 'https://spam.example' }), 'honeypot');
    assert.equal(codeOf({ formStamp: stampedAgo(2.9) }), 'too_fast');
    assert.equal(codeOf({ formStamp: stampedAgo(-60) }), 'too_fast');
    // Backdated: an older time under the fresh stamp's MAC.
    const [, mac] = stampedAgo(0).split('.');
    assert.equal(codeOf({ formStamp: `${(NOW - 60_000).toString(36)}.${mac}` }), 'form_stamp');
    assert.equal(codeOf({ formStamp: issueFormStamp(signingKey('salt', 'moderation-link'), NOW - 10_000) }), 'form_stamp');
    assert.equal(codeOf({ formStamp: 'not a stamp' }), 'form_stamp');
  });

  test('a minimum of 0 lets any signed stamp through', () => {
    assert.deepEqual(formVerdict({ formStamp: issueFormStamp(KEY, NOW) }, KEY, 0, NOW), { verdict: 'clean' });
  });
});

describe("a comment's text", () => {
  test('links: addresses, www. names and bare domains with a known ending; file names and abbreviations are text', () => {
    assert.equal(linkCount('see https://a.example/x and http://b.example'), 2);
    assert.equal(linkCount('buy at cheap-pills.ru now, or www.spam.example'), 2);
    assert.equal(linkCount('example.com/path?x=1, shop.example.co.uk and münchen.de'), 3);
    assert.equal(linkCount('Node.js, notes.md, e.g. this, i.e. that, Mr.Smith'), 0);
  });

  test('the same text, whatever its case and spacing; another text is another', () => {
    assert.ok(sameText('Great  article!\n', 'great article!'));
    assert.ok(sameText('ＦＵＬＬ width', 'full width'));
    assert.ok(!sameText('Great article!', 'Great article?'));
  });
});
