import { createHash } from 'node:crypto';
import { isLanguageCode, type LanguageCode } from '../../i18n/languages.ts';

/**
 * What a social card shows. Its version, a hash of this and of the drawing,
 * names the image in its URL, so that a changed title is a new URL: social
 * networks keep an image by its URL for weeks.
 */
export interface CardText {
  title: string;
  lang: LanguageCode;
  /** The site's name (src/site/content.ts `siteName`), shown under the title. */
  siteName: string;
  /** The site's host, shown beside its name. */
  host: string;
}

/** Raised whenever the drawing (src/server/social/draw-card.ts) changes, so that every card gets a new URL. */
const DRAWING = 1;

/** What a card path names: an article's card, or the site's, in a language. */
export type CardName = { kind: 'article'; slug: string } | { kind: 'site' };

export function cardVersion({ title, lang, siteName, host }: CardText): string {
  return createHash('sha256')
    .update(`${DRAWING}\u0000${lang}\u0000${siteName}\u0000${host}\u0000${title}`)
    .digest('base64url')
    .slice(0, 12);
}

/** `/cards/<lang>/articles/<slug>.<version>.png`, or `/cards/<lang>/site.<version>.png`. */
export function cardPath(name: CardName, text: CardText): string {
  const file = name.kind === 'article' ? `articles/${name.slug}` : 'site';
  return `/cards/${text.lang}/${file}.${cardVersion(text)}.png`;
}

const CARD_PATH = /^\/cards\/([a-z]{2,3})\/(?:articles\/([a-z0-9-]{1,200})|site)\.([\w-]{12})\.png$/;

/** A card path read back; null for anything else. */
export function parseCardPath(pathname: string): { name: CardName; lang: LanguageCode; version: string } | null {
  const match = CARD_PATH.exec(pathname);
  if (!match || !isLanguageCode(match[1])) return null;
  const [, , slug, version = ''] = match;
  return { name: slug === undefined ? { kind: 'site' } : { kind: 'article', slug }, lang: match[1], version };
}
