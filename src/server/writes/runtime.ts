import { captchaSettings, configuredSalt, dataDir, redisUrl, siteUrl, trustedProxies, type CaptchaSettings } from '../config.ts';
import { loadSalt } from '../identity/reader-hash.ts';
import { memoryQuotas, redisQuotas, type Quotas } from '../quotas/quotas.ts';
import { openEmbeddedStore } from '../store/embedded/engine.ts';
import type { StoreEngine } from '../store/types.ts';

/** What every write needs, opened once per process. */
export interface WriteRuntime {
  site: string;
  salt: string;
  trustedProxies: number;
  captcha: CaptchaSettings;
  quotas: Quotas;
  store: StoreEngine;
}

let opening: Promise<WriteRuntime> | undefined;

/**
 * Opens the store, the salt and the quotas from the settings (contract §2).
 * The server calls it before it listens, so a corrupt store or a bad setting
 * stops start-up with its message instead of failing the first write.
 */
export function writeRuntime(): Promise<WriteRuntime> {
  opening ??= (async () => {
    const dir = dataDir();
    const url = redisUrl();
    const [salt, store] = await Promise.all([loadSalt(configuredSalt(), dir), openEmbeddedStore(dir)]);
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
export async function closeWriteRuntime(): Promise<void> {
  const runtime = await opening?.catch(() => undefined);
  if (runtime) await Promise.all([runtime.store.close(), runtime.quotas.close()]);
}
