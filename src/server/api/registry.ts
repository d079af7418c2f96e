import { serveArticles, articlesQuery } from '../articles/articles-response.ts';
import { serveCitySearch } from '../cities/city-search-response.ts';
import { citySearchResponse } from '../cities/city-result.ts';
import { citySearchQuery } from '../cities/query.ts';
import { agentIdentity } from '../discovery/agent-identity.ts';
import { CACHE_CONTROL } from '../http/cache-rules.ts';
import { cacheableJson } from '../api-frame/json-responses.ts';
import { servedMethod } from '../http/node-web.ts';
import { withoutTrailingSlashes } from '../http/site-paths.ts';
import { viewerVotesHandler, viewerVotesQuery } from './viewer-votes.ts';
import { prepareBugReport, prepareCitySubmission, prepareComment, prepareTopicRequest, prepareVote } from '../writes/reader-writes.ts';
import { bugReportInput, citySubmissionInput, commentInput, topicRequestInput, voteInput } from '../writes/schemas.ts';
import {
  articlesResponse,
  identityDocument,
  okResponse,
  storedComment,
  topicRequestOk,
  viewerVotes,
  voteResult,
} from './response-schemas.ts';
import type { OperationDefinition } from './definition.ts';
import { writeOperation } from './write-operation.ts';
import {
  AGENT_IDENTITY,
  ARTICLE_LIST,
  CITY_SEARCH,
  CITY_SEARCH_BY_ALTERNATE_NAME,
  COMMENT,
  OK,
  TOPIC_REQUEST_OK,
  WAITING_TOPIC_REQUEST_OK,
  PENDING_COMMENT,
  REPLY,
  SINGLE_ARTICLE,
  ZURICH_SUBMISSION,
} from './examples.ts';
import { formRefusal, NOT_MODIFIED, READ_FAILURE, refusal, writeRefusals, written } from './shared-responses.ts';
import { MAX_LINKS_PER_COMMENT } from '../spam/comment-text.ts';
import { FORM_PATHS } from '../http/site-paths.ts';
import { MIN_POPULATION_TEXT } from '../cities/min-population.ts';
import { COMMENT_BURST_BAN } from '../quotas/limits.ts';
import { MAX_COMMENT_DEPTH } from '../store/service.ts';

/** The fields every form of the site sends besides its own (src/server/spam/form-verdict.ts), each optional. */
const FORM_FIELDS = {
  captchaToken: `The captcha’s token, required where the captcha is on and ignored elsewhere: Turnstile’s, or ALTCHA’s payload (the base64 JSON of a challenge from GET ${FORM_PATHS.captchaChallenge} and its solution, as the ALTCHA widget makes it), good for one write. Missing: 400 with \`code\` \`captcha_missing\`; rejected, expired or used already: 400 with \`code\` \`captcha_rejected\`.`,
  formStamp: `The \`formStamp\` GET ${FORM_PATHS.stamp} answered when the site’s page showed the form. Optional: a write without it is taken as before. One this site did not sign answers 400 (\`code\` \`form_stamp\`), one sent a few seconds after it was made or sooner 400 (\`too_fast\`); one older than a day counts as absent.`,
  honeypot:
    'What the form’s hidden honeypot field holds, which a person leaves empty. Leave it out or empty: anything else answers 400 (`code` `honeypot`).',
};
export const PUBLISHED_SLUG = 'The slug of a published article.';

export const getArticles: OperationDefinition = {
  operationId: 'getArticles',
  method: 'GET',
  path: '/api/articles',
  summary: 'List the published articles, or read one',
  description:
    'Without `slug`: every published article, newest first, with its title and excerpt in `lang`; an article not translated into `lang` is listed in English (that item’s `lang` is `en` and its `url` the English page). With `slug`: that article with its Markdown body in `content`. `outdated` is true for a translation whose English original has changed since it was translated (its page says so and links the English text); it is false in English and wherever the English text is given. Drafts, future-dated articles and old versions (`slug.vN`) are never visible.',
  query: articlesQuery,
  fields: {
    slug: 'An article’s slug: answers that article with its Markdown. Omit it to list every published article.',
    lang: 'One of en, fr, es, pt, it, de, ru, ja, ko, zh, ar, he, hi, tr, kab; an unknown value answers in English. Default en.',
  },
  requestExample: { slug: 'writing-in-plain-text', lang: 'en' },
  responses: {
    200: {
      description: 'The list envelope (without `slug`) or the single-article envelope (with `slug`).',
      schema: articlesResponse,
      examples: { 'one article': SINGLE_ARTICLE, list: ARTICLE_LIST },
      headers: ['ETag'],
    },
    304: NOT_MODIFIED,
    404: refusal(
      'No published article has that slug: unknown, draft, future-dated, an old version (`slug.vN`), or not a slug at all.',
      'No published article has the slug "no-such-article"',
    ),
    500: READ_FAILURE,
  },
  quota: null,
  captcha: false,
  cacheControl: CACHE_CONTROL.articles,
  handle: async ({ request, services }) => serveArticles(request, await services.published(), services.site),
};

export const searchCities: OperationDefinition = {
  operationId: 'searchCities',
  method: 'GET',
  path: '/api/city-search',
  summary: 'Search cities by name (typeahead)',
  description: `Cities of ${MIN_POPULATION_TEXT} or more inhabitants (GeoNames), at most 8: whole-name matches first, then names starting with \`q\`, then names with a later word starting with it, then names containing it, each most populous first. When the main names match fewer than 8 cities, the list is filled with cities matching by the same rules on one of their other names (München, Мюнхен, 慕尼黑), given as \`matchedName\`. Only when nothing matches so, main names within a typo or two (\`match: fuzzy\`). Case, accents and vowel signs are ignored, in every script.`,
  query: citySearchQuery,
  fields: {
    q: 'A city’s name or part of it; case and accents ignored; cut to 80 characters; under 2 letters finds nothing.',
    country: 'An ISO 3166-1 alpha-2 code, in any case: only that country’s cities.',
    lang: 'The language of `countryName`: one of en, fr, es, pt, it, de, ru, ja, ko, zh, ar, he, hi, tr, kab; an unknown value answers in English. Default en. Kabyle names a country in French where it has no name of its own.',
  },
  requestExample: { q: 'zurich', country: 'CH', lang: 'en' },
  responses: {
    200: {
      description: 'The matching cities, best first.',
      schema: citySearchResponse,
      examples: { found: CITY_SEARCH, 'by another name, in German': CITY_SEARCH_BY_ALTERNATE_NAME },
      headers: ['ETag'],
    },
    304: NOT_MODIFIED,
    400: refusal('`country` is not a two-letter code.', 'country must be a two-letter ISO 3166-1 alpha-2 code, such as FR'),
    500: READ_FAILURE,
  },
  quota: null,
  captcha: false,
  cacheControl: CACHE_CONTROL.citySearch,
  handle: ({ request, services }) => serveCitySearch(request, services.cities()),
};

const getAgentIdentity: OperationDefinition = {
  operationId: 'getAgentIdentity',
  method: 'GET',
  path: '/api/agent/identity',
  summary: 'The identity types the API accepts',
  description: 'There is no authentication: `anonymous` is the only identity type, and no request carries a credential. See /auth.md.',
  fields: {},
  responses: {
    200: { description: 'The identity document.', schema: identityDocument, examples: { anonymous: AGENT_IDENTITY }, headers: ['ETag'] },
    304: NOT_MODIFIED,
    500: READ_FAILURE,
  },
  quota: null,
  captcha: false,
  cacheControl: CACHE_CONTROL.identity,
  handle: ({ request, services }) => cacheableJson(request, agentIdentity(services.site), CACHE_CONTROL.identity),
};

const createTopicRequest = writeOperation({
  operationId: 'createTopicRequest',
  method: 'POST',
  path: '/api/topic-requests',
  summary: 'Suggest an article topic',
  description:
    'Stored as pending and listed on the page /answers, newest first; under moderation it may wait for the owner’s approval first, seen by no one else until then.',
  body: topicRequestInput,
  fields: {
    requestTitle: 'The topic.',
    details: 'What the article should cover.',
    ...FORM_FIELDS,
  },
  requestExample: { requestTitle: 'Night trains in Europe', details: 'Which ones still run, and are they worth it?' },
  responses: {
    200: written('Stored: `status` says whether it is listed (`pending`) or waits for approval (`waiting`).', topicRequestOk, {
      stored: TOPIC_REQUEST_OK,
      'waiting for approval': WAITING_TOPIC_REQUEST_OK,
    }),
    400: formRefusal(
      `The body is not JSON, a field is invalid (the message names it), the title and details hold more than ${MAX_LINKS_PER_COMMENT} links (\`code\` \`too_many_links\`), or the captcha token, the form’s stamp or its honeypot refuses it (\`code\` says which).`,
      'requestTitle: Too small: expected string to have >=3 characters',
    ),
    ...writeRefusals('topic-requests', true),
  },
  quota: 'topic-requests',
  captcha: true,
  holdable: true,
  cacheControl: CACHE_CONTROL.write,
  prepare: prepareTopicRequest,
});

const createBugReport = writeOperation({
  operationId: 'createBugReport',
  method: 'POST',
  path: '/api/bug-reports',
  summary: 'Report a bug of the site',
  description: 'Stored for review and never shown publicly.',
  body: bugReportInput,
  fields: {
    description: 'What went wrong.',
    pagePath: 'The path of the page it happened on (`/articles/…`). Anything that is not a path of this site is dropped, not refused.',
    ...FORM_FIELDS,
  },
  requestExample: { description: 'The table overflows on a narrow screen.', pagePath: '/articles/the-price-of-a-beer' },
  responses: {
    200: written('Stored for review.', okResponse, { stored: OK }),
    400: formRefusal(
      'The body is not JSON, a field is invalid (the message names it), or the captcha token, the form’s stamp or its honeypot refuses it (`code` says which).',
      'description: Invalid input: expected string, received undefined',
    ),
    ...writeRefusals('bug-reports', true),
  },
  quota: 'bug-reports',
  captcha: true,
  cacheControl: CACHE_CONTROL.write,
  prepare: prepareBugReport,
});

const createComment = writeOperation({
  operationId: 'createComment',
  method: 'POST',
  path: '/api/comments',
  summary: 'Comment on an article, or reply to a comment',
  description: `Every translation of an article shares one thread. A reply names its parent, a comment of the same article; replies nest at most ${MAX_COMMENT_DEPTH} levels. The answer is the stored comment, signed with the reader’s colour-and-animal name. Its \`status\` is \`published\`, or \`pending\` where the site holds comments for the owner’s approval: a pending comment is shown to no one but its writer until it is approved (a reply to it, or a vote on it, is refused as for a comment that does not exist), and is gone if rejected. The ${COMMENT_BURST_BAN.comments}th comment from one reader within ${COMMENT_BURST_BAN.windowSeconds / 60} minutes is stored, and then every write from that reader answers 429 for ${COMMENT_BURST_BAN.banSeconds / 3600} hours.`,
  body: commentInput,
  fields: {
    articleSlug: PUBLISHED_SLUG,
    parentId: 'The id of the comment this replies to; absent or null for a top-level comment.',
    body: `The comment, in Markdown, kept and answered as typed; the site's pages render a safe subset of it (emphasis, strong, strikethrough, code, quotes, lists, http(s) and mailto links) and show raw HTML, images and headings as text. At most ${MAX_LINKS_PER_COMMENT} links (http(s) addresses, \`www.\` names, domain names), and not the same text as the reader’s previous comment (whatever its case and spacing).`,
    ...FORM_FIELDS,
  },
  requestExample: { articleSlug: 'the-price-of-a-beer', body: 'In Lisbon the beer is cheap, but so is the pay.' },
  responses: {
    200: written('The stored comment: `status` says whether it is published or waits for approval.', storedComment, {
      comment: COMMENT,
      reply: REPLY,
      'waiting for approval': PENDING_COMMENT,
    }),
    400: formRefusal(
      `The body is not JSON, a field is invalid, the parent is not a comment of this article, the reply would be a fifth level, the text holds more than ${MAX_LINKS_PER_COMMENT} links (\`code\` \`too_many_links\`) or repeats the reader’s previous comment (\`repeated_comment\`), or the captcha token, the form’s stamp or its honeypot refuses it (\`code\` says which).`,
      `parentId: replies nest at most ${MAX_COMMENT_DEPTH} levels`,
      { error: 'body: the same text as your previous comment; write something new', code: 'repeated_comment' },
    ),
    404: refusal('`articleSlug` is not a published article.', 'No published article has the slug "no-such-article"'),
    ...writeRefusals('comments', true),
  },
  quota: 'comments',
  captcha: true,
  cacheControl: CACHE_CONTROL.write,
  holdable: true,
  prepare: prepareComment,
});

const getViewerVotes: OperationDefinition = {
  operationId: 'getViewerVotes',
  method: 'GET',
  path: '/api/votes',
  summary: 'The caller’s own votes on an article and its comments',
  description:
    'The caller is known by the salted hash of the request’s address, the key votes are stored under: no token or cookie is read and no hash is returned. `comments` holds only the comments the caller voted on. Needs no Origin.',
  query: viewerVotesQuery,
  fields: { slug: PUBLISHED_SLUG },
  requestExample: { slug: 'the-price-of-a-beer' },
  responses: {
    200: {
      description: 'The caller’s votes: `1` up, `-1` down, `0` none.',
      schema: viewerVotes,
      examples: { voted: { article: 1, comments: { [COMMENT.id]: -1 } }, 'not voted': { article: 0, comments: {} } },
    },
    404: {
      ...refusal('`slug` is missing or not a published article.', 'slug: no published article has that slug'),
      cacheControl: CACHE_CONTROL.viewerVotes,
    },
    500: READ_FAILURE,
  },
  quota: null,
  captcha: false,
  cacheControl: CACHE_CONTROL.viewerVotes,
  handle: viewerVotesHandler,
};

const castVote = writeOperation({
  operationId: 'castVote',
  method: 'POST',
  path: '/api/votes',
  summary: 'Vote on an article or a comment (a toggle)',
  description:
    'Without `commentId` the vote is on the article. A reader has at most one vote per target: the same direction again removes it, the other direction switches it. Never needs a captcha.',
  body: voteInput,
  fields: {
    articleSlug: PUBLISHED_SLUG,
    commentId: 'A comment of that article; absent or null to vote on the article itself.',
    value: '`1` up or `-1` down.',
  },
  requestExample: { articleSlug: 'the-price-of-a-beer', value: 1 },
  responses: {
    200: written('The target’s new score (ups minus downs) and the caller’s vote now (`0`: none).', voteResult, {
      'voted up': { score: 3, vote: 1 },
      'vote removed': { score: 2, vote: 0 },
    }),
    400: refusal('The body is not JSON or a field is invalid.', 'value: value must be 1 (up) or -1 (down)'),
    404: refusal('The article is not published, or the comment does not exist on it.', 'commentId: no such comment on this article'),
    ...writeRefusals('votes', false),
  },
  quota: 'votes',
  captcha: false,
  cacheControl: CACHE_CONTROL.write,
  prepare: prepareVote,
});

const createCitySubmission = writeOperation({
  operationId: 'createCitySubmission',
  method: 'POST',
  path: '/api/city-submissions',
  summary: 'Send a city’s pay, rent and price of a beer',
  description:
    'Stored for review, never shown as sent. The city must be in the bundled dataset, in that country: by `cityId` (from the city search) when given, else by name. Its country name, region and coordinates come from the dataset, never from the body.',
  body: citySubmissionInput,
  fields: {
    city: 'The city’s name.',
    country: 'ISO 3166-1 alpha-2 code of its country, in any case.',
    cityId: 'The city’s `id` from GET /api/city-search; it alone decides when given.',
    currency: 'ISO 4217 code of the amounts, in any case.',
    netPay: 'A month’s net pay.',
    rent: 'A month’s rent of a one-bedroom flat; below `netPay`.',
    beerPrice: 'A 0.5 l beer in a bar.',
    ...FORM_FIELDS,
  },
  requestExample: ZURICH_SUBMISSION,
  responses: {
    200: written('Stored for review.', okResponse, { stored: OK }),
    400: formRefusal(
      'The body is not JSON, a field is invalid, the country or the city is unknown, the rent is not below the pay, or the captcha token, the form’s stamp or its honeypot refuses it (`code` says which).',
      'rent: must be below netPay',
    ),
    ...writeRefusals('city-submissions', true),
  },
  quota: 'city-submissions',
  captcha: true,
  cacheControl: CACHE_CONTROL.write,
  prepare: prepareCitySubmission,
});

/**
 * The API's operations, in the order /openapi.json and /developers list them: the one list that
 * dispatch, `405 Allow`, /openapi.json and /developers read.
 */
export const OPERATIONS: readonly OperationDefinition[] = [
  getArticles,
  searchCities,
  getAgentIdentity,
  createTopicRequest,
  createBugReport,
  createComment,
  getViewerVotes,
  castVote,
  createCitySubmission,
];

/** A request path as the registry names it: a trailing slash is ignored, as pages ignore it. */
function registryPath(pathname: string): string {
  return pathname.length > 1 ? withoutTrailingSlashes(pathname) : pathname;
}

/** The registry's operations by path, then method: found without a search or a closure, as every request is. */
const OPERATIONS_AT = new Map<string, Map<string, OperationDefinition>>();
for (const operation of OPERATIONS) {
  const methods = OPERATIONS_AT.get(operation.path) ?? new Map<string, OperationDefinition>();
  methods.set(operation.method, operation);
  OPERATIONS_AT.set(operation.path, methods);
}

/** The operation serving a request, if any: HEAD is served by GET. */
export function operationAt(
  method: string,
  pathname: string,
  operations: readonly OperationDefinition[] = OPERATIONS,
): OperationDefinition | undefined {
  const served = servedMethod(method);
  // A path with a trailing slash is rare: the search that ignores it is kept for it.
  if (operations === OPERATIONS && !pathname.endsWith('/')) return OPERATIONS_AT.get(pathname)?.get(served);
  const path = registryPath(pathname);
  return operations.find((operation) => operation.method === served && operation.path === path);
}

/** The id of the registry's operation serving a request (HEAD by GET), for logs and metrics; undefined for none. */
export function operationIdAt(method: string, pathname: string): string | undefined {
  return operationAt(method, pathname)?.operationId;
}

/** The methods a path is served with, for `Allow` (GET brings HEAD); empty for a path no operation serves. */
export function allowedMethods(pathname: string, operations: readonly OperationDefinition[] = OPERATIONS): string[] {
  const path = registryPath(pathname);
  return operations.filter((operation) => operation.path === path).flatMap(({ method }) => (method === 'GET' ? ['GET', 'HEAD'] : [method]));
}

const sortedQueryParameters = new WeakMap<OperationDefinition, readonly string[]>();

/** The query parameters the read at this path takes, sorted, from its operation's query schema: none for a path no read serves. */
export function readQueryParameters(pathname: string, operations: readonly OperationDefinition[] = OPERATIONS): readonly string[] {
  const operation = operationAt('GET', pathname, operations);
  if (!operation?.query) return [];
  let names = sortedQueryParameters.get(operation);
  if (!names) {
    names = Object.keys(operation.query.shape).sort();
    sortedQueryParameters.set(operation, names);
  }
  return names;
}
