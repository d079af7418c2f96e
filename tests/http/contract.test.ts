import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ZURICH_SUBMISSION } from '../../src/server/api/examples.ts';
import { request, type Answer } from '../support/http.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { get, newReaderAddress, post } from '../support/writes.ts';

/**
 * Contract tests: real answers of every operation, checked against the
 * /openapi.json the running site serves. A status, header, field or type
 * the document does not describe fails here.
 */

interface DocumentedResponse {
  headers: Record<string, { example?: unknown }>;
  content?: { 'application/json': { schema: object } };
}
interface Document {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, DocumentedResponse> }>>;
  components: { schemas: Record<string, object> };
}

const ARTICLE = 'the-price-of-a-beer';

let site: RunningSite;
let contract: Document;
const ajv = new Ajv2020({ allErrors: true });
addFormats(ajv);

before(async () => {
  site = await startSite(PREPARED_SITE, { TRUST_PROXY: '1' });
  const served = await request(`${site.url}/openapi.json`);
  assert.equal(served.status, 200);
  const validator = new Validator();
  const { valid, errors } = await validator.validate(served.json());
  assert.ok(valid, JSON.stringify(errors));
  // Every $ref replaced by what it names: each answer schema compiles on its own.
  contract = validator.resolveRefs() as unknown as Document;
});
after(async () => {
  await site.stop();
});

function documented(operationId: string): Record<string, DocumentedResponse> {
  for (const methods of Object.values(contract.paths)) {
    for (const operation of Object.values(methods)) if (operation.operationId === operationId) return operation.responses;
  }
  throw new Error(`/openapi.json has no operation ${operationId}`);
}

/** Checks one real answer against what the document says of its status: the status itself, its headers, its body. */
function assertMatches(operationId: string, answer: Answer, expectedStatus: number): void {
  const where = `${operationId} ${answer.status}`;
  assert.equal(answer.status, expectedStatus, `${where}: ${answer.text}`);
  const response = documented(operationId)[String(answer.status)];
  assert.ok(response, `${where}: the document lists no such status`);
  for (const name of Object.keys(response.headers)) {
    assert.ok(answer.headers[name.toLowerCase()] !== undefined, `${where}: header ${name} is documented but missing`);
  }
  assert.equal(answer.headers['cache-control'], response.headers['Cache-Control']?.example, `${where}: Cache-Control`);
  const schema = response.content?.['application/json'].schema;
  if (!schema) {
    assert.equal(answer.body.length, 0, `${where}: no body is documented`);
    return;
  }
  assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8', where);
  const validate = ajv.compile(schema);
  assert.ok(validate(answer.json()), `${where}: ${ajv.errorsText(validate.errors)}\n${answer.text}`);
}

describe('reads', () => {
  test('getArticles: the list, one article, 304 and 404', async () => {
    const list = await request(`${site.url}/api/articles?lang=fr`);
    assertMatches('getArticles', list, 200);
    assertMatches('getArticles', await request(`${site.url}/api/articles?slug=${ARTICLE}&lang=ar`), 200);
    assertMatches(
      'getArticles',
      await request(`${site.url}/api/articles?lang=fr`, { headers: { 'If-None-Match': String(list.headers['etag']) } }),
      304,
    );
    assertMatches('getArticles', await request(`${site.url}/api/articles?slug=next-century`), 404);
  });

  test('searchCities: matches, an empty list, 304 and 400', async () => {
    const found = await request(`${site.url}/api/city-search?q=zurich`);
    assertMatches('searchCities', found, 200);
    assert.ok(found.json<{ count: number }>().count > 0);
    assertMatches('searchCities', await request(`${site.url}/api/city-search?q=a`), 200);
    const byOtherName = await request(`${site.url}/api/city-search?q=m%C3%BCnchen&lang=de`);
    assertMatches('searchCities', byOtherName, 200);
    assert.ok(byOtherName.text.includes('"matchedName":"München"'));
    assertMatches(
      'searchCities',
      await request(`${site.url}/api/city-search?q=zurich`, { headers: { 'If-None-Match': String(found.headers['etag']) } }),
      304,
    );
    assertMatches('searchCities', await request(`${site.url}/api/city-search?q=paris&country=FRA`), 400);
  });

  test('getAgentIdentity: the document and 304', async () => {
    const identity = await request(`${site.url}/api/agent/identity`);
    assertMatches('getAgentIdentity', identity, 200);
    const again = await request(`${site.url}/api/agent/identity`, { headers: { 'If-None-Match': String(identity.headers['etag']) } });
    assertMatches('getAgentIdentity', again, 304);
  });

  test('an unknown /api path answers the UnknownApiPath body', async () => {
    const answer = await request(`${site.url}/api/no-such-operation`);
    assert.equal(answer.status, 404);
    const validate = ajv.compile(contract.components.schemas['UnknownApiPath'] ?? {});
    assert.ok(validate(answer.json()), ajv.errorsText(validate.errors));
  });
});

describe('writes', () => {
  test('createTopicRequest: 200, 400, and the refusals every write shares (403, 413, 415, 429)', async () => {
    const address = newReaderAddress();
    assertMatches('createTopicRequest', await post(site.url, '/api/topic-requests', { requestTitle: 'Night trains' }, address), 200);
    assertMatches('createTopicRequest', await post(site.url, '/api/topic-requests', { requestTitle: 'ab' }, address), 400);
    assertMatches(
      'createTopicRequest',
      await post(site.url, '/api/topic-requests', { requestTitle: 'Elsewhere' }, address, { Origin: 'https://elsewhere.example' }),
      403,
    );
    assertMatches('createTopicRequest', await post(site.url, '/api/topic-requests', { requestTitle: 'x'.repeat(17 * 1024) }, address), 413);
    assertMatches(
      'createTopicRequest',
      await post(site.url, '/api/topic-requests', 'requestTitle=Form', address, { 'Content-Type': 'application/x-www-form-urlencoded' }),
      415,
    );
    for (let i = 0; i < 4; i++) await post(site.url, '/api/topic-requests', { requestTitle: `Topic ${i}` }, address);
    assertMatches('createTopicRequest', await post(site.url, '/api/topic-requests', { requestTitle: 'One too many' }, address), 429);
  });

  test('createBugReport: 200 and 400', async () => {
    const address = newReaderAddress();
    const report = { description: 'The table overflows', pagePath: '/articles/the-price-of-a-beer' };
    assertMatches('createBugReport', await post(site.url, '/api/bug-reports', report, address), 200);
    assertMatches('createBugReport', await post(site.url, '/api/bug-reports', { pagePath: '/' }, address), 400);
  });

  test('createComment: a comment, a reply, 400 and 404', async () => {
    const address = newReaderAddress();
    const comment = await post(site.url, '/api/comments', { articleSlug: ARTICLE, body: 'A comment' }, address);
    assertMatches('createComment', comment, 200);
    const parentId = comment.json()['id'];
    assertMatches(
      'createComment',
      await post(site.url, '/api/comments', { articleSlug: ARTICLE, parentId, body: 'A reply' }, address),
      200,
    );
    assertMatches('createComment', await post(site.url, '/api/comments', { articleSlug: ARTICLE, body: '' }, address), 400);
    assertMatches('createComment', await post(site.url, '/api/comments', { articleSlug: 'draft-notes', body: 'Hidden' }, address), 404);
  });

  test('castVote and getViewerVotes: a vote, its removal, 400, 404, and the caller’s votes', async () => {
    const address = newReaderAddress();
    const comment = (await post(site.url, '/api/comments', { articleSlug: ARTICLE, body: 'Vote on me' }, address)).json();
    const voter = newReaderAddress();
    assertMatches('getViewerVotes', await get(site.url, `/api/votes?slug=${ARTICLE}`, voter), 200);
    assertMatches('castVote', await post(site.url, '/api/votes', { articleSlug: ARTICLE, value: 1 }, voter), 200);
    assertMatches('castVote', await post(site.url, '/api/votes', { articleSlug: ARTICLE, value: 1 }, voter), 200);
    assertMatches(
      'castVote',
      await post(site.url, '/api/votes', { articleSlug: ARTICLE, commentId: comment['id'], value: -1 }, voter),
      200,
    );
    assertMatches('castVote', await post(site.url, '/api/votes', { articleSlug: ARTICLE, value: 2 }, voter), 400);
    assertMatches('castVote', await post(site.url, '/api/votes', { articleSlug: ARTICLE, commentId: 'nope', value: 1 }, voter), 404);
    const mine = await get(site.url, `/api/votes?slug=${ARTICLE}`, voter);
    assertMatches('getViewerVotes', mine, 200);
    assert.deepEqual(mine.json(), { article: 0, comments: { [String(comment['id'])]: -1 } });
    assertMatches('getViewerVotes', await get(site.url, '/api/votes?slug=next-century', voter), 404);
  });

  test('createCitySubmission: 200 and 400', async () => {
    const address = newReaderAddress();
    assertMatches('createCitySubmission', await post(site.url, '/api/city-submissions', ZURICH_SUBMISSION, address), 200);
    const tooDear = { ...ZURICH_SUBMISSION, rent: 7000 };
    assertMatches('createCitySubmission', await post(site.url, '/api/city-submissions', tooDear, address), 400);
  });
});
