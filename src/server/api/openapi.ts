import { z } from 'zod';
import { API_VERSION } from '../api-frame/api-headers.ts';
import { CACHE_CONTROL } from '../http/cache-rules.ts';
import { RESPONSE_NAMES } from './response-schemas.ts';
import { exampleFor, type OperationDefinition, type ResponseDefinition } from './definition.ts';
import { deprecationHeaders } from '../http/deprecation.ts';
import { requestSchemaOf, type JsonSchema } from './json-schema.ts';
import { operationFacts } from './operation-facts.ts';
import { OPERATIONS } from './registry.ts';
import { FRAME_HEADERS, RESPONSE_HEADERS, type ResponseHeaderName } from './response-headers.ts';

/** The parts of an OpenAPI 3.1 document this API uses. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; summary: string; description: string };
  servers: { url: string }[];
  externalDocs: { description: string; url: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema>; headers: Record<string, unknown> };
}

interface OpenApiOperation {
  operationId: string;
  summary: string;
  description: string;
  deprecated: boolean;
  security: [];
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, OpenApiResponse>;
}

interface OpenApiResponse {
  description: string;
  headers: Record<string, unknown>;
  content?: { 'application/json': { schema: { $ref: string }; examples: Record<string, { value: unknown }> } };
}

const SCHEMA_REF = '#/components/schemas/';
const HEADER_REF = '#/components/headers/';

/** Every response schema as a component, each referring to the others by `$ref`: what the server sends (`io: 'output'`). */
function responseComponents(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of RESPONSE_NAMES) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { io: 'output', uri: (id) => `${SCHEMA_REF}${id}` });
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _dialect, $id: _id, ...json }]) => [id, json as JsonSchema]));
}

function responseRef(schema: z.ZodType, operationId: string): { $ref: string } {
  const name = RESPONSE_NAMES.get(schema);
  if (!name) throw new Error(`${operationId}: every answer schema must be named in RESPONSE_NAMES (src/server/api/answers.ts)`);
  return { $ref: `${SCHEMA_REF}${name}` };
}

/** Each property of an object schema with its meaning from the definition's `fields`. */
function withFieldDescriptions(schema: JsonSchema, fields: OperationDefinition['fields']): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([name, property]) => {
      const description = fields[name];
      return [name, description === undefined ? property : { ...property, description }];
    }),
  );
  return { ...schema, properties };
}

function parametersOf(operation: OperationDefinition): unknown[] {
  if (!operation.query) return [];
  const schema = withFieldDescriptions(requestSchemaOf(operation.query), operation.fields);
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, { description, ...property }]) => ({
    name,
    in: 'query',
    required: required.has(name),
    ...(description === undefined ? {} : { description }),
    schema: property,
    ...(operation.requestExample?.[name] === undefined ? {} : { example: operation.requestExample[name] }),
  }));
}

function requestBodyOf(operation: OperationDefinition, site: string): unknown {
  if (!operation.body) return undefined;
  return {
    required: true,
    content: {
      'application/json': {
        schema: withFieldDescriptions(requestSchemaOf(operation.body), operation.fields),
        ...(operation.requestExample ? { example: exampleFor(operation.requestExample, site) } : {}),
      },
    },
  };
}

function responseHeaders(operation: OperationDefinition, status: number, response: ResponseDefinition): Record<string, unknown> {
  const cacheControl = response.cacheControl ?? (status < 400 ? operation.cacheControl : CACHE_CONTROL.error);
  const headers: Record<string, unknown> = { 'Cache-Control': { ...RESPONSE_HEADERS['Cache-Control'], example: cacheControl } };
  const names: readonly ResponseHeaderName[] = [...FRAME_HEADERS, ...(response.headers ?? [])];
  for (const name of names) headers[name] = { $ref: `${HEADER_REF}${name}` };
  if (operation.deprecation) {
    for (const [name, value] of Object.entries(deprecationHeaders(operation.deprecation))) {
      headers[name] = { ...RESPONSE_HEADERS[name as ResponseHeaderName], example: value };
    }
  }
  return headers;
}

function responseOf(operation: OperationDefinition, status: number, response: ResponseDefinition, site: string): OpenApiResponse {
  const headers = responseHeaders(operation, status, response);
  if (!response.schema) return { description: response.description, headers };
  const examples = Object.fromEntries(
    Object.entries(response.examples ?? {}).map(([name, value]) => [name, { value: exampleFor(value, site) }]),
  );
  return {
    description: response.description,
    headers,
    content: { 'application/json': { schema: responseRef(response.schema, operation.operationId), examples } },
  };
}

function operationObject(operation: OperationDefinition, site: string): OpenApiOperation {
  const parameters = parametersOf(operation);
  const requestBody = requestBodyOf(operation, site);
  const facts = operationFacts(operation).map((fact) => `- ${fact}`);
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: [operation.description, facts.join('\n')].join('\n\n'),
    deprecated: operation.deprecation !== undefined,
    security: [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody === undefined ? {} : { requestBody }),
    responses: Object.fromEntries(
      Object.entries(operation.responses).map(([status, response]) => [status, responseOf(operation, Number(status), response, site)]),
    ),
  };
}

/** What /openapi.json says of the API after its opening sentence, which names the site. */
const DESCRIPTION = `

- No authentication: no account, key, token or cookie; every operation has an empty security requirement. The only identity type is \`anonymous\`; readers are told apart by a salted hash of their address.
- Reads are free and cached. Writes are same-origin browser requests from the site's own forms: \`Origin\` must be the site's origin, \`Content-Type\` \`application/json\`, the body at most 16 KiB; they are rate-limited per reader and may need a captcha token.
- Every answer carries \`API-Version\` and \`RateLimit-Policy\`; every error is JSON \`{ "error": "…" }\`, and a 5xx adds \`requestId\`, equal to the \`X-Request-Id\` header. An unknown \`/api\` path answers 404 with the UnknownApiPath body.
- Versioning: semantic; paths carry no version. A breaking change ships under \`/api/v2/…\`; the operation it replaces is first marked deprecated here and answers with \`Deprecation\` and \`Sunset\` headers for at least 90 days.`;

/**
 * /openapi.json: OpenAPI 3.1, generated from the operation definitions and
 * the zod schemas the routes validate with, so the document cannot describe
 * another API than the one that runs. `name` is the site's (siteName).
 */
export function buildOpenApi(site: string, name: string, operations: readonly OperationDefinition[] = OPERATIONS): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const operation of operations) {
    paths[operation.path] = { ...paths[operation.path], [operation.method.toLowerCase()]: operationObject(operation, site) };
  }
  return {
    openapi: '3.1.1',
    info: {
      title: `${name} API`,
      version: API_VERSION,
      summary: 'Articles in fifteen languages, city search, and reader comments, votes and submissions.',
      description: `The public JSON API of ${name}, a personal publication in fifteen languages.${DESCRIPTION}`,
    },
    servers: [{ url: site }],
    externalDocs: { description: 'Developer documentation and change log', url: `${site}/developers` },
    paths,
    components: {
      schemas: responseComponents(),
      headers: RESPONSE_HEADERS,
    },
  };
}
