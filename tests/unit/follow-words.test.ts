import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FOLLOW_WORDS, type FollowWords } from '../../src/i18n/follow-words.ts';
import { LANGUAGE_CODES } from '../../src/i18n/languages.ts';
import { fediverseHandle } from '../../src/site/fediverse.ts';

describe('the follow line’s handle', () => {
  test('is the actor of the page’s language at SITE_URL’s host, its port kept, as WebFinger finds it', () => {
    assert.equal(fediverseHandle('fr', 'https://example.org'), '@fr@example.org');
    assert.equal(fediverseHandle('kab', 'https://Example.org:8443'), '@kab@example.org:8443');
    assert.equal(fediverseHandle('en', 'http://127.0.0.1:4321'), '@en@127.0.0.1:4321');
  });
});

describe('the words of the follow line and the subscribe form', () => {
  test('every language says each of them, in its own words', () => {
    const english = FOLLOW_WORDS.en;
    for (const lang of LANGUAGE_CODES) {
      const words = FOLLOW_WORDS[lang];
      for (const key of Object.keys(english) as (keyof FollowWords)[]) {
        assert.ok(words[key].trim() !== '', `${lang}.${key}`);
        if (lang !== 'en') assert.notEqual(words[key], english[key], `${lang}.${key} is English`);
      }
      assert.match(words.fediverse, /[:：]$/, `${lang}: the handle follows the line's words`);
      assert.match(words.kept, /7/, `${lang}: the 7 days an unconfirmed address is kept`);
    }
  });
});
