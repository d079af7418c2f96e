import type { OperationDefinition } from '../server/api/definition.ts';
import { OPERATIONS } from '../server/api/registry.ts';

/**
 * WebMCP's declarative attributes of the site's forms, so that a browser's
 * agent can fill and send them in the reader's own browser: each form is the
 * tool of the write it sends, described with the registry's words (its
 * summary and description, each field's meaning), like /openapi.json.
 * Forms carry no `toolautosubmit`: a write in the reader's name is sent by
 * the reader's own click.
 */

function operation(operationId: string): OperationDefinition {
  const found = OPERATIONS.find((candidate) => candidate.operationId === operationId);
  if (!found) throw new Error(`No operation ${operationId}`);
  return found;
}

/** The id of the empty form every page has, which the honeypots belong to (FormChecks.astro): no tool's field. */
export const FORM_TRAPS = 'form-traps';

/** A form's `toolname` and `tooldescription`: the write's summary and description, and what the form adds. */
export function formTool(operationId: string, toolname: string, more = ''): { toolname: string; tooldescription: string } {
  const { summary, description } = operation(operationId);
  return { toolname, tooldescription: [`${summary}.`, description, more].filter(Boolean).join(' ') };
}

/** The `toolparamdescription` of each field of a form that sends `operationId`: what the registry says the field means. */
export function fieldTools(operationId: string): (field: string) => { toolparamdescription: string } {
  const { fields } = operation(operationId);
  return (field) => {
    const about = fields[field];
    if (about === undefined) throw new Error(`${operationId} has no field ${field}`);
    return { toolparamdescription: about };
  };
}
