import type { JsonSchema } from './json-schema.ts';

/** Bounds zod writes for every integer: not a rule anyone needs to read. */
const SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

function members(schema: JsonSchema): JsonSchema[] {
  return Array.isArray(schema['anyOf']) ? (schema['anyOf'] as JsonSchema[]) : [];
}

/** The type of a value as people read it: `string`, `string or null`, `1 or -1`, `any`. */
export function typeOf(schema: JsonSchema): string {
  if ('const' in schema) return JSON.stringify(schema['const']);
  const anyOf = members(schema);
  if (anyOf.length > 0) return [...new Set(anyOf.map(typeOf))].join(' or ');
  if (Array.isArray(schema['enum'])) return (schema['enum'] as unknown[]).map((value) => JSON.stringify(value)).join(' or ');
  const type = schema['type'];
  if (Array.isArray(type)) return type.join(' or ');
  return typeof type === 'string' ? type : 'any';
}

function lengthRule(min: unknown, max: unknown): string | null {
  if (typeof min === 'number' && typeof max === 'number') return `${min}–${max} characters`;
  if (typeof max === 'number') return `at most ${max} characters`;
  if (typeof min === 'number' && min > 0) return `at least ${min} characters`;
  return null;
}

function numberRules(schema: JsonSchema): string[] {
  const rules: string[] = [];
  const bound = (keyword: string, symbol: string) => {
    const value = schema[keyword];
    if (typeof value === 'number' && Math.abs(value) !== SAFE_INTEGER) rules.push(`${symbol} ${value}`);
  };
  bound('exclusiveMinimum', '>');
  bound('minimum', '≥');
  bound('exclusiveMaximum', '<');
  bound('maximum', '≤');
  return rules;
}

/** The rules a value must follow, from its schema: lengths, bounds, pattern, format. */
export function rulesOf(schema: JsonSchema): string[] {
  const anyOf = members(schema).filter((member) => member['type'] !== 'null');
  if (anyOf.length === 1 && anyOf[0]) return rulesOf(anyOf[0]);
  const rules: string[] = [];
  const length = lengthRule(schema['minLength'], schema['maxLength']);
  if (length) rules.push(length);
  rules.push(...numberRules(schema));
  if (typeof schema['pattern'] === 'string') rules.push(`matches \`${schema['pattern']}\``);
  if (typeof schema['format'] === 'string') rules.push(`format ${schema['format']}`);
  return rules;
}
