import {
  captchaSettings,
  notificationSettings,
  settingsOf,
  type CaptchaSettings,
  type NotificationSettings,
} from '../settings/environment.ts';
import type { KeyObject } from 'node:crypto';
import { proxyTrust, type ProxyTrust } from '../identity/client-address.ts';
import { log } from '../observability/log.ts';
import { newSalt } from '../identity/reader-hash.ts';
import { signingKey } from '../identity/signing.ts';
import { memoryQuotas, type Quotas } from '../quotas/quotas.ts';
import { openStore } from '../store/open.ts';
import type { ModerationMode } from '../store/service.ts';
import type { StoreEngine } from '../store/roles.ts';
import type { NotificationChannel } from '../store/types.ts';

/** What a request needs from the process, opened once: settings, salt, quotas and store. */
export interface Runtime {
  site: string;
  salt: string;
  trustedProxies: ProxyTrust;
  captcha: CaptchaSettings;
  /** The keys of what the site signs for itself, derived once from the salt (src/server/identity/signing.ts). */
  keys: SigningKeys;
  /** FORM_MIN_SECONDS: the least time between a form's stamp and its write. */
  formMinSeconds: number;
  quotas: Quotas;
  store: StoreEngine;
  /** Which new comments wait for the owner's approval (MODERATION). */
  moderation: ModerationMode;
}

export interface SigningKeys {
  formStamp: KeyObject;
  /** ALTCHA's: the challenges' signature, and the signature of the key that solves each. */
  captchaChallenge: KeyObject;
  captchaSolution: KeyObject;
  /** The owner's one-click moderation links (src/server/owner/moderation-links.ts). */
  moderationLink: KeyObject;
  /** A subscriber's confirmation and unsubscribe links (src/server/newsletter/links.ts). */
  newsletterConfirm: KeyObject;
  newsletterUnsubscribe: KeyObject;
}

/** Every signing key of the site, from its salt. */
export function signingKeys(salt: string): SigningKeys {
  return {
    formStamp: signingKey(salt, 'form-stamp'),
    captchaChallenge: signingKey(salt, 'captcha-challenge'),
    captchaSolution: signingKey(salt, 'captcha-solution'),
    moderationLink: signingKey(salt, 'moderation-link'),
    newsletterConfirm: signingKey(salt, 'newsletter-confirm'),
    newsletterUnsubscribe: signingKey(salt, 'newsletter-unsubscribe'),
  };
}

let opening: Promise<Runtime> | undefined;

/**
 * Opens the store, the salt and the quotas from the settings (README.md,
 * "Settings"). The server calls it before it listens, so a corrupt store or a
 * bad setting stops start-up with its message instead of failing a request.
 */
export function runtime(): Promise<Runtime> {
  opening ??= (async () => {
    const settings = settingsOf([
      'REDIS_URL',
      'MODERATION',
      'DATA_DIR',
      'DATABASE_URL',
      'IP_HASH_SALT',
      'SITE_URL',
      'TRUST_PROXY',
      'FORM_MIN_SECONDS',
    ]);
    const url = settings.REDIS_URL;
    const store = await openStore({
      dataDir: settings.DATA_DIR,
      databaseUrl: settings.DATABASE_URL,
      notificationChannels: channelsOf(notificationSettings()),
    });
    // Kept with the store, so that every instance sharing it names a reader alike and signs alike.
    const salt = settings.IP_HASH_SALT ?? (await store.keptSalt(newSalt));
    return {
      site: settings.SITE_URL,
      salt,
      trustedProxies: proxyTrustOf(settings.TRUST_PROXY),
      captcha: captchaSettings(),
      keys: signingKeys(salt),
      formMinSeconds: settings.FORM_MIN_SECONDS,
      // The Redis client is loaded only for a site that uses it.
      quotas: url ? (await import('../quotas/redis-quotas.ts')).redisQuotas(url) : memoryQuotas(),
      store,
      moderation: settings.MODERATION,
    };
  })();
  return opening;
}

/** The channels new records are put in the outbox for: those the settings set up. */
function channelsOf({ email, webhookUrl }: NotificationSettings): NotificationChannel[] {
  return [...(email ? (['email'] as const) : []), ...(webhookUrl ? (['webhook'] as const) : [])];
}

/** The trust TRUST_PROXY names; a count alone is believed from any peer, which start-up says. */
function proxyTrustOf(setting: number | string[]): ProxyTrust {
  if (typeof setting === 'number' && setting > 0)
    log().warn(
      `[settings] TRUST_PROXY=${setting} reads X-Forwarded-For from any peer: whoever reaches this server directly can claim any reader's address. ` +
        "Give the proxies' own addresses instead (TRUST_PROXY=127.0.0.1, or CIDR ranges, comma-separated).",
    );
  return proxyTrust(setting);
}

/** Flushes the store and lets go of Redis, for a clean stop. */
export async function closeRuntime(): Promise<void> {
  const opened = await opening?.catch(() => undefined);
  if (opened) await Promise.all([opened.store.close(), opened.quotas.close()]);
}
