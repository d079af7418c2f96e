import type { z } from 'zod';
import { refusal, type Refusal } from '../api-frame/refusals.ts';
import { MAX_LINKS_PER_COMMENT, linkCount, sameText } from '../spam/comment-text.ts';
import { addComment, placeInThread, statusOfNewComment, statusOfNewTopicRequest, toggleVote, voteTargetExists } from '../store/service.ts';
import type { PrepareWrite } from './pipeline.ts';
import { findCity, knownCountryCodes } from '../cities/find-city.ts';
import { bugReportInput, citySubmissionInput, commentInput, ok, topicRequestInput, voteInput } from './schemas.ts';
import { MIN_POPULATION_TEXT } from '../cities/min-population.ts';

/**
 * Each reader write's own checks and store step. Its body schema, quota and
 * captcha rule are declared by its registry entry (src/server/api/registry.ts)
 * and nowhere else.
 */

const notPublished = (slug: string) => refusal('not_found', `No published article has the slug "${slug}"`);

/** The refusal of `what`'s text holding more than MAX_LINKS_PER_COMMENT links, naming its field; null when it holds few enough. */
function tooManyLinks(what: string, field: string, text: string): Refusal | null {
  const links = linkCount(text);
  return links > MAX_LINKS_PER_COMMENT
    ? refusal('too_many_links', `${field}: holds ${links} links; ${what} may hold at most ${MAX_LINKS_PER_COMMENT}`)
    : null;
}

/**
 * POST /api/comments: a comment or a reply, threaded under a parent on the
 * same article, published or waiting for approval (MODERATION), with at most
 * MAX_LINKS_PER_COMMENT links, and not the text of the reader's previous
 * comment again (the same text after another comment is taken:
 * docs/architecture.md, "Readers, quotas and spam defence").
 */
export const prepareComment: PrepareWrite<z.output<typeof commentInput>> = async (
  { articleSlug, parentId, body },
  { reader, runtime: { store, moderation }, held, isPublished },
) => {
  if (!isPublished(articleSlug)) return notPublished(articleSlug);
  const links = tooManyLinks('a comment', 'body', body);
  if (links) return links;
  const place = await placeInThread(store, articleSlug, parentId);
  if (!place.ok) return place.refusal;
  const previous = await store.latestCommentBy(reader.hash);
  if (previous && sameText(previous.body, body)) return refusal('repeated_comment');
  const status = held ? 'pending' : await statusOfNewComment(store, moderation, reader.hash);
  return () =>
    addComment(store, {
      articleSlug,
      parentId: parentId ?? null,
      depth: place.depth,
      author: reader.name,
      authorHash: reader.hash,
      body,
      status,
    });
};

/** POST /api/votes: the toggle on an article or one of its comments. */
export const prepareVote: PrepareWrite<z.output<typeof voteInput>> = async (
  { articleSlug, commentId, value },
  { reader, runtime: { store }, isPublished },
) => {
  if (!isPublished(articleSlug)) return notPublished(articleSlug);
  const target = { articleSlug, commentId: commentId ?? null };
  if (!(await voteTargetExists(store, target))) return refusal('not_found', 'commentId: no such comment on this article');
  return () => toggleVote(store, target, reader.hash, value);
};

/**
 * POST /api/topic-requests: stored as pending and listed on /answers, or,
 * under MODERATION, waiting for approval as a comment would; its title and
 * details together hold at most MAX_LINKS_PER_COMMENT links. The answer says
 * which (`status`).
 */
export const prepareTopicRequest: PrepareWrite<z.output<typeof topicRequestInput>> = async (
  { requestTitle, details },
  { reader, runtime: { store, moderation }, held },
) => {
  const links = tooManyLinks('a topic request', 'requestTitle', `${requestTitle}\n${details ?? ''}`);
  if (links) return links;
  const status = held ? 'waiting' : await statusOfNewTopicRequest(store, moderation, reader.hash);
  return async () => {
    const stored = await store.insertTopicRequest({ requestTitle, details: details ?? null, authorHash: reader.hash, status });
    return { ...ok(stored.id), status };
  };
};

/** POST /api/bug-reports: stored for review, never shown publicly. */
export const prepareBugReport: PrepareWrite<z.output<typeof bugReportInput>> = (
  { description, pagePath },
  { reader, runtime: { store } },
) => Promise.resolve(async () => ok((await store.insertBugReport({ description, pagePath, authorHash: reader.hash })).id));

/**
 * POST /api/city-submissions: a city from the bundled dataset, in that
 * country, with the reader's figures. Country name, region and coordinates
 * come from the dataset, never from the body.
 */
export const prepareCitySubmission: PrepareWrite<z.output<typeof citySubmissionInput>> = (
  { city, country, cityId, currency, netPay, rent, beerPrice },
  { reader, runtime: { store } },
) => {
  const code = country.toUpperCase();
  if (!knownCountryCodes().includes(code)) return Promise.resolve(refusal('invalid_input', `country: ${code} has no city in the dataset`));
  const found = findCity({ country: code, cityId, name: city });
  if (!found)
    return Promise.resolve(
      refusal('invalid_input', `city: no city of ${MIN_POPULATION_TEXT} or more inhabitants named "${city}" in ${code}`),
    );
  if (rent >= netPay) return Promise.resolve(refusal('invalid_input', 'rent: must be below netPay'));
  return Promise.resolve(async () => {
    const stored = await store.insertCitySubmission({
      cityId: found.id,
      city: found.name,
      country: found.country,
      countryName: found.countryName,
      region: found.region,
      lat: found.lat,
      lon: found.lon,
      currency,
      netPay,
      rent,
      beerPrice,
      authorHash: reader.hash,
    });
    return ok(stored.id);
  });
};
