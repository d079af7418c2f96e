import type { LanguageCode } from '../i18n/languages.ts';

/**
 * The fediverse handle of a language's actor, as a reader types it into a
 * fediverse client's search: `@<code>@<host>`, the host being SITE_URL's
 * with its port when it has one, as WebFinger finds the actor (contract
 * §8): `@fr@example.org`, `@en@127.0.0.1:4321`.
 */
export function fediverseHandle(lang: LanguageCode, site: string): string {
  return `@${lang}@${new URL(site).host}`;
}
