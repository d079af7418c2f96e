import { z } from 'zod';
import { refusal, type Refusal } from '../api-frame/refusals.ts';
import { articleListBody, articlesQuery, unknownSlug } from '../articles/articles-response.ts';
import { ARTICLE_SEARCH_LIMIT, searchArticles } from '../articles/article-search.ts';
import { citySearchBody } from '../cities/city-search-response.ts';
import { citySearchQuery } from '../cities/query.ts';
import { topicRequest } from '../store/shapes.ts';
import { threadPage } from '../threads/thread-page.ts';
import type { ThreadComment } from '../threads/thread-views.ts';
import type { ApiServices } from '../api/definition.ts';
import { getArticles, PUBLISHED_SLUG, searchCities } from '../api/registry.ts';
import { articleItem, articleList, singleArticle, storedComment } from '../api/response-schemas.ts';
import { citySearchResponse } from '../cities/city-result.ts';

/**
 * The MCP server's tools (docs/architecture.md, "Agents"): reads only,
 * each answering what the API or the pages answer, from the same functions.
 * Their input and output schemas are the API's own zod schemas, with the
 * registry's words for the fields both share, so /openapi.json and the tool
 * list cannot drift apart.
 */

/** A tool's answer: its structured content, or the reason it has none (an `isError` result, not a protocol error). */
export type ToolOutcome<T> = { ok: T } | { refused: Refusal };

export interface ToolDefinition<Input extends z.ZodObject, Output extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: Input;
  output: Output;
  run(args: z.output<Input>, services: ApiServices): Promise<ToolOutcome<z.input<Output>>>;
}

/** `schema` with each field described as `fields` says. */
function described<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>, fields: Readonly<Record<string, string>>): z.ZodObject<Shape> {
  const shape = Object.fromEntries(
    Object.entries(schema.shape).map(([name, field]) => {
      const about = fields[name];
      return [name, about === undefined ? field : (field as z.ZodType).describe(about)];
    }),
  );
  return z.object(shape) as z.ZodObject<Shape>;
}

/** Keeps each definition's own types while the list holds them all. */
function tool<Input extends z.ZodObject, Output extends z.ZodObject>(
  definition: ToolDefinition<Input, Output>,
): ToolDefinition<Input, Output> {
  return definition;
}

const articleParameters = described(articlesQuery, getArticles.fields);
const slug = articleParameters.shape.slug.unwrap();
const lang = articleParameters.shape.lang;

const listArticles = tool({
  name: 'list_articles',
  title: 'List the articles',
  description:
    'Every published article, newest first, with its title, date, excerpt, reading time and page URL in `lang` (English where it is not translated; that item’s `lang` says so). Its Markdown is the URL with `.md` appended, or get_article.',
  input: z.object({ lang }),
  output: articleList,
  run: async ({ lang: code }, services) => ({ ok: articleListBody(await services.published(), code, services.site) }),
});

const getArticle = tool({
  name: 'get_article',
  title: 'Read an article',
  description:
    'One published article in `lang` (English where it is not translated): its Markdown in `content`, with its title, date and URL.',
  input: z.object({ slug: slug.describe(PUBLISHED_SLUG), lang }),
  output: singleArticle,
  run: async ({ slug: wanted, lang: code }, services) => {
    const article = await (await services.published()).read(wanted, code);
    return article ? { ok: { site: services.site, lang: code, article } } : { refused: refusal('not_found', unknownSlug(wanted)) };
  },
});

const searchArticlesTool = tool({
  name: 'search_articles',
  title: 'Search the articles',
  description: `The published articles of one language that hold every word of \`query\` (case, accents and vowel signs ignored), best first: a word in the title counts most, then in the excerpt, then each mention in the text. At most ${ARTICLE_SEARCH_LIMIT}.`,
  input: z.object({
    query: z.string().max(200).describe('Words to look for, in the language of `lang`.'),
    lang,
  }),
  output: z.object({ query: z.string(), lang: articleItem.shape.lang, count: z.int().min(0), articles: z.array(articleItem) }),
  run: async ({ query, lang: code }, services) => {
    const articles = await searchArticles(await services.published(), code, query);
    return { ok: { query, lang: code, count: articles.length, articles } };
  },
});

const searchCitiesTool = tool({
  name: 'search_cities',
  title: 'Search the cities',
  description: searchCities.description,
  input: described(citySearchQuery, searchCities.fields),
  output: citySearchResponse,
  run: async (args, services) => Promise.resolve({ ok: citySearchBody(services.cities(), args) }),
});

const threadComment = storedComment.extend({
  deleted: z.boolean().describe('Deleted by the owner: no author, text or score, its replies still under it.'),
});

/** A thread's comments in reading order: each comment, then its replies (oldest first) under it. */
function inReadingOrder(comments: readonly ThreadComment[]): z.input<typeof threadComment>[] {
  return comments.flatMap(({ replies, canReply: _canReply, ...comment }) => [comment, ...inReadingOrder(replies)]);
}

const getComments = tool({
  name: 'get_comments',
  title: 'Read an article’s comments',
  description:
    'One page of the comment thread every translation of an article shares: 30 top-level comments a page, newest first, each followed by its replies, oldest first (`depth` 2 to 4, `parentId` naming the comment answered).',
  input: z.object({
    slug: slug.describe(PUBLISHED_SLUG),
    page: z.int().min(1).default(1).describe('The page, from 1 (the newest comments); `nextPage` names the next one.'),
  }),
  output: z.object({
    slug: storedComment.shape.articleSlug,
    page: z.int().min(1),
    articleScore: z.int().describe('The article’s votes: ups minus downs.'),
    topLevelCount: z.int().min(0),
    nextPage: z.int().min(2).nullable(),
    comments: z.array(threadComment),
  }),
  run: async ({ slug: wanted, page }, services) => {
    if (!(await services.published()).has(wanted)) return { refused: refusal('not_found', unknownSlug(wanted)) };
    const thread = await threadPage((await services.runtime()).store, wanted, page);
    if (page > 1 && thread.comments.length === 0) return { refused: refusal('not_found', `The thread of "${wanted}" has no page ${page}`) };
    const { articleScore, topLevelCount, nextPage } = thread;
    return { ok: { slug: wanted, page, articleScore, topLevelCount, nextPage, comments: inReadingOrder(thread.comments) } };
  },
});

const publicTopicRequest = topicRequest.omit({ authorHash: true });

const listTopicRequests = tool({
  name: 'list_topic_requests',
  title: 'List the topic requests',
  description:
    'The article topics readers asked for, newest first, as the page /answers shows them: `pending`, `declined`, or `answered` with the article that answers it in `answerUrl`.',
  input: z.object({}),
  output: z.object({ count: z.int().min(0), topicRequests: z.array(publicTopicRequest) }),
  run: async (_args, services) => {
    const requests = await (await services.runtime()).store.listTopicRequests();
    const topicRequests = requests.map(({ authorHash: _authorHash, ...shown }) => shown);
    return { ok: { count: topicRequests.length, topicRequests } };
  },
});

/** Every tool, in the order the tool list gives them. */
export const TOOLS: readonly ToolDefinition<z.ZodObject, z.ZodObject>[] = [
  listArticles,
  getArticle,
  searchArticlesTool,
  searchCitiesTool,
  getComments,
  listTopicRequests,
];
