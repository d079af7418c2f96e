import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clientAddress } from '../../src/server/identity/client-address.ts';
import { readerHash, readerHashOn } from '../../src/server/identity/reader-hash.ts';
import { NAME_COUNT, readerName } from '../../src/server/identity/reader-name.ts';

describe('the client address', () => {
  test('TRUST_PROXY=0 uses the socket, whatever X-Forwarded-For says', () => {
    assert.equal(clientAddress('203.0.113.9', '198.51.100.1', 0), '203.0.113.9');
  });
  test('TRUST_PROXY=N takes the Nth address from the right', () => {
    assert.equal(clientAddress('10.0.0.1', '198.51.100.1', 1), '198.51.100.1');
    assert.equal(clientAddress('10.0.0.1', 'forged, 198.51.100.1, 10.0.0.2', 2), '198.51.100.1');
    assert.equal(clientAddress('10.0.0.1', '198.51.100.1:5555', 1), '198.51.100.1');
    assert.equal(clientAddress('10.0.0.1', '[2001:db8::1]:443', 1), '2001:db8::1');
  });
  test('a header shorter than the proxies, or not an address, falls back to the socket', () => {
    assert.equal(clientAddress('10.0.0.1', '198.51.100.1', 2), '10.0.0.1');
    assert.equal(clientAddress('10.0.0.1', 'not-an-ip', 1), '10.0.0.1');
    assert.equal(clientAddress('10.0.0.1', null, 1), '10.0.0.1');
  });
  test('an IPv4-mapped IPv6 socket address is the IPv4 reader', () => {
    assert.equal(clientAddress('::ffff:203.0.113.9', null, 0), '203.0.113.9');
  });
});

describe('the reader hash and name', () => {
  test('a keyed hash: same address and salt, same hash; another salt, another hash', () => {
    assert.equal(readerHash('203.0.113.9', 'salt-a'), readerHash('203.0.113.9', 'salt-a'));
    assert.notEqual(readerHash('203.0.113.9', 'salt-a'), readerHash('203.0.113.9', 'salt-b'));
    assert.ok(!readerHash('203.0.113.9', 'salt-a').includes('203'));
  });

  test('one connection that carries several readers (a proxy) gives each its own hash, and a new salt a new one', () => {
    const connection = {};
    const asked: [string, string][] = [
      ['203.0.113.9', 'salt-a'],
      ['203.0.113.9', 'salt-a'],
      ['198.51.100.1', 'salt-a'],
      ['203.0.113.9', 'salt-a'],
      ['203.0.113.9', 'salt-b'],
    ];
    for (const [address, salt] of asked) assert.equal(readerHashOn(connection, address, salt), readerHash(address, salt));
    assert.equal(readerHashOn(undefined, '203.0.113.9', 'salt-a'), readerHash('203.0.113.9', 'salt-a'));
  });

  test('at least 32 colours × 64 animals, spread over readers', () => {
    assert.ok(NAME_COUNT >= 32 * 64);
    const names = new Set(Array.from({ length: 3000 }, (_, i) => readerName(readerHash(`198.51.100.${i}`, 'salt'))));
    assert.ok(names.size > 1000, `${names.size} names`);
    assert.match(readerName(readerHash('x', 'y')), /^[A-Z][a-z]+ [A-Z][a-z]+$/);
  });
});
