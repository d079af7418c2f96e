import { isIP } from 'node:net';

/**
 * The settings read from the environment at start-up (README.md, "Settings"). Every
 * module asks here, so a default is written once.
 */
export function siteUrl(): string {
  const raw = process.env['SITE_URL'] ?? 'http://localhost:4321';
  return new URL(raw).origin;
}

export function listenPort(): number {
  const port = Number(process.env['PORT'] ?? 4321);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, not "${process.env['PORT']}"`);
  return port;
}

export function listenHost(): string {
  return process.env['HOST'] ?? 'localhost';
}

/** Folder of the embedded store and its generated salt, unused with DATABASE_URL. */
export function dataDir(): string {
  return process.env['DATA_DIR'] ?? 'data/store';
}

/** The IP-hash salt set by the owner, or undefined to use the generated one. */
export function configuredSalt(): string | undefined {
  const salt = process.env['IP_HASH_SALT'];
  return salt ? salt : undefined;
}

/**
 * TRUST_PROXY: how many proxies stand in front (0 trusts the socket address
 * only), or the proxies' own addresses and CIDR ranges, comma-separated
 * (`127.0.0.1`, `10.0.0.0/8,::1`), whose `X-Forwarded-For` alone is read.
 */
export function trustedProxies(): number | string[] {
  const raw = (process.env['TRUST_PROXY'] ?? '0').trim();
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim());
  const wrong = entries.find((entry) => !isAddressOrRange(entry));
  if (wrong !== undefined)
    throw new Error(
      `TRUST_PROXY must be a whole number of proxies or their addresses and CIDR ranges, comma-separated; "${wrong}" is neither`,
    );
  return entries;
}

function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * STATIC_CACHE_MIB: how much of the built files' bodies the front server holds
 * in memory, in MiB (the pages read most; the rest is read from disk).
 */
export function staticCacheBytes(): number {
  const raw = process.env['STATIC_CACHE_MIB'] ?? '16';
  const mib = Number(raw);
  if (!Number.isFinite(mib) || mib < 0) throw new Error(`STATIC_CACHE_MIB must be a number of MiB (0 or more), not "${raw}"`);
  return Math.floor(mib * 1024 * 1024);
}

/** CARDS_DIR: where social cards are kept once drawn (src/server/social/card-files.ts). */
export function cardsDir(): string {
  return process.env['CARDS_DIR'] || '.cache/cards';
}

/** PostgreSQL's address (postgres://…): the store lives there instead of in DATA_DIR. */
export function databaseUrl(): string | undefined {
  return process.env['DATABASE_URL'] || undefined;
}

export function redisUrl(): string | undefined {
  return process.env['REDIS_URL'] || undefined;
}

/** The captcha's kind: Cloudflare Turnstile (or a siteverify endpoint like it), or ALTCHA's proof of work, served by the site itself. */
type CaptchaProvider = 'turnstile' | 'altcha';

export interface CaptchaSettings {
  /** Undefined: no captcha. */
  provider: CaptchaProvider | undefined;
  siteKey: string | undefined;
  secret: string | undefined;
  verifyUrl: string;
}

/**
 * CAPTCHA_PROVIDER (`turnstile` or `altcha`; unset, Turnstile when either
 * of its keys is set), CAPTCHA_SITE_KEY, CAPTCHA_SECRET and
 * CAPTCHA_VERIFY_URL (Turnstile's). ALTCHA needs no key: its challenges are
 * signed with keys derived from the salt.
 */
export function captchaSettings(): CaptchaSettings {
  const siteKey = process.env['CAPTCHA_SITE_KEY'] || undefined;
  const secret = process.env['CAPTCHA_SECRET'] || undefined;
  const named = (process.env['CAPTCHA_PROVIDER'] ?? '').trim().toLowerCase();
  if (named !== '' && named !== 'turnstile' && named !== 'altcha')
    throw new Error(`CAPTCHA_PROVIDER must be turnstile or altcha, not "${named}"`);
  if (named === 'altcha' && (siteKey !== undefined || secret !== undefined))
    throw new Error("CAPTCHA_PROVIDER=altcha needs no key: CAPTCHA_SITE_KEY and CAPTCHA_SECRET are Turnstile's, unset them");
  const turnstile = named === 'turnstile' || (named === '' && (siteKey !== undefined || secret !== undefined));
  return {
    provider: named === 'altcha' ? 'altcha' : turnstile ? 'turnstile' : undefined,
    siteKey,
    secret,
    verifyUrl: process.env['CAPTCHA_VERIFY_URL'] || 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  };
}

/**
 * The captcha as the pages carry it, which the build bakes in: ALTCHA's
 * widget, or Turnstile's with its site key, or none. Only CAPTCHA_PROVIDER
 * and CAPTCHA_SITE_KEY decide it: the secret is the server's alone, and a
 * server started with another one serves the same build.
 */
export function pageCaptcha(): { provider: 'altcha' | 'turnstile' | undefined; siteKey: string | undefined } {
  const { provider, siteKey } = captchaSettings();
  return { provider: provider === 'altcha' || siteKey !== undefined ? provider : undefined, siteKey };
}

/**
 * FORM_MIN_SECONDS: the least time between a form's stamp (when the page
 * showed it) and its write; one sent sooner is refused as a robot's. 0 turns
 * the rule off.
 */
export function formMinSeconds(): number {
  return secondsSetting('FORM_MIN_SECONDS', '3');
}

/** A setting that is a number of seconds from 0 to 600, `fallback` when unset. */
function secondsSetting(name: string, fallback: string): number {
  const raw = process.env[name] ?? fallback;
  const seconds = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(seconds) || seconds < 0 || seconds > 600)
    throw new Error(`${name} must be a number of seconds from 0 to 600, not "${raw}"`);
  return seconds;
}

/**
 * DRAIN_SECONDS: how long a stopping server (SIGTERM, SIGINT) keeps serving
 * while `/readyz` answers 503, before its listener closes, so that a proxy
 * that polls readiness sends it nothing new by then.
 */
export function drainSeconds(): number {
  return secondsSetting('DRAIN_SECONDS', '5');
}

const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** LOG_LEVEL: the least severe level written; `info` writes one line per request, `warn` only what needs a look. */
export function logLevel(): LogLevel {
  const raw = (process.env['LOG_LEVEL'] || 'info').trim().toLowerCase();
  const level = LOG_LEVELS.find((known) => known === raw);
  if (level === undefined) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not "${raw}"`);
  return level;
}

/** LOG_FORMAT: `json` (one object a line) or `pretty` (a line for people); unset, pretty on a terminal and JSON elsewhere. */
export function logFormat(): 'json' | 'pretty' | undefined {
  const raw = (process.env['LOG_FORMAT'] ?? '').trim().toLowerCase();
  if (raw === '') return undefined;
  if (raw === 'json' || raw === 'pretty') return raw;
  throw new Error(`LOG_FORMAT must be json or pretty, not "${raw}"`);
}

/** A listener of its own, from `<name>_PORT` and `<name>_HOST` (default 127.0.0.1, this machine only); unset port, none. */
function ownListener(name: 'METRICS' | 'OWNER'): { port: number; host: string } | undefined {
  const raw = process.env[`${name}_PORT`];
  if (raw === undefined || raw.trim() === '') return undefined;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name}_PORT must be a port number, not "${raw}"`);
  return { port, host: process.env[`${name}_HOST`] || '127.0.0.1' };
}

/** METRICS_PORT and METRICS_HOST: where Prometheus metrics are served, on a listener of their own; unset port, nowhere. */
export function metricsListen(): { port: number; host: string } | undefined {
  return ownListener('METRICS');
}

/** OWNER_PORT and OWNER_HOST: where the owner's desk listens (src/server/desk/), never on the public port; unset port, nowhere. */
export function deskListen(): { port: number; host: string } | undefined {
  return ownListener('OWNER');
}

/**
 * OWNER_ORIGIN: the origin the owner reaches the desk at through a proxy of
 * their own (`https://desk.example.org`), besides the loopback addresses.
 * The desk answers no other Host, so that no page elsewhere can reach it
 * through a name of its own pointed at this machine.
 */
export function deskOrigin(): string | undefined {
  const raw = process.env['OWNER_ORIGIN'] || undefined;
  if (raw === undefined) return undefined;
  const url = urlOf('OWNER_ORIGIN', raw);
  if (!/^https?:$/.test(url.protocol) || url.origin !== raw.replace(/\/$/, ''))
    throw new Error('OWNER_ORIGIN must be an origin, such as https://desk.example.org');
  return url.origin;
}

const MODERATION_MODES = ['off', 'first', 'all'] as const;

/**
 * MODERATION: `off` (every comment is published at once), `first` (a reader
 * none of whose comments was ever published waits for approval) or `all`
 * (every comment waits).
 */
export function moderationMode(): (typeof MODERATION_MODES)[number] {
  const raw = (process.env['MODERATION'] || 'off').trim().toLowerCase();
  const mode = MODERATION_MODES.find((known) => known === raw);
  if (mode === undefined) throw new Error(`MODERATION must be one of ${MODERATION_MODES.join(', ')}, not "${raw}"`);
  return mode;
}

/** Where the owner hears of new writes (src/server/notifications/): by email, by webhook, both or neither. */
export interface NotificationSettings {
  email: { smtpUrl: string; to: string; from: string; intervalSeconds: number } | undefined;
  webhookUrl: string | undefined;
}

/**
 * SMTP_URL (`smtp://user:pass@host:587`, `smtps://…`) with NOTIFY_EMAIL_TO,
 * and NOTIFY_EMAIL_FROM (default: the same address); NOTIFY_EMAIL_SECONDS,
 * the least time between two emails (default 300); NOTIFY_WEBHOOK_URL.
 */
export function notificationSettings(): NotificationSettings {
  const smtpUrl = process.env['SMTP_URL'] || undefined;
  const to = process.env['NOTIFY_EMAIL_TO'] || undefined;
  const webhookUrl = process.env['NOTIFY_WEBHOOK_URL'] || undefined;
  if ((smtpUrl === undefined) !== (to === undefined)) throw new Error('SMTP_URL and NOTIFY_EMAIL_TO are set together or not at all');
  if (smtpUrl !== undefined && !/^smtps?:$/.test(urlOf('SMTP_URL', smtpUrl).protocol))
    throw new Error('SMTP_URL must start with smtp:// or smtps://');
  if (webhookUrl !== undefined && !/^https?:$/.test(urlOf('NOTIFY_WEBHOOK_URL', webhookUrl).protocol))
    throw new Error('NOTIFY_WEBHOOK_URL must be an http:// or https:// URL');
  const raw = process.env['NOTIFY_EMAIL_SECONDS'] ?? '300';
  const intervalSeconds = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(intervalSeconds) || intervalSeconds < 0 || intervalSeconds > 86_400)
    throw new Error(`NOTIFY_EMAIL_SECONDS must be a number of seconds from 0 to 86400, not "${raw}"`);
  return {
    email: smtpUrl && to ? { smtpUrl, to, from: process.env['NOTIFY_EMAIL_FROM'] || to, intervalSeconds } : undefined,
    webhookUrl,
  };
}

function urlOf(name: string, raw: string): URL {
  try {
    return new URL(raw);
  } catch {
    throw new Error(`${name} is not a URL`);
  }
}

/** A connection URL with its password, in the user part or the query (`?password=`), shown as `***`. */
function maskedUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password !== '') url.password = '***';
    if (url.searchParams.has('password')) url.searchParams.set('password', '***');
    return url.toString();
  } catch {
    // Not a URL the server could read either: nothing of it is worth showing.
    return '(not a URL)';
  }
}

/**
 * The settings in effect, as start-up logs them: every variable the server
 * reads, with secrets never shown (`IP_HASH_SALT` and `CAPTCHA_SECRET` as set
 * or not, passwords in `DATABASE_URL` and `REDIS_URL` as `***`).
 */
export function settingsInEffect(): Record<string, string> {
  const database = databaseUrl();
  const redis = redisUrl();
  const captcha = captchaSettings();
  const metrics = metricsListen();
  const desk = deskListen();
  const notify = notificationSettings();
  return {
    PORT: String(listenPort()),
    HOST: listenHost(),
    SITE_URL: siteUrl(),
    store: database ? maskedUrl(database) : `embedded in ${dataDir()}`,
    REDIS_URL: redis ? maskedUrl(redis) : 'unset (quotas in memory)',
    IP_HASH_SALT: configuredSalt() ? 'set (hidden)' : 'unset (generated, kept with the store)',
    TRUST_PROXY: String(trustedProxies()),
    CAPTCHA_PROVIDER: captcha.provider ?? 'unset (no captcha)',
    CAPTCHA_SITE_KEY: captcha.siteKey ?? 'unset',
    CAPTCHA_SECRET: captcha.secret ? 'set (hidden)' : 'unset',
    CAPTCHA_VERIFY_URL: maskedUrl(captcha.verifyUrl),
    FORM_MIN_SECONDS: String(formMinSeconds()),
    LOG_LEVEL: logLevel(),
    LOG_FORMAT: logFormat() ?? 'unset (pretty on a terminal, else JSON)',
    DRAIN_SECONDS: String(drainSeconds()),
    metrics: metrics ? `http://${metrics.host}:${metrics.port}/metrics` : 'off (METRICS_PORT unset)',
    desk: desk ? `http://${desk.host}:${desk.port}/` : 'off (OWNER_PORT unset)',
    OWNER_ORIGIN: deskOrigin() ?? 'unset',
    SMTP_URL: notify.email ? maskedUrl(notify.email.smtpUrl) : 'unset (no email)',
    NOTIFY_EMAIL_TO: notify.email ? 'set (hidden)' : 'unset',
    NOTIFY_EMAIL_SECONDS: String(notify.email?.intervalSeconds ?? 'unset'),
    NOTIFY_WEBHOOK_URL: notify.webhookUrl ? 'set (hidden)' : 'unset (no webhook)',
    MODERATION: moderationMode(),
  };
}
