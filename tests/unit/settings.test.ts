import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { setting, settingsInEffect } from '../../src/server/settings/environment.ts';
import { SETTINGS } from '../../src/server/settings/schema.ts';

const saved = { ...process.env };
beforeEach(() => {
  for (const name of Object.keys(SETTINGS)) Reflect.deleteProperty(process.env, name);
});
afterEach(() => {
  process.env = { ...saved };
});

/** A value each setting refuses, and the start of the message that refuses it. */
const WRONG: Record<string, [string, RegExp]> = {
  PORT: ['70000', /^Error: PORT must be a port number, not "70000"/],
  METRICS_PORT: ['1.5', /^Error: METRICS_PORT must be a port number/],
  OWNER_PORT: ['desk', /^Error: OWNER_PORT must be a port number/],
  SITE_URL: ['localhost', /^Error: SITE_URL is not a URL/],
  TRUST_PROXY: ['10.0.0.0/33', /^Error: TRUST_PROXY must be .*"10\.0\.0\.0\/33" is neither/],
  FORM_MIN_SECONDS: ['601', /^Error: FORM_MIN_SECONDS must be a number of seconds from 0 to 600, not "601"/],
  DRAIN_SECONDS: ['-1', /^Error: DRAIN_SECONDS must be a number of seconds from 0 to 600/],
  NOTIFY_EMAIL_SECONDS: ['86401', /^Error: NOTIFY_EMAIL_SECONDS must be a number of seconds from 0 to 86400/],
  STATIC_CACHE_MIB: ['lots', /^Error: STATIC_CACHE_MIB must be a number of MiB/],
  LOG_LEVEL: ['loud', /^Error: LOG_LEVEL must be one of silent, error, warn, info, debug, not "loud"/],
  LOG_FORMAT: ['xml', /^Error: LOG_FORMAT must be json or pretty, not "xml"/],
  CAPTCHA_PROVIDER: ['recaptcha', /^Error: CAPTCHA_PROVIDER must be turnstile or altcha/],
  MODERATION: ['sometimes', /^Error: MODERATION must be one of off, first, all, not "sometimes"/],
  OWNER_ORIGIN: ['https://desk.example.org/desk', /^Error: OWNER_ORIGIN must be an origin/],
  SMTP_URL: ['http://mail.example.org', /^Error: SMTP_URL must start with smtp:\/\/ or smtps:\/\//],
  NOTIFY_WEBHOOK_URL: ['ftp://hooks.example.org', /^Error: NOTIFY_WEBHOOK_URL must start with http:\/\/ or https:\/\//],
};

test('a wrong value stops reading the settings with a message that names the variable', () => {
  for (const [name, [value, message]] of Object.entries(WRONG)) {
    process.env = { ...saved };
    for (const known of Object.keys(SETTINGS)) Reflect.deleteProperty(process.env, known);
    process.env[name] = value;
    assert.throws(() => settingsInEffect(), message, name);
  }
});

test('every wrong setting is named at once', () => {
  Object.assign(process.env, { PORT: 'x', MODERATION: 'sometimes' });
  assert.throws(() => settingsInEffect(), /^Error: PORT must be .*; MODERATION must be /);
});

test('the rules between settings: ALTCHA takes no key, SMTP_URL goes with NOTIFY_EMAIL_TO', () => {
  Object.assign(process.env, { CAPTCHA_PROVIDER: 'altcha', CAPTCHA_SITE_KEY: 'key' });
  assert.throws(() => settingsInEffect(), /CAPTCHA_PROVIDER=altcha needs no key/);
  process.env = { ...saved, SMTP_URL: 'smtp://mail.example.org' };
  assert.throws(() => settingsInEffect(), /SMTP_URL and NOTIFY_EMAIL_TO are set together or not at all/);
});

test('unset or empty, a setting is its default', () => {
  assert.equal(setting('PORT'), 4321);
  Object.assign(process.env, { PORT: '', STATIC_CACHE_MIB: '', MODERATION: '' });
  assert.equal(setting('PORT'), 4321);
  assert.equal(setting('STATIC_CACHE_MIB'), 16 * 1024 * 1024);
  assert.equal(setting('MODERATION'), 'off');
  assert.equal(setting('DATABASE_URL'), undefined);
  process.env['STATIC_CACHE_MIB'] = '0.5';
  assert.equal(setting('STATIC_CACHE_MIB'), 512 * 1024);
});

/** A valid value of each secret setting, holding the text that must never be shown. */
const SECRET = 'hunter2';
const SECRETS: Record<string, string> = {
  DATABASE_URL: `postgres://site:${SECRET}@db.internal/site?password=${SECRET}`,
  IP_HASH_SALT: SECRET,
  CAPTCHA_SECRET: SECRET,
  CAPTCHA_VERIFY_URL: `https://user:${SECRET}@verify.example.org/`,
  REDIS_URL: `redis://:${SECRET}@cache.internal:6379`,
  SMTP_URL: `smtp://owner:${SECRET}@mail.example.org:587`,
  NOTIFY_EMAIL_TO: `${SECRET}@example.org`,
  NOTIFY_EMAIL_FROM: `${SECRET}@example.org`,
  NEWSLETTER_FROM: `${SECRET}@example.org`,
  NOTIFY_WEBHOOK_URL: `https://hooks.example.org/${SECRET}`,
};

test('the settings in effect show every setting of the schema, and none of a secret', () => {
  const secrets = Object.entries(SETTINGS).filter(([, declaration]) => 'secret' in declaration);
  assert.deepEqual(Object.keys(SECRETS).sort(), secrets.map(([name]) => name).sort(), 'a value for each secret setting');
  Object.assign(process.env, SECRETS);
  const shown = settingsInEffect();
  for (const name of Object.keys(SETTINGS)) assert.ok(name in shown, name);
  assert.ok(!JSON.stringify(shown).includes(SECRET), JSON.stringify(shown));
  assert.equal(shown['IP_HASH_SALT'], 'set (hidden)');
  assert.equal(shown['SMTP_URL'], 'smtp://owner:***@mail.example.org:587');
  assert.equal(shown['PORT'], '4321');
});
