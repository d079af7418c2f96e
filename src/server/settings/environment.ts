/**
 * The settings read from the environment, as schema.ts declares them. Every
 * module asks here, when it needs a setting: nothing keeps a default of its
 * own, and a wrong value is refused with the variable's name.
 */
import { RULES, SETTINGS, type Declaration, type SettingName, type Settings } from './schema.ts';

export type { Settings } from './schema.ts';
export type LogLevel = Settings['LOG_LEVEL'];

const NAMES = Object.keys(SETTINGS) as SettingName[];

/** A variable's text, or undefined when it is unset or empty. */
function textOf(name: SettingName): string | undefined {
  const raw = process.env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

/**
 * The settings `names`, read from the environment now, with the rules among
 * them (schema.ts, RULES). Throws one error that names every wrong setting.
 */
export function settingsOf<const K extends SettingName>(names: readonly K[]): Pick<Settings, K> {
  // Each value parsed by its own declaration's parser: typed as Settings once whole.
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const name of names) {
    const { parse, fallback }: Declaration = SETTINGS[name];
    const raw = textOf(name) ?? fallback;
    if (raw === undefined) continue;
    const parsed = parse.safeParse(raw);
    if (parsed.success) values[name] = parsed.data;
    else problems.push(...parsed.error.issues.map((issue) => `${name} ${issue.message}`));
  }
  if (problems.length === 0)
    for (const rule of RULES) {
      const problem = rule.names.every((name) => (names as readonly SettingName[]).includes(name)) ? rule.check(values) : undefined;
      if (problem !== undefined) problems.push(problem);
    }
  if (problems.length > 0) throw new Error(problems.join('; '));
  return values as Pick<Settings, K>;
}

/** One setting, read from the environment now. */
export function setting<K extends SettingName>(name: K): Settings[K] {
  return settingsOf([name])[name];
}

/** The captcha's kind: Cloudflare Turnstile (or a siteverify endpoint like it), or ALTCHA's proof of work, served by the site itself. */
type CaptchaProvider = NonNullable<Settings['CAPTCHA_PROVIDER']>;

export interface CaptchaSettings {
  /** Undefined: no captcha. */
  provider: CaptchaProvider | undefined;
  siteKey: string | undefined;
  secret: string | undefined;
  verifyUrl: string;
}

/**
 * The captcha in effect: CAPTCHA_PROVIDER, or unset, Turnstile when either
 * of its keys is set. ALTCHA needs no key: its challenges are signed with
 * keys derived from the salt.
 */
export function captchaSettings(): CaptchaSettings {
  const settings = settingsOf(['CAPTCHA_PROVIDER', 'CAPTCHA_SITE_KEY', 'CAPTCHA_SECRET', 'CAPTCHA_VERIFY_URL']);
  const { CAPTCHA_SITE_KEY: siteKey, CAPTCHA_SECRET: secret } = settings;
  const keyed = siteKey !== undefined || secret !== undefined;
  return {
    provider: settings.CAPTCHA_PROVIDER ?? (keyed ? 'turnstile' : undefined),
    siteKey,
    secret,
    verifyUrl: settings.CAPTCHA_VERIFY_URL,
  };
}

/**
 * The captcha as the pages carry it, which the build bakes in: ALTCHA's
 * widget, or Turnstile's with its site key, or none. Only CAPTCHA_PROVIDER
 * and CAPTCHA_SITE_KEY decide it: the secret is the server's alone, and a
 * server started with another one serves the same build.
 */
export function pageCaptcha(): { provider: CaptchaProvider | undefined; siteKey: string | undefined } {
  const { provider, siteKey } = captchaSettings();
  return { provider: provider === 'altcha' || siteKey !== undefined ? provider : undefined, siteKey };
}

/**
 * What the build bakes into the pages of the newsletter and the federation:
 * the subscribe form (NEWSLETTER=on) and the fediverse follow line
 * (FEDERATION=on). Each read alone, without the rules between settings
 * (NEWSLETTER=on needs SMTP_URL): a build needs no mail server, and the
 * server checks the rules when it starts.
 */
export function pageFeatures(): { newsletter: boolean; federation: boolean } {
  return { newsletter: setting('NEWSLETTER') === 'on', federation: setting('FEDERATION') === 'on' };
}

/** A listener of its own (the metrics', the desk's): none while its port is unset. */
type Listener = { port: number; host: string } | undefined;

/** METRICS_PORT and METRICS_HOST: where Prometheus metrics are served, on a listener of their own. */
export function metricsListen(): Listener {
  const { METRICS_PORT: port, METRICS_HOST: host } = settingsOf(['METRICS_PORT', 'METRICS_HOST']);
  return port === undefined ? undefined : { port, host };
}

/** OWNER_PORT and OWNER_HOST: where the owner's desk listens (src/server/owner/desk-server.ts), never on the public port. */
export function deskListen(): Listener {
  const { OWNER_PORT: port, OWNER_HOST: host } = settingsOf(['OWNER_PORT', 'OWNER_HOST']);
  return port === undefined ? undefined : { port, host };
}

/** Where the owner hears of new writes (src/server/notifications/): by email, by webhook, both or neither. */
export interface NotificationSettings {
  email: { smtpUrl: string; to: string; from: string; intervalSeconds: number } | undefined;
  webhookUrl: string | undefined;
}

/** SMTP_URL with NOTIFY_EMAIL_TO, NOTIFY_EMAIL_FROM and NOTIFY_EMAIL_SECONDS; NOTIFY_WEBHOOK_URL. */
export function notificationSettings(): NotificationSettings {
  const settings = settingsOf(['SMTP_URL', 'NOTIFY_EMAIL_TO', 'NOTIFY_EMAIL_FROM', 'NOTIFY_EMAIL_SECONDS', 'NOTIFY_WEBHOOK_URL']);
  const { SMTP_URL: smtpUrl, NOTIFY_EMAIL_TO: to } = settings;
  return {
    email:
      smtpUrl !== undefined && to !== undefined
        ? { smtpUrl, to, from: settings.NOTIFY_EMAIL_FROM ?? to, intervalSeconds: settings.NOTIFY_EMAIL_SECONDS }
        : undefined,
    webhookUrl: settings.NOTIFY_WEBHOOK_URL,
  };
}

/** The newsletter's settings when it is on (it then has SMTP_URL: RULES), else undefined. */
export function newsletterSettings(): { smtpUrl: string; from: string; perMinute: number } | undefined {
  const settings = settingsOf(['NEWSLETTER', 'SMTP_URL', 'NEWSLETTER_FROM', 'NEWSLETTER_RATE', 'NOTIFY_EMAIL_FROM', 'NOTIFY_EMAIL_TO']);
  const from = settings.NEWSLETTER_FROM ?? settings.NOTIFY_EMAIL_FROM ?? settings.NOTIFY_EMAIL_TO;
  if (settings.NEWSLETTER !== 'on' || settings.SMTP_URL === undefined || from === undefined) return undefined;
  return { smtpUrl: settings.SMTP_URL, from, perMinute: settings.NEWSLETTER_RATE };
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

/** A setting as the settings in effect show it: its text or default, a secret as set or not, a URL's password as `***`. */
function shown(name: SettingName): string {
  const { fallback, unset, secret }: Declaration = SETTINGS[name];
  const raw = textOf(name);
  if (raw !== undefined && secret === 'hidden') return 'set (hidden)';
  const text = raw ?? fallback;
  if (text === undefined) return unset === undefined ? 'unset' : `unset (${unset})`;
  return secret === 'password' ? maskedUrl(text) : text;
}

/**
 * The settings in effect, as start-up logs them: every variable of the
 * schema, secrets never shown, and what they come to (the store, the
 * captcha, the metrics and desk listeners). Throws, as settingsOf does,
 * when any setting is wrong.
 */
export function settingsInEffect(): Record<string, string> {
  const { DATABASE_URL: database, DATA_DIR: dataDir } = settingsOf(NAMES);
  const metrics = metricsListen();
  const desk = deskListen();
  return {
    ...Object.fromEntries(NAMES.map((name) => [name, shown(name)])),
    store: database === undefined ? `embedded in ${dataDir}` : maskedUrl(database),
    captcha: captchaSettings().provider ?? 'off',
    metrics: metrics ? `http://${metrics.host}:${metrics.port}/metrics` : 'off (METRICS_PORT unset)',
    desk: desk ? `http://${desk.host}:${desk.port}/` : 'off (OWNER_PORT unset)',
  };
}
