/**
 * The newsletter's part of appearances (src/server/appearances/): an
 * appearance queues one issue per confirmed subscriber it is for, in the
 * store, where the sender takes them at its rate. Queuing twice queues
 * nothing more (NewsletterStore.queueIssues), so an appearance handed again
 * after a crash sends nothing twice. Only a translation's first version is
 * news: its updates, its withdrawal and its coming back are sent to no one,
 * so that an address gets one email per article, ever.
 */
import { DEFAULT_LANGUAGE, LANGUAGE_CODES, type LanguageCode } from '../../i18n/languages.ts';
import type { Consumer } from '../appearances/watch.ts';
import type { Catalog } from '../articles/catalog.ts';
import { log } from '../observability/log.ts';
import type { NewsletterStore } from '../store/roles.ts';
import type { ArticleTranslation } from '../store/types.ts';

/**
 * The subscribers' languages an appearance is for: its own; and for the
 * English original, every language the article is not written in, whose
 * subscribers get the original with a line saying the translation is
 * missing. A translation added later by a redeploy is an appearance of its
 * own, sent to its language's subscribers then.
 */
export function languagesFor({ slug, lang }: ArticleTranslation, catalog: Catalog): LanguageCode[] {
  if (lang !== DEFAULT_LANGUAGE) return [lang];
  const written = catalog.languagesOf(slug);
  return LANGUAGE_CODES.filter((code) => code === DEFAULT_LANGUAGE || !written.includes(code));
}

export function newsletterConsumer(store: NewsletterStore, catalog: Catalog): Consumer {
  return {
    name: 'newsletter',
    take: async (appearance) => {
      if (appearance.version !== 1) return;
      const subscribers = await store.confirmedSubscribers(languagesFor(appearance, catalog));
      const queued = await store.queueIssues(
        appearance,
        subscribers.map((subscriber) => subscriber.id),
      );
      if (queued > 0) log().info(`[newsletter] ${queued} email(s) queued for an article translation`);
    },
  };
}
