import { languageFromParam, type LanguageCode } from '../i18n/languages.ts';
import type { ArticleItem } from '../server/articles/catalog.ts';
import { commentHtml } from '../server/comment-markdown/comment-html.ts';
import { authorNameIn } from './comment-authors.ts';
import { publishedView } from './published.ts';
import { atomFeed, type AtomEntry } from '../server/discovery/atom.ts';
import { keptByRevision } from '../server/http/cache-rules.ts';
import { mediaTypeOf } from '../server/http/media-types.ts';
import { commentsFeedPath, homePath, threadFeedPath } from '../server/http/site-paths.ts';
import { runtime } from '../server/runtime/runtime.ts';
import { setting } from '../server/settings/environment.ts';
import type { PublicComment } from '../server/store/service.ts';
import { threadTopic, type RevisionTopic } from '../server/store/types.ts';
import { latestComments } from '../server/threads/latest-comments.ts';
import { siteName } from './content.ts';
import { siteCommentsTitle, threadTitle } from './format.ts';

/** A comment as a feed entry, in the feed's language: signed with the reader's name and rendered as the page shows them, read on its article page. */
function entryOf(comment: PublicComment, article: ArticleItem, lang: LanguageCode): AtomEntry {
  const author = authorNameIn(comment, lang);
  return {
    id: `${article.url}#comment-${comment.id}`,
    title: `${author} · ${article.title}`,
    updated: comment.createdAt,
    author,
    html: commentHtml(comment.body),
    url: `${article.url}#comment-${comment.id}`,
  };
}

/**
 * The feed of the newest comments of `articles` (published today, in `lang`)
 * under the revision of `topic`, kept by the front server as a thread is.
 * `since` dates a feed without comments yet.
 */
async function commentFeed(
  lang: LanguageCode,
  articles: readonly ArticleItem[],
  topic: RevisionTopic,
  feed: { title: string; path: string; pageUrl: string; since: string },
): Promise<Response> {
  const bySlug = new Map(articles.map((article) => [article.slug, article]));
  const { revision, comments } = await latestComments((await runtime()).store, topic, [...bySlug.keys()]);
  const entries = comments.flatMap((comment) => {
    const article = bySlug.get(comment.articleSlug);
    return article ? [entryOf(comment, article, lang)] : [];
  });
  const body = atomFeed({
    title: feed.title,
    lang,
    feedUrl: `${setting('SITE_URL')}${feed.path}`,
    pageUrl: feed.pageUrl,
    updated: entries[0]?.updated ?? `${feed.since}T00:00:00.000Z`,
    entries,
  });
  const response = new Response(body, { headers: { 'Content-Type': mediaTypeOf(feed.path) } });
  keptByRevision(response.headers, topic, revision);
  return response;
}

/** The feed of an article's comments, in the language of the path; null for an unknown language or an article not published today. */
export async function threadFeed(params: { lang?: string | undefined; slug?: string | undefined }): Promise<Response | null> {
  const lang = languageFromParam(params.lang);
  const article = lang === null ? null : (await publishedView()).get(params.slug ?? '', lang);
  if (lang === null || !article) return null;
  const path = threadFeedPath(article.slug, lang);
  return commentFeed(lang, [article], threadTopic(article.slug), {
    title: threadTitle(article.title, lang),
    path,
    pageUrl: article.url,
    since: article.date,
  });
}

/** The feed of every published article's comments, in the language of the path; null for an unknown language. */
export async function siteCommentFeed(params: { lang?: string | undefined }): Promise<Response | null> {
  const lang = languageFromParam(params.lang);
  if (lang === null) return null;
  const articles = (await publishedView()).list(lang);
  return commentFeed(lang, articles, 'threads', {
    title: siteCommentsTitle(await siteName(), lang),
    path: commentsFeedPath(lang),
    pageUrl: `${setting('SITE_URL')}${homePath(lang)}`,
    since: articles[0]?.date ?? '1970-01-01',
  });
}
