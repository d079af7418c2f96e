import { z } from 'zod';

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as zod writes it. */
export type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[] };

/** A request schema as JSON Schema: what a caller may send (`io: 'input'`), so that a transform shows what it accepts. */
export function requestSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: 'input' });
  return json as JsonSchema;
}
