import { API_VERSION } from '../api-frame/api-headers.ts';
import { DISCOVERY_DOCUMENTS } from '../discovery/document-list.ts';
import { DOCUMENT_PATHS } from '../http/site-paths.ts';
import { CHANGELOG, type ChangelogEntry } from './changelog.ts';
import { exampleFor, type OperationDefinition } from './definition.ts';
import type { Deprecation } from '../http/deprecation.ts';
import { requestSchemaOf } from './json-schema.ts';
import { operationFacts } from './operation-facts.ts';
import { OPERATIONS } from './registry.ts';
import { FRAME_HEADERS, RESPONSE_HEADERS } from './response-headers.ts';
import { rulesOf, typeOf } from './schema-summary.ts';

/** A query parameter or a body field. */
export interface DocField {
  name: string;
  location: 'query' | 'body';
  required: boolean;
  type: string;
  rules: string[];
  description: string;
}

interface DocResponse {
  status: number;
  description: string;
  /** Headers of this response besides Cache-Control and those of every response. */
  headers: readonly string[];
}

export interface DocOperation {
  operationId: string;
  method: string;
  path: string;
  summary: string;
  /** Markdown. */
  description: string;
  /** Quota, captcha and cache, one sentence each (Markdown). */
  facts: string[];
  fields: DocField[];
  responses: DocResponse[];
  curl: string;
  /** The first example of the successful answer, as indented JSON. */
  responseExample: string | null;
  deprecation: Deprecation | null;
}

/** What /developers and /developers.md show. */
export interface DeveloperDocs {
  site: string;
  version: string;
  /** Paragraphs (inline Markdown). */
  introduction: string[];
  /** What every operation shares (inline Markdown). */
  commonRules: string[];
  operations: DocOperation[];
  /** The headers every `/api` answer carries. */
  frameHeaders: { name: string; description: string }[];
  documents: { url: string; path: string; about: string }[];
  changelog: readonly ChangelogEntry[];
}

function fieldsOf({ query, body, fields }: OperationDefinition): DocField[] {
  const sources = [
    { location: 'query' as const, schema: query },
    { location: 'body' as const, schema: body },
  ];
  return sources.flatMap(({ location, schema }) => {
    if (!schema) return [];
    const json = requestSchemaOf(schema);
    const required = new Set(json.required ?? []);
    return Object.entries(json.properties ?? {}).map(([name, property]) => ({
      name,
      location,
      required: required.has(name),
      type: typeOf(property),
      rules: rulesOf(property),
      description: fields[name] ?? '',
    }));
  });
}

/** A shell word in single quotes, as POSIX shells read it. */
function quoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The command that calls the operation with its example; a write is sent as the site's own form sends it. */
function curlOf({ method, path, requestExample = {} }: OperationDefinition, site: string): string {
  if (method === 'GET') {
    const query = new URLSearchParams(Object.entries(requestExample).map(([name, value]) => [name, String(value)])).toString();
    return `curl ${quoted(`${site}${path}${query ? `?${query}` : ''}`)}`;
  }
  return [
    `curl -X ${method} ${quoted(`${site}${path}`)}`,
    `  -H ${quoted(`Origin: ${site}`)}`,
    `  -H 'Content-Type: application/json'`,
    `  --data ${quoted(JSON.stringify(exampleFor(requestExample, site)))}`,
  ].join(' \\\n');
}

function responseExampleOf({ responses }: OperationDefinition, site: string): string | null {
  const first = Object.values(responses[200]?.examples ?? {})[0];
  return first === undefined ? null : JSON.stringify(exampleFor(first, site), null, 2);
}

function docOperation(operation: OperationDefinition, site: string): DocOperation {
  return {
    operationId: operation.operationId,
    method: operation.method,
    path: operation.path,
    summary: operation.summary,
    description: operation.description,
    facts: operationFacts(operation),
    fields: fieldsOf(operation),
    responses: Object.entries(operation.responses).map(([status, response]) => ({
      status: Number(status),
      description: response.description,
      headers: response.headers ?? [],
    })),
    curl: curlOf(operation, site),
    responseExample: responseExampleOf(operation, site),
    deprecation: operation.deprecation ?? null,
  };
}

function introduction(site: string): string[] {
  return [
    `A small public JSON API at \`${site}/api\`, version ${API_VERSION}. It needs no account, key, token or cookie: every operation is open, and \`anonymous\` is the only identity (see [${DOCUMENT_PATHS.auth}](${site}${DOCUMENT_PATHS.auth})). The machine-readable description is [${DOCUMENT_PATHS.openapi}](${site}${DOCUMENT_PATHS.openapi}), generated from the same definitions as this page.`,
    'Reads are free and cached. Writes come from the site’s own pages: they are same-origin browser requests, rate-limited per reader, and may need a captcha token.',
  ];
}

const COMMON_RULES = [
  'Bodies are JSON. Writes need `Origin` equal to the site’s origin (403 otherwise), `Content-Type: application/json` (415), a body of at most 16 KiB (413), JSON that parses and fields that validate (400, the message names the field). Unknown fields are ignored; strings are trimmed. Text fields refuse control characters other than newline and tab, lone surrogates, and text with nothing visible once zero-width and direction characters are set aside (400); a carriage return is read as a newline.',
  'Readers are anonymous and told apart by a salted hash of their address, never stored raw; an IPv6 reader is its /64. Quotas count per reader in sliding windows; a refused write spends none. A write that spent a quota answers `RateLimit`, `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`; a 429 adds `Retry-After` in seconds. When the quotas cannot be checked, writes answer 503.',
  'Every error is JSON `{ "error": "…" }`; a 5xx adds `requestId`, equal to the `X-Request-Id` header. An unknown `/api` path answers 404 with `code` (`not_found`), `message`, `hint`, `documentation` and `openapi`; a method a route does not serve answers 405 with `Allow`.',
  'Versioning is semantic and paths carry no version. An additive change raises the minor or patch number. A breaking change ships under `/api/v2/…`; the operation it replaces is first marked deprecated here and in /openapi.json, and answers with `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) headers for at least 90 days.',
];

/** The developer documentation, generated from the same operation definitions as /openapi.json. */
export function developerDocs(site: string, operations: readonly OperationDefinition[] = OPERATIONS): DeveloperDocs {
  return {
    site,
    version: API_VERSION,
    introduction: introduction(site),
    commonRules: COMMON_RULES,
    operations: operations.map((operation) => docOperation(operation, site)),
    frameHeaders: FRAME_HEADERS.map((name) => ({ name, description: RESPONSE_HEADERS[name].description })),
    documents: DISCOVERY_DOCUMENTS.map(({ path, about }) => ({ path, about, url: `${site}${path}` })),
    changelog: CHANGELOG,
  };
}
