import { z } from 'zod';
import { LANGUAGE_CODES } from '../../i18n/languages.ts';
import { SLUG_PATTERN } from '../articles/source.ts';
import { citySearchResponse, cityResult } from '../cities/city-result.ts';
import { REFUSAL_CODES } from '../api-frame/refusals.ts';
import { MAX_COMMENT_DEPTH } from '../store/service.ts';
import { castVote, commentSystem, voteValue } from '../store/shapes.ts';

/**
 * The answers of the API, as zod schemas: /openapi.json is
 * generated from them, the contract tests check real answers against that
 * document, and the unit tests check that the routes' own types match them.
 */

const languageCode = z.enum(LANGUAGE_CODES);
const slug = z.string().regex(SLUG_PATTERN);

export const articleItem = z.object({
  slug,
  title: z.string(),
  date: z.iso.date(),
  excerpt: z.string(),
  readingTime: z.int().min(1),
  lang: languageCode,
  url: z.url(),
  outdated: z.boolean(),
});

export const articleList = z.object({
  site: z.url(),
  lang: languageCode,
  count: z.int().min(0),
  articles: z.array(articleItem),
});

export const article = articleItem.extend({ content: z.string() });

export const singleArticle = z.object({ site: z.url(), lang: languageCode, article });

/** GET /api/articles answers the list without `slug`, one article with it. */
export const articlesResponse = z.union([articleList, singleArticle]);

export const errorBody = z.object({ error: z.string() });

export const serverErrorBody = errorBody.extend({ requestId: z.uuid() });

/** A form's write refused by spam defence carries the refusal's `code` too (src/server/api-frame/refusals.ts). */
export const formErrorBody = errorBody.extend({ code: z.enum(REFUSAL_CODES).optional() });

const unknownApiPathBody = errorBody.extend({
  code: z.literal('not_found'),
  message: z.string(),
  hint: z.string(),
  documentation: z.url(),
  openapi: z.url(),
});

export const storedComment = z.object({
  id: z.string(),
  articleSlug: slug,
  parentId: z.string().nullable(),
  depth: z.int().min(1).max(MAX_COMMENT_DEPTH),
  author: z.string(),
  body: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
  score: z.int(),
  status: z.enum(['published', 'pending']),
  remote: z
    .object({ object: z.url(), actor: z.url(), profile: z.url() })
    .optional()
    .describe(
      'Only for a reply from the fediverse (ActivityPub): the remote post (`object`), the actor who wrote it, and the profile page readers are linked to. `author` then holds their display name and handle.',
    ),
  importedFrom: z
    .enum(commentSystem.options)
    .optional()
    .describe(
      'Only for a comment the owner imported from another comment system: which one. `author` then holds the name its author gave there, instead of a colour-and-animal name.',
    ),
  authorUrl: z
    .url()
    .optional()
    .describe(
      "The author's own page, where there is one: a fediverse reply's profile, or the website an imported comment's author gave. Absent for the site's own readers.",
    ),
});

const currentVote = voteValue;

export const voteResult = z.object({ score: z.int(), vote: currentVote });

export const viewerVotes = z.object({
  article: currentVote,
  comments: z.record(z.string(), castVote),
});

export const okResponse = z.object({ ok: z.literal(true), id: z.string() });

/** Ok, and where the new topic request stands: listed (`pending`) or waiting for the owner's approval (`waiting`, MODERATION). */
export const topicRequestOk = okResponse.extend({ status: z.enum(['pending', 'waiting']) });

export const identityDocument = z.object({
  identity_types_supported: z.tuple([z.literal('anonymous')]),
  authentication: z.literal('none'),
  documentation: z.url(),
});

/** The name of each response body in `components.schemas` of /openapi.json (the names are the API's own: kept as published). */
export const RESPONSE_NAMES = new Map<z.ZodType, string>([
  [articleItem, 'ArticleItem'],
  [articleList, 'ArticleList'],
  [article, 'Article'],
  [singleArticle, 'SingleArticle'],
  [articlesResponse, 'ArticlesAnswer'],
  [errorBody, 'Error'],
  [serverErrorBody, 'ServerError'],
  [formErrorBody, 'FormRefusal'],
  [unknownApiPathBody, 'UnknownApiPath'],
  [storedComment, 'Comment'],
  [voteResult, 'VoteResult'],
  [viewerVotes, 'ViewerVotes'],
  [okResponse, 'Ok'],
  [topicRequestOk, 'TopicRequestOk'],
  [cityResult, 'City'],
  [citySearchResponse, 'CitySearch'],
  [identityDocument, 'AgentIdentity'],
]);
