import type { LanguageCode } from '../i18n/languages.ts';
import { publishedView } from './published.ts';
import { cardPath, type CardName, type CardText } from '../server/social/card-path.ts';
import { setting } from '../server/settings/environment.ts';
import { siteName } from './content.ts';

async function cardText(title: string, lang: LanguageCode): Promise<CardText> {
  return { title, lang, siteName: await siteName(), host: new URL(setting('SITE_URL')).host };
}

/** The path of an article translation's card. */
export async function articleCardPath(slug: string, title: string, lang: LanguageCode): Promise<string> {
  return cardPath({ kind: 'article', slug }, await cardText(title, lang));
}

/** The path of the site's card in `lang`, which every page that is not an article shows. */
export async function siteCardPath(lang: LanguageCode): Promise<string> {
  return cardPath({ kind: 'site' }, await cardText(await siteName(), lang));
}

/** What the card named shows: a published translation's title, or the site's name; null for no such card. */
export async function cardTextOf(name: CardName, lang: LanguageCode): Promise<CardText | null> {
  if (name.kind === 'site') return cardText(await siteName(), lang);
  const article = (await publishedView()).get(name.slug, lang);
  return article && article.lang === lang ? cardText(article.title, lang) : null;
}
