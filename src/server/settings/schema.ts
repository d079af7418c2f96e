/**
 * Every setting of the server, declared once: each environment variable's
 * parser (with its range), its default, whether the build bakes it into the
 * pages (`build`), whether it is secret, and its meaning in one line.
 * Reading (environment.ts), the settings in effect that start-up logs, and
 * the docs test's list of variables are all made from this table; README.md's
 * settings table says each at length, one row each.
 *
 * An empty variable counts as unset. `fallback` is the text read when unset;
 * a setting without one is undefined when unset, and `unset` says what that
 * means.
 */
import type { z } from 'zod';
import { count, exactOrigin, mebibytes, oneOf, origin, port, proxies, seconds, text, url } from './parsers.ts';

/** How a setting is shown in the settings in effect: `hidden`, as set or not; `password`, a URL with its password as `***`. */
type Secret = 'hidden' | 'password';

/** One setting's declaration. */
export interface Declaration {
  /** What it sets, in one line; README.md's row says it at length. */
  meaning: string;
  parse: z.ZodType<unknown, string>;
  fallback?: string;
  unset?: string;
  build?: true;
  secret?: Secret;
}

const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;

export const SETTINGS = {
  PORT: { meaning: 'port to listen on (0 picks a free one)', parse: port(), fallback: '4321' },
  HOST: { meaning: 'address to listen on', parse: text(), fallback: 'localhost' },
  SITE_URL: { meaning: "the site's public origin", parse: origin(), fallback: 'http://localhost:4321', build: true },
  DATA_DIR: { meaning: 'folder of the embedded store and its generated salt', parse: text(), fallback: 'data/store' },
  DATABASE_URL: { meaning: 'the PostgreSQL store', parse: text(), unset: 'the embedded store in DATA_DIR', secret: 'password' },
  PGUSER: { meaning: 'the PostgreSQL user DATABASE_URL leaves out', parse: text(), unset: "the system's user name" },
  PGSSLMODE: { meaning: 'the sslmode DATABASE_URL leaves out, as libpq reads it', parse: text(), unset: 'no TLS' },
  IP_HASH_SALT: { meaning: 'secret salt of the reader hash', parse: text(), unset: 'generated, kept with the store', secret: 'hidden' },
  TRUST_PROXY: { meaning: 'whom to believe about X-Forwarded-For', parse: proxies(), fallback: '0' },
  CAPTCHA_PROVIDER: {
    meaning: 'the captcha: turnstile or altcha',
    parse: oneOf(['turnstile', 'altcha']),
    unset: 'turnstile when a key is set, else none',
    build: true,
  },
  CAPTCHA_SITE_KEY: { meaning: "Turnstile's public key", parse: text(), build: true },
  CAPTCHA_SECRET: { meaning: "Turnstile's secret key", parse: text(), secret: 'hidden' },
  CAPTCHA_VERIFY_URL: {
    meaning: 'a Turnstile-compatible siteverify endpoint',
    parse: text(),
    fallback: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    secret: 'password',
  },
  FORM_MIN_SECONDS: { meaning: "least time between a form's being shown and its write", parse: seconds(600), fallback: '3' },
  STATIC_CACHE_MIB: { meaning: "MiB of built files' bodies held in memory", parse: mebibytes(), fallback: '16' },
  CARDS_DIR: { meaning: 'where social cards are kept once drawn', parse: text(), fallback: '.cache/cards' },
  REDIS_URL: { meaning: 'the Redis that keeps quotas, bans and spent challenges', parse: text(), unset: 'in memory', secret: 'password' },
  LOG_LEVEL: { meaning: 'least severe line written', parse: oneOf(LOG_LEVELS), fallback: 'info' },
  LOG_FORMAT: { meaning: 'json or pretty', parse: oneOf(['json', 'pretty']), unset: 'pretty on a terminal, else JSON' },
  METRICS_PORT: { meaning: 'port of the Prometheus metrics listener', parse: port(), unset: 'no metrics' },
  METRICS_HOST: { meaning: 'address the metrics listener binds', parse: text(), fallback: '127.0.0.1' },
  DRAIN_SECONDS: { meaning: 'how long a stopping server drains before its listener closes', parse: seconds(600), fallback: '5' },
  SMTP_URL: { meaning: "the owner's emails' SMTP server", parse: url(['smtp:', 'smtps:']), unset: 'no email', secret: 'password' },
  NOTIFY_EMAIL_TO: { meaning: "the owner's address", parse: text(), secret: 'hidden' },
  NOTIFY_EMAIL_FROM: { meaning: 'the sender of the emails', parse: text(), unset: 'NOTIFY_EMAIL_TO', secret: 'hidden' },
  NOTIFY_EMAIL_SECONDS: { meaning: 'least time between two emails', parse: seconds(86_400), fallback: '300' },
  NOTIFY_WEBHOOK_URL: { meaning: 'where new records are posted', parse: url(['http:', 'https:']), unset: 'no webhook', secret: 'hidden' },
  NEWSLETTER: { meaning: 'whether readers may subscribe by email', parse: oneOf(['off', 'on']), fallback: 'off', build: true },
  NEWSLETTER_FROM: { meaning: 'the sender of subscription emails', parse: text(), unset: 'NOTIFY_EMAIL_FROM', secret: 'hidden' },
  NEWSLETTER_RATE: { meaning: 'most subscription emails a minute', parse: count(6000), fallback: '60' },
  OWNER_PORT: { meaning: "port of the owner's desk", parse: port(), unset: 'no desk' },
  OWNER_HOST: { meaning: 'address the desk binds', parse: text(), fallback: '127.0.0.1' },
  OWNER_ORIGIN: { meaning: 'the origin the desk is reached at through a proxy', parse: exactOrigin('https://desk.example.org') },
  MODERATION: { meaning: 'which comments wait for approval', parse: oneOf(['off', 'first', 'all']), fallback: 'off' },
  FEDERATION: { meaning: 'whether the publication federates (ActivityPub)', parse: oneOf(['off', 'on']), fallback: 'off', build: true },
  FEDERATION_ALLOW_PRIVATE_ADDRESSES: {
    meaning: 'let outbound federation reach loopback and private addresses (tests on one machine)',
    parse: oneOf(['1']),
    unset: 'refused',
  },
} satisfies Record<string, Declaration>;

export type SettingName = keyof typeof SETTINGS;

/** Each setting's value: undefined when unset and without a fallback. */
export type Settings = {
  [K in SettingName]: (typeof SETTINGS)[K] extends { fallback: string }
    ? z.output<(typeof SETTINGS)[K]['parse']>
    : z.output<(typeof SETTINGS)[K]['parse']> | undefined;
};

/**
 * The rules between settings: each reads the settings it names and says
 * what is wrong, or undefined.
 */
export const RULES: readonly { names: readonly SettingName[]; check: (settings: Partial<Settings>) => string | undefined }[] = [
  {
    names: ['CAPTCHA_PROVIDER', 'CAPTCHA_SITE_KEY', 'CAPTCHA_SECRET'],
    check: ({ CAPTCHA_PROVIDER, CAPTCHA_SITE_KEY, CAPTCHA_SECRET }) =>
      CAPTCHA_PROVIDER === 'altcha' && (CAPTCHA_SITE_KEY !== undefined || CAPTCHA_SECRET !== undefined)
        ? "CAPTCHA_PROVIDER=altcha needs no key: CAPTCHA_SITE_KEY and CAPTCHA_SECRET are Turnstile's, unset them"
        : undefined,
  },
  {
    // SMTP_URL alone serves the newsletter: the owner's notifications then stay off.
    names: ['SMTP_URL', 'NOTIFY_EMAIL_TO', 'NEWSLETTER'],
    check: ({ SMTP_URL, NOTIFY_EMAIL_TO, NEWSLETTER }) =>
      (SMTP_URL === undefined) !== (NOTIFY_EMAIL_TO === undefined) && !(NEWSLETTER === 'on' && SMTP_URL !== undefined)
        ? 'SMTP_URL and NOTIFY_EMAIL_TO are set together or not at all (SMTP_URL alone with NEWSLETTER=on)'
        : undefined,
  },
  {
    names: ['NEWSLETTER', 'SMTP_URL', 'NEWSLETTER_FROM', 'NOTIFY_EMAIL_FROM', 'NOTIFY_EMAIL_TO'],
    check: (given) => {
      if (given.NEWSLETTER !== 'on') return undefined;
      if (given.SMTP_URL === undefined) return 'NEWSLETTER=on needs SMTP_URL';
      const sender = given.NEWSLETTER_FROM ?? given.NOTIFY_EMAIL_FROM ?? given.NOTIFY_EMAIL_TO;
      return sender === undefined ? 'NEWSLETTER=on needs a sender: NEWSLETTER_FROM (or NOTIFY_EMAIL_FROM)' : undefined;
    },
  },
];
