import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { canonicalAddress, clientAddress, proxyTrust, readerKey } from '../../src/server/identity/client-address.ts';
import { identify } from '../../src/server/identity/caller.ts';
import { readerHash } from '../../src/server/identity/reader-hash.ts';
import { NAME_COUNT, readerName } from '../../src/server/identity/reader-name.ts';
import { sign, signingKey, verify } from '../../src/server/identity/signing.ts';

const count = (n: number) => proxyTrust(n);

describe('the client address', () => {
  test('TRUST_PROXY=0 uses the socket, whatever X-Forwarded-For says', () => {
    assert.equal(clientAddress('203.0.113.9', '198.51.100.1', count(0)), '203.0.113.9');
  });
  test('TRUST_PROXY=N takes the Nth address from the right', () => {
    assert.equal(clientAddress('10.0.0.1', '198.51.100.1', count(1)), '198.51.100.1');
    assert.equal(clientAddress('10.0.0.1', 'forged, 198.51.100.1, 10.0.0.2', count(2)), '198.51.100.1');
    assert.equal(clientAddress('10.0.0.1', '198.51.100.1:5555', count(1)), '198.51.100.1');
    assert.equal(clientAddress('10.0.0.1', '[2001:db8::1]:443', count(1)), '2001:db8:0:0:0:0:0:1');
  });
  test('a header shorter than the proxies, or not an address, falls back to the socket', () => {
    assert.equal(clientAddress('10.0.0.1', '198.51.100.1', count(2)), '10.0.0.1');
    assert.equal(clientAddress('10.0.0.1', 'not-an-ip', count(1)), '10.0.0.1');
    assert.equal(clientAddress('10.0.0.1', null, count(1)), '10.0.0.1');
  });
  test('with the proxies named, only their X-Forwarded-For is read, from the right, past every trusted proxy', () => {
    const trust = proxyTrust(['10.0.0.0/8', '2001:db8:ffff::1']);
    assert.equal(clientAddress('203.0.113.9', '198.51.100.1', trust), '203.0.113.9', 'a peer that is no proxy forges nothing');
    assert.equal(clientAddress('10.1.2.3', '198.51.100.1', trust), '198.51.100.1');
    assert.equal(
      clientAddress('10.1.2.3', 'forged, 198.51.100.1, 10.9.9.9', trust),
      '198.51.100.1',
      'past the inner proxy, and no further',
    );
    assert.equal(clientAddress('::ffff:10.1.2.3', '198.51.100.1', trust), '198.51.100.1', 'a trusted proxy seen through an IPv6 socket');
    assert.equal(clientAddress('2001:db8:ffff::1', '[2001:db8::5]:80', trust), '2001:db8:0:0:0:0:0:5');
    assert.equal(clientAddress('10.1.2.3', '10.0.0.7, 10.0.0.8', trust), '10.0.0.7', 'every hop a proxy: the first one');
    assert.equal(clientAddress('10.1.2.3', '198.51.100.1, junk', trust), '10.1.2.3', 'what a proxy added is not an address: the proxy');
    assert.equal(clientAddress('10.1.2.3', '', trust), '10.1.2.3');
  });
});

describe('the canonical address and the reader key', () => {
  test('one written form per address: zone dropped, IPv4-mapped as IPv4, IPv6 in eight groups', () => {
    assert.equal(canonicalAddress('2001:db8::1'), '2001:db8:0:0:0:0:0:1');
    assert.equal(canonicalAddress('2001:0DB8:0000::0001'), '2001:db8:0:0:0:0:0:1');
    assert.equal(canonicalAddress('2001:db8::1%eth0'), '2001:db8:0:0:0:0:0:1');
    assert.equal(canonicalAddress('::ffff:cb00:7107'), '203.0.113.7');
    assert.equal(canonicalAddress('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(canonicalAddress('203.0.113.7'), '203.0.113.7');
    assert.equal(canonicalAddress('::1'), '0:0:0:0:0:0:0:1');
    assert.equal(canonicalAddress('64:ff9b::198.51.100.1'), '64:ff9b:0:0:0:0:c633:6401');
    for (const junk of ['', 'x', '1.2.3', '2001:db8::1::2', '[::1]', '203.0.113.7:80']) assert.equal(canonicalAddress(junk), null, junk);
  });
  test('an IPv6 reader is its /64; an IPv4 reader its address', () => {
    const key = (address: string) => readerKey(canonicalAddress(address) ?? '');
    assert.equal(key('2001:db8::1'), key('2001:db8::2'));
    assert.equal(key('2001:db8::1'), key('2001:db8:0:0:ffff:ffff:ffff:ffff'));
    assert.notEqual(key('2001:db8::1'), key('2001:db8:0:1::1'));
    assert.equal(key('203.0.113.7'), '203.0.113.7');
    assert.equal(key('::ffff:203.0.113.7'), '203.0.113.7');
    assert.notEqual(key('203.0.113.7'), key('203.0.113.8'));
  });
});

describe('the reader hash and name', () => {
  test('a keyed hash: same address and salt, same hash; another salt, another hash', () => {
    assert.equal(readerHash('203.0.113.9', 'salt-a'), readerHash('203.0.113.9', 'salt-a'));
    assert.notEqual(readerHash('203.0.113.9', 'salt-a'), readerHash('203.0.113.9', 'salt-b'));
    assert.ok(!readerHash('203.0.113.9', 'salt-a').includes('203'));
  });

  test("HMAC-SHA-256 keyed by the salt's UTF-8 bytes, as stores written by earlier versions hold it", () => {
    assert.equal(readerHash('2001:db8::1', 'sålt-ü ✓'), 'qxo-ogbJ_rBuKPSiD8l3B50e1XrXhu2x_sNlVqjbDLM');
    assert.notEqual(readerHash('2001:db8::1', 'salt-b'), 'qxo-ogbJ_rBuKPSiD8l3B50e1XrXhu2x_sNlVqjbDLM');
    assert.equal(readerHash('2001:db8::1', 'sålt-ü ✓'), 'qxo-ogbJ_rBuKPSiD8l3B50e1XrXhu2x_sNlVqjbDLM', 'the same after another salt');
  });

  test('one connection that carries several readers (a proxy) gives each its own caller, and new keys a new one', () => {
    const connection = {};
    const behindProxy = { trustedProxies: count(1), salt: 'salt-a' };
    const otherSalt = { trustedProxies: count(1), salt: 'salt-b' };
    const direct = { trustedProxies: count(0), salt: 'salt-a' };
    const asked: [string | null, typeof direct][] = [
      ['203.0.113.9', behindProxy],
      ['203.0.113.9', behindProxy],
      ['198.51.100.1', behindProxy],
      ['203.0.113.9', behindProxy],
      [null, behindProxy],
      ['203.0.113.9', otherSalt],
      ['203.0.113.9', direct],
    ];
    for (const [forwardedFor, keys] of asked) {
      const request = { header: (name: string) => (name === 'X-Forwarded-For' ? forwardedFor : null) };
      const address = clientAddress('10.0.0.1', forwardedFor, keys.trustedProxies);
      const expected = { address, hash: readerHash(readerKey(address), keys.salt) };
      assert.deepEqual(identify({ request, socketAddress: '10.0.0.1', connection }, keys), expected);
      assert.deepEqual(identify({ request, socketAddress: '10.0.0.1' }, keys), expected, 'without a connection');
    }
    assert.equal(identify({ request: { header: () => null }, socketAddress: '192.0.2.7', connection }, direct).address, '192.0.2.7');
  });

  test('at least 32 colours × 64 animals, spread over readers', () => {
    assert.ok(NAME_COUNT >= 32 * 64);
    const names = new Set(Array.from({ length: 3000 }, (_, i) => readerName(readerHash(`198.51.100.${i}`, 'salt'))));
    assert.ok(names.size > 1000, `${names.size} names`);
    assert.match(readerName(readerHash('x', 'y')), /^[A-Z][a-z]+ [A-Z][a-z]+$/);
  });
});

describe('what the site signs for itself', () => {
  test('a signed value verifies with its key only, and not once altered', () => {
    const key = signingKey('salt', 'form-stamp');
    const signed = sign(key, 'payload-1');
    assert.equal(verify(key, signed), 'payload-1');
    assert.equal(verify(signingKey('salt', 'moderation-link'), signed), null, 'another purpose');
    assert.equal(verify(signingKey('other salt', 'form-stamp'), signed), null, 'another salt');
    assert.equal(verify(key, signed.replace('payload-1', 'payload-2')), null, 'another payload');
    assert.equal(verify(key, `${signed}x`), null, 'another MAC');
    for (const junk of ['', '.', 'payload', '.mac']) assert.equal(verify(key, junk), null, junk);
    assert.throws(() => sign(key, 'a.b'));
  });

  test('a signed value has one spelling: characters appended or another spelling of its MAC are refused', () => {
    const key = signingKey('salt', 'moderation-link');
    const signed = sign(key, 'approve~1~id');
    for (const extra of ['=', '==', '!', '%', ' ', '\n', '.', '~'])
      assert.equal(verify(key, `${signed}${extra}`), null, JSON.stringify(extra));
    // The MAC's last character carries two spare bits: flipping one spells the same bytes another way.
    const last = signed.at(-1) ?? '';
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const twin = alphabet[alphabet.indexOf(last) ^ 1] ?? '';
    const respelled = `${signed.slice(0, -1)}${twin}`;
    assert.deepEqual(Buffer.from(respelled.split('.')[1] ?? '', 'base64url'), Buffer.from(signed.split('.')[1] ?? '', 'base64url'));
    assert.equal(verify(key, respelled), null, 'the same bytes spelled otherwise');
    assert.equal(verify(key, `${signed.slice(0, -1)}+`), null, 'base64, not base64url');
  });
});
