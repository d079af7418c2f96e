import {
  captchaSettings,
  configuredSalt,
  dataDir,
  redisUrl,
  siteUrl,
  trustedProxies,
  type CaptchaSettings,
} from '../settings/environment.ts';
import { loadSalt } from '../identity/reader-hash.ts';
import { memoryQuotas, redisQuotas, type Quotas } from '../quotas/quotas.ts';
import { openStore } from '../store/open.ts';
import type { StoreEngine } from '../store/types.ts';

/** What a request needs from the process, opened once: settings, salt, quotas and store. */
export interface Runtime {
  site: string;
  salt: string;
  trustedProxies: number;
  captcha: CaptchaSettings;
  quotas: Quotas;
  store: StoreEngine;
}

let opening: Promise<Runtime> | undefined;

/**
 * Opens the store, the salt and the quotas from the settings (docs/decisions.md,
 * "Settings"). The server calls it before it listens, so a corrupt store or a
 * bad setting stops start-up with its message instead of failing a request.
 */
export function runtime(): Promise<Runtime> {
  opening ??= (async () => {
    const dir = dataDir();
    const url = redisUrl();
    const [salt, store] = await Promise.all([loadSalt(configuredSalt(), dir), openStore({ dataDir: dir })]);
    return {
      site: siteUrl(),
      salt,
      trustedProxies: trustedProxies(),
      captcha: captchaSettings(),
      quotas: url ? redisQuotas(url) : memoryQuotas(),
      store,
    };
  })();
  return opening;
}

/** Flushes the store and lets go of Redis, for a clean stop. */
export async function closeRuntime(): Promise<void> {
  const opened = await opening?.catch(() => undefined);
  if (opened) await Promise.all([opened.store.close(), opened.quotas.close()]);
}
