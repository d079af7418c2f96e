import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { z } from 'zod';
import type { Article, ArticleItem } from '../../src/server/articles/catalog.ts';
import type { City } from '../../src/server/cities/city-index.ts';
import type { CityMatch } from '../../src/server/cities/match.ts';
import type { PublicComment } from '../../src/server/store/service.ts';
import type { StoreEngine } from '../../src/server/store/roles.ts';
import type { ok } from '../../src/server/writes/schemas.ts';
import type { agentIdentity } from '../../src/server/discovery/agent-identity.ts';
import {
  article,
  articleItem,
  identityDocument,
  okResponse,
  storedComment,
  viewerVotes,
  voteResult,
} from '../../src/server/api/response-schemas.ts';
import { CHANGELOG } from '../../src/server/api/changelog.ts';
import { cityResult } from '../../src/server/cities/city-result.ts';
import type { OperationDefinition } from '../../src/server/api/definition.ts';
import { deprecationHeaders, deprecationProblem } from '../../src/server/http/deprecation.ts';
import { buildOpenApi, type OpenApiDocument } from '../../src/server/api/openapi.ts';
import { OPERATIONS, operationAt } from '../../src/server/api/registry.ts';
import { API_VERSION } from '../../src/server/api-frame/api-headers.ts';
import { withApiFrame } from '../../src/server/api-frame/frame.ts';
import { json, refusalResponse } from '../../src/server/api-frame/json-responses.ts';
import { refusal } from '../../src/server/api-frame/refusals.ts';

const SITE = 'https://longhand.test';

/** A definition that exists only here: an operation on its way out. */
const retiring: OperationDefinition = {
  ...(OPERATIONS[0] as OperationDefinition),
  operationId: 'getArticlesBeforeV2',
  path: '/api/retiring-articles',
  deprecation: { since: '2027-03-01', sunset: '2027-06-01' },
};

function operationsOf(document: OpenApiDocument) {
  return Object.values(document.paths).flatMap((methods) => Object.values(methods));
}

async function validate(document: OpenApiDocument): Promise<void> {
  const validator = new Validator();
  const result = await validator.validate(document as unknown as Record<string, unknown>);
  assert.equal(validator.version, '3.1');
  assert.ok(result.valid, JSON.stringify(result.errors, null, 2));
}

/** The specification's operation ids, written out by hand: what the registry must hold, whatever the code says. */
const SPEC_OPERATION_IDS = [
  'getArticles',
  'searchCities',
  'getAgentIdentity',
  'createTopicRequest',
  'createBugReport',
  'createComment',
  'getViewerVotes',
  'castVote',
  'createCitySubmission',
];

describe('/openapi.json', () => {
  const document = buildOpenApi(SITE, 'Longhand');

  test('is a valid OpenAPI 3.1 document', async () => {
    await validate(document);
  });

  test('has exactly the nine operations, each open and not deprecated', () => {
    const operations = operationsOf(document);
    assert.deepEqual(operations.map((operation) => operation.operationId).sort(), [...SPEC_OPERATION_IDS].sort());
    for (const operation of operations) {
      assert.deepEqual(operation.security, [], operation.operationId);
      assert.equal(operation.deprecated, false, operation.operationId);
    }
    assert.equal('securitySchemes' in document.components, false);
    assert.equal('security' in document, false);
  });

  test('info.version is API_VERSION, the version of the API-Version header', () => {
    assert.equal(document.info.version, API_VERSION);
    assert.deepEqual(document.servers, [{ url: SITE }]);
  });

  test('every parameter, body and answer has a schema and an example; every answer its headers', () => {
    for (const operation of operationsOf(document)) {
      const { operationId } = operation;
      for (const parameter of (operation.parameters ?? []) as {
        name: string;
        schema?: unknown;
        description?: string;
        example?: unknown;
      }[]) {
        assert.ok(parameter.schema && parameter.description && parameter.example !== undefined, `${operationId} ${parameter.name}`);
      }
      const body = operation.requestBody as { content: { 'application/json': { schema: unknown; example: unknown } } } | undefined;
      if (body) assert.ok(body.content['application/json'].schema && body.content['application/json'].example, operationId);
      for (const [status, response] of Object.entries(operation.responses)) {
        const where = `${operationId} ${status}`;
        for (const header of ['API-Version', 'RateLimit-Policy', 'Cache-Control'])
          assert.ok(response.headers[header], `${where} ${header}`);
        if (status === '429') assert.ok(response.headers['Retry-After'], where);
        if (Number(status) >= 500) assert.ok(response.headers['X-Request-Id'], where);
        if (status === '304') continue;
        const content = response.content?.['application/json'];
        assert.ok(content, where);
        assert.ok(content.schema.$ref.startsWith('#/components/schemas/'), where);
        assert.ok(Object.keys(content.examples).length > 0, where);
      }
    }
  });

  test('writes that spend a quota say so in their headers', () => {
    for (const operation of OPERATIONS.filter(({ quota }) => quota !== null)) {
      const responses = document.paths[operation.path]?.[operation.method.toLowerCase()]?.responses ?? {};
      for (const status of ['200', '429']) {
        for (const header of ['RateLimit', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) {
          assert.ok(responses[status]?.headers[header], `${operation.operationId} ${status} ${header}`);
        }
      }
    }
  });

  test('examples are written with the site’s own origin', () => {
    const text = JSON.stringify(document);
    assert.doesNotMatch(text, /longhand\.example/);
    assert.match(text, /https:\/\/longhand\.test\/articles\/writing-in-plain-text/);
  });
});

describe('the operation definitions', () => {
  test('describe every field of their schemas, and nothing else', () => {
    for (const operation of OPERATIONS) {
      const names = [...Object.keys(operation.query?.shape ?? {}), ...Object.keys(operation.body?.shape ?? {})].sort();
      assert.deepEqual(Object.keys(operation.fields).sort(), names, operation.operationId);
    }
  });

  test('every example is accepted by its schema', () => {
    for (const operation of OPERATIONS) {
      const request = operation.query ?? operation.body;
      if (request) assert.ok(request.safeParse(operation.requestExample).success, `${operation.operationId} request`);
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [name, example] of Object.entries(response.examples ?? {})) {
          const parsed = response.schema?.safeParse(example);
          assert.ok(parsed?.success, `${operation.operationId} ${status} ${name}: ${parsed?.error?.message ?? 'no schema'}`);
        }
      }
    }
  });

  test('the routes’ own types are the answer schemas’ types', () => {
    type Flat<T> = { [K in keyof T]: T[K] };
    // Identical types only, optional fields included; a mismatch fails `npm run typecheck`.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- comparing two such functions is the identity test
    type Same<A, B> = (<T>() => T extends Flat<A> ? 1 : 2) extends <T>() => T extends Flat<B> ? 1 : 2 ? true : false;
    const same: true[] = [
      true satisfies Same<z.output<typeof articleItem>, ArticleItem>,
      true satisfies Same<z.output<typeof article>, Article>,
      true satisfies Same<z.output<typeof storedComment>, PublicComment>,
      true satisfies Same<z.output<typeof voteResult>, NonNullable<Awaited<ReturnType<StoreEngine['applyVote']>>>>,
      true satisfies Same<z.output<typeof viewerVotes>, Awaited<ReturnType<StoreEngine['votesOf']>>>,
      true satisfies Same<z.output<typeof okResponse>, ReturnType<typeof ok>>,
      true satisfies Same<z.output<typeof cityResult>, City & Pick<CityMatch, 'match' | 'matchedName'>>,
      true satisfies Same<z.output<typeof identityDocument>, ReturnType<typeof agentIdentity>>,
    ];
    assert.equal(same.length, 8);
  });

  test('operationAt finds the operation of a request: HEAD as GET, a trailing slash ignored', () => {
    assert.equal(operationAt('GET', '/api/votes')?.operationId, 'getViewerVotes');
    assert.equal(operationAt('POST', '/api/votes')?.operationId, 'castVote');
    assert.equal(operationAt('HEAD', '/api/articles/')?.operationId, 'getArticles');
    assert.equal(operationAt('DELETE', '/api/votes'), undefined);
    assert.equal(operationAt('GET', '/api/nope'), undefined);
  });

  test('the change log starts with the live version', () => {
    assert.equal(CHANGELOG[0]?.version, API_VERSION);
    const dates = CHANGELOG.map((entry) => entry.date);
    assert.ok(dates.every((date) => /^\d{4}-\d{2}-\d{2}$/.test(date)));
    assert.deepEqual(dates, [...dates].sort().reverse(), 'newest first');
  });
});

describe('deprecating an operation', () => {
  test('a deprecated definition is marked deprecated, and its answers document Deprecation and Sunset', async () => {
    const document = buildOpenApi(SITE, 'Longhand', [...OPERATIONS, retiring]);
    await validate(document);
    const operation = document.paths['/api/retiring-articles']?.['get'];
    assert.ok(operation);
    assert.equal(operation.deprecated, true);
    for (const [status, { headers }] of Object.entries(operation.responses)) {
      assert.equal((headers['Deprecation'] as { example: string }).example, '@1803859200', status);
      assert.equal((headers['Sunset'] as { example: string }).example, 'Tue, 01 Jun 2027 00:00:00 GMT', status);
    }
    assert.equal(document.paths['/api/articles']?.['get']?.deprecated, false);
  });

  test('the API frame adds Deprecation (RFC 9745) and Sunset (RFC 8594) to its answers, errors included', async (t) => {
    t.mock.method(console, 'error', () => undefined);
    const answers = [
      await withApiFrame(() => Promise.resolve(json({ ok: true }, { cacheControl: 'no-store' })), retiring),
      await withApiFrame(() => Promise.resolve(refusalResponse(refusal('not_found', 'gone'))), retiring),
      await withApiFrame(() => Promise.reject(new Error('boom')), retiring),
    ];
    for (const answer of answers) {
      assert.equal(answer.headers.get('Deprecation'), '@1803859200', String(answer.status));
      assert.equal(answer.headers.get('Sunset'), 'Tue, 01 Jun 2027 00:00:00 GMT', String(answer.status));
      assert.equal(answer.headers.get('API-Version'), API_VERSION);
    }
    const current = await withApiFrame(
      () => Promise.resolve(json({ ok: true }, { cacheControl: 'no-store' })),
      operationAt('GET', '/api/articles'),
    );
    assert.equal(current.headers.get('Deprecation'), null);
    assert.equal(current.headers.get('Sunset'), null);
    assert.equal(operationAt('HEAD', '/api/retiring-articles', [retiring]), retiring);
  });

  test('the headers are a structured date and an HTTP-date, at least 90 days apart', () => {
    assert.deepEqual(deprecationHeaders({ since: '2027-01-01', sunset: '2027-04-01' }), {
      Deprecation: `@${Date.UTC(2027, 0, 1) / 1000}`,
      Sunset: 'Thu, 01 Apr 2027 00:00:00 GMT',
    });
    assert.equal(deprecationProblem({ since: '2027-01-01', sunset: '2027-04-01' }), null);
    assert.match(String(deprecationProblem({ since: '2027-01-01', sunset: '2027-03-01' })), /at least 90/);
    assert.match(String(deprecationProblem({ since: '2027-1-1', sunset: '2027-06-01' })), /calendar dates/);
    for (const { operationId, deprecation } of OPERATIONS) {
      if (deprecation) assert.equal(deprecationProblem(deprecation), null, operationId);
    }
  });
});
