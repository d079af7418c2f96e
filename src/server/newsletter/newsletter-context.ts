import type { Runtime } from '../runtime/runtime.ts';
import type { LinkKeys } from './links.ts';
import type { Mailer } from './mailer.ts';

/** What the newsletter's answers use: the runtime (store, keys, quotas, captcha), the mailer, the links' keys. */
export interface Newsletter {
  runtime: Runtime;
  mailer: Mailer;
  keys: LinkKeys;
  /** The site's name, as its emails and pages say it. */
  siteName: string;
}
