import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cardPath, cardVersion, parseCardPath, type CardText } from '../../src/server/social/card-path.ts';

const TEXT: CardText = { title: 'A small web server', lang: 'fr', siteName: 'Longhand', host: 'longhand.test' };

test('a card gets a new version, so a new URL, when anything it shows changes, the site name included', () => {
  const versions = new Set(
    [
      TEXT,
      { ...TEXT, title: 'Another title' },
      { ...TEXT, lang: 'de' as const },
      { ...TEXT, siteName: 'Shorthand' },
      { ...TEXT, host: 'example.org' },
    ].map(cardVersion),
  );
  assert.equal(versions.size, 5);
});

test('a card path reads back as the card it names', () => {
  const path = cardPath({ kind: 'article', slug: 'a-small-web-server' }, TEXT);
  assert.deepEqual(parseCardPath(path), { name: { kind: 'article', slug: 'a-small-web-server' }, lang: 'fr', version: cardVersion(TEXT) });
  assert.deepEqual(parseCardPath(cardPath({ kind: 'site' }, TEXT))?.name, { kind: 'site' });
});
